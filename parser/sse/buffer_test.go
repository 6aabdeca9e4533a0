package sse_test

import (
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/sse"
)

// TestLexerMovesLittle: events of 256 KiB written in 4 KiB chunks, as a
// Reader over 4 KiB reads gets them, cost the Lexer at most an eighth of
// the input in moves of the bytes it retains (dropping the bytes of the
// events before, or a larger buffer): the released bytes are dropped
// while the next event has barely started, not once it fills the buffer,
// which would move most of every event again.
func TestLexerMovesLittle(t *testing.T) {
	in := bigEvents(20, 256<<10)
	for _, chunk := range []int{4 << 10, 1000, sse.ReadSize} {
		lx := sse.NewLexer(nil)
		moved, frames := 0, 0
		for _, c := range chunksOf(in, chunk) {
			base, size := lx.BufferAt()
			kept := lx.Buffered()
			_, err := lx.Write(c)
			require.NoError(t, err)
			if b, s := lx.BufferAt(); b != base || s != size {
				moved += kept
			}
			for lx.Next() {
				frames++
			}
		}
		require.NoError(t, lx.Close())
		require.Equal(t, 20, frames, "chunk %d: frames", chunk)
		assert.LessOrEqual(t, moved, len(in)/8, "chunk %d: bytes moved for %d bytes in", chunk, len(in))
	}
}

// watchReader gives its input in reads of at most n bytes and adds to
// moved the bytes the Lexer retained whenever its buffer moved since the
// read before (the Reader's fill drops or moves them just before it
// reads, and nothing consumes them in between).
type watchReader struct {
	in    []byte
	n     int
	lx    *sse.Lexer
	base  int64
	size  int
	moved int
}

func (w *watchReader) Read(p []byte) (int, error) {
	if len(w.in) == 0 {
		return 0, io.EOF
	}
	if b, s := w.lx.BufferAt(); b != w.base || s != w.size {
		w.moved += w.lx.Buffered()
		w.base, w.size = b, s
	}
	n := copy(p[:min(len(p), w.n)], w.in)
	w.in = w.in[n:]
	return n, nil
}

// TestReaderMovesLittle: the same for a Reader over 4 KiB reads.
func TestReaderMovesLittle(t *testing.T) {
	in := bigEvents(20, 256<<10)
	w := &watchReader{in: in, n: 4 << 10}
	r := sse.NewReader(w, nil)
	w.lx = r.Lexer()
	frames := 0
	for r.Next() {
		frames++
	}
	require.NoError(t, r.Err())
	require.Equal(t, 20, frames, "frames")
	assert.LessOrEqual(t, w.moved, len(in)/8, "bytes moved for %d bytes in", len(in))
}
