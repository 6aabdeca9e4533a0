//go:build !race

package reconstruct_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
)

// lastText returns the text of the run's first artifact's last part.
func lastText(res *reconstruct.Result) []byte {
	p := res.Artifacts[0].Parts
	return p[len(p)-1].Text
}

// Applying an appended delta to an artifact whose text buffer has room
// allocates nothing; only the buffer's amortised growth does.
func TestAllocsReducerApplyDelta(t *testing.T) {
	var dec parser.Decoder
	r := reconstruct.NewReducer(nil)
	apply := func(seq int64, data string) {
		f := sse.Frame{Offset: 100 * seq, Seq: seq, Data: []byte(data), ID: []byte("evt-000123")}
		ev, err := dec.Decode(&f)
		require.NoError(t, err)
		require.NoError(t, r.Apply(&f, ev))
	}
	apply(1, task("TASK_STATE_WORKING"))
	apply(2, first("art-1", "The "))
	delta := []byte(more("art-1", "token "))
	f := sse.Frame{Offset: 300, Seq: 3, Data: delta, ID: []byte("evt-000124")}
	ev, err := dec.Decode(&f)
	require.NoError(t, err)
	const runs = 100
	for {
		require.NoError(t, r.Apply(&f, ev))
		if txt := lastText(r.Result()); cap(txt)-len(txt) > (runs+1)*len("token ") {
			break
		}
	}
	allocs := testing.AllocsPerRun(runs, func() {
		require.NoError(t, r.Apply(&f, ev))
		// Not require.Len: boxing the slice would allocate.
		require.Equal(t, 1, len(r.Pending()), "updates")
		require.Equal(t, reconstruct.UpdateText, r.Pending()[0].Kind)
	})
	assert.Zero(t, allocs, "allocations of Reducer.Apply of a delta")
}

// The whole pipeline (lex + decode + reduce) fed one delta frame at a time
// allocates nothing once warm.
func TestAllocsStreamDelta(t *testing.T) {
	for _, name := range []string{"REST", "JSON-RPC"} {
		t.Run(name, func(t *testing.T) {
			head := sseStream("h", task("TASK_STATE_WORKING"), first("art-1", "The "))
			frame := "id: evt-1\ndata: " + more("art-1", "tok\u00e9n ") + "\n\n"
			if name == "JSON-RPC" {
				head, frame = rpc(head), rpc(frame)
			}
			s := reconstruct.NewStream(nil)
			s.Write([]byte(head))
			for s.Next() {
			}
			in := []byte(frame)
			step := func() {
				s.Write(in)
				n := 0
				for s.Next() {
					require.Equal(t, reconstruct.UpdateText, s.Update().Kind)
					n++
				}
				require.Equal(t, 1, n, "updates")
			}
			const runs = 100
			for {
				step()
				if txt := lastText(s.Result()); cap(txt)-len(txt) > (runs+1)*len("tok\u00e9n ") {
					break
				}
			}
			assert.Zero(t, testing.AllocsPerRun(runs, step), "allocations of a Stream, one delta frame")
		})
	}
}

// What a resubscription needs, asked of a Stream after every delta frame
// (as the wasm module's status call does), allocates nothing: TaskID,
// LastEventID and Done, with an id that changes with every frame.
func TestAllocsStreamResubscribeInfo(t *testing.T) {
	s := reconstruct.NewStream(nil)
	s.Write([]byte(sseStream("h", task("TASK_STATE_WORKING"), first("art-1", "The "))))
	for s.Next() {
	}
	frames := [2][]byte{
		[]byte("id: evt-1\ndata: " + more("art-1", "token ") + "\n\n"),
		[]byte("id: evt-2\ndata: " + more("art-1", "token ") + "\n\n"),
	}
	k := 0
	step := func() {
		s.Write(frames[k%2])
		k++
		for s.Next() {
		}
		if string(s.TaskID()) != taskID || len(s.LastEventID()) != len("evt-1") || s.Done() {
			require.Fail(t, "resubscription info", "task %q, last event id %q, done %v", s.TaskID(), s.LastEventID(), s.Done())
		}
	}
	const runs = 100
	for {
		step()
		if txt := lastText(s.Result()); cap(txt)-len(txt) > (runs+1)*len("token ") {
			break
		}
	}
	assert.Zero(t, testing.AllocsPerRun(runs, step), "allocations of a delta frame and TaskID, LastEventID, Done")
}

// A delta frame of a replay that catches up with the text shown before the
// resubscription (it hands out nothing) allocates nothing once warm either.
func TestAllocsStreamReplayDelta(t *testing.T) {
	frame := []byte("id: evt-1\ndata: " + more("art-1", "token ") + "\n\n")
	s := reconstruct.NewStream(nil)
	s.Write([]byte(sseStream("h", task("TASK_STATE_WORKING"), first("art-1", "The "))))
	for range 4096 {
		s.Write(frame)
	}
	for s.Next() {
	}
	require.NoError(t, s.Resume())
	s.Write([]byte(sseStream("r", first("art-1", "The "))))
	step := func() {
		s.Write(frame)
		for s.Next() {
			require.Fail(t, "an update while catching up", "%v", s.Update().Kind)
		}
	}
	const runs = 100
	for {
		step()
		if txt := lastText(s.Result()); cap(txt)-len(txt) > (runs+1)*len("token ") {
			break
		}
	}
	assert.Zero(t, testing.AllocsPerRun(runs, step), "allocations of a Stream, one replayed delta frame")
}
