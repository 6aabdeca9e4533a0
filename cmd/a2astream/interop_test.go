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
	if base == "" {
		t.Fatal("A2A_INTEROP_URL is not set: run cmd/a2astream/interop/run.sh")
	}
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
	if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil {
		t.Fatalf("--json output: %v\n%s\nstderr:\n%s", err, res.stdout, res.stderr)
	}
	return doc, res
}

// TestInteropCompleted streams an answer of token deltas with accents, CJK
// and an emoji split between its UTF-16 halves, narration in a status
// message, a consolidating last chunk and COMPLETED with $usage.
func TestInteropCompleted(t *testing.T) {
	for _, b := range interopBindings(t) {
		t.Run(b.name, func(t *testing.T) {
			doc, res := interopJSON(t, append([]string{"-m", "Bonjour, 東京?"}, b.args...)...)
			if res.code != exitOK || doc.State != "TASK_STATE_COMPLETED" || doc.Error != nil {
				t.Fatalf("exit %d, state %q, error %+v; stderr:\n%s", res.code, doc.State, doc.Error, res.stderr)
			}
			if doc.Answer == nil || doc.Answer.Text != interopAnswer || !doc.Answer.Sealed || doc.Answer.Thinking {
				t.Errorf("answer %+v, want %q", doc.Answer, interopAnswer)
			}
			if len(doc.Answer.Parts) != 1 || len(doc.Artifacts) != 1 || len(doc.Thinking) != 0 {
				t.Errorf("%d parts, %d artifacts, %d thinking: want 1, 1, 0", len(doc.Answer.Parts), len(doc.Artifacts), len(doc.Thinking))
			}
			if doc.TaskID == "" || doc.ContextID == "" {
				t.Errorf("task %q, context %q: want both", doc.TaskID, doc.ContextID)
			}
			if doc.Usage == nil || doc.Usage.TotalTokens == nil || *doc.Usage.TotalTokens != 46 || *doc.Usage.Model != "interop-agent" {
				t.Errorf("usage %+v, want 46 tokens of interop-agent", doc.Usage)
			}
			if doc.StatusMessage != nil || len(doc.Diagnostics) != 0 {
				t.Errorf("status message %+v, diagnostics %+v: want none", doc.StatusMessage, doc.Diagnostics)
			}
			// For people: the answer streams to stdout, the narration and
			// the states go to stderr.
			h := runWith(t, append([]string{"-m", "Bonjour"}, b.args...), nil, nil)
			if h.code != exitOK || h.stdout != interopAnswer+"\n" {
				t.Errorf("human: exit %d, stdout %q", h.code, h.stdout)
			}
			if !strings.Contains(h.stderr, "Recherche dans le dossier…") || !strings.Contains(h.stderr, "TASK_STATE_COMPLETED") {
				t.Errorf("human stderr %q: want the narration and the final state", h.stderr)
			}
			// Machine lines: the deltas are events of one artifact.
			ev := runWith(t, append([]string{"--events", "-m", "Bonjour"}, b.args...), nil, nil)
			if n := strings.Count(ev.stdout, `"kind":"ArtifactUpdate"`); ev.code != exitOK || n != 11 {
				t.Errorf("--events: exit %d, %d artifact updates, want 11:\n%s", ev.code, n, ev.stdout)
			}
		})
	}
}

// TestInteropInputRequired ends in INPUT_REQUIRED after narration closed as
// intermediate thinking.
func TestInteropInputRequired(t *testing.T) {
	for _, b := range interopBindings(t) {
		t.Run(b.name, func(t *testing.T) {
			doc, res := interopJSON(t, append([]string{"-m", "input please"}, b.args...)...)
			if res.code != exitInterrupted || doc.State != "TASK_STATE_INPUT_REQUIRED" || doc.Error != nil {
				t.Fatalf("exit %d, state %q, error %+v", res.code, doc.State, doc.Error)
			}
			if doc.Answer != nil {
				t.Errorf("answer %+v, want none", doc.Answer)
			}
			if len(doc.Thinking) != 1 || doc.Thinking[0].Text != interopNarration || !doc.Thinking[0].Sealed {
				t.Errorf("thinking %+v, want %q", doc.Thinking, interopNarration)
			}
			if doc.StatusMessage == nil || doc.StatusMessage.Text != interopQuestion || doc.StatusMessage.Role != "ROLE_AGENT" {
				t.Errorf("status message %+v, want %q", doc.StatusMessage, interopQuestion)
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
			if res.code != exitFailed || doc.State != "TASK_STATE_FAILED" || doc.Error != nil {
				t.Fatalf("exit %d, state %q, error %+v", res.code, doc.State, doc.Error)
			}
			if doc.Answer != nil || len(doc.Thinking) != 1 || doc.Thinking[0].Text != interopNarration {
				t.Errorf("answer %+v, thinking %+v: want no answer and the narration as thinking", doc.Answer, doc.Thinking)
			}
			if doc.StatusMessage == nil || doc.StatusMessage.Text != interopFailure {
				t.Errorf("status message %+v, want %q", doc.StatusMessage, interopFailure)
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
			if res.code != exitAPI || doc.Error == nil || doc.Error.Type != "api" {
				t.Fatalf("exit %d, error %+v: want an API error", res.code, doc.Error)
			}
			wantCode := int64(404)
			if b.name == "JSON-RPC" {
				wantCode = -32001 // TaskNotFoundError
			}
			if doc.Error.Code != wantCode || doc.Error.Reason != "TASK_NOT_FOUND" {
				t.Errorf("error %+v, want code %d and reason TASK_NOT_FOUND", doc.Error, wantCode)
			}
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
	req, err := http.NewRequest(r.Method, p.target+r.URL.Path, r.Body)
	if err != nil {
		p.t.Error(err)
		return
	}
	req.Header = r.Header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Error(err)
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
					if err != nil {
						p.t.Error(err)
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
			if res.code != exitOK || doc.State != "TASK_STATE_COMPLETED" || doc.Error != nil {
				t.Fatalf("exit %d, state %q, error %+v; stderr:\n%s", res.code, doc.State, doc.Error, res.stderr)
			}
			if doc.Answer == nil || doc.Answer.Text != interopAnswer || len(doc.Answer.Parts) != 1 || len(doc.Artifacts) != 1 {
				t.Errorf("answer %+v, %d artifacts: want %q alone", doc.Answer, len(doc.Artifacts), interopAnswer)
			}
			if doc.Usage == nil || doc.Usage.TotalTokens == nil || *doc.Usage.TotalTokens != 46 || len(doc.Diagnostics) != 0 {
				t.Errorf("usage %+v, diagnostics %+v: want 46 tokens and no diagnostics", doc.Usage, doc.Diagnostics)
			}
			wantSecond := "POST /a2a/rest/tasks/" + doc.TaskID + ":subscribe"
			if b.name == "JSON-RPC" {
				wantSecond = "POST /a2a/jsonrpc"
			}
			if len(p.paths) != 2 || p.paths[1] != wantSecond {
				t.Errorf("requests %v, want the stream then %q", p.paths, wantSecond)
			}
			if !strings.Contains(res.stderr, "resubscribing to task "+doc.TaskID) {
				t.Errorf("stderr %q: want the resubscription told", res.stderr)
			}
		})
	}
}
