//go:build !race && !wasm

package sse_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/sse"
)

// The pool of large buffers on platforms other than WebAssembly (pool.go),
// which keeps a buffer through one collection; the module's slot
// (pool_wasm.go) holds it weakly.

// TestClosedLexerReleasesBuffer: a Lexer written a whole stream and closed
// lets the buffer it grew for a 10 MB event go to the pool once Next has
// run out of frames (issue 33: reconstruct.Read made a Lexer per stream
// and grew that buffer afresh each time), but not before: Close's own run
// to the end, on a copy of the Lexer, leaves it the buffer its frames are
// in. A fresh Lexer then takes it and grows none.
func TestClosedLexerReleasesBuffer(t *testing.T) {
	in := largeStreams()["10240KiB"]
	read := func() {
		lx := sse.NewLexer(nil)
		lx.Write(in)
		require.NoError(t, lx.Close())
		require.Zero(t, sse.PooledBuffer(), "the buffer in the pool after Close")
		require.GreaterOrEqual(t, lx.HeldBytes(), len(in), "the buffer held after Close")
		frames := 0
		for lx.Next() {
			frames++
		}
		require.NoError(t, lx.Err())
		require.Equal(t, 81, frames, "frames per stream")
		require.LessOrEqual(t, lx.HeldBytes(), 16<<10+8, "the bytes held at the end")
		require.GreaterOrEqual(t, sse.PooledBuffer(), len(in), "the buffer in the pool at the end")
	}
	sse.DrainBufferPools()
	read()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	read()
	runtime.ReadMemStats(&after)
	n := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes allocated to read a stream of %d bytes", n, len(in))
	assert.Less(t, n, uint64(256<<10), "bytes allocated by a fresh Lexer")
}

// TestPoolAnyThread: a buffer put in the pool on one thread is taken on
// another (a sync.Pool alone hides it there, in the first thread's
// private slot), and kept through one collection and dropped at the next
// but one, as a sync.Pool keeps it: a process that read a large event once does not hold its
// buffer for good.
func TestPoolAnyThread(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	sse.DrainBufferPools()
	release := func() {
		lx := sse.NewLexer(nil)
		lx.Write(singleEvent(1<<20, "\n"))
		require.True(t, lx.Next())
		require.False(t, lx.Next())
	}
	for i := range 20 {
		done := make(chan struct{})
		go func() {
			defer close(done)
			runtime.LockOSThread() // each goroutine on its own thread
			release()
		}()
		<-done
		require.NotZero(t, sse.PooledBuffer(), "round %d: the buffer in the pool, taken on another thread", i)
		sse.DrainBufferPools()
	}
	release()
	runtime.GC()
	require.NotZero(t, sse.PooledBuffer(), "the buffer in the pool after one collection")
	// PooledBuffer put it back: two collections from now it is gone.
	runtime.GC()
	runtime.GC()
	assert.Zero(t, sse.PooledBuffer(), "the buffer in the pool after two more collections")
}
