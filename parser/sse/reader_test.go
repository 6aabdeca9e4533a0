package sse_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/sse"
)

// testdataStreams returns the recorded streams of ../../internal/samples by
// file name.
func testdataStreams(t testing.TB) map[string]string {
	t.Helper()
	names, err := filepath.Glob("../../internal/samples/*.sse")
	require.NoError(t, err)
	m := map[string]string{}
	for _, name := range names {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		m[filepath.Base(name)] = string(b)
	}
	return m
}

// readAll reads every frame from r with Next, continuing after oversized
// events, and records frames and errors like lexChunks.
func readAll(r *sse.Reader) []string {
	var out []string
	for {
		if r.Next() {
			out = append(out, record(r.Frame()))
			continue
		}
		err := r.Err()
		if err == nil {
			return out
		}
		out = append(out, errRecord(err))
		if !errors.Is(err, sse.ErrEventTooLarge) {
			return out
		}
	}
}

// TestReaderRules reads every lexer case through a Reader over readers
// that return data whole, one byte at a time, half the asked size, and the
// last data together with io.EOF: the result must be the Lexer's.
func TestReaderRules(t *testing.T) {
	readers := map[string]func(io.Reader) io.Reader{
		"whole":    func(r io.Reader) io.Reader { return r },
		"1-byte":   iotest.OneByteReader,
		"half":     iotest.HalfReader,
		"data+EOF": iotest.DataErrReader,
	}
	for _, tc := range lexCases {
		t.Run(tc.name, func(t *testing.T) {
			for how, wrap := range readers {
				r := sse.NewReader(wrap(strings.NewReader(tc.in)), &sse.Options{MaxEventSize: tc.max})
				got := readAll(r)
				assert.Empty(t, cmp.Diff(tc.want, got), "%s: (-want +got)", how)
				assert.Equal(t, tc.last, string(r.LastEventID()), "%s: LastEventID", how)
				assert.False(t, r.Next(), "%s: Next after the end returned a frame", how)
			}
		})
	}
}

func TestReaderAll(t *testing.T) {
	t.Run("clean end yields no error", func(t *testing.T) {
		r := sse.NewReader(strings.NewReader("data: a\n\ndata: b\n\n"), nil)
		var got []string
		for f, err := range r.All() {
			require.NoError(t, err)
			got = append(got, string(f.Data))
		}
		assert.Empty(t, cmp.Diff([]string{"a", "b"}, got), "(-want +got)")
	})
	t.Run("the error is yielded once, last, with a nil Frame", func(t *testing.T) {
		r := sse.NewReader(strings.NewReader("data: a\n\ndata: b"), nil)
		var frames []string
		var errs []error
		for f, err := range r.All() {
			if err != nil {
				assert.Nil(t, f, "a frame yielded with the error")
				errs = append(errs, err)
				continue
			}
			assert.Empty(t, errs, "frame %s yielded after the error", record(f))
			frames = append(frames, string(f.Data))
		}
		require.Len(t, errs, 1, "one error")
		assert.ErrorIs(t, errs[0], io.ErrUnexpectedEOF)
		assert.Empty(t, cmp.Diff([]string{"a"}, frames), "(-want +got)")
	})
	t.Run("an oversized event ends the iteration, Next continues", func(t *testing.T) {
		r := sse.NewReader(strings.NewReader("data: a\n\ndata: 0123456789\n\ndata: b\n\n"), &sse.Options{MaxEventSize: 10})
		n := 0
		var last error
		for _, err := range r.All() {
			n++
			last = err
		}
		require.Equal(t, 2, n, "a frame then ErrEventTooLarge")
		require.ErrorIs(t, last, sse.ErrEventTooLarge)
		require.True(t, r.Next(), "Next after the oversized event: %v", r.Err())
		assert.Equal(t, "b", string(r.Frame().Data))
	})
	t.Run("breaking out of the loop stops reading", func(t *testing.T) {
		r := sse.NewReader(strings.NewReader("data: a\n\ndata: b\n\n"), nil)
		for range r.All() {
			break
		}
		require.True(t, r.Next(), "the frame after the break is lost")
		assert.Equal(t, "b", string(r.Frame().Data))
	})
}

// emptyReader returns (0, nil) forever and counts the calls.
type emptyReader struct{ calls int }

func (r *emptyReader) Read([]byte) (int, error) { r.calls++; return 0, nil }

func TestReaderNoProgress(t *testing.T) {
	src := &emptyReader{}
	r := sse.NewReader(io.MultiReader(strings.NewReader("data: a\n\ndata: b\n"), src), nil)
	got := readAll(r)
	require.Len(t, got, 2, "frame a then an error")
	require.Equal(t, `@0 message id="" data="a"`, got[0])
	err := r.Err()
	var se *sse.SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, sse.SyntaxError{Position: sse.Position{Offset: 9, Seq: 1}, Size: 8, Err: io.ErrNoProgress}, *se, "io.ErrNoProgress at offset 9 with 8 bytes dropped")
	assert.Equal(t, sse.MaxEmptyReads, src.calls, "the empty reads")
	assert.False(t, r.Next(), "the error is not sticky")
	assert.Equal(t, err, r.Err(), "the error is not sticky")
}

func TestReaderReadError(t *testing.T) {
	boom := errors.New("connection reset")
	r := sse.NewReader(io.MultiReader(strings.NewReader("id: 1\ndata: a\n\nid: 2\ndata: b"), iotest.ErrReader(boom)), nil)
	require.True(t, r.Next(), "the frame before the error is lost")
	require.Equal(t, "a", string(r.Frame().Data))
	require.False(t, r.Next(), "a frame from the cut event")
	err := r.Err()
	var se *sse.SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, sse.SyntaxError{Position: sse.Position{Offset: 15, Seq: 1, ID: []byte("1")}, Size: 13, Err: boom}, *se, "the read error at offset 15, 13 bytes dropped, id 1")
	assert.Equal(t, "1", string(r.LastEventID()))
}

// badReader returns a count larger than its buffer.
type badReader struct{}

func (badReader) Read(p []byte) (int, error) { return len(p) + 1, nil }

func TestReaderInvalidCount(t *testing.T) {
	r := sse.NewReader(badReader{}, nil)
	assert.False(t, r.Next())
	assert.ErrorIs(t, r.Err(), sse.ErrInvalidRead)
}

// TestReaderMemoryBound reads a 1 MiB event and then a small one with
// MaxEventSize 64 KiB: the Reader reports the first, returns the second,
// and never holds more than the limit plus one read buffer.
func TestReaderMemoryBound(t *testing.T) {
	const limit = 64 << 10
	big := singleEvent(1<<20, "\n")
	for _, wrap := range []func(io.Reader) io.Reader{func(r io.Reader) io.Reader { return r }, iotest.HalfReader} {
		src := io.MultiReader(bytes.NewReader(big), strings.NewReader("data: small\n\n"))
		r := sse.NewReader(wrap(src), &sse.Options{MaxEventSize: limit})
		held := 0
		var got []string
		for {
			ok := r.Next()
			held = max(held, r.Lexer().HeldBytes())
			if ok {
				got = append(got, string(r.Frame().Data))
				continue
			}
			if r.Err() == nil {
				break
			}
			got = append(got, errRecord(r.Err()))
		}
		want := []string{fmt.Sprintf(`too-large @0 +%d id=""`, limit+1), "small"}
		assert.Empty(t, cmp.Diff(want, got), "(-want +got)")
		assert.LessOrEqual(t, held, limit+sse.ReadSize, "the bytes the Reader held: at most MaxEventSize plus one read buffer")
	}
}

func TestReaderReset(t *testing.T) {
	r := sse.NewReader(strings.NewReader("id: 1\ndata: a\n\ndata: cut"), nil)
	readAll(r)
	require.Error(t, r.Err(), "no error for the cut stream")
	r.Reset(strings.NewReader("data: b\n\n"), nil)
	require.NoError(t, r.Err(), "Reset kept the error")
	require.Empty(t, r.LastEventID(), "Reset kept the last event ID")
	require.Zero(t, r.InputOffset(), "Reset kept the offset")
	require.True(t, r.Next(), "after Reset")
	assert.Equal(t, `@0 message id="" data="b"`, record(r.Frame()))
	assert.False(t, r.Next())
	assert.NoError(t, r.Err())
}

// TestReaderResetOptions: Reset(src, opts) reads src as
// NewReader(src, opts) would, with opts in place of the Reader's options.
func TestReaderResetOptions(t *testing.T) {
	var log []string
	cases := resetCases(&log)
	r := sse.NewReader(strings.NewReader(resetInput), cases[len(cases)-1].opts)
	readAll(r)
	for i, c := range cases {
		log = nil
		want := readAll(sse.NewReader(strings.NewReader(resetInput), c.opts))
		log = nil
		r.Reset(strings.NewReader(resetInput), c.opts)
		got := readAll(r)
		require.Empty(t, cmp.Diff(want, got), "case %d: Reset(src, opts) against NewReader(src, opts) (-want +got)", i)
		require.Equal(t, c.tooLarge, strings.HasPrefix(got[0], "too-large"), "case %d: the first event is too large: %q", i, got)
		require.Equal(t, c.comments, log, "case %d: comments", i)
	}
}

// TestReaderTestdata reads every recorded stream: each ends cleanly, every
// frame carries an id (Corti sends one on each event) and is a JSON object
// with exactly one of the four A2A 1.0 payload keys, and the ids are
// strictly increasing in the file.
func TestReaderTestdata(t *testing.T) {
	streams := testdataStreams(t)
	require.GreaterOrEqual(t, len(streams), 4, "the streams in internal/samples")
	for name, in := range streams {
		t.Run(name, func(t *testing.T) {
			var comments int
			r := sse.NewReader(iotest.HalfReader(strings.NewReader(in)), &sse.Options{OnComment: func([]byte) { comments++ }})
			frames := 0
			for f, err := range r.All() {
				require.NoError(t, err, "after %d frames", frames)
				frames++
				assert.NotEmpty(t, f.ID, "frame %d has no id", f.Seq)
				assert.Equal(t, "message", string(f.Event), "frame %d's event type", f.Seq)
				n := 0
				for _, key := range []string{`{"task":`, `{"message":`, `{"statusUpdate":`, `{"artifactUpdate":`} {
					if bytes.HasPrefix(f.Data, []byte(key)) {
						n++
					}
				}
				assert.True(t, n == 1 && bytes.HasSuffix(f.Data, []byte("}")), "frame %d is not one A2A stream response: %.60s…", f.Seq, f.Data)
			}
			assert.True(t, frames >= 1 && frames <= 60, "%d frames, want 1 to 60", frames)
			assert.NotZero(t, comments, "no keep-alive comment")
		})
	}
}

// TestLexerFill checks Fill's own errors: a count outside the buffer, a
// full buffer, and a closed Lexer; the Reader tests above cover the frames
// it gives.
func TestLexerFill(t *testing.T) {
	lx := sse.NewLexer(&sse.Options{MaxEventSize: 8})
	n, err := lx.Fill(badReader{}, 4)
	assert.ErrorIs(t, err, sse.ErrInvalidRead, "Fill(badReader)")
	assert.Zero(t, n, "Fill(badReader)")
	n, err = lx.Fill(strings.NewReader("data: 0123456789"), 64)
	require.NoError(t, err)
	require.Equal(t, 16, n)
	n, err = lx.Fill(strings.NewReader("more"), 64)
	assert.ErrorIs(t, err, sse.ErrBufferFull, "Fill over MaxEventSize unread")
	assert.Zero(t, n, "Fill over MaxEventSize unread")
	lx.Close()
	_, err = lx.Fill(strings.NewReader("x"), 1)
	assert.ErrorIs(t, err, sse.ErrWriteAfterClose, "Fill after Close")
}
