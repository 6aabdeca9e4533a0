package reconstruct_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
)

// A task event sets the run from its snapshot, which may hold several
// parts per artifact: they are kept as sent, and a terminal snapshot seals
// its artifacts and gives the answer.
func TestTaskSnapshot(t *testing.T) {
	snap := `{"task":{"id":"` + taskID + `","contextId":"` + ctxID + `","status":{"state":"TASK_STATE_COMPLETED"},` +
		`"artifacts":[` +
		`{"artifactId":"think","parts":[{"text":"Let me "},{"text":"look."}],"metadata":{"type":"intermediate-thinking"}},` +
		`{"artifactId":"ans","name":"answer","parts":[{"text":"Dose "},{"text":"5 mg."},{"data":{"dose":5},"metadata":{"dataPartId":"g"}}]}],` +
		`"metadata":{"$usage":` + usage + `}}}`
	r := runStream(sse("s", snap), whole, nil)
	require.NoError(t, r.err)
	res := r.res
	assert.Equal(t, parser.TaskStateCompleted, res.State)
	assert.Equal(t, []string{"think", "ans"}, ids(res.Artifacts))
	require.NotNil(t, res.Answer)
	assert.Equal(t, "ans", res.Answer.ID)
	assert.Equal(t, "answer", res.Answer.Name)
	require.Len(t, res.Answer.Parts, 3, "a snapshot's parts are kept as sent")
	assert.Equal(t, "Dose 5 mg.", string(res.Answer.Text()))
	assert.True(t, res.Answer.Sealed)
	assert.Equal(t, []string{"think"}, ids(res.Thinking()))
	require.NotNil(t, res.Usage)
	assert.Equal(t, 1.2, res.Usage.Credits)
	assert.Empty(t, res.Diagnostics)
	assert.Equal(t, "Dose 5 mg.", r.live["ans"])

	// A working snapshot: its artifacts go on with the deltas that follow.
	in := sse("w", `{"task":{"id":"`+taskID+`","status":{"state":"TASK_STATE_WORKING"},"artifacts":[{"artifactId":"a","parts":[{"text":"one "},{"text":"two "}]}]}}`,
		more("a", "three"), completion("a", text("one two three")), status("TASK_STATE_COMPLETED", "", ""))
	r = runStream(in, whole, nil)
	require.NoError(t, r.err)
	assert.Equal(t, "one two three", answerText(r.res))
	assert.Equal(t, "one two three", r.live["a"])
	assert.NotContains(t, r.kinds, reconstruct.UpdateReplaced)
}

// The Reducer on its own: events without frames, Fail, Finish, Apply after
// Finish, and one UpdateDone.
func TestReducerDirect(t *testing.T) {
	var dec parser.Decoder
	event := func(data string) *parser.Event {
		f := parser.Frame{Data: []byte(data)}
		ev, err := dec.Decode(&f)
		require.NoError(t, err)
		return ev
	}
	r := reconstruct.NewReducer(nil)
	require.NoError(t, r.Apply(nil, event(task("TASK_STATE_WORKING"))))
	require.NoError(t, r.Apply(nil, event(first("a", "x"))))
	require.Len(t, r.Updates(), 1)
	assert.Equal(t, reconstruct.UpdateText, r.Updates()[0].Kind)
	assert.False(t, r.Done())

	boom := errors.New("read failed")
	r.Fail(boom)
	require.Len(t, r.Updates(), 1)
	assert.Equal(t, reconstruct.UpdateDone, r.Updates()[0].Kind)
	assert.Equal(t, boom, r.Err())
	assert.True(t, r.Done())
	assert.Equal(t, boom, r.Apply(nil, event(more("a", "y"))), "errors are sticky")
	assert.Empty(t, r.Updates())
	assert.Equal(t, boom, r.Finish(10, nil))
	assert.Empty(t, r.Updates(), "the run had its UpdateDone already")
	assert.Equal(t, "x", string(r.Result().Artifacts[0].Text()))

	r.Reset(nil)
	require.NoError(t, r.Apply(nil, event(task("TASK_STATE_WORKING"))))
	err := r.Finish(42, nil)
	var te *reconstruct.TruncatedError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, int64(42), te.Offset)
	assert.Nil(t, te.Cut)
	require.Len(t, r.Updates(), 1)
	assert.Equal(t, reconstruct.UpdateDone, r.Updates()[0].Kind)
	assert.Equal(t, err, r.Apply(nil, event(more("a", "y"))), "errors are sticky")
	assert.Equal(t, err, r.Finish(42, nil), "Finish again returns the same")
	assert.Empty(t, r.Updates())

	r.Reset(nil)
	require.NoError(t, r.Apply(nil, event(completion("a", text("ok")))))
	require.NoError(t, r.Apply(nil, event(status("TASK_STATE_COMPLETED", "", ""))))
	require.NoError(t, r.Finish(1, nil))
	assert.ErrorIs(t, r.Apply(nil, event(more("a", "y"))), reconstruct.ErrClosed)
	assert.Equal(t, "ok", answerText(r.Result()))
}

// The error messages say where, and what to resume with.
func TestErrorMessages(t *testing.T) {
	in := sse("m", task("TASK_STATE_WORKING"), first("a", "x")) + "data: {\"art"
	_, err := reconstruct.Read(strings.NewReader(in), nil)
	require.Error(t, err)
	assert.Equal(t, `reconstruct: stream ended in state TASK_STATE_WORKING after `+strconv.Itoa(len(in))+` bytes; resubscribe to task "`+taskID+`" with Last-Event-ID "m-2" (cut inside an event)`, err.Error())

	_, err = reconstruct.Read(strings.NewReader(sse("m", task("TASK_STATE_WORKING"), `{"error":{"code":503,"status":"UNAVAILABLE","message":"busy"}}`)), nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `reconstruct: frame 2 (id "m-2") at byte `)
	assert.Contains(t, err.Error(), "busy")

	d := reconstruct.Diagnostic{Where: reconstruct.Where{Offset: 7, Seq: 2, ID: "e"}, ArtifactID: "a", From: parser.TaskStateCompleted, To: parser.TaskStateWorking, Err: reconstruct.ErrAfterFinal}
	assert.Equal(t, `reconstruct: frame 2 (id "e") at byte 7 artifact "a" TASK_STATE_COMPLETED -> TASK_STATE_WORKING: reconstruct: event after a terminal state`, d.Error())
	assert.Equal(t, "Text", reconstruct.UpdateText.String())
	assert.Equal(t, "Invalid(9)", reconstruct.UpdateKind(9).String())
}
