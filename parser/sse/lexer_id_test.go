package sse_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/sse"
)

// TestFrameIDOutlivesWrite shows that the ID of the last Frame, read
// through the *Frame that Frame returned, stays valid across Write and
// across calls to Next that return no frame, whatever the Lexer does with
// its buffer meanwhile: a Write that moves the retained bytes to the front
// of the buffer, over the id line (the buffer's first bytes), and a large
// buffer handed back to the pool when the Lexer goes idle and then filled
// by another Lexer; and that LastEventID keeps the ID. A caller
// (reconstruct's Stream) may keep the *Frame instead of a copy of its ID
// until the next frame.
func TestFrameIDOutlivesWrite(t *testing.T) {
	t.Run("a Write compacts the buffer over the id line", func(t *testing.T) {
		lx := sse.NewLexer(nil)
		// 4 KiB buffer: a 2 KiB event first, then 100 bytes of the next
		// event's unfinished line.
		first := "id: abc\ndata: " + strings.Repeat("x", 2000) + "\n\n"
		_, err := lx.Write([]byte(first + "data: " + strings.Repeat("z", 94)))
		require.NoError(t, err)
		require.True(t, lx.Next(), "the first frame")
		f := lx.Frame()
		require.False(t, lx.Next(), "the second event is unfinished")
		require.Equal(t, "abc", string(f.ID))
		// 2000 bytes more do not fit after the 2120 held; the 100 retained
		// go to the front, where the id line was.
		_, err = lx.Write([]byte(strings.Repeat("z", 1990) + "\n\n"))
		require.NoError(t, err)
		require.Equal(t, "abc", string(f.ID), "Frame.ID after a Write")
		require.Equal(t, "abc", string(lx.LastEventID()), "LastEventID after a Write")
		require.True(t, lx.Next(), "the second frame")
		require.Equal(t, "abc", string(lx.Frame().ID))
	})
	t.Run("an idle Lexer's large buffer goes to another Lexer", func(t *testing.T) {
		sse.DrainBufferPools()
		a := sse.NewLexer(nil)
		big := "id: a1\ndata: " + strings.Repeat("x", 64<<10) + "\n\n"
		_, err := a.Write([]byte(big))
		require.NoError(t, err)
		require.True(t, a.Next())
		f := a.Frame()
		require.False(t, a.Next(), "a is idle: its large buffer goes back to the pool")
		require.Equal(t, "a1", string(f.ID))
		_, err = a.Write([]byte(": keep-alive\n"))
		require.NoError(t, err)
		require.False(t, a.Next())
		b := sse.NewLexer(nil)
		_, err = b.Write([]byte(strings.Repeat("Z", 20<<10)))
		require.NoError(t, err)
		require.False(t, b.Next())
		require.Equal(t, "a1", string(f.ID), "Frame.ID after its Lexer went idle and another took its buffer")
		require.Equal(t, "a1", string(a.LastEventID()))
	})
	t.Run("the last event ID changes after the frame", func(t *testing.T) {
		lx := sse.NewLexer(nil)
		// A 64 KiB comment makes the Lexer grow its buffer, then (idle)
		// hand it back: both copy the IDs out.
		filler := ": " + strings.Repeat("k", 64<<10) + "\n"
		step := func(in, last string) {
			t.Helper()
			_, err := lx.Write([]byte(in))
			require.NoError(t, err)
			require.False(t, lx.Next(), "no frame in %.20q", in)
			require.Equal(t, last, string(lx.LastEventID()))
		}
		_, err := lx.Write([]byte("id: a\ndata: x\n\n"))
		require.NoError(t, err)
		require.True(t, lx.Next())
		f := lx.Frame()
		step("id: b\n\n", "b") // the frame's ID is no longer the last ID
		step(filler, "b")
		require.Equal(t, "a", string(f.ID))
		step("id: c\n\n"+filler, "c")
		require.Equal(t, "a", string(f.ID))

		_, err = lx.Write([]byte("data: y\n\n"))
		require.NoError(t, err)
		require.True(t, lx.Next(), "a frame with the ID the Lexer copied")
		require.Equal(t, "c", string(f.ID))
		step("id: d\n\n"+filler, "d") // the copy is overwritten
		require.Equal(t, "c", string(f.ID))
		step("id: e\n\n"+filler, "e")
		require.Equal(t, "c", string(f.ID))
	})
}
