//go:build !race

package sse_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/internal/corpus"
	"github.com/a2astream/a2astream/parser/sse"
)

// TestLexerAllocs: once its buffers have grown, a Lexer fed the token
// corpus in 4 KiB chunks allocates nothing per chunk, hence per frame.
func TestLexerAllocs(t *testing.T) {
	in := corpus.Tokens(4000)
	chunks := chunksOf(in, 4<<10)
	lx := sse.NewLexer(&sse.Options{OnComment: func([]byte) {}})
	frames := 0
	feed := func(c []byte) {
		lx.Write(c)
		for lx.Next() {
			frames++
		}
	}
	for _, c := range chunks[:8] { // warm up
		feed(c)
	}
	i := 8
	allocs := testing.AllocsPerRun(len(chunks)-9, func() {
		feed(chunks[i])
		i++
	})
	assert.Zero(t, allocs, "allocations per 4 KiB chunk")
	assert.GreaterOrEqual(t, frames, 3000, "frames lexed")
}

// TestReaderAllocs: a warm Reader allocates nothing per frame, nor to read
// a whole new stream after Reset.
func TestReaderAllocs(t *testing.T) {
	in := corpus.Tokens(4000)
	src := bytes.NewReader(in)
	r := sse.NewReader(src, nil)
	for range 100 { // warm up
		r.Next()
	}
	allocs := testing.AllocsPerRun(3000, func() {
		if !r.Next() { // require only on failure: its arguments would allocate
			require.FailNow(t, "the corpus ended early", "%v", r.Err())
		}
	})
	assert.Zero(t, allocs, "allocations per frame")
	allocs = testing.AllocsPerRun(streamRuns, func() {
		src.Reset(in)
		r.Reset(src, nil)
		for r.Next() {
		}
		if r.Err() != nil {
			require.FailNow(t, "the stream failed", "%v", r.Err())
		}
	})
	assert.Zero(t, allocs, "allocations per stream read after Reset")
}
