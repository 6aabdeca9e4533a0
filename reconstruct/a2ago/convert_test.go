package a2ago_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"iter"
	"reflect"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/internal/samples"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/a2ago"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sampleEvents reads a recorded stream with a2astream's lexer and decoder
// and converts each event with ToA2A, as an SDK that reads with a2astream
// and hands a2a-go's types on does.
func sampleEvents(t *testing.T, data []byte) []a2a.Event {
	r := sse.NewReader(bytes.NewReader(data), nil)
	var d parser.Decoder
	var out []a2a.Event
	for r.Next() {
		ev, err := d.Decode(r.Frame())
		require.NoError(t, err)
		a, err := a2ago.ToA2A(ev)
		require.NoError(t, err)
		out = append(out, a)
	}
	require.NoError(t, r.Err())
	return out
}

// seqOf is the iterator a2a-go's client would hand out for events, ending
// with err when it is not nil.
func seqOf(events []a2a.Event, err error) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		for _, ev := range events {
			if !yield(ev, nil) {
				return
			}
		}
		if err != nil {
			yield(nil, err)
		}
	}
}

// sameJSON compares the exact JSON of metadata (Metadata.Raw, and its
// citations), data parts and citation targets as values: through a2a-go's maps the key order and number
// spelling change (and with them a target's offset in its data part).
var sameJSON = cmp.Options{
	cmp.FilterPath(func(p cmp.Path) bool {
		if sf, ok := p.Last().(cmp.StructField); ok {
			switch sf.Name() {
			case "Metadata", "Raw", "Citations", "Data", "Target":
				return true
			}
		}
		return false
	}, cmp.Comparer(func(a, b []byte) bool {
		if a == nil || b == nil {
			return a == nil && b == nil
		}
		var va, vb any
		if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
			return bytes.Equal(a, b)
		}
		return reflect.DeepEqual(va, vb)
	})),
	cmpopts.IgnoreFields(citations.Resolved{}, "TargetOffset"),
}

// TestSamplesThroughA2A reads every recorded stream twice: with
// reconstruct.Read on its bytes, and as a2a-go events (decoded by
// a2astream, converted with ToA2A) reduced with Reduce. The Results are
// equal except for what a2a-go's events do not carry: the SSE ids
// (LastEventID, a Position's ID), the byte offsets (Offset is -1), and the
// spelling of metadata and data JSON (compared as values).
func TestSamplesThroughA2A(t *testing.T) {
	names, err := fs.Glob(samples.Streams, "*.sse")
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			data, err := fs.ReadFile(samples.Streams, name)
			require.NoError(t, err)
			want, wantErr := reconstruct.Read(bytes.NewReader(data), nil)
			got, gotErr := a2ago.Reduce(seqOf(sampleEvents(t, data), nil), nil)
			assert.Equal(t, wantErr == nil, gotErr == nil, "byte path: %v, adapter: %v", wantErr, gotErr)
			for i := range want.Diagnostics {
				want.Diagnostics[i].Offset, want.Diagnostics[i].ID = -1, nil
			}
			assert.Empty(t, cmp.Diff(want, got,
				cmpopts.IgnoreFields(reconstruct.Result{}, "LastEventID"),
				cmpopts.IgnoreUnexported(reconstruct.Artifact{}),
				sameJSON,
				cmp.Comparer(func(a, b error) bool { return (a == nil) == (b == nil) }),
			))
			assert.Empty(t, got.LastEventID)
		})
	}
}

// TestToA2A checks the a2a-go values that ToA2A makes of decoded events:
// what a2a-go's own decoder makes of the same JSON.
func TestToA2A(t *testing.T) {
	tests := []struct {
		name string
		data string
	}{
		{"task", `{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING","timestamp":"2026-05-19T12:40:00.5Z","message":{"messageId":"m1","role":"ROLE_AGENT","parts":[{"text":"é"}]}},"artifacts":[{"artifactId":"a1","name":"n","parts":[{"text":"日本"},{"raw":"AAEC","filename":"f.bin","mediaType":"application/octet-stream"},{"url":"https://x/y"}]}],"history":[{"messageId":"m0","role":"ROLE_USER","parts":[{"text":"hi"}],"referenceTaskIds":["t0"],"extensions":["urn:x"]}],"metadata":{"b":1,"a":[true,null]}}}`},
		{"statusUpdate", `{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"},"metadata":{"$usage":{"model":"m","inputTokens":5,"credits":0.5}}}}`},
		{"artifactUpdate", `{"artifactUpdate":{"taskId":"t1","contextId":"c1","append":true,"lastChunk":true,"artifact":{"artifactId":"a1","parts":[{"text":"x","metadata":{"citations":[{"data_part_id":"d","offset":1}]}},{"data":{"k":[1,2.5,"🦶"]},"metadata":{"dataPartId":"d"}}],"metadata":{"type":"intermediate-thinking"}}}}`},
		{"message", `{"message":{"messageId":"m1","contextId":"c1","role":"ROLE_AGENT","parts":[{"text":"direct"}],"metadata":{"$timestamp":"2026-05-19T12:10:02Z"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d parser.Decoder
			ev, err := d.Decode(&sse.Frame{Data: []byte(tt.data)})
			require.NoError(t, err)
			got, err := a2ago.ToA2A(ev)
			require.NoError(t, err)
			var want a2a.StreamResponse
			require.NoError(t, json.Unmarshal([]byte(tt.data), &want))
			assert.Empty(t, cmp.Diff(want.Event, got))
		})
	}
}

// TestToA2AErrors checks the error ToA2A returns for an error event and for
// events a2a-go has no type for.
func TestToA2AErrors(t *testing.T) {
	var d parser.Decoder
	ev, err := d.Decode(&sse.Frame{Data: []byte(`{"error":{"code":404,"status":"NOT_FOUND","message":"no such task","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"},{"@type":"x","k":"v"}]}}`)})
	require.NoError(t, err)
	_, err = a2ago.ToA2A(ev)
	require.ErrorIs(t, err, a2a.ErrTaskNotFound)
	var ae *a2a.Error
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "no such task", ae.Message)

	_, err = a2ago.ToA2A(&parser.Event{Kind: parser.KindUnknown})
	require.ErrorIs(t, err, a2ago.ErrNotEvent)

	ts, err := d.Decode(&sse.Frame{Data: []byte(`{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_WORKING","timestamp":"yesterday"}}}`)})
	require.NoError(t, err)
	_, err = a2ago.ToA2A(ts)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "yesterday")
}

// TestReduceEnds checks how the end of a2a-go's sequence ends the run.
func TestReduceEnds(t *testing.T) {
	data, err := fs.ReadFile(samples.Streams, "completed.sse")
	require.NoError(t, err)
	all := sampleEvents(t, data)
	cut := all[:len(all)/2]
	reset := errors.New("connection reset by peer")
	tests := []struct {
		name  string
		seq   iter.Seq2[a2a.Event, error]
		check func(t *testing.T, res *reconstruct.Result, err error)
	}{
		{"whole run", seqOf(all, nil), func(t *testing.T, res *reconstruct.Result, err error) {
			require.NoError(t, err)
			assert.Equal(t, parser.TaskStateCompleted, res.State)
		}},
		{"ends early", seqOf(cut, nil), func(t *testing.T, res *reconstruct.Result, err error) {
			var te *reconstruct.TruncatedError
			require.ErrorAs(t, err, &te)
			assert.Equal(t, res.TaskID, te.TaskID)
			assert.NotEmpty(t, te.TaskID)
			assert.Nil(t, te.Cause)
			assert.NotErrorIs(t, err, io.EOF)
			assert.Equal(t, int64(-1), te.Offset, "a2a-go's client counts no bytes")
			assert.NotContains(t, err.Error(), "bytes", "no byte count where none is known")
		}},
		{"transport error", seqOf(cut, reset), func(t *testing.T, res *reconstruct.Result, err error) {
			var te *reconstruct.TruncatedError
			require.ErrorAs(t, err, &te)
			assert.ErrorIs(t, err, reset)
			assert.ErrorIs(t, err, reconstruct.ErrTruncated)
		}},
		{"cancelled", seqOf(cut, context.Canceled), func(t *testing.T, res *reconstruct.Result, err error) {
			assert.ErrorIs(t, err, reconstruct.ErrTruncated)
			assert.ErrorIs(t, err, context.Canceled)
		}},
		{"transport error after the end", seqOf(all, reset), func(t *testing.T, res *reconstruct.Result, err error) {
			require.NoError(t, err)
			assert.Equal(t, parser.TaskStateCompleted, res.State)
		}},
		{"server error", seqOf(cut, a2a.NewError(a2a.ErrTaskNotFound, "gone")), func(t *testing.T, res *reconstruct.Result, err error) {
			require.ErrorIs(t, err, reconstruct.ErrServer)
			var ee *reconstruct.EventError
			require.ErrorAs(t, err, &ee)
			assert.Equal(t, int64(len(cut)+1), ee.Seq, "the error's ordinal")
			var api *parser.APIError
			require.ErrorAs(t, err, &api)
			assert.Equal(t, "gone", api.Message)
			assert.Equal(t, "TASK_NOT_FOUND", api.Reason)
			assert.NotEmpty(t, res.Artifacts, "what came before is kept")
		}},
		{"sentinel error", seqOf(nil, a2a.ErrUnauthenticated), func(t *testing.T, res *reconstruct.Result, err error) {
			require.ErrorIs(t, err, reconstruct.ErrServer)
			var api *parser.APIError
			require.ErrorAs(t, err, &api)
			assert.Equal(t, "UNAUTHENTICATED", api.Reason)
		}},
		{"nil event", seqOf(append(cut[:2:2], nil), nil), func(t *testing.T, res *reconstruct.Result, err error) {
			require.ErrorIs(t, err, a2ago.ErrNilEvent)
			var ee *reconstruct.EventError
			require.ErrorAs(t, err, &ee)
			assert.Equal(t, int64(3), ee.Seq, "the event's ordinal")
		}},
		{"nil artifact", seqOf(append(cut[:2:2], &a2a.TaskArtifactUpdateEvent{}), nil), func(t *testing.T, res *reconstruct.Result, err error) {
			require.ErrorIs(t, err, a2ago.ErrNilEvent)
		}},
		{"bad state", seqOf(append(cut[:2:2], &a2a.TaskStatusUpdateEvent{TaskID: "x", Status: a2a.TaskStatus{State: "DONE"}}), nil), func(t *testing.T, res *reconstruct.Result, err error) {
			var de *parser.DecodeError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, int64(3), de.Seq)
			assert.ErrorIs(t, err, parser.ErrFieldValue)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := a2ago.Reduce(tt.seq, nil)
			require.NotNil(t, res)
			assert.Equal(t, res.Err, err)
			tt.check(t, res, err)
		})
	}
}

// TestUpdatesStop checks that stopping the iteration of Updates stops
// ranging over a2a-go's sequence.
func TestUpdatesStop(t *testing.T) {
	data, err := fs.ReadFile(samples.Streams, "completed.sse")
	require.NoError(t, err)
	all := sampleEvents(t, data)
	pulled := 0
	seq := func(yield func(a2a.Event, error) bool) {
		for _, ev := range all {
			pulled++
			if !yield(ev, nil) {
				return
			}
		}
	}
	for u, err := range a2ago.Updates(seq, nil) {
		require.NoError(t, err)
		if u.Kind == reconstruct.UpdateText {
			break
		}
	}
	assert.Less(t, pulled, len(all))
}

// wireOf writes events as a2a-go's REST server does (data lines of
// a2a.StreamResponse JSON), without ids.
func wireOf(t *testing.T, events []a2a.Event) string {
	var b strings.Builder
	for _, ev := range events {
		data, err := json.Marshal(a2a.StreamResponse{Event: ev})
		require.NoError(t, err)
		b.WriteString("data: " + string(data) + "\n\n")
	}
	return b.String()
}

// TestDiagnosticsMatch feeds runs that break the rules, which a2a-go's
// server refuses to send but another server may, through the adapter and
// through the byte path: the same diagnostics, at the same ordinals, and
// the same error under Options.Strict.
func TestDiagnosticsMatch(t *testing.T) {
	info := a2a.TaskInfo{TaskID: "t1", ContextID: "c1"}
	working := &a2a.Task{ID: "t1", ContextID: "c1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}
	orphan := a2a.NewArtifactUpdateEvent(info, "a1", a2a.NewTextPart("appended to nothing"))
	closing := a2a.NewArtifactUpdateEvent(info, "a1", a2a.NewTextPart("answer"))
	closing.Append, closing.LastChunk = false, true
	completed := &a2a.TaskStatusUpdateEvent{TaskID: "t1", ContextID: "c1", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted}}
	late := &a2a.TaskStatusUpdateEvent{TaskID: "t1", ContextID: "c1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}
	other := a2a.NewArtifactUpdateEvent(a2a.TaskInfo{TaskID: "t2", ContextID: "c1"}, "a9", a2a.NewTextPart("x"))
	events := []a2a.Event{working, orphan, other, closing, completed, late}
	for _, strict := range []bool{false, true} {
		opts := &reconstruct.Options{Strict: strict}
		want, wantErr := reconstruct.Read(strings.NewReader(wireOf(t, events)), opts)
		got, err := a2ago.Reduce(seqOf(events, nil), opts)
		for i := range want.Diagnostics {
			assert.Equal(t, int64(-1), got.Diagnostics[i].Offset)
			want.Diagnostics[i].Offset = -1 // the Strict error is this Diagnostic
		}
		if strict {
			require.Error(t, err)
			assert.Equal(t, wantErr.Error(), err.Error())
		} else {
			require.NoError(t, err)
			require.NoError(t, wantErr)
			require.Len(t, got.Diagnostics, 3)
		}
		assert.Empty(t, cmp.Diff(want, got, resultDiff...))
		assert.Empty(t, cmp.Diff(want.Diagnostics, got.Diagnostics, cmpopts.IgnoreFields(reconstruct.Diagnostic{}, "Err")))
	}
}
