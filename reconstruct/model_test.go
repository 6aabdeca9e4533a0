package reconstruct_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
)

// modelStream is a run whose answer has a cited text part, a cited data part
// and a url part, with metadata whose typed fields the decoder unescapes
// (so that they are not slices of Metadata.Raw), a status message with
// every field, and $usage.
var modelStream = sseStream("m",
	task("TASK_STATE_WORKING"),
	artifactUpdate("art-1", false, true, `{"type":"an\u0073wer","note":1}`,
		`{"text":"HbA1c 6.8%.","metadata":{"citations":[{"dataPartId":"dp.labs","offset":11,"locator":"/hba1c"}]}}`,
		`{"data":{"hba1c":6.8},"metadata":{"dataPartId":"dp.l\u0061bs"}}`,
		`{"url":"https://example.com/r.pdf","filename":"r.pdf","mediaType":"application/pdf"}`),
	`{"statusUpdate":{"taskId":"`+taskID+`","contextId":"`+ctxID+`","status":{"state":"TASK_STATE_COMPLETED","message":`+
		`{"messageId":"msg-1","contextId":"`+ctxID+`","taskId":"`+taskID+`","role":"ROLE_AGENT","parts":[{"text":"done"}],`+
		`"metadata":{"$timestamp":"2026-09-01T12:00:0\u0031Z"},"extensions":["urn:x"],"referenceTaskIds":["task.other"]}},`+
		`"metadata":{"$usage":{"model":"corti-d\u0065fault","inputTokens":100,"credits":1.5}}}}`,
)

// scribble overwrites b, so that anything still aliasing it shows.
func scribble(b []byte) {
	for i := range b {
		b[i] = '#'
	}
}

// The Result is built of parser's types, owned: after every event the frame
// that carried it is overwritten and the decoder decodes another one, and
// the Result still holds every id, part, metadata view, message and usage as
// sent. Its answer's parts go to citations.Resolve as they are, and give the
// citations the Reducer resolved.
func TestModelOwnedCopies(t *testing.T) {
	lx := sse.NewLexer(nil)
	lx.Write([]byte(modelStream))
	require.NoError(t, lx.Close())
	dec := parser.NewDecoder()
	red := reconstruct.NewReducer(nil)
	var states []reconstruct.Update
	other := []byte(`{"statusUpdate":{"taskId":"zzzz","status":{"state":"TASK_STATE_FAILED","message":{"messageId":"zz","role":"ROLE_USER","parts":[{"text":"zzzzzzzz"}],"metadata":{"$timestamp":"z\u007a"}}},"metadata":{"$usage":{"model":"z\u007azzzzzzzz"}}}}`)
	for lx.Next() {
		f := lx.Frame().Clone()
		ev, err := dec.Decode(&f)
		require.NoError(t, err)
		require.NoError(t, red.Apply(&f, ev))
		for _, u := range red.Pending() {
			if u.Kind == reconstruct.UpdateState {
				states = append(states, u)
			}
		}
		scribble(f.Data)
		scribble(f.ID)
		_, err = dec.Decode(&sse.Frame{Data: other})
		require.NoError(t, err)
	}
	require.NoError(t, red.Finish(int64(len(modelStream)), nil))
	res := red.Result()

	assert.Equal(t, taskID, string(res.TaskID))
	assert.Equal(t, ctxID, string(res.ContextID))
	assert.Equal(t, "m-3", string(res.LastEventID))
	require.NotNil(t, res.Answer)
	a := res.Answer
	assert.Equal(t, "art-1", string(a.ArtifactID))
	assert.Equal(t, `{"type":"an\u0073wer","note":1}`, string(a.Metadata.Raw))
	assert.Equal(t, "answer", string(a.Metadata.Type), "a typed view, unescaped")
	require.Len(t, a.Parts, 3)
	assert.Equal(t, "HbA1c 6.8%.", string(a.Parts[0].Text))
	assert.Equal(t, `[{"dataPartId":"dp.labs","offset":11,"locator":"/hba1c"}]`, string(a.Parts[0].Metadata.Citations))
	assert.Equal(t, `{"hba1c":6.8}`, string(a.Parts[1].Data))
	assert.Equal(t, "dp.labs", string(a.Parts[1].Metadata.DataPartID), "a typed view, unescaped")
	assert.Equal(t, parser.Part{Kind: parser.PartURL, URL: []byte("https://example.com/r.pdf"), Filename: []byte("r.pdf"), MediaType: []byte("application/pdf")}, a.Parts[2])

	m := res.StatusMessage
	require.NotNil(t, m)
	assert.Equal(t, "msg-1", string(m.MessageID))
	assert.Equal(t, taskID, string(m.TaskID))
	assert.Equal(t, ctxID, string(m.ContextID))
	assert.Equal(t, parser.RoleAgent, m.Role)
	assert.Equal(t, "done", string(reconstruct.MessageText(m)))
	assert.Equal(t, "2026-09-01T12:00:01Z", string(m.Metadata.Timestamp), "a typed view, unescaped")
	assert.Equal(t, [][]byte{[]byte("urn:x")}, m.Extensions)
	assert.Equal(t, [][]byte{[]byte("task.other")}, m.ReferenceTaskIDs)
	require.NotNil(t, res.Usage)
	assert.Equal(t, parser.Usage{Model: []byte("corti-default"), InputTokens: 100, Credits: 1.5, Fields: parser.UsageModel | parser.UsageInputTokens | parser.UsageCredits}, *res.Usage)

	// citations reads the answer's parts as they are.
	require.Len(t, a.Citations, 1)
	got := citations.Resolve(a.Parts, nil)
	assert.Empty(t, cmp.Diff(a.Citations, got.Citations, cmp.Comparer(func(x, y error) bool { return x == y })), "(-Reducer +Resolve)")
	assert.Equal(t, "6.8", string(got.Citations[0].Target))

	// Every UpdateState carries its state.
	require.Len(t, states, 2)
	assert.Equal(t, parser.TaskStateWorking, states[0].State)
	assert.Equal(t, parser.TaskStateCompleted, states[1].State)
	assert.Same(t, res.StatusMessage, states[1].Message)
}

// The owned copies do not share room: appending to one of a part's slices,
// which have no room past their length, never writes over the next.
func TestModelCopiesAreCapped(t *testing.T) {
	res, err := reconstruct.Read(strings.NewReader(modelStream), nil)
	require.NoError(t, err)
	p := &res.Answer.Parts[2]
	url, name := bytes.Clone(p.URL), bytes.Clone(p.Filename)
	_ = append(p.URL, "#####"...)
	assert.Equal(t, url, p.URL)
	assert.Equal(t, name, p.Filename, "the file name after the URL grew")
	md := &res.Answer.Metadata
	typ := bytes.Clone(md.Type)
	_ = append(md.Raw, "#####"...)
	assert.Equal(t, typ, md.Type, "the type after Raw grew")
}
