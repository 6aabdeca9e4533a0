//go:build interop

package main

// The interop test runs the command against a real A2A 1.0 server built
// with the reference JavaScript SDK (interop/server.js). interop/run.sh
// installs and starts it, then runs:
//
//	A2A_INTEROP_URL=http://127.0.0.1:PORT go test -tags interop ./cmd/a2astream/ -run Interop

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The texts the agent of interop/server.js sends; keep them in step.
const (
	interopAnswer    = "Café crème brûlée: 東京の天気は晴れ 🎉 — naïve résumé."
	interopNarration = "Je vérifie le dossier… 📋"
	interopQuestion  = "Quelle clinique — Rigshospitalet ou Gentofte?"
	interopFailure   = "Le connecteur EHR n'a pas répondu (délai 30 s)."
)

// interopBindings are the two bindings the server serves: the REST base
// URL, and the JSON-RPC endpoint with --jsonrpc.
func interopBindings(t *testing.T) []struct {
	name string
	args []string
} {
	base := os.Getenv("A2A_INTEROP_URL")
	require.NotEmpty(t, base, "A2A_INTEROP_URL is not set: run cmd/a2astream/interop/run.sh")
	return []struct {
		name string
		args []string
	}{
		{"REST", []string{base + "/a2a/rest"}},
		{"JSON-RPC", []string{"--jsonrpc", base + "/a2a/jsonrpc"}},
	}
}

func interopJSON(t *testing.T, args ...string) (resultDoc, result) {
	t.Helper()
	res := runWith(t, append([]string{"--json", "--retries", "0"}, args...), nil, nil)
	var doc resultDoc
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &doc), "--json output:\n%s\nstderr:\n%s", res.stdout, res.stderr)
	return doc, res
}

// requireOutcome checks a run's exit code and final state, and that it
// ended with no error.
func requireOutcome(t *testing.T, doc resultDoc, res result, code int, state string) {
	t.Helper()
	require.Equal(t, code, res.code, "exit code; stderr:\n%s", res.stderr)
	require.Equal(t, state, doc.State, "state")
	require.Nil(t, doc.Error, "error")
}

// TestInteropCompleted streams an answer of token deltas with accents, CJK
// and an emoji split between its UTF-16 halves, narration in a status
// message, a consolidating last chunk and COMPLETED with $usage.
func TestInteropCompleted(t *testing.T) {
	for _, b := range interopBindings(t) {
		t.Run(b.name, func(t *testing.T) {
			doc, res := interopJSON(t, append([]string{"-m", "Bonjour, 東京?"}, b.args...)...)
			requireOutcome(t, doc, res, exitOK, "TASK_STATE_COMPLETED")
			require.NotNil(t, doc.Answer, "answer")
			assert.Equal(t, interopAnswer, doc.Answer.Text, "answer")
			assert.True(t, doc.Answer.Sealed, "answer sealed")
			assert.False(t, doc.Answer.Thinking, "answer thinking")
			assert.Len(t, doc.Answer.Parts, 1, "the answer's parts")
			assert.Len(t, doc.Artifacts, 1, "artifacts")
			assert.Empty(t, doc.Thinking, "thinking")
			assert.NotEmpty(t, doc.TaskID, "taskId")
			assert.NotEmpty(t, doc.ContextID, "contextId")
			if assert.NotNil(t, doc.Usage, "usage") && assert.NotNil(t, doc.Usage.TotalTokens, "usage: totalTokens") && assert.NotNil(t, doc.Usage.Model, "usage: model") {
				assert.Equal(t, int64(46), *doc.Usage.TotalTokens, "usage: totalTokens")
				assert.Equal(t, "interop-agent", *doc.Usage.Model, "usage: model")
			}
			assert.Nil(t, doc.StatusMessage, "status message")
			assert.Empty(t, doc.Diagnostics, "diagnostics")
			// For people: the answer streams to stdout, the narration and
			// the states go to stderr.
			h := runWith(t, append([]string{"-m", "Bonjour"}, b.args...), nil, nil)
			assert.Equal(t, exitOK, h.code, "human: exit code")
			assert.Equal(t, interopAnswer+"\n", h.stdout, "human: stdout")
			assert.Contains(t, h.stderr, "Recherche dans le dossier…", "human stderr: the narration")
			assert.Contains(t, h.stderr, "TASK_STATE_COMPLETED", "human stderr: the final state")
			// Machine lines: the deltas are events of one artifact.
			ev := runWith(t, append([]string{"--events", "-m", "Bonjour"}, b.args...), nil, nil)
			assert.Equal(t, exitOK, ev.code, "--events: exit code")
			assert.Equal(t, 11, strings.Count(ev.stdout, `"kind":"ArtifactUpdate"`), "--events: artifact updates:\n%s", ev.stdout)
		})
	}
}

// TestInteropInputRequired ends in INPUT_REQUIRED after narration closed as
// intermediate thinking.
func TestInteropInputRequired(t *testing.T) {
	for _, b := range interopBindings(t) {
		t.Run(b.name, func(t *testing.T) {
			doc, res := interopJSON(t, append([]string{"-m", "input please"}, b.args...)...)
			requireOutcome(t, doc, res, exitInterrupted, "TASK_STATE_INPUT_REQUIRED")
			assert.Nil(t, doc.Answer, "answer")
			if assert.Len(t, doc.Thinking, 1, "thinking") {
				assert.Equal(t, interopNarration, doc.Thinking[0].Text, "thinking")
				assert.True(t, doc.Thinking[0].Sealed, "thinking sealed")
			}
			if assert.NotNil(t, doc.StatusMessage, "status message") {
				assert.Equal(t, interopQuestion, doc.StatusMessage.Text, "status message")
				assert.Equal(t, "ROLE_AGENT", doc.StatusMessage.Role, "status message role")
			}
		})
	}
}

// TestInteropFailed ends in FAILED after narration closed as intermediate
// thinking.
func TestInteropFailed(t *testing.T) {
	for _, b := range interopBindings(t) {
		t.Run(b.name, func(t *testing.T) {
			doc, res := interopJSON(t, append([]string{"-m", "fail now"}, b.args...)...)
			requireOutcome(t, doc, res, exitFailed, "TASK_STATE_FAILED")
			assert.Nil(t, doc.Answer, "answer")
			if assert.Len(t, doc.Thinking, 1, "the narration as thinking") {
				assert.Equal(t, interopNarration, doc.Thinking[0].Text, "the narration as thinking")
			}
			if assert.NotNil(t, doc.StatusMessage, "status message") {
				assert.Equal(t, interopFailure, doc.StatusMessage.Text, "status message")
			}
		})
	}
}

// TestInteropSubscribeUnknownTask checks the SDK's error for a task it does
// not know, in the shape of each binding.
func TestInteropSubscribeUnknownTask(t *testing.T) {
	for _, b := range interopBindings(t) {
		t.Run(b.name, func(t *testing.T) {
			doc, res := interopJSON(t, append([]string{"--subscribe", "no-such-task"}, b.args...)...)
			require.Equal(t, exitAPI, res.code, "exit code")
			require.NotNil(t, doc.Error, "an API error")
			require.Equal(t, "api", doc.Error.Type, "error type")
			wantCode := int64(404)
			if b.name == "JSON-RPC" {
				wantCode = -32001 // TaskNotFoundError
			}
			assert.Equal(t, wantCode, doc.Error.Code, "error code")
			assert.Equal(t, "TASK_NOT_FOUND", doc.Error.Reason, "error reason")
		})
	}
}

// cuttingProxy forwards requests to the server at target. It cuts the
// first response after the given number of SSE frames and a few bytes of
// the next, closing the connection as a network failure would, and
// forwards the later responses whole. paths records the requests.
type cuttingProxy struct {
	t      *testing.T
	target string
	frames int
	mu     sync.Mutex
	paths  []string
}

func (p *cuttingProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	first := len(p.paths) == 0
	p.paths = append(p.paths, r.Method+" "+r.URL.Path)
	p.mu.Unlock()
	// ServeHTTP runs in the server's goroutine: assert, never require.
	req, err := http.NewRequest(r.Method, p.target+r.URL.Path, r.Body)
	if !assert.NoError(p.t, err) {
		return
	}
	req.Header = r.Header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if !assert.NoError(p.t, err) {
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	buf := make([]byte, 64<<10)
	var seen []byte
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			if first {
				seen = append(seen, chunk...)
				if end := nthFrameEnd(seen, p.frames); end >= 0 {
					// Forward the frames, then a few bytes of the next
					// one, and drop the connection.
					already := len(seen) - n
					stop := min(end+12, len(seen))
					w.Write(seen[already:stop])
					w.(http.Flusher).Flush()
					conn, _, err := w.(http.Hijacker).Hijack()
					if !assert.NoError(p.t, err, "hijack") {
						return
					}
					conn.Close()
					return
				}
			}
			w.Write(chunk)
			w.(http.Flusher).Flush()
		}
		if err != nil {
			return
		}
	}
}

// nthFrameEnd returns the offset just past the n-th blank line of b, or -1.
func nthFrameEnd(b []byte, n int) int {
	off := 0
	for i := 0; i < n; i++ {
		j := bytes.Index(b[off:], []byte("\n\n"))
		if j < 0 {
			return -1
		}
		off += j + 2
	}
	return off
}

// TestInteropResume drops the connection to the SDK's server in the middle
// of the answer; the command resubscribes (tasks/{id}:subscribe, or
// SubscribeToTask), the SDK sends the task as it stands and the rest of the
// run, and the result is the one of an uncut run.
func TestInteropResume(t *testing.T) {
	for _, b := range interopBindings(t) {
		t.Run(b.name, func(t *testing.T) {
			base := os.Getenv("A2A_INTEROP_URL")
			p := &cuttingProxy{t: t, target: base, frames: 5}
			srv := httptest.NewServer(p)
			defer srv.Close()
			args := []string{"-m", "slow, please", "--retry-delay", "10ms"}
			for _, a := range b.args {
				args = append(args, strings.Replace(a, base, srv.URL, 1))
			}
			doc, res := interopJSON(t, append([]string{"--retries", "3"}, args...)...)
			requireOutcome(t, doc, res, exitOK, "TASK_STATE_COMPLETED")
			if assert.NotNil(t, doc.Answer, "answer") {
				assert.Equal(t, interopAnswer, doc.Answer.Text, "answer")
				assert.Len(t, doc.Answer.Parts, 1, "the answer's parts")
			}
			assert.Len(t, doc.Artifacts, 1, "the answer alone")
			if assert.NotNil(t, doc.Usage, "usage") && assert.NotNil(t, doc.Usage.TotalTokens, "usage: totalTokens") {
				assert.Equal(t, int64(46), *doc.Usage.TotalTokens, "usage: totalTokens")
			}
			assert.Empty(t, doc.Diagnostics, "diagnostics")
			wantSecond := "POST /a2a/rest/tasks/" + doc.TaskID + ":subscribe"
			if b.name == "JSON-RPC" {
				wantSecond = "POST /a2a/jsonrpc"
			}
			if assert.Len(t, p.paths, 2, "requests: the stream then %q", wantSecond) {
				assert.Equal(t, wantSecond, p.paths[1], "the second request")
			}
			assert.Contains(t, res.stderr, "resubscribing to task "+doc.TaskID, "stderr: the resubscription told")
		})
	}
}

// TestInteropGetAndCancel reads back a task the SDK's agent completed with
// --get, cancels it with --cancel (refused: it ended), and cancels a task
// that waits for input (accepted), in each binding.
func TestInteropGetAndCancel(t *testing.T) {
	for _, b := range interopBindings(t) {
		t.Run(b.name, func(t *testing.T) {
			doc, res := interopJSON(t, append([]string{"-m", "hello"}, b.args...)...)
			requireOutcome(t, doc, res, exitOK, "TASK_STATE_COMPLETED")
			require.NotEmpty(t, doc.TaskID, "taskId")

			got, res := interopJSON(t, append([]string{"--get", doc.TaskID}, b.args...)...)
			requireOutcome(t, got, res, exitOK, "TASK_STATE_COMPLETED")
			assert.Equal(t, doc.TaskID, got.TaskID, "--get: taskId")
			if assert.NotNil(t, got.Answer, "--get: answer") {
				assert.Equal(t, interopAnswer, got.Answer.Text, "--get: answer")
			}

			refused, res := interopJSON(t, append([]string{"--cancel", doc.TaskID}, b.args...)...)
			assert.Equal(t, exitAPI, res.code, "--cancel of a completed task: exit code; stderr:\n%s", res.stderr)
			assert.NotNil(t, refused.Error, "--cancel of a completed task: error")

			waiting, res := interopJSON(t, append([]string{"-m", "input please"}, b.args...)...)
			requireOutcome(t, waiting, res, exitInterrupted, "TASK_STATE_INPUT_REQUIRED")
			canceled, res := interopJSON(t, append([]string{"--cancel", waiting.TaskID}, b.args...)...)
			requireOutcome(t, canceled, res, exitOK, "TASK_STATE_CANCELED")
		})
	}
}
