package errtext_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/httpstream"
)

// prefixes are the package names that start the project's error texts.
var prefixes = []string{"parser: ", "reconstruct: ", "citations: ", "httpstream: ", "utf8buf: ", "jsonx: "}

// runErr returns the error of a run over stream read under opts.
func runErr(t *testing.T, stream string, opts *reconstruct.Options) error {
	t.Helper()
	_, err := reconstruct.Read(strings.NewReader(stream), opts)
	require.Error(t, err)
	return err
}

// teeTransport answers with one event of a task, then ends the body.
type teeTransport struct{}

func (teeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close()
	}
	return &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": {"text/event-stream"}},
		Body:       io.NopCloser(strings.NewReader(`data: {"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}` + "\n\n")),
		Request:    req,
	}, nil
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

// teeErr returns the error of a run whose Tee fails with err.
func teeErr(t *testing.T, err error) error {
	c := &httpstream.Client{BaseURL: "http://agent.test/a2a", Retries: -1, HTTP: &http.Client{Transport: teeTransport{}}, Tee: failWriter{err}}
	run, rerr := c.SendStreamingMessage(t.Context(), &httpstream.UserMessage{Text: "hi"})
	require.NoError(t, rerr)
	_, rerr = run.Wait()
	require.Error(t, rerr)
	return rerr
}

// TestWrappedErrorsNamePackageOnce checks the error types that wrap
// another error, of every package that has them: the text names each
// package at most once, starts with the outer error's package, and keeps
// the wrapped error's reason.
func TestWrappedErrorsNamePackageOnce(t *testing.T) {
	const task = `data: {"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}` + "\n\n"
	tests := []struct {
		name   string
		err    error
		pkg    string // the outer error's package
		reason string // what the text must still say
	}{
		{"parser.DecodeError", &parser.DecodeError{JSONOffset: 28, JSONPointer: "/artifactUpdate/append", Err: parser.ErrFieldType}, "parser", "wrong JSON type for field"},
		{"parser.DecodeError of a frame", func() error {
			_, err := parser.NewDecoder().Decode(&sse.Frame{Data: []byte(`{"statusUpdate":{"status":{"state":"working"}}}`), Seq: 3})
			return err
		}(), "parser", "A2A 0.3 shape"},
		{"parser.NameError", func() error { _, err := parser.TaskState(99).MarshalText(); return err }(), "parser", "TaskState"},
		{"reconstruct.Diagnostic (issue 33's text)", runErr(t, task+`id: 2`+"\n"+`data: {"artifactUpdate":{"taskId":"t","contextId":"c","append":true,"artifact":{"artifactId":"a","parts":[{"text":"x"}]}}}`+"\n\n", &reconstruct.Options{Strict: true}), "reconstruct", "append to an unknown artifact"},
		{"reconstruct.Diagnostic", &reconstruct.Diagnostic{Position: sse.Position{Offset: 7, Seq: 2}, ArtifactID: []byte("a"), Err: reconstruct.ErrAfterFinal}, "reconstruct", "event after a terminal state"},
		{"reconstruct.EventError of a limit", &reconstruct.EventError{Position: sse.Position{Offset: 10, Seq: 2}, Err: reconstruct.ErrArtifactTooLarge}, "reconstruct", "artifact exceeds MaxArtifactSize"},
		{"reconstruct.EventError of the server's error", runErr(t, task+`data: {"error":{"code":404,"status":"NOT_FOUND","message":"no such task"}}`+"\n\n", nil), "reconstruct", "parser: server error 404 NOT_FOUND: no such task"},
		{"reconstruct.TruncatedError of a refusal", &reconstruct.TruncatedError{TaskID: "t", Offset: 5, Cause: &reconstruct.HTTPError{StatusCode: 502, ContentType: "text/html"}}, "reconstruct", "cause: HTTP 502 with text/html"},
		{"reconstruct.TruncatedError of a reset", &reconstruct.TruncatedError{TaskID: "t", Offset: 5, Cause: httpstream.ErrIdleTimeout}, "reconstruct", "cause: httpstream: no data received"},
		{"reconstruct.DocumentError", &reconstruct.DocumentError{Offset: 3, JSONPointer: "/state", Err: reconstruct.ErrDocument}, "reconstruct", "not a result document"},
		{"reconstruct.DocumentError of a decoding", &reconstruct.DocumentError{Offset: 3, JSONPointer: "/answer/metadata", Err: &parser.DecodeError{JSONOffset: 1, Err: parser.ErrInvalidJSON}}, "reconstruct", "parser: "},
		{"reconstruct.NotEventStreamError", &reconstruct.NotEventStreamError{StatusCode: 404, ContentType: "application/json", Err: &parser.APIError{Code: 404, Message: "gone"}}, "reconstruct", "parser: server error 404: gone"},
		{"citations.LocateError", &citations.LocateError{Pointer: "/a/0", Token: 1, Err: citations.ErrNoMember}, "citations", "object has no such member"},
		{"citations.Diagnostic", citations.Diagnostic{Part: 1, Index: 0, Offset: -1, Err: &citations.LocateError{Pointer: "/a", Token: 0, Err: citations.ErrNoMember}}, "citations", "object has no such member"},
		{"httpstream Tee failure", teeErr(t, errors.New("httpstream: disk full")), "reconstruct", "Tee failed: disk full"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Error(t, tt.err)
			msg := tt.err.Error()
			assert.True(t, strings.HasPrefix(msg, tt.pkg+": "), "starts with %q: %s", tt.pkg, msg)
			assert.Contains(t, msg, tt.reason)
			for _, p := range prefixes {
				assert.LessOrEqual(t, strings.Count(msg, p), 1, "%q in %s", p, msg)
			}
		})
	}
}
