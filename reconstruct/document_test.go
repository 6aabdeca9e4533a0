package reconstruct_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
)

// documentRuns reads every recorded stream of internal/samples and the
// command-line tool's test stream, whole and cut in the middle, leniently
// and under Strict: runs that complete, ask for input, fail, end cut, end
// with a decoding error or a rule broken.
func documentRuns(t *testing.T) map[string]*reconstruct.Result {
	t.Helper()
	paths, err := filepath.Glob("../internal/samples/*.sse")
	require.NoError(t, err)
	paths = append(paths, "../cmd/a2astream/testdata/odd.sse")
	require.Greater(t, len(paths), 1)
	out := map[string]*reconstruct.Result{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		for _, strict := range []bool{false, true} {
			name := filepath.Base(p)
			if strict {
				name += " strict"
			}
			opts := &reconstruct.Options{Strict: strict}
			out[name], _ = reconstruct.Read(bytes.NewReader(data), opts)
			out[name+" cut"], _ = reconstruct.Read(bytes.NewReader(data[:len(data)/2]), opts)
		}
	}
	// The server's error in the stream, after a status with a question.
	serverErr := "id: e1\ndata: {\"task\":{\"id\":\"t1\",\"contextId\":\"c1\",\"status\":{\"state\":\"TASK_STATE_WORKING\",\"message\":{\"messageId\":\"m1\",\"role\":\"ROLE_AGENT\",\"parts\":[{\"text\":\"Looking <it> up\"}]}}}}\n\n" +
		"id: e2\ndata: {\"error\":{\"code\":404,\"status\":\"NOT_FOUND\",\"message\":\"no such task\",\"details\":[{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"TASK_NOT_FOUND\",\"domain\":\"a2a-protocol.org\"}]}}\n\n"
	out["server error"], _ = reconstruct.Read(strings.NewReader(serverErr), nil)
	var api *parser.APIError
	require.ErrorAs(t, out["server error"].Err, &api)
	return out
}

// sameError compares errors by their text.
var sameError = cmp.Comparer(func(a, b error) bool {
	return (a == nil) == (b == nil) && (a == nil || a.Error() == b.Error())
})

// roundTrip compares what the document holds: messages lose their
// contextId, taskId, extensions and referenceTaskIds; empty and nil are
// not told apart.
var roundTrip = cmp.Options{
	cmpopts.IgnoreUnexported(reconstruct.Artifact{}),
	cmpopts.IgnoreFields(parser.Message{}, "ContextID", "TaskID", "Extensions", "ReferenceTaskIDs"),
	cmpopts.EquateEmpty(),
	sameError,
}

// json.Marshal of a Result is its --json document, and json.Unmarshal
// reads it back to an equal Result, whose document is the same again.
func TestResultJSONRoundTrip(t *testing.T) {
	for name, res := range documentRuns(t) {
		t.Run(name, func(t *testing.T) {
			// An Encoder that does not escape HTML writes the document's
			// bytes; json.Marshal escapes <, > and & in it.
			want := reconstruct.AppendJSON(nil, res, res.Err, nil)
			var enc bytes.Buffer
			e := json.NewEncoder(&enc)
			e.SetEscapeHTML(false)
			require.NoError(t, e.Encode(res))
			assert.Equal(t, string(want), enc.String(), "the Encoder and the document")
			doc, err := json.Marshal(res)
			require.NoError(t, err)
			var escaped bytes.Buffer
			json.HTMLEscape(&escaped, bytes.TrimSuffix(want, []byte("\n")))
			assert.Equal(t, escaped.String(), string(doc), "json.Marshal and the document")

			var back reconstruct.Result
			require.NoError(t, json.Unmarshal(doc, &back))
			assert.Empty(t, cmp.Diff(res, &back, roundTrip))
			again, err := json.Marshal(&back)
			require.NoError(t, err)
			assert.Equal(t, string(doc), string(again), "the document of the Result read back")
			if res.Answer != nil {
				assert.Equal(t, string(res.Answer.Text()), string(back.Answer.Text()), "the answer's text")
			}
			checkErrorKind(t, res.Err, back.Err)

			// An Artifact alone, as the document's artifacts are.
			for i, a := range res.Artifacts {
				doc, err := json.Marshal(a)
				require.NoError(t, err)
				var got reconstruct.Artifact
				require.NoError(t, json.Unmarshal(doc, &got))
				assert.Empty(t, cmp.Diff(a, &got, roundTrip), "artifact %d", i)
			}
		})
	}
}

// checkErrorKind checks that the error read back matches what the run's
// did with errors.Is and errors.As.
func checkErrorKind(t *testing.T, want, got error) {
	t.Helper()
	for _, s := range []error{reconstruct.ErrTruncated, reconstruct.ErrServer, io.ErrUnexpectedEOF, parser.ErrInvalidJSON, parser.ErrLegacyShape, reconstruct.ErrTransition, reconstruct.ErrNoAnswer} {
		assert.Equal(t, errors.Is(want, s), errors.Is(got, s), "errors.Is %v", s)
	}
	var te *reconstruct.TruncatedError
	if errors.As(want, &te) {
		var gte *reconstruct.TruncatedError
		require.ErrorAs(t, got, &gte)
		assert.Equal(t, te.TaskID, gte.TaskID)
		assert.Equal(t, te.LastEventID, gte.LastEventID)
	}
	var api *parser.APIError
	if errors.As(want, &api) {
		var gapi *parser.APIError
		require.ErrorAs(t, got, &gapi)
		assert.Equal(t, api.Error(), gapi.Error())
	}
	var d *reconstruct.Diagnostic
	assert.Equal(t, errors.As(want, &d), errors.As(got, &d), "a rule broken")
}

// The command-line tool's --json documents read back to Results whose
// documents are the same bytes.
func TestGoldenDocumentsRoundTrip(t *testing.T) {
	paths, err := filepath.Glob("../cmd/a2astream/testdata/golden/*.json.golden")
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			out, err := os.ReadFile(p)
			require.NoError(t, err)
			_, golden, ok := bytes.Cut(out, []byte("-- stdout --\n"))
			require.True(t, ok)
			golden, _, ok = bytes.Cut(golden, []byte("-- stderr --\n"))
			require.True(t, ok)
			var res reconstruct.Result
			require.NoError(t, json.Unmarshal(golden, &res))
			got := reconstruct.AppendJSON(nil, &res, res.Err, &reconstruct.JSONOptions{Indent: true})
			assert.Equal(t, string(golden), string(got))
		})
	}
}

// A document that is not one gives a *DocumentError naming the member by
// its JSON Pointer, array indices and escaped names included.
func TestResultJSONErrors(t *testing.T) {
	tests := []struct {
		name, doc, pointer string
		err                error
	}{
		{"not JSON", `{"state":`, "", reconstruct.ErrDocument},
		{"not an object", `[]`, "", reconstruct.ErrDocument},
		{"unknown state", `{"state":"DONE"}`, "/state", parser.ErrUnknownName},
		{"state of A2A 0.3", `{"state":"completed"}`, "/state", parser.ErrLegacyShape},
		{"id of the wrong type", `{"taskId":7}`, "/taskId", reconstruct.ErrDocument},
		{"unknown part kind", `{"artifacts":[{"artifactId":"a","parts":[{"kind":"text","text":"x"},{"kind":"file"}]}]}`, "/artifacts/0/parts/1/kind", parser.ErrUnknownName},
		{"bad base64", `{"artifacts":[{"parts":[]},{"parts":[{"kind":"raw","raw":"!!"}]}]}`, "/artifacts/1/parts/0/raw", reconstruct.ErrDocument},
		{"bad role", `{"statusMessage":{"role":"agent"}}`, "/statusMessage/role", parser.ErrLegacyShape},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var res reconstruct.Result
			err := json.Unmarshal([]byte(tt.doc), &res)
			if tt.name == "not JSON" {
				// encoding/json checks the syntax first.
				err = res.UnmarshalJSON([]byte(tt.doc))
			}
			require.ErrorIs(t, err, tt.err)
			var de *reconstruct.DocumentError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, tt.pointer, de.JSONPointer)
			assert.True(t, strings.HasPrefix(de.Error(), "reconstruct: result document"), de.Error())
		})
	}
}

// Errors that the document names but this package does not rebuild keep
// their type and text, and match the sentinel their text ends with.
func TestStoredErrors(t *testing.T) {
	for _, tt := range []struct {
		doc, typ, msg string
		is            error
	}{
		{`{"error":{"type":"io","message":"read: connection reset"}}`, "io", "read: connection reset", nil},
		{`{"error":{"type":"limit","message":"reconstruct: frame 2 at byte 10: artifact exceeds MaxArtifactSize","offset":10,"seq":2}}`, "limit", "reconstruct: frame 2 at byte 10: artifact exceeds MaxArtifactSize", reconstruct.ErrArtifactTooLarge},
		// A document written before errors named their package once.
		{`{"error":{"type":"limit","message":"reconstruct: frame 2 at byte 10: reconstruct: artifact exceeds MaxArtifactSize","offset":10,"seq":2}}`, "limit", "reconstruct: frame 2 at byte 10: reconstruct: artifact exceeds MaxArtifactSize", reconstruct.ErrArtifactTooLarge},
		{`{"error":{"type":"syntax","message":"parser: frame 5 (id \"r4\") at byte 916, data byte 1: invalid JSON","offset":916,"seq":5}}`, "syntax", `parser: frame 5 (id "r4") at byte 916, data byte 1: invalid JSON`, parser.ErrInvalidJSON},
	} {
		var res reconstruct.Result
		require.NoError(t, json.Unmarshal([]byte(tt.doc), &res))
		var se *reconstruct.StoredError
		require.ErrorAs(t, res.Err, &se)
		assert.Equal(t, tt.typ, se.Type)
		assert.Equal(t, tt.msg, res.Err.Error())
		if tt.is != nil {
			assert.ErrorIs(t, res.Err, tt.is)
		}
	}
}

// TestAppendPartsAndMessageJSON checks that AppendMessageJSON and
// AppendPartsJSON write a message and its parts as the document holds
// them, for every message and artifact of the recorded runs, and null for
// no message.
func TestAppendPartsAndMessageJSON(t *testing.T) {
	assert.Equal(t, "null", string(reconstruct.AppendMessageJSON(nil, nil)))
	assert.Equal(t, "[]", string(reconstruct.AppendPartsJSON(nil, nil)))
	seen := 0
	for name, res := range documentRuns(t) {
		var doc struct {
			StatusMessage, Message json.RawMessage
			Artifacts              []struct{ Parts json.RawMessage }
		}
		require.NoError(t, json.Unmarshal(reconstruct.AppendJSON(nil, res, nil, nil), &doc), name)
		for _, m := range []struct {
			msg *parser.Message
			doc json.RawMessage
		}{{res.StatusMessage, doc.StatusMessage}, {res.Message, doc.Message}} {
			assert.Equal(t, string(m.doc), string(reconstruct.AppendMessageJSON([]byte("x"), m.msg))[1:], "%s: a message", name)
			if m.msg != nil {
				seen++
			}
		}
		require.Len(t, doc.Artifacts, len(res.Artifacts), name)
		for i, a := range res.Artifacts {
			assert.Equal(t, string(doc.Artifacts[i].Parts), string(reconstruct.AppendPartsJSON(nil, a.Parts)), "%s: artifact %d", name, i)
			seen++
		}
	}
	assert.Positive(t, seen, "messages and artifacts compared")
}
