package reconstruct_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
)

// wireEvent is one event of a test stream as a server would see it, read
// with encoding/json.
type wireEvent struct {
	off, end  int    // the event's bytes in the stream
	id        string // its SSE id
	kind      string // task, statusUpdate, artifactUpdate, message, error
	taskID    string
	ctxID     string
	state     string
	art       string
	appendP   bool
	last      bool
	parts     []json.RawMessage
	metadata  json.RawMessage
	rpc       bool // the JSON-RPC binding
	terminate bool // a final status, a message or an error
}

func wireEvents(t testing.TB, in string) []wireEvent {
	t.Helper()
	var out []wireEvent
	off := 0
	for _, block := range strings.SplitAfter(in, "\n\n") {
		start := off
		off += len(block)
		var ev wireEvent
		var data string
		for _, line := range strings.Split(block, "\n") {
			if v, ok := strings.CutPrefix(line, "id: "); ok {
				ev.id = v
			}
			if v, ok := strings.CutPrefix(line, "data: "); ok {
				data = v
			}
		}
		if data == "" {
			continue
		}
		ev.off, ev.end = start, off
		var top map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(data), &top))
		if res, ok := top["result"]; ok {
			ev.rpc = true
			top = nil
			require.NoError(t, json.Unmarshal(res, &top))
		}
		var body struct {
			ID, TaskID, ContextID string
			Status                struct{ State string }
			Append, LastChunk     bool
			Artifact              struct {
				ArtifactID string
				Parts      []json.RawMessage
				Metadata   json.RawMessage
			}
		}
		for k, v := range top {
			switch k {
			case "task", "statusUpdate", "artifactUpdate", "message", "error":
				ev.kind = k
				require.NoError(t, json.Unmarshal(v, &body))
			}
		}
		ev.taskID, ev.ctxID, ev.state = body.TaskID, body.ContextID, body.Status.State
		if ev.kind == "task" {
			ev.taskID = body.ID
		}
		ev.art, ev.appendP, ev.last = body.Artifact.ArtifactID, body.Append, body.LastChunk
		ev.parts, ev.metadata = body.Artifact.Parts, body.Artifact.Metadata
		switch ev.state {
		case "TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED",
			"TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED":
			ev.terminate = true
		}
		ev.terminate = ev.terminate || ev.kind == "message" || ev.kind == "error"
		out = append(out, ev)
	}
	return out
}

// storedArtifact is an artifact as a server's task store holds it.
type storedArtifact struct {
	id       string
	parts    []json.RawMessage
	metadata json.RawMessage
}

// subscription returns what tasks/{id}:subscribe sends after the client
// received events[:k] of the stream in: a task snapshot with the state at
// the cut (with the artifacts the store holds when withArtifacts), then the
// events from the first event of the artifact in progress, or from the
// first event not received. ok is false when there is nothing to resume.
func subscription(in string, events []wireEvent, k int, withArtifacts bool) (sub string, ok bool) {
	snap, replay, ok := subscriptionParts(in, events, k, withArtifacts)
	return snap + replay, ok
}

// subscriptionParts returns what subscription returns in two parts: the
// task snapshot (an SSE event) and the replay.
func subscriptionParts(in string, events []wireEvent, k int, withArtifacts bool) (snapshot, replay string, ok bool) {
	if k == 0 {
		return "", "", false // no task id known yet
	}
	var tid, cid, st string
	var store []*storedArtifact
	byID := map[string]*storedArtifact{}
	firstEvent := map[string]int{}
	sealed := map[string]bool{}
	for i, ev := range events[:k] {
		if ev.terminate {
			return "", "", false
		}
		if tid == "" {
			tid = ev.taskID
		}
		if ev.ctxID != "" {
			cid = ev.ctxID
		}
		if ev.state != "" {
			st = ev.state
		}
		if ev.kind != "artifactUpdate" {
			continue
		}
		a := byID[ev.art]
		if a == nil {
			a = &storedArtifact{id: ev.art}
			byID[ev.art] = a
			store = append(store, a)
			firstEvent[ev.art] = i
		}
		if ev.appendP {
			a.parts = append(a.parts, ev.parts...)
		} else {
			a.parts = append([]json.RawMessage(nil), ev.parts...)
		}
		if ev.metadata != nil {
			a.metadata = ev.metadata
		}
		sealed[ev.art] = sealed[ev.art] || ev.last
	}
	if tid == "" {
		return "", "", false
	}
	from := k
	for _, a := range store {
		if !sealed[a.id] {
			from = min(from, firstEvent[a.id])
		}
	}
	var snap strings.Builder
	snap.WriteString(`{"task":{"id":"` + tid + `","contextId":"` + cid + `","status":{"state":"` + st + `"}`)
	if withArtifacts && len(store) > 0 {
		snap.WriteString(`,"artifacts":[`)
		for i, a := range store {
			if i > 0 {
				snap.WriteByte(',')
			}
			snap.WriteString(`{"artifactId":"` + a.id + `","parts":[`)
			for j, p := range a.parts {
				if j > 0 {
					snap.WriteByte(',')
				}
				snap.Write(p)
			}
			snap.WriteByte(']')
			if a.metadata != nil {
				snap.WriteString(`,"metadata":`)
				snap.Write(a.metadata)
			}
			snap.WriteByte('}')
		}
		snap.WriteByte(']')
	}
	snap.WriteString(`}}`)
	data := snap.String()
	if events[0].rpc {
		data = `{"jsonrpc":"2.0","id":"sub-1","result":` + data + `}`
	}
	snapshot = "id: " + events[k-1].id + "\ndata: " + data + "\n\n"
	if from < len(events) {
		replay = in[events[from].off:]
	}
	return snapshot, replay, true
}

// Cut every test stream at every event boundary and in the middle of every
// event, feed the prefix, Resume, and feed the subscription (snapshot
// without and with artifacts, then the replay): the Result and the live
// text equal the uncut stream's.
func TestResume(t *testing.T) {
	ignorePosition := cmpopts.IgnoreFields(reconstruct.Diagnostic{}, "Position")
	for _, c := range corpus(t) {
		t.Run(c.name, func(t *testing.T) {
			want := runStream(c.in, whole, nil)
			events := wireEvents(t, c.in)
			splits := []struct {
				name string
				s    splitter
			}{{"whole", whole}, {"random", randomSplits(uint64(len(c.in)))}}
			if len(c.in) < 4096 {
				splits = append(splits, struct {
					name string
					s    splitter
				}{"1-byte", oneByte})
			}
			resumed := 0
			for k := range events {
				for _, cut := range []int{events[k].off, (events[k].off + events[k].end) / 2} {
					for _, withArtifacts := range []bool{false, true} {
						sub, ok := subscription(c.in, events, k, withArtifacts)
						if !ok {
							continue
						}
						for _, split := range splits {
							s := reconstruct.NewStream(nil)
							got := &run{live: map[string]string{}}
							feed(s, got, c.in[:cut], split.s)
							require.NoError(t, s.Resume(), "cut at %d", cut)
							feed(s, got, sub, split.s)
							got.err = s.Close()
							drain(s, got)
							resumed++
							require.Empty(t, cmp.Diff(want.res, s.Result(), cmpResult, ignorePosition),
								"cut at %d (event %d), artifacts in snapshot %v, %s writes: Result differs (-uncut +resumed); subscription:\n%s",
								cut, k, withArtifacts, split.name, sub)
							require.Equal(t, want.live, got.live, "cut at %d, %s writes: live text", cut, split.name)
							require.Equal(t, 1, got.dones)
						}
					}
				}
			}
			if len(events) > 2 {
				require.NotZero(t, resumed, "cuts resumed")
			}
		})
	}
}

// Resume fails once the run has ended.
func TestResumeAfterEnd(t *testing.T) {
	s := reconstruct.NewStream(nil)
	s.Write([]byte(specCompleted))
	for s.Next() {
	}
	require.NoError(t, s.Close())
	require.ErrorIs(t, s.Resume(), reconstruct.ErrClosed)

	s = reconstruct.NewStream(nil)
	s.Write([]byte(sseStream("x", task("TASK_STATE_WORKING"), `{"error":{"code":500,"message":"x"}}`)))
	for s.Next() {
	}
	require.ErrorIs(t, s.Resume(), reconstruct.ErrClosed)
}

// A task that was interrupted (INPUT_REQUIRED) and works again on the next
// stream fed to the same Stream is not over until its next final status: a
// cut there is a truncation, and the run completes with the new answer.
func TestResumeAfterInterruptedState(t *testing.T) {
	next := sseStream("n", status("TASK_STATE_WORKING", "", ""), first("b", "Patient "), more("b", "Smith."))
	s := reconstruct.NewStream(nil)
	r := &run{live: map[string]string{}}
	feed(s, r, inputRequired, whole)
	require.True(t, s.Done())
	require.NoError(t, s.Resume())
	feed(s, r, next, whole)
	require.False(t, s.Done(), "working again")
	err := s.Close()
	require.ErrorIs(t, err, reconstruct.ErrTruncated)

	s = reconstruct.NewStream(nil)
	feed(s, r, inputRequired, whole)
	require.NoError(t, s.Resume())
	feed(s, r, next+sseStream("m", completion("b", text("Patient Smith.")), status("TASK_STATE_COMPLETED", "", "")), whole)
	require.NoError(t, s.Close())
	require.Equal(t, "Patient Smith.", answerText(s.Result()))
}

// The server may be ahead of the cut when the client resubscribes: the
// snapshot then holds artifacts closed since, and the replay starts at a
// later artifact. A snapshot artifact tagged intermediate-thinking was
// closed (the tag comes with the close): it is sealed as thinking, as the
// uncut stream sealed it.
func TestResumeServerAhead(t *testing.T) {
	want := runStream(thinkingToolAnswer, whole, nil)
	require.NoError(t, want.err)
	events := wireEvents(t, thinkingToolAnswer)
	// Received: the task, WORKING and the first delta of art-A.
	cut := events[3].off
	snap := `{"task":{"id":"` + taskID + `","contextId":"` + ctxID + `","status":{"state":"TASK_STATE_WORKING"},"artifacts":[` +
		`{"artifactId":"art-A","parts":[{"text":"Let me check the guidelines."}],"metadata":{"type":"intermediate-thinking"}},` +
		`{"artifactId":"art-B","parts":[{"text":"Dose: "}]}]}}`
	// The replay starts with art-B's first delta (event 8).
	sub := "id: tta-7\ndata: " + snap + "\n\n" + thinkingToolAnswer[events[7].off:]
	for _, split := range []splitter{whole, oneByte} {
		s := reconstruct.NewStream(nil)
		got := &run{live: map[string]string{}}
		feed(s, got, thinkingToolAnswer[:cut], split)
		require.NoError(t, s.Resume())
		feed(s, got, sub, split)
		require.NoError(t, s.Close())
		drain(s, got)
		require.Empty(t, cmp.Diff(want.res, s.Result(), cmpResult), "Result differs (-uncut +resumed)")
		require.Equal(t, want.live, got.live)
	}
}

// After Resume, offsets count the bytes of every connection: those of a
// cut, of a truncation and of a bad frame on the new connection.
func TestResumeOffsets(t *testing.T) {
	conn1 := sseStream("a", task("TASK_STATE_WORKING"), first("x", "one ")) + "data: {\"lost" // cut inside an event
	conn2 := sseStream("b", task("TASK_STATE_WORKING"), more("x", "two"))
	tests := []struct {
		name, tail string
		check      func(t *testing.T, err error, base int)
	}{
		{"cut", "data: {\"again", func(t *testing.T, err error, base int) {
			var te *reconstruct.TruncatedError
			require.ErrorAs(t, err, &te)
			assert.Equal(t, int64(len(conn1)+len(conn2)+len("data: {\"again")), te.Offset)
			var se *sse.SyntaxError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, int64(base), se.Offset, "the cut event starts after the second stream's events")
		}},
		{"bad frame", "data: [\n\n", func(t *testing.T, err error, base int) {
			var se *parser.DecodeError
			require.ErrorAs(t, err, &se)
			assert.ErrorIs(t, err, parser.ErrInvalidJSON)
			assert.Equal(t, int64(base), se.Offset)
		}},
		{"oversized", "data: " + strings.Repeat("x", 600) + "\n\n", func(t *testing.T, err error, base int) {
			var se *sse.SyntaxError
			require.ErrorAs(t, err, &se)
			assert.ErrorIs(t, err, sse.ErrEventTooLarge)
			assert.Equal(t, int64(base), se.Offset)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := reconstruct.NewStream(&reconstruct.Options{MaxEventSize: 512})
			r := &run{live: map[string]string{}}
			feed(s, r, conn1, whole)
			require.NoError(t, s.Resume())
			feed(s, r, conn2+tt.tail, whole)
			err := s.Close()
			drain(s, r)
			tt.check(t, err, len(conn1)+len(conn2))
			assert.Equal(t, "one two", string(artifact(t, s.Result(), "x").Text()))
			assert.Equal(t, 1, r.dones)
		})
	}
}
