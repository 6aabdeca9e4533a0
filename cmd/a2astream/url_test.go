package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
)

// reply is what the test agent does on one connection.
type reply struct {
	// check inspects the request; it fails the test when it is not the
	// one expected.
	check func(t *testing.T, r *http.Request, body []byte)
	// status and contentType answer before the stream; 0 and "" mean 200
	// and text/event-stream.
	status      int
	contentType string
	// body is written, flushed; with cut the connection is then closed
	// without ending the response, as a dropped connection does.
	body []byte
	cut  bool
}

// agent is an httptest server on 127.0.0.1 that answers the n-th request
// with replies[n].
type agent struct {
	t       *testing.T
	srv     *httptest.Server
	mu      sync.Mutex
	replies []reply
	n       int
}

func newAgent(t *testing.T, replies ...reply) *agent {
	a := &agent{t: t, replies: replies}
	a.srv = httptest.NewServer(http.HandlerFunc(a.serve))
	t.Cleanup(a.srv.Close)
	return a
}

// url is the agent's A2A base URL.
func (a *agent) url() string { return a.srv.URL + "/v2/agents/agt-1/a2a" }

func (a *agent) requests() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.n
}

func (a *agent) serve(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	i := a.n
	a.n++
	a.mu.Unlock()
	if i >= len(a.replies) {
		assert.Fail(a.t, "unexpected request", "request %d: %s %s", i+1, r.Method, r.URL.Path)
		http.Error(w, "no more replies", http.StatusGone)
		return
	}
	rp := a.replies[i]
	body, _ := io.ReadAll(r.Body)
	if rp.check != nil {
		rp.check(a.t, r, body)
	}
	ct := rp.contentType
	if ct == "" {
		ct = "text/event-stream"
	}
	w.Header().Set("Content-Type", ct)
	status := rp.status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	w.Write(rp.body)
	w.(http.Flusher).Flush()
	if rp.cut {
		conn, _, err := w.(http.Hijacker).Hijack()
		if !assert.NoError(a.t, err, "hijack") {
			return
		}
		conn.Close()
	}
}

// expect returns a check for a request's method, path, headers and, for
// JSON-RPC, method name.
func expect(method, path, rpcMethod, lastID string) func(*testing.T, *http.Request, []byte) {
	return func(t *testing.T, r *http.Request, body []byte) {
		t.Helper()
		// It runs in the server's goroutine: assert, never require.
		assert.Equal(t, method+" "+path, r.Method+" "+r.URL.Path, "request")
		assert.Equal(t, "1.0", r.Header.Get("A2A-Version"), "A2A-Version")
		assert.Equal(t, "text/event-stream", r.Header.Get("Accept"), "Accept")
		assert.Equal(t, lastID, r.Header.Get("Last-Event-ID"), "Last-Event-ID")
		if rpcMethod != "" {
			var env struct {
				JSONRPC string          `json:"jsonrpc"`
				Method  string          `json:"method"`
				Params  json.RawMessage `json:"params"`
			}
			if assert.NoError(t, json.Unmarshal(body, &env), "JSON-RPC body %s", body) {
				assert.Equal(t, "2.0", env.JSONRPC, "JSON-RPC body %s: jsonrpc", body)
				assert.Equal(t, rpcMethod, env.Method, "JSON-RPC body %s: method", body)
			}
		}
	}
}

// frames splits a stream into its frames' bytes.
func frames(data []byte) [][]byte {
	var out [][]byte
	prev := 0
	for _, end := range frameEnds(data) {
		out = append(out, data[prev:end])
		prev = end
	}
	return out
}

// toJSONRPC rewrites a REST stream into the JSON-RPC binding: each data
// line becomes the result of a response envelope.
func toJSONRPC(data []byte) []byte {
	var b bytes.Buffer
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "data: "); ok {
			b.WriteString(`data: {"jsonrpc":"2.0","id":"req-1","result":` + strings.TrimSuffix(rest, "\n") + "}\n")
			continue
		}
		b.WriteString(line)
	}
	return b.Bytes()
}

func join(fs [][]byte) []byte { return bytes.Join(fs, nil) }

// cutPlan describes a stream cut inside frame cut (0-based) of a sample,
// and the subscription replay that follows: a task snapshot with the
// artifacts seen so far, then the frames from the start of the artifact
// being streamed.
type cutPlan struct {
	frames   [][]byte
	cut      int
	lastID   string // the id of the last whole frame before the cut
	snapshot []byte // the subscription's first frame
	replay   int    // the first frame replayed after the snapshot
}

// planCut decodes the frames before the cut to build the snapshot.
func planCut(t *testing.T, data []byte, cut int, rpc bool) cutPlan {
	t.Helper()
	p := cutPlan{frames: frames(data), cut: cut}
	lx := sse.NewLexer(nil)
	dec := parser.NewDecoder()
	lx.Write(join(p.frames[:cut+1]))
	lx.Close()
	type art struct {
		ID       string           `json:"artifactId"`
		Parts    []map[string]any `json:"parts"`
		Metadata json.RawMessage  `json:"metadata,omitempty"`
	}
	var taskID, ctxID string
	var arts []*art
	byID := map[string]*art{}
	var current string
	for seq := 0; lx.Next(); seq++ {
		f := lx.Frame()
		ev, err := dec.Decode(f)
		require.NoError(t, err)
		if taskID == "" {
			taskID, ctxID = string(ev.TaskID()), string(ev.ContextID())
		}
		if seq < cut {
			p.lastID = string(f.ID)
		}
		if ev.Kind != parser.KindArtifactUpdate {
			continue
		}
		u := &ev.ArtifactUpdate
		id := string(u.Artifact.ArtifactID)
		if seq == cut {
			current = id
			break
		}
		a := byID[id]
		if a == nil {
			a = &art{ID: id}
			byID[id] = a
			arts = append(arts, a)
		}
		if !u.Append {
			a.Parts = nil
		}
		for _, pt := range u.Artifact.Parts {
			if len(pt.Text) > 0 {
				a.Parts = append(a.Parts, map[string]any{"text": string(pt.Text)})
			}
		}
		if u.Artifact.Metadata.Raw != nil {
			a.Metadata = append(json.RawMessage(nil), u.Artifact.Metadata.Raw...)
		}
	}
	require.NotEmpty(t, current, "frame %d is no artifact update", cut)
	for i, f := range p.frames {
		if bytes.Contains(f, []byte(`"artifactId":"`+current+`"`)) {
			p.replay = i
			break
		}
	}
	snap := map[string]any{"task": map[string]any{
		"id": taskID, "contextId": ctxID,
		"status":    map[string]any{"state": "TASK_STATE_WORKING"},
		"artifacts": arts,
	}}
	doc, err := json.Marshal(snap)
	require.NoError(t, err)
	if rpc {
		doc = []byte(`{"jsonrpc":"2.0","id":"req-2","result":` + string(doc) + `}`)
	}
	p.snapshot = append(append([]byte("data: "), doc...), "\n\n"...)
	return p
}

// firstPart returns the bytes sent before the cut: the whole frames, then
// half of the frame being cut.
func (p cutPlan) firstPart() []byte {
	f := p.frames[p.cut]
	return append(join(p.frames[:p.cut]), f[:len(f)/2]...)
}

// rest returns the subscription's bytes: the snapshot, then the replay to
// the end.
func (p cutPlan) rest() []byte {
	return append(append([]byte(nil), p.snapshot...), join(p.frames[p.replay:])...)
}

const base = "/v2/agents/agt-1/a2a"

// TestResume cuts the connection in the middle of the answer artifact and
// checks that the command resubscribes with the task id and Last-Event-ID,
// and that its --json result equals the one of the uncut stream, over both
// bindings.
func TestResume(t *testing.T) {
	for _, rpc := range []bool{false, true} {
		name := "REST"
		if rpc {
			name = "JSON-RPC"
		}
		t.Run(name, func(t *testing.T) {
			data := sample(t, "thinking-tool-answer.sse")
			if rpc {
				data = toJSONRPC(data)
			}
			p := planCut(t, data, 17, rpc)
			require.True(t, p.replay > 0 && p.replay < p.cut && p.lastID != "", "bad plan: replay from %d, cut at %d, last id %q", p.replay, p.cut, p.lastID)
			taskID := "task.019e4024-95c0-70a1-b4c2-d9e8f7a6b5c4"
			first, sub := expect("POST", base+"/message:stream", "", ""), expect("POST", base+"/tasks/"+taskID+":subscribe", "", p.lastID)
			args := []string{"--json", "-m", "How is the HbA1c?", "--retry-delay", "1ms"}
			if rpc {
				first, sub = expect("POST", base, "SendStreamingMessage", ""), expect("POST", base, "SubscribeToTask", p.lastID)
				args = append(args, "--jsonrpc")
			}
			a := newAgent(t,
				reply{check: first, body: p.firstPart(), cut: true},
				reply{check: sub, body: p.rest()},
			)
			got := runWith(t, append(args, a.url()), nil, nil)
			want := runWith(t, []string{"--json", "-"}, bytes.NewReader(data), nil)
			assert.Equal(t, exitOK, got.code, "exit code; stderr:\n%s", got.stderr)
			assert.Equal(t, want.stdout, got.stdout, "the resumed result and the uncut one")
			assert.Equal(t, 2, a.requests(), "requests")
			assert.Contains(t, got.stderr, "resubscribing to task "+taskID+" after event "+p.lastID, "stderr: the resubscription told")
			assert.Equal(t, []time.Duration{time.Millisecond}, got.backoffs, "backoffs")
		})
	}
}

// TestResumeTwice cuts the first connection and the first subscription;
// the second subscription completes the run, and the backoff doubled.
func TestResumeTwice(t *testing.T) {
	data := sample(t, "citations.sse")
	p1 := planCut(t, data, 10, false)
	p2 := planCut(t, data, 30, false)
	taskID := "task.019e4040-0d00-79c0-91e8-2f3a4b5c6d7e"
	// The first subscription replays from the artifact's start and is cut
	// inside frame 30.
	second := append(append([]byte(nil), p1.snapshot...), join(p1.frames[p1.replay:p2.cut])...)
	second = append(second, p2.frames[p2.cut][:20]...)
	a := newAgent(t,
		reply{check: expect("POST", base+"/message:stream", "", ""), body: p1.firstPart(), cut: true},
		reply{check: expect("POST", base+"/tasks/"+taskID+":subscribe", "", p1.lastID), body: second, cut: true},
		reply{check: expect("POST", base+"/tasks/"+taskID+":subscribe", "", p2.lastID), body: p2.rest()},
	)
	got := runWith(t, []string{a.url(), "--json", "-d", `{"message":{"role":"ROLE_USER","parts":[{"text":"x"}]}}`, "--retry-delay", "10ms"}, nil, nil)
	want := runWith(t, []string{"--json", "-"}, bytes.NewReader(data), nil)
	assert.Equal(t, exitOK, got.code, "exit code; stderr:\n%s", got.stderr)
	assert.Equal(t, want.stdout, got.stdout, "the resumed result and the uncut one")
	// The second subscription delivered events, so the backoff started
	// over.
	assert.Equal(t, []time.Duration{10 * time.Millisecond, 10 * time.Millisecond}, got.backoffs, "backoffs")
}

// TestResumeGivesUp makes every subscription fail at once: after --retries
// resubscriptions with a doubling backoff, the run is truncated (exit 4)
// and the --json error says where to resume from.
func TestResumeGivesUp(t *testing.T) {
	data := sample(t, "completed.sse")
	p := planCut(t, data, 8, false)
	taskID := "task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62"
	sub := expect("POST", base+"/tasks/"+taskID+":subscribe", "", p.lastID)
	a := newAgent(t,
		reply{body: p.firstPart(), cut: true},
		reply{check: sub, body: nil, cut: true},
		reply{check: sub, body: nil, cut: true},
		reply{check: sub, body: nil, cut: true},
	)
	got := runWith(t, []string{"--json", "--retries", "3", "--retry-delay", "5ms", "-m", "hi", a.url()}, nil, nil)
	assert.Equal(t, exitTruncated, got.code, "exit code; stderr:\n%s", got.stderr)
	assert.Equal(t, []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond}, got.backoffs, "backoffs")
	var doc resultDoc
	require.NoError(t, json.Unmarshal([]byte(got.stdout), &doc))
	if assert.NotNil(t, doc.Error, "truncated at event %s of %s", p.lastID, taskID) {
		assert.Equal(t, "truncated", doc.Error.Type, "error type")
		assert.Equal(t, taskID, doc.Error.TaskID, "error taskId")
		assert.Equal(t, p.lastID, doc.Error.LastEventID, "error lastEventId")
	}
	assert.Equal(t, p.lastID, doc.LastEventID, "lastEventId")
	assert.Equal(t, "TASK_STATE_WORKING", doc.State, "state")
	assert.Nil(t, doc.Answer, "no answer")
	if assert.Len(t, doc.Artifacts, 1, "the open artifact kept") {
		assert.False(t, doc.Artifacts[0].Sealed, "the open artifact kept")
	}
	assert.Contains(t, got.stderr, "giving up after 3 resubscriptions", "stderr: the give-up told")
}

// TestNoResume checks that --no-resume reports the cut stream as truncated
// without resubscribing, and the human output tells how to resume.
func TestNoResume(t *testing.T) {
	data := sample(t, "completed.sse")
	p := planCut(t, data, 8, false)
	a := newAgent(t, reply{body: p.firstPart(), cut: true})
	got := runWith(t, []string{"-m", "hi", "--no-resume", a.url()}, nil, nil)
	assert.Equal(t, exitTruncated, got.code, "exit code")
	assert.Equal(t, 1, a.requests(), "requests")
	assert.Contains(t, got.stderr, "--subscribe task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62 --last-event-id "+p.lastID, "stderr: the resume hint")
	assert.True(t, strings.HasPrefix(got.stdout, "Asthme intermittent"), "stdout %q: want the text received before the cut", got.stdout)
}

// TestRequests checks the requests URL mode makes: the REST and JSON-RPC
// bodies of --message, -d as is, --subscribe, and -H headers.
func TestRequests(t *testing.T) {
	data := sample(t, "completed.sse")
	tests := []struct {
		name  string
		args  []string
		body  []byte
		check func(t *testing.T, r *http.Request, body []byte)
	}{
		{"message REST", []string{"-m", "Résumé 🫁", "--task", "task.1", "--context", "ctx.1"}, data, func(t *testing.T, r *http.Request, body []byte) {
			expect("POST", base+"/message:stream", "", "")(t, r, body)
			var b struct {
				Message struct {
					Role      string                  `json:"role"`
					Parts     []struct{ Text string } `json:"parts"`
					MessageID string                  `json:"messageId"`
					TaskID    string                  `json:"taskId"`
					ContextID string                  `json:"contextId"`
				} `json:"message"`
			}
			if !assert.NoError(t, json.Unmarshal(body, &b), "body %s", body) {
				return
			}
			m := b.Message
			assert.Equal(t, "ROLE_USER", m.Role, "body %s: role", body)
			if assert.Len(t, m.Parts, 1, "body %s: parts", body) {
				assert.Equal(t, "Résumé 🫁", m.Parts[0].Text, "body %s: text", body)
			}
			assert.Equal(t, "task.1", m.TaskID, "body %s: taskId", body)
			assert.Equal(t, "ctx.1", m.ContextID, "body %s: contextId", body)
			_, err := parser.ParseID(parser.IDMessage, m.MessageID)
			assert.NoError(t, err, "messageId %q is not a UUIDv7", m.MessageID)
			assert.Equal(t, "application/json", r.Header.Get("Content-Type"), "Content-Type")
		}},
		{"message JSON-RPC", []string{"--jsonrpc", "--message", "hi"}, toJSONRPC(data), func(t *testing.T, r *http.Request, body []byte) {
			expect("POST", base, "SendStreamingMessage", "")(t, r, body)
			var b struct {
				ID     string `json:"id"`
				Params struct {
					Message struct {
						Parts []struct{ Text string } `json:"parts"`
					} `json:"message"`
				} `json:"params"`
			}
			if assert.NoError(t, json.Unmarshal(body, &b), "body %s", body) {
				assert.NotEmpty(t, b.ID, "body %s: id", body)
				if assert.Len(t, b.Params.Message.Parts, 1, "body %s: parts", body) {
					assert.Equal(t, "hi", b.Params.Message.Parts[0].Text, "body %s: text", body)
				}
			}
		}},
		{"data", []string{"-d", `{"message":{"parts":[{"text":"raw"}]}}`}, data, func(t *testing.T, r *http.Request, body []byte) {
			expect("POST", base+"/message:stream", "", "")(t, r, body)
			assert.Equal(t, `{"message":{"parts":[{"text":"raw"}]}}`, string(body), "body: -d as is")
		}},
		{"data from stdin", []string{"-d", "@-"}, data, func(t *testing.T, r *http.Request, body []byte) {
			assert.Equal(t, `{"from":"stdin"}`, string(body), "body: stdin's")
		}},
		{"subscribe REST", []string{"--subscribe", "task.7", "--last-event-id", "3"}, data, func(t *testing.T, r *http.Request, body []byte) {
			expect("POST", base+"/tasks/task.7:subscribe", "", "3")(t, r, body)
		}},
		{"subscribe JSON-RPC", []string{"--subscribe", "task.7", "--jsonrpc"}, toJSONRPC(data), func(t *testing.T, r *http.Request, body []byte) {
			expect("POST", base, "SubscribeToTask", "")(t, r, body)
			assert.Contains(t, string(body), `"params":{"id":"task.7"}`, "body")
		}},
		{"headers", []string{"-m", "x", "-H", "Authorization: Bearer t0k", "--header", "Tenant-Name: acme", "-H", "A2A-Version: 1.1", "-H", "Accept:"}, data, func(t *testing.T, r *http.Request, body []byte) {
			assert.Equal(t, "Bearer t0k", r.Header.Get("Authorization"), "Authorization")
			assert.Equal(t, "acme", r.Header.Get("Tenant-Name"), "Tenant-Name")
			assert.Equal(t, "1.1", r.Header.Get("A2A-Version"), "A2A-Version")
			assert.NotEqual(t, "text/event-stream", r.Header.Get("Accept"), "'-H Accept:' did not remove Accept: %v", r.Header)
		}},
		{"get", nil, data, func(t *testing.T, r *http.Request, body []byte) {
			assert.Equal(t, "GET "+base, r.Method+" "+r.URL.Path, "request")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAgent(t, reply{check: tt.check, body: tt.body})
			got := runWith(t, append(append([]string{"--json"}, tt.args...), a.url()), strings.NewReader(`{"from":"stdin"}`), nil)
			assert.Equal(t, exitOK, got.code, "exit code; stderr %s", got.stderr)
		})
	}
}

// TestAPIErrors checks the errors a server sends before the stream: the
// REST error document with a non-2xx status, a JSON-RPC error response, an
// error document with status 200, and responses that are neither.
func TestAPIErrors(t *testing.T) {
	restDoc := `{"error":{"code":404,"status":"NOT_FOUND","message":"Task not found.","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org","metadata":{"taskId":"task.9"}}]}}`
	rpcDoc := `{"jsonrpc":"2.0","id":"1","error":{"code":-32001,"message":"Task not found","data":{"taskId":"task.9"}}}`
	tests := []struct {
		name        string
		args        []string
		status      int
		contentType string
		body        string
		code        int
		want        errorDoc
		human       string
	}{
		{"REST 404", []string{"--subscribe", "task.9"}, 404, "application/json", restDoc, exitAPI,
			errorDoc{Type: "api", Binding: "REST", Code: 404, Status: "NOT_FOUND", Reason: "TASK_NOT_FOUND", Domain: "a2a-protocol.org", Message: "Task not found."},
			"404 NOT_FOUND (TASK_NOT_FOUND): Task not found."},
		{"JSON-RPC error", []string{"--subscribe", "task.9", "--jsonrpc"}, 200, "application/json", rpcDoc, exitAPI,
			errorDoc{Type: "api", Binding: "JSON-RPC", Code: -32001, Message: "Task not found"},
			"code -32001: Task not found"},
		{"REST document with 200", []string{"-m", "x"}, 200, "application/json; charset=utf-8", restDoc, exitAPI,
			errorDoc{Type: "api", Binding: "REST", Code: 404, Status: "NOT_FOUND", Reason: "TASK_NOT_FOUND", Domain: "a2a-protocol.org", Message: "Task not found."},
			"(TASK_NOT_FOUND)"},
		{"HTML 502", []string{"-m", "x"}, 502, "text/html", "<h1>Bad gateway</h1>", exitAPI,
			errorDoc{Type: "http", HTTPStatus: 502, ContentType: "text/html"},
			"HTTP 502"},
		{"JSON that is no error", []string{"-m", "x"}, 200, "application/json", `{"task":{"id":"t"}}`, exitProtocol,
			errorDoc{Type: "notEventStream", HTTPStatus: 200, ContentType: "application/json", Head: `{"task":{"id":"t"}}`},
			`not an event stream: HTTP 200 with "application/json", starting "{\"task\"`},
		{"HTML page with 200", []string{"-m", "x"}, 200, "text/html", `<!DOCTYPE html><title>Sign in</title>`, exitProtocol,
			errorDoc{Type: "notEventStream", HTTPStatus: 200, ContentType: "text/html", Head: `<!DOCTYPE html><title>Sign in</title>`},
			`not an event stream: HTTP 200 with "text/html", starting "<!DOCTYPE html><title>Sign in</title>"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAgent(t, reply{status: tt.status, contentType: tt.contentType, body: []byte(tt.body)},
				reply{status: tt.status, contentType: tt.contentType, body: []byte(tt.body)})
			got := runWith(t, append([]string{"--json", a.url()}, tt.args...), nil, nil)
			assert.Equal(t, tt.code, got.code, "exit code")
			var doc resultDoc
			require.NoError(t, json.Unmarshal([]byte(got.stdout), &doc), got.stdout)
			require.NotNil(t, doc.Error, "no error in %s", got.stdout)
			e := *doc.Error
			e.Details = nil
			if tt.want.Type == "http" || tt.want.Type == "notEventStream" {
				e.Message = ""
			}
			assert.Equal(t, tt.want, e, "error")
			h := runWith(t, append([]string{a.url()}, tt.args...), nil, nil)
			assert.Equal(t, tt.code, h.code, "human: exit code")
			assert.Contains(t, h.stderr, tt.human, "human: stderr")
		})
	}
}

// TestErrorInStream checks an error event inside the stream: what came
// before is kept, and the exit code is the API error's.
func TestErrorInStream(t *testing.T) {
	fs := frames(sample(t, "completed.sse"))
	body := append(join(fs[:5]), "event: error\ndata: {\"error\":{\"code\":500,\"status\":\"INTERNAL\",\"message\":\"model overloaded\"}}\n\n"...)
	a := newAgent(t, reply{body: body})
	got := runWith(t, []string{"--json", "-m", "x", a.url()}, nil, nil)
	assert.Equal(t, exitAPI, got.code, "exit code")
	var doc resultDoc
	require.NoError(t, json.Unmarshal([]byte(got.stdout), &doc))
	if assert.NotNil(t, doc.Error, "error") {
		assert.Equal(t, "api", doc.Error.Type, "error type")
		assert.Equal(t, int64(500), doc.Error.Code, "error code")
		assert.Equal(t, "model overloaded", doc.Error.Message, "error message")
		assert.Equal(t, int64(6), doc.Error.Seq, "error seq")
	}
	if assert.Len(t, doc.Artifacts, 1, "the text before the error kept") {
		assert.True(t, strings.HasPrefix(doc.Artifacts[0].Text, "Asthme"), "the text before the error kept: %q", doc.Artifacts[0].Text)
	}
}

// TestUnreachable checks that a server that cannot be reached is an I/O
// error.
func TestUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	got := runWith(t, []string{"-m", "x", url}, nil, nil)
	assert.Equal(t, exitIO, got.code, "exit code")
	assert.Contains(t, got.stderr, "error: ", "stderr")
}

// TestFramesAcrossResubscription checks --frames in URL mode when the
// connection is cut inside a frame: the whole frames of both connections
// are shown, the cut one is not, and the offsets go on across them.
func TestFramesAcrossResubscription(t *testing.T) {
	data := sample(t, "completed.sse")
	p := planCut(t, data, 8, false)
	a := newAgent(t, reply{body: p.firstPart(), cut: true}, reply{body: p.rest()})
	got := runWith(t, []string{"--frames", "--retry-delay", "1ms", "-m", "x", a.url()}, nil, nil)
	require.Equal(t, exitOK, got.code, "exit code; stderr:\n%s", got.stderr)
	lines := strings.Split(strings.TrimSuffix(got.stdout, "\n"), "\n")
	require.Len(t, lines, p.cut+1+len(p.frames)-p.replay, "frames:\n%s", got.stdout)
	prev := int64(-1)
	for i, l := range lines {
		var f frameDoc
		require.NoError(t, json.Unmarshal([]byte(l), &f), "line %d: %s", i+1, l)
		assert.Greater(t, f.Offset, prev, "line %d: offset", i+1)
		prev = f.Offset
	}
	// The snapshot starts the second connection, where the bytes of the
	// first one end.
	var snap frameDoc
	json.Unmarshal([]byte(lines[p.cut]), &snap)
	assert.Equal(t, int64(len(p.firstPart())), snap.Offset, "the subscription's first frame: offset")
}

// TestRequestsKeepQuery checks that a base URL's query string is kept by
// every kind of request the CLI makes, -d's raw body and the GET of a URL
// included (the path of a call is added to the URL's path, not after its
// query).
func TestRequestsKeepQuery(t *testing.T) {
	data := sample(t, "completed.sse")
	tests := []struct {
		name string
		args []string
		body []byte
		path string
	}{
		{"message", []string{"-m", "hi"}, data, base + "/message:stream"},
		{"data", []string{"-d", `{"message":{"parts":[{"text":"raw"}]}}`}, data, base + "/message:stream"},
		{"data JSON-RPC", []string{"--jsonrpc", "-d", `{"jsonrpc":"2.0"}`}, toJSONRPC(data), base},
		{"subscribe", []string{"--subscribe", "task.7"}, data, base + "/tasks/task.7:subscribe"},
		{"get", nil, data, base},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check := func(t *testing.T, r *http.Request, body []byte) {
				assert.Equal(t, tt.path, r.URL.Path, "path")
				assert.Equal(t, "api_key=K", r.URL.RawQuery, "query")
			}
			a := newAgent(t, reply{check: check, body: tt.body})
			got := runWith(t, append(append([]string{"--json"}, tt.args...), a.url()+"?api_key=K"), nil, nil)
			assert.Equal(t, exitOK, got.code, "exit code; stderr %s", got.stderr)
		})
	}
}
