//go:build !race

package sse_test

import (
	"bytes"
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/internal/corpus"
	"github.com/a2astream/a2astream/parser/sse"
)

// streamRuns is how many streams a per-stream allocation test averages
// over. A stream of megabytes runs for milliseconds, long enough for the
// runtime to allocate a few objects of its own now and then (a thread
// started when the world restarts, the scavenger's timer): over a few runs
// those round up to one allocation a stream (a CI run failed so with 3
// runs; with both cores busy, about one run in 40 did). Over 25 runs they
// round down to zero, while one allocation a stream still counts one.
const streamRuns = 25

// largeStreams are streams of the large corpus: a few token events around
// one event of 256 KiB, or one of 10 MB.
func largeStreams() map[string][]byte {
	tokens := corpus.Tokens(40)
	out := map[string][]byte{}
	for _, size := range []int{256 << 10, 10 << 20} {
		var s []byte
		s = append(s, tokens...)
		s = append(s, singleEvent(size, "\n")...)
		s = append(s, tokens...)
		out[strconv.Itoa(size>>10)+"KiB"] = s
	}
	return out
}

// TestReaderReuseAllocs: a Reader reused with Reset allocates nothing per
// stream, even when each stream has an event of 256 KiB or 10 MB: the
// buffer grown for it is used again.
func TestReaderReuseAllocs(t *testing.T) {
	for name, in := range largeStreams() {
		t.Run(name, func(t *testing.T) {
			src := bytes.NewReader(in)
			r := sse.NewReader(src, nil)
			frames := 0
			allocs := testing.AllocsPerRun(streamRuns, func() {
				src.Reset(in)
				r.Reset(src, nil)
				frames = 0
				for r.Next() {
					frames++
				}
				if r.Err() != nil { // require only on failure: its arguments would allocate
					require.FailNow(t, "the stream failed", "%v", r.Err())
				}
			})
			assert.Zero(t, allocs, "allocations per stream read after Reset")
			assert.Equal(t, 81, frames, "frames per stream")
		})
	}
}

// TestLexerReuseAllocs: the same for a Lexer reused with Reset and fed
// in 32 KiB writes.
func TestLexerReuseAllocs(t *testing.T) {
	for name, in := range largeStreams() {
		t.Run(name, func(t *testing.T) {
			lx := sse.NewLexer(nil)
			chunks := chunksOf(in, sse.ReadSize)
			frames := 0
			allocs := testing.AllocsPerRun(streamRuns, func() {
				lx.Reset(nil)
				frames = 0
				for _, c := range chunks {
					lx.Write(c)
					for lx.Next() {
						frames++
					}
				}
			})
			assert.Zero(t, allocs, "allocations per stream written after Reset")
			assert.Equal(t, 81, frames, "frames per stream")
		})
	}
}

// TestLexerGrowth: a Lexer that grows its buffer for one 10 MB event,
// written in 32 KiB chunks, ends with a buffer of at most 1.5 times the
// event (growth by half past 1 MiB, not doubling to 16 MiB), and
// allocates at most 3.5 times the event on the way.
func TestLexerGrowth(t *testing.T) {
	sse.DrainBufferPools()
	in := singleEvent(10<<20, "\n")
	lx := sse.NewLexer(nil)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	held := 0
	for _, c := range chunksOf(in, sse.ReadSize) {
		lx.Write(c)
		held = max(held, lx.HeldBytes())
		for lx.Next() {
		}
	}
	runtime.ReadMemStats(&after)
	require.NoError(t, lx.Close())
	assert.LessOrEqual(t, held, len(in)*3/2+sse.ReadSize, "the buffer held for a %d-byte event", len(in))
	assert.LessOrEqual(t, after.TotalAlloc-before.TotalAlloc, uint64(len(in))*7/2, "bytes allocated for a %d-byte event", len(in))
}

// TestLexerIdleHoldsLittle: once a large event is done and every byte
// received is consumed, a Lexer between events holds no input buffer
// beyond 16 KiB: the one it grew goes back to the package's pool.
func TestLexerIdleHoldsLittle(t *testing.T) {
	for _, chunk := range []int{1 << 10, sse.ReadSize} {
		lx := sse.NewLexer(nil)
		in := append(singleEvent(1<<20, "\n"), "id: 2\ndata: after\n\n"...)
		frames := 0
		for _, c := range chunksOf(in, chunk) {
			lx.Write(c)
			for lx.Next() {
				frames++
			}
		}
		require.Equal(t, 2, frames, "chunk %d: frames", chunk)
		assert.LessOrEqual(t, lx.HeldBytes(), 16<<10+8, "chunk %d: the bytes an idle Lexer holds: 16 KiB and the last event ID", chunk)
		assert.Equal(t, "2", string(lx.LastEventID()), "chunk %d: the last event ID", chunk)
		// It still works: the next event is read as usual.
		lx.Write([]byte("data: more\n\n"))
		require.True(t, lx.Next(), "chunk %d: the event after", chunk)
		assert.Equal(t, "more", string(lx.Frame().Data), "chunk %d", chunk)
		assert.Equal(t, int64(len(in)), lx.Frame().Offset, "chunk %d: its offset", chunk)
		require.NoError(t, lx.Close())
	}
}
