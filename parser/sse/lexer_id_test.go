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

// TestFrameIDThroughNextFrame shows that a copy of the last Frame's ID
// slice, taken before the call to Next that returns the next frame, still
// holds that ID when the call returns: Next moves no byte, whether the ID
// views the buffer or the copy the Lexer made when a Write moved it, and
// whether the next frame keeps the ID, brings its own or follows an event
// without data that changed it. reconstruct's Stream relies on it to give
// the id of the last event applied when the next one fails to decode.
func TestFrameIDThroughNextFrame(t *testing.T) {
	filler := ": " + strings.Repeat("k", 40<<10) + "\n"
	var in strings.Builder
	for i := range 60 {
		switch i % 6 {
		case 0:
			in.WriteString("id: a" + strings.Repeat("i", i) + "\ndata: x\n\n")
		case 1:
			in.WriteString("data: same id\n\n")
		case 2:
			in.WriteString("id: only" + strings.Repeat("o", i) + "\n\ndata: y\n\n")
		case 3:
			in.WriteString(filler + "id: b" + strings.Repeat("j", i) + "\ndata: z\n\n")
		case 4:
			in.WriteString("id: c\r\ndata: crlf\r\n\r\n")
		default:
			in.WriteString("id:\ndata: reset\n\n")
		}
	}
	stream := in.String()
	for _, size := range []int{1, 7, 4096, len(stream)} {
		lx := sse.NewLexer(nil)
		frames := 0
		for off := 0; off < len(stream); off += size {
			_, err := lx.Write([]byte(stream[off:min(off+size, len(stream))]))
			require.NoError(t, err)
			for {
				prev := lx.Frame().ID
				want := string(prev)
				if !lx.Next() {
					break
				}
				frames++
				require.Equal(t, want, string(prev), "writes of %d bytes, frame %d: the ID before", size, frames)
			}
		}
		require.Equal(t, 60, frames, "writes of %d bytes", size)
	}
}
