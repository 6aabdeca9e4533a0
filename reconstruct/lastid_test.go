package reconstruct_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/reconstruct"
)

// bigDeltas returns a stream whose events have the ids prefix-1 to
// prefix-4: a task, then three deltas of one artifact, the last of
// pad bytes. The last delta takes Reducer.repeat (the envelope of the
// one before, which took the delta route), and the stream is large enough
// that the lexer reads it in a buffer of the shared pool.
func bigDeltas(prefix string, pad int) string {
	return sseStream(prefix, task("TASK_STATE_WORKING"), first("a", "x"), more("a", "y"), more("a", strings.Repeat("z", pad)))
}

// TestLastEventIDPooledBuffer runs two Streams in turn. Once a Stream's
// lexer has consumed all its input, its large buffer goes back to the
// pool that all lexers share, and the other Stream's lexer takes it and
// writes into it: the first Stream's last event id, taken by repeat from
// its last frame, must not change with those bytes. Under the race
// detector the pool drops some buffers at random, so the turn is taken a
// few times.
func TestLastEventIDPooledBuffer(t *testing.T) {
	in := bigDeltas("a", 64<<10)
	over := strings.Repeat(":"+strings.Repeat("q", 1000)+"\n", len(in)/1001)
	for i := range 8 {
		a, b := reconstruct.NewStream(nil), reconstruct.NewStream(nil)
		a.Write([]byte(in))
		for a.Next() {
		}
		require.True(t, reconstruct.Repeatable(a), "turn %d: the last delta took repeat", i)
		b.Write([]byte(over))
		for b.Next() {
		}
		require.Equal(t, "a-4", string(a.LastEventID()), "turn %d: Stream.LastEventID", i)
		a.Write([]byte("\n"))
		for a.Next() {
		}
		require.Equal(t, "a-4", a.Result().LastEventID, "turn %d: Result.LastEventID", i)
	}
}

// TestLastEventIDNotApplied pins the last event id as that of the last
// event applied when the lexer's last frame was not: an event that fails
// to decode ends the run without being applied, an event with an id and
// no data is no frame, and an event the stream cuts is dropped; each
// after a delta that took repeat, whose id the Reducer reads from its
// frame.
func TestLastEventIDNotApplied(t *testing.T) {
	head := bigDeltas("a", 10)
	for _, c := range []struct {
		name, tail string
		truncated  bool // the run ends with a *TruncatedError
	}{
		{"decode error", "id: a-5\ndata: {\"statusUpdate\":\n\n", false},
		{"no data", "id: a-5\n\n", true},
		{"cut", "id: a-5\ndata: " + more("a", "w"), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := head + c.tail
			// Written whole, the last delta and the event after it are
			// read by one call to Next.
			for _, split := range []int{len(head), len(in)} {
				s := reconstruct.NewStream(nil)
				s.Write([]byte(in[:split]))
				for s.Next() {
				}
				if split == len(head) {
					require.True(t, reconstruct.Repeatable(s), "the last delta took repeat")
				}
				s.Write([]byte(in[split:]))
				for s.Next() {
				}
				err := s.Close()
				for s.Next() {
				}
				require.Error(t, err)
				require.Equal(t, "a-4", string(s.LastEventID()), "split at %d: Stream.LastEventID", split)
				require.Equal(t, "a-4", s.Result().LastEventID, "split at %d: Result.LastEventID", split)
				var te *reconstruct.TruncatedError
				require.Equal(t, c.truncated, errors.As(err, &te), "split at %d: %v is a *TruncatedError", split, err)
				if c.truncated {
					require.Equal(t, "a-4", te.LastEventID, "split at %d: TruncatedError.LastEventID", split)
				}
			}
		})
	}
}

// TestLastEventIDAfterRepeat pins the last event id where the run ends or
// moves on right after a delta that took repeat, which copies no id (the
// Stream reads it from its lexer's Frame when needed): a delta past
// MaxArtifactSize ends the run and is the last event applied, as Apply
// counts it, also in the Result the UpdateDone carries; Resume keeps the
// id across the lexer's reset, and the new connection's events move it.
func TestLastEventIDAfterRepeat(t *testing.T) {
	t.Run("limit", func(t *testing.T) {
		s := reconstruct.NewStream(&reconstruct.Options{MaxArtifactSize: 40})
		s.Write([]byte(bigDeltas("a", 100)))
		var done *reconstruct.Update
		for s.Next() {
			if u := s.Update(); u.Kind == reconstruct.UpdateDone {
				c := *u
				done = &c
			}
		}
		require.NotNil(t, done, "the limit ends the run")
		require.ErrorIs(t, done.Err, reconstruct.ErrArtifactTooLarge)
		require.Equal(t, "a-4", done.Result.LastEventID, "UpdateDone's Result")
		require.Equal(t, "a-4", string(s.LastEventID()), "Stream.LastEventID")
	})
	t.Run("resume", func(t *testing.T) {
		s := reconstruct.NewStream(nil)
		s.Write([]byte(bigDeltas("a", 10)))
		for s.Next() {
		}
		require.True(t, reconstruct.Repeatable(s), "the last delta took repeat")
		require.NoError(t, s.Resume())
		require.Equal(t, "a-4", string(s.LastEventID()), "after Resume")
		s.Write([]byte("id: b-1\ndata: " + more("a", "w") + "\n\n"))
		for s.Next() {
		}
		require.Equal(t, "b-1", string(s.LastEventID()), "after the new connection's delta")
		s.Write([]byte("id: b-2\ndata: " + more("a", "v") + "\n\n"))
		for s.Next() {
		}
		require.True(t, reconstruct.Repeatable(s), "the new connection's second delta took repeat")
		require.Equal(t, "b-2", string(s.LastEventID()))
		s.Close()
		require.Equal(t, "b-2", s.Result().LastEventID)
	})
}
