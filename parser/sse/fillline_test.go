package sse_test

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/sse"
)

// countReader counts the reads made of r.
type countReader struct {
	r     io.Reader
	reads int
}

func (c *countReader) Read(p []byte) (int, error) {
	c.reads++
	return c.r.Read(p)
}

// badAfter reads from r, then returns a count larger than its buffer.
type badAfter struct{ r io.Reader }

func (b *badAfter) Read(p []byte) (int, error) {
	if n, err := b.r.Read(p); err != io.EOF {
		return n, err
	}
	return len(p) + 1, nil
}

// TestLexerFillLine checks where one FillLine stops: after the read that
// brings an LF or a CR, after size bytes, after the read that takes the
// unconsumed input past MaxEventSize, at a read error (the bytes read
// before it kept), and on a count outside the buffer (the reads before it
// kept); and that the bytes are those the reads gave.
func TestLexerFillLine(t *testing.T) {
	tests := []struct {
		name      string
		r         func() io.Reader
		size, max int
		wantN     int
		wantErr   error
		wantReads int
	}{
		{"1-byte reads to an LF", func() io.Reader { return iotest.OneByteReader(strings.NewReader("data: ab\n\nrest")) }, 64, 0, 9, nil, 9},
		{"1-byte reads to a CR", func() io.Reader { return iotest.OneByteReader(strings.NewReader("data: a\rb")) }, 64, 0, 8, nil, 8},
		{"a read with an LF inside", func() io.Reader {
			return &chunkReader{chunks: [][]byte{[]byte("data"), []byte(": a\nda"), []byte("ta")}}
		}, 64, 0, 10, nil, 2},
		{"a long read with a CR inside", func() io.Reader {
			return &chunkReader{chunks: [][]byte{[]byte("data: "), []byte(strings.Repeat("x", 40) + "\r" + strings.Repeat("y", 40))}}
		}, 128, 0, 87, nil, 2},
		{"size bytes at most", func() io.Reader { return iotest.OneByteReader(strings.NewReader("data: abcdef\n")) }, 4, 0, 4, nil, 4},
		{"past MaxEventSize", func() io.Reader { return iotest.OneByteReader(strings.NewReader("data: abcdefgh\n")) }, 64, 5, 6, nil, 6},
		{"the end of the input", func() io.Reader { return iotest.OneByteReader(strings.NewReader("data: ab")) }, 64, 0, 8, io.EOF, 9},
		{"a read error", func() io.Reader { return iotest.TimeoutReader(strings.NewReader("data: ab")) }, 64, 0, 8, iotest.ErrTimeout, 2},
		{"a count outside the buffer", func() io.Reader { return &badAfter{iotest.OneByteReader(strings.NewReader("da"))} }, 64, 0, 2, sse.ErrInvalidRead, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lx := sse.NewLexer(&sse.Options{MaxEventSize: tt.max})
			src := tt.r()
			r := &countReader{r: src}
			n, err := lx.FillLine(r, tt.size)
			assert.Equal(t, tt.wantN, n, "bytes read")
			assert.ErrorIs(t, err, tt.wantErr)
			if tt.wantErr == nil {
				assert.NoError(t, err)
			}
			assert.Equal(t, tt.wantReads, r.reads, "reads")
			assert.Equal(t, tt.wantN, lx.Buffered(), "bytes buffered")
		})
	}
}

// fillLex reads r into a new Lexer with FillLine, size bytes at most per
// call, runs Next after each, and records what it gives as lexChunks does.
func fillLex(t testing.TB, r io.Reader, size int, opts *sse.Options) lexResult {
	t.Helper()
	lx := sse.NewLexer(opts)
	res := lexResult{seqOK: true}
	var seq int64
	next := func() {
		for {
			if lx.Next() {
				f := lx.Frame()
				seq++
				res.seqOK = res.seqOK && f.Seq == seq
				res.records = append(res.records, record(f))
				continue
			}
			err := lx.Err()
			if err == nil {
				return
			}
			res.records = append(res.records, errRecord(err))
			if !errors.Is(err, sse.ErrEventTooLarge) {
				return
			}
		}
	}
	var read int64
	for {
		n, err := lx.FillLine(r, size)
		read += int64(n)
		next()
		require.Equal(t, read, lx.InputOffset()+int64(lx.Buffered()), "InputOffset()+Buffered() = the bytes read")
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "FillLine")
	}
	closeErr := lx.Close()
	next()
	require.Equal(t, closeErr, lx.Err(), "Err() after Close is Close's error")
	res.last = string(lx.LastEventID())
	return res
}

// TestLexerFillLineChunkingInvariance reads every rule case and recorded
// stream through FillLine, one byte per read, three, in random reads, and
// with sizes smaller than a line, and wants the frames, errors and last
// event ID of the input written whole.
func TestLexerFillLineChunkingInvariance(t *testing.T) {
	inputs := map[string]struct {
		in  string
		max int
	}{}
	for _, tc := range lexCases {
		inputs["rule "+tc.name] = struct {
			in  string
			max int
		}{tc.in, tc.max}
	}
	for name, in := range testdataStreams(t) {
		inputs["stream "+name] = struct {
			in  string
			max int
		}{in, 0}
		inputs["stream "+name+", max 200"] = struct {
			in  string
			max int
		}{in, 200}
	}
	for name, tc := range inputs {
		t.Run(name, func(t *testing.T) {
			in := []byte(tc.in)
			opts := &sse.Options{MaxEventSize: tc.max}
			want := lexChunks(t, [][]byte{in}, opts, true)
			rng := rand.New(rand.NewPCG(uint64(len(in)), 1))
			var random [][]byte
			for rest := in; len(rest) > 0; {
				n := min(len(rest), 1+rng.IntN(64))
				random = append(random, rest[:n])
				rest = rest[n:]
			}
			for _, c := range []struct {
				how  string
				r    io.Reader
				size int
			}{
				{"1-byte", &chunkReader{chunks: chunksOf(in, 1)}, sse.ReadSize},
				{"3-byte", &chunkReader{chunks: chunksOf(in, 3)}, sse.ReadSize},
				{"random", &chunkReader{chunks: random}, sse.ReadSize},
				{"1-byte, size 7", &chunkReader{chunks: chunksOf(in, 1)}, 7},
				{"whole, size 5", &chunkReader{chunks: [][]byte{in}}, 5},
			} {
				got := fillLex(t, c.r, c.size, opts)
				assert.Empty(t, cmp.Diff(want.records, got.records), "%s: records differ from whole input (-whole +%s)", c.how, c.how)
				assert.Equal(t, want.last, got.last, "%s: LastEventID", c.how)
				assert.True(t, got.seqOK, "%s: Frame.Seq is not 1, 2, 3…", c.how)
			}
		})
	}
}

// ExampleLexer_FillLine reads a stream that comes a byte per read: Next
// runs once per line, not once per byte.
func ExampleLexer_FillLine() {
	r := iotest.OneByteReader(strings.NewReader("id: 1\ndata: hello\n\n"))
	var lx sse.Lexer
	for {
		n, err := lx.FillLine(r, sse.ReadSize)
		fmt.Printf("read %d bytes\n", n)
		for lx.Next() {
			fmt.Printf("frame %s: %s\n", lx.Frame().ID, lx.Frame().Data)
		}
		if err != nil {
			break
		}
	}
	if err := lx.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// read 6 bytes
	// read 12 bytes
	// read 1 bytes
	// frame 1: hello
	// read 0 bytes
}
