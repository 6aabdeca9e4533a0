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

	"github.com/a2astream/a2astream/parser/sse"
)

// testdataStreams returns the recorded streams of ../../internal/samples by
// file name.
func testdataStreams(t testing.TB) map[string]string {
	t.Helper()
	names, err := filepath.Glob("../../internal/samples/*.sse")
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
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
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("%s: (-want +got):\n%s", how, diff)
				}
				if string(r.LastEventID()) != tc.last {
					t.Errorf("%s: LastEventID = %q, want %q", how, r.LastEventID(), tc.last)
				}
				if r.Next() {
					t.Errorf("%s: Next after the end returned a frame", how)
				}
			}
		})
	}
}

func TestReaderAll(t *testing.T) {
	t.Run("clean end yields no error", func(t *testing.T) {
		r := sse.NewReader(strings.NewReader("data: a\n\ndata: b\n\n"), nil)
		var got []string
		for f, err := range r.All() {
			if err != nil {
				t.Fatalf("error %v", err)
			}
			got = append(got, string(f.Data))
		}
		if diff := cmp.Diff([]string{"a", "b"}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("the error is yielded once, last, with a nil Frame", func(t *testing.T) {
		r := sse.NewReader(strings.NewReader("data: a\n\ndata: b"), nil)
		var frames []string
		var errs []error
		for f, err := range r.All() {
			if err != nil {
				if f != nil {
					t.Errorf("error yielded with frame %s", record(f))
				}
				errs = append(errs, err)
				continue
			}
			if len(errs) > 0 {
				t.Errorf("frame %s yielded after the error", record(f))
			}
			frames = append(frames, string(f.Data))
		}
		if len(errs) != 1 || !errors.Is(errs[0], io.ErrUnexpectedEOF) {
			t.Errorf("errors %v, want one io.ErrUnexpectedEOF", errs)
		}
		if diff := cmp.Diff([]string{"a"}, frames); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("an oversized event ends the iteration, Next continues", func(t *testing.T) {
		r := sse.NewReader(strings.NewReader("data: a\n\ndata: 0123456789\n\ndata: b\n\n"), &sse.Options{MaxEventSize: 10})
		n := 0
		var last error
		for _, err := range r.All() {
			n++
			last = err
		}
		if n != 2 || !errors.Is(last, sse.ErrEventTooLarge) {
			t.Fatalf("%d values, last error %v; want a frame then ErrEventTooLarge", n, last)
		}
		if !r.Next() || string(r.Frame().Data) != "b" {
			t.Fatalf("Next after the oversized event: %v", r.Err())
		}
	})
	t.Run("breaking out of the loop stops reading", func(t *testing.T) {
		r := sse.NewReader(strings.NewReader("data: a\n\ndata: b\n\n"), nil)
		for range r.All() {
			break
		}
		if !r.Next() || string(r.Frame().Data) != "b" {
			t.Fatal("the frame after the break is lost")
		}
	})
}

// emptyReader returns (0, nil) forever and counts the calls.
type emptyReader struct{ calls int }

func (r *emptyReader) Read([]byte) (int, error) { r.calls++; return 0, nil }

func TestReaderNoProgress(t *testing.T) {
	src := &emptyReader{}
	r := sse.NewReader(io.MultiReader(strings.NewReader("data: a\n\ndata: b\n"), src), nil)
	got := readAll(r)
	if len(got) != 2 || got[0] != `@0 message id="" data="a"` {
		t.Fatalf("got %q, want frame a then an error", got)
	}
	err := r.Err()
	var se *sse.SyntaxError
	if !errors.Is(err, io.ErrNoProgress) || !errors.As(err, &se) || se.Offset != 9 || se.Size != 8 {
		t.Errorf("Err() = %#v, want io.ErrNoProgress at offset 9 with 8 bytes dropped", err)
	}
	if src.calls != 100 {
		t.Errorf("the reader was called %d times, want 100", src.calls)
	}
	if r.Next() || r.Err() != err {
		t.Error("the error is not sticky")
	}
}

func TestReaderReadError(t *testing.T) {
	boom := errors.New("connection reset")
	r := sse.NewReader(io.MultiReader(strings.NewReader("id: 1\ndata: a\n\nid: 2\ndata: b"), iotest.ErrReader(boom)), nil)
	if !r.Next() || string(r.Frame().Data) != "a" {
		t.Fatal("the frame before the error is lost")
	}
	if r.Next() {
		t.Fatal("a frame from the cut event")
	}
	err := r.Err()
	var se *sse.SyntaxError
	if !errors.Is(err, boom) || !errors.As(err, &se) || se.Offset != 15 || se.Size != 13 || se.ID != "1" {
		t.Errorf("Err() = %#v, want the read error at offset 15, 13 bytes dropped, id 1", err)
	}
	if string(r.LastEventID()) != "1" {
		t.Errorf("LastEventID = %q, want 1", r.LastEventID())
	}
}

// badReader returns a count larger than its buffer.
type badReader struct{}

func (badReader) Read(p []byte) (int, error) { return len(p) + 1, nil }

func TestReaderInvalidCount(t *testing.T) {
	r := sse.NewReader(badReader{}, nil)
	if r.Next() || !errors.Is(r.Err(), sse.ErrInvalidRead) {
		t.Errorf("Err() = %v, want ErrInvalidRead", r.Err())
	}
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
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		if held > limit+sse.ReadSize {
			t.Errorf("the Reader held %d bytes, more than MaxEventSize %d plus one %d-byte read buffer", held, limit, sse.ReadSize)
		}
	}
}

func TestReaderReset(t *testing.T) {
	r := sse.NewReader(strings.NewReader("id: 1\ndata: a\n\ndata: cut"), nil)
	readAll(r)
	if r.Err() == nil {
		t.Fatal("no error for the cut stream")
	}
	r.Reset(strings.NewReader("data: b\n\n"))
	if r.Err() != nil || len(r.LastEventID()) != 0 || r.InputOffset() != 0 {
		t.Fatalf("Reset kept state: err %v id %q offset %d", r.Err(), r.LastEventID(), r.InputOffset())
	}
	if !r.Next() || record(r.Frame()) != `@0 message id="" data="b"` || r.Next() || r.Err() != nil {
		t.Errorf("after Reset: %s, %v", record(r.Frame()), r.Err())
	}
}

// TestReaderTestdata reads every recorded stream: each ends cleanly, every
// frame carries an id (Corti sends one on each event) and is a JSON object
// with exactly one of the four A2A 1.0 payload keys, and the ids are
// strictly increasing in the file.
func TestReaderTestdata(t *testing.T) {
	streams := testdataStreams(t)
	if len(streams) < 4 {
		t.Fatalf("found %d streams in internal/samples, want at least 4", len(streams))
	}
	for name, in := range streams {
		t.Run(name, func(t *testing.T) {
			var comments int
			r := sse.NewReader(iotest.HalfReader(strings.NewReader(in)), &sse.Options{OnComment: func([]byte) { comments++ }})
			frames := 0
			for f, err := range r.All() {
				if err != nil {
					t.Fatalf("after %d frames: %v", frames, err)
				}
				frames++
				if len(f.ID) == 0 {
					t.Errorf("frame %d has no id", f.Seq)
				}
				if string(f.Event) != "message" {
					t.Errorf("frame %d has event type %q", f.Seq, f.Event)
				}
				n := 0
				for _, key := range []string{`{"task":`, `{"message":`, `{"statusUpdate":`, `{"artifactUpdate":`} {
					if bytes.HasPrefix(f.Data, []byte(key)) {
						n++
					}
				}
				if n != 1 || !bytes.HasSuffix(f.Data, []byte("}")) {
					t.Errorf("frame %d is not one A2A stream response: %.60s…", f.Seq, f.Data)
				}
			}
			if frames == 0 || frames > 60 {
				t.Errorf("%d frames, want 1 to 60", frames)
			}
			if comments == 0 {
				t.Errorf("no keep-alive comment")
			}
		})
	}
}

// TestLexerFill checks Fill's own errors: a count outside the buffer, a
// full buffer, and a closed Lexer; the Reader tests above cover the frames
// it gives.
func TestLexerFill(t *testing.T) {
	lx := sse.NewLexer(&sse.Options{MaxEventSize: 8})
	if n, err := lx.Fill(badReader{}, 4); n != 0 || !errors.Is(err, sse.ErrInvalidRead) {
		t.Errorf("Fill(badReader) = %d, %v; want 0, ErrInvalidRead", n, err)
	}
	if n, err := lx.Fill(strings.NewReader("data: 0123456789"), 64); n != 16 || err != nil {
		t.Fatalf("Fill = %d, %v; want 16, nil", n, err)
	}
	if n, err := lx.Fill(strings.NewReader("more"), 64); n != 0 || !errors.Is(err, sse.ErrBufferFull) {
		t.Errorf("Fill over MaxEventSize unread = %d, %v; want 0, ErrBufferFull", n, err)
	}
	lx.Close()
	if _, err := lx.Fill(strings.NewReader("x"), 1); !errors.Is(err, sse.ErrWriteAfterClose) {
		t.Errorf("Fill after Close = %v, want ErrWriteAfterClose", err)
	}
}
