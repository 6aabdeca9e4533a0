package errtext_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/httpstream"
)

// hostile is what a server or an agent puts in every text it sends: a
// clear screen (CSI), a window title (OSC ended by BEL), a C1 CSI, a
// right-to-left override and isolate, and a forged log line.
const hostile = "x\x1b[2J\x1b]0;PWNED\x07\u009b31m 5\u202e01\u2067y\u2069\u200f\r\nFAKE"

// jsonHostile is hostile as the content of a JSON string: its C0
// characters as \u escapes, the rest as it is.
func jsonHostile() string {
	r := strings.NewReplacer("\x1b", `\u001b`, "\x07", `\u0007`, "\r", `\r`, "\n", `\n`)
	return r.Replace(hostile)
}

// taskEvent starts a run of task id.
func taskEvent(id string) string {
	return `data: {"task":{"id":"` + id + `","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}` + "\n\n"
}

// readErr returns the error of reconstruct.Read over stream under opts,
// and its result.
func readErr(t *testing.T, stream string, opts *reconstruct.Options) (*reconstruct.Result, error) {
	t.Helper()
	res, err := reconstruct.Read(strings.NewReader(stream), opts)
	return res, err
}

// serve returns a client of a fake agent that answers every call with
// status, content type and body.
func serve(t *testing.T, status int, contentType, body string) *httpstream.Client {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = []string{contentType}
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return &httpstream.Client{BaseURL: srv.URL + "/a2a", Retries: -1}
}

// sendErr returns the error of a streaming call to c, whether the call
// or the run fails.
func sendErr(t *testing.T, c *httpstream.Client) error {
	run, err := c.SendStreamingMessage(t.Context(), &httpstream.UserMessage{Text: "hi"})
	if err != nil {
		return err
	}
	_, err = run.Wait()
	return err
}

// checkNoControl fails the test when text holds a C0 character, DEL, a C1
// character, a bidirectional formatting character or ill-formed UTF-8.
func checkNoControl(t *testing.T, text string) {
	t.Helper()
	require.True(t, utf8.ValidString(text), "ill-formed UTF-8 in %q", text)
	for i, r := range text {
		if r < 0x20 || r >= 0x7f && r <= 0x9f || bidiControl(r) {
			require.Failf(t, "a raw control character in the error's text", "%U at %d in %q", r, i, text)
		}
	}
}

// bidiControl reports the characters of Unicode's Bidi_Control property,
// written out independently of the code under test.
func bidiControl(r rune) bool {
	return strings.ContainsRune("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069", r)
}

// TestRemoteTextEscaped puts control characters in every text a server or
// an agent sends that an error's text quotes, through the public API: the
// error's text holds none of them raw, still says what was sent (escaped),
// and the typed fields keep the raw value.
func TestRemoteTextEscaped(t *testing.T) {
	j := jsonHostile()
	errorEvent := `data: {"error":{"code":500,"status":"` + j + `","message":"` + j + `","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"R` + j + `","domain":"d"}]}}` + "\n\n"
	restDoc := `{"error":{"code":404,"status":"` + j + `","message":"` + j + `","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"R` + j + `"}]}}`
	rpcDoc := `{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"` + j + `"}}`
	tests := []struct {
		name string
		err  func(t *testing.T) error
		// raw returns the typed field that keeps the text as sent; nil
		// when the field is checked elsewhere or the text is quoted.
		raw func(err error) string
	}{
		{"stream error event: message, status, reason", func(t *testing.T) error {
			_, err := readErr(t, taskEvent("t")+errorEvent, nil)
			return err
		}, apiMessage},
		{"REST error document", func(t *testing.T) error {
			api, err := parser.DecodeAPIError([]byte(restDoc))
			require.NoError(t, err)
			return api
		}, apiMessage},
		{"JSON-RPC error document", func(t *testing.T) error {
			api, err := parser.DecodeAPIError([]byte(rpcDoc))
			require.NoError(t, err)
			return api
		}, apiMessage},
		{"HTTP error answer with a document", func(t *testing.T) error {
			return sendErr(t, serve(t, 404, "application/json", restDoc))
		}, apiMessage},
		{"HTTP error answer with a hostile content type", func(t *testing.T) error {
			return sendErr(t, serve(t, 502, "text/html; x=\u009b31m\u202e", "<p>"+hostile+"</p>"))
		}, func(err error) string {
			var he *reconstruct.HTTPError
			require.True(t, errors.As(err, &he), "%v", err)
			return he.ContentType
		}},
		{"2xx that is no event stream", func(t *testing.T) error {
			return sendErr(t, serve(t, 200, "text/html; x=\u009b31m\u202e", hostile))
		}, nil},
		{"error document piped in", func(t *testing.T) error {
			_, err := readErr(t, restDoc, nil)
			return err
		}, apiMessage},
		{"cut run: task id and last event id", func(t *testing.T) error {
			_, err := readErr(t, "id: "+strings.NewReplacer("\r", "", "\n", "").Replace(hostile)+"\n"+taskEvent(j), nil)
			return err
		}, nil},
		{"diagnostic: artifact id, task id and event id", func(t *testing.T) error {
			_, err := readErr(t, taskEvent("t")+"id: \x1b]0;x\x07\u202e\n"+`data: {"artifactUpdate":{"taskId":"`+j+`","contextId":"c","append":true,"artifact":{"artifactId":"`+j+`","parts":[{"text":"x"}]}}}`+"\n\n", &reconstruct.Options{Strict: true})
			return err
		}, nil},
		{"decoding error: a member named by the agent", func(t *testing.T) error {
			_, err := readErr(t, taskEvent("t")+`data: {"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"},"metadata":{"`+j+`":[1,}}}`+"\n\n", nil)
			return err
		}, nil},
		{"citation diagnostic: data part id", func(t *testing.T) error { return &citeDiagnostics(t)[0] }, nil},
		{"citation diagnostic: locator", func(t *testing.T) error { return &citeDiagnostics(t)[1] }, nil},
		{"stored error of a result document", func(t *testing.T) error {
			var res reconstruct.Result
			require.NoError(t, res.UnmarshalJSON([]byte(`{"error":{"type":"other","message":"`+j+`"}}`)))
			return res.Err
		}, func(err error) string {
			var se *reconstruct.StoredError
			require.True(t, errors.As(err, &se), "%v", err)
			return se.Message
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.err(t)
			require.Error(t, err)
			msg := err.Error()
			checkNoControl(t, msg)
			assert.True(t, strings.Contains(msg, `\x1b`) || strings.Contains(msg, `\u009b`), "the escaped text is quoted: %s", msg)
			if tt.raw != nil {
				raw := tt.raw(err)
				assert.True(t, strings.ContainsAny(raw, "\x1b\u009b"), "the field keeps the raw text: %q", raw)
			}
		})
	}
}

// citeDiagnostics returns the citation diagnostics of an answer whose
// first citation names an unknown data part and whose second a locator
// that the data part lacks, both named by the agent.
func citeDiagnostics(t *testing.T) []citations.Diagnostic {
	j := jsonHostile()
	res, err := readErr(t, taskEvent("t")+`data: {"artifactUpdate":{"taskId":"t","contextId":"c","lastChunk":true,"artifact":{"artifactId":"a","parts":[{"text":"abc","metadata":{"citations":[{"data_part_id":"`+j+`","offset":1,"locator":"/x"},{"data_part_id":"g","offset":2,"locator":"/`+j+`"}]}},{"data":{"x":1},"metadata":{"dataPartId":"g"}}]}}}`+"\n\n"+
		`data: {"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"}}}`+"\n\n", nil)
	require.NoError(t, err)
	require.NotNil(t, res.Answer)
	require.Len(t, res.Answer.CitationDiagnostics, 2)
	return res.Answer.CitationDiagnostics
}

// apiMessage returns the Message of the *parser.APIError in err.
func apiMessage(err error) string {
	var api *parser.APIError
	if !errors.As(err, &api) {
		return ""
	}
	return api.Message
}
