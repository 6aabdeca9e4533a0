package main

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// taskDoc is a task document in state, with a sealed answer artifact
// (sealed when the state is terminal) and the status message msg when not
// "".
func taskDoc(state, msg string) []byte {
	status := `{"state":"` + state + `"`
	if msg != "" {
		status += `,"message":{"messageId":"m.q","role":"ROLE_AGENT","parts":[{"text":"` + msg + `"}]}`
	}
	return []byte(`{"id":"` + exitTask + `","contextId":"ctx.1","status":` + status + `}` +
		`,"artifacts":[{"artifactId":"art.1","parts":[{"text":"J45.909 mild intermittent asthma."}]}]}`)
}

// expectTask returns a check for a --get or --cancel request: REST method
// and path, or the JSON-RPC method.
func expectTask(method, path, rpcMethod string) func(*testing.T, *http.Request, []byte) {
	return func(t *testing.T, r *http.Request, body []byte) {
		// It runs in the server's goroutine: assert, never require.
		assert.Equal(t, "1.0", r.Header.Get("A2A-Version"), "A2A-Version")
		assert.Equal(t, "Bearer t0k3n", r.Header.Get("Authorization"), "Authorization")
		if rpcMethod == "" {
			assert.Equal(t, method+" "+path, r.Method+" "+r.URL.Path, "request")
			return
		}
		assert.Equal(t, "POST /v2/agents/agt-1/a2a", r.Method+" "+r.URL.Path, "request")
		var env struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if assert.NoError(t, json.Unmarshal(body, &env), "JSON-RPC body %s", body) {
			assert.Equal(t, rpcMethod, env.Method)
			assert.JSONEq(t, `{"id":"`+exitTask+`"}`, string(env.Params))
		}
	}
}

// rpcWrap wraps a result in a JSON-RPC response.
func rpcWrap(result []byte) []byte {
	return []byte(`{"jsonrpc":"2.0","id":"1","result":` + string(result) + `}`)
}

// TestGetTask runs --get against a fake agent over both bindings: the task
// is shown as the end of a run (its text on stdout, state and status
// message on stderr), with the exit code of its state, 8 for a task still
// working; a task the server does not know exits 5.
func TestGetTask(t *testing.T) {
	path := "/v2/agents/agt-1/a2a/tasks/" + exitTask
	tests := []struct {
		name   string
		state  string
		msg    string
		code   int
		stdout string
		stderr string
	}{
		{"completed", "TASK_STATE_COMPLETED", "", exitOK, "J45.909 mild intermittent asthma.", "TASK_STATE_COMPLETED"},
		{"input required", "TASK_STATE_INPUT_REQUIRED", "Which visit?", exitInterrupted, "J45.909", "Which visit?"},
		{"failed", "TASK_STATE_FAILED", "Model overloaded.", exitFailed, "J45.909", "Model overloaded."},
		{"working", "TASK_STATE_WORKING", "", exitWorking, "J45.909", "TASK_STATE_WORKING"},
		{"submitted", "TASK_STATE_SUBMITTED", "", exitWorking, "J45.909", "TASK_STATE_SUBMITTED"},
	}
	for _, tt := range tests {
		for _, rpc := range []bool{false, true} {
			name := tt.name + "/REST"
			body, check := taskDoc(tt.state, tt.msg), expectTask(http.MethodGet, path, "")
			args := []string{"--get", exitTask, "-H", "Authorization: Bearer t0k3n"}
			if rpc {
				name = tt.name + "/JSON-RPC"
				body, check = rpcWrap(body), expectTask("", "", "GetTask")
				args = append(args, "--jsonrpc")
			}
			t.Run(name, func(t *testing.T) {
				a := newAgent(t, reply{check: check, contentType: "application/json", body: body})
				got := runWith(t, append(args, a.url()), nil, nil)
				assert.Equal(t, tt.code, got.code, "stdout:\n%s\nstderr:\n%s", got.stdout, got.stderr)
				assert.Contains(t, got.stdout, tt.stdout)
				assert.Contains(t, got.stderr, tt.stderr)
				assert.Equal(t, 1, a.requests())

				a = newAgent(t, reply{check: check, contentType: "application/json", body: body})
				j := runWith(t, append([]string{"--json"}, append(args, a.url())...), nil, nil)
				assert.Equal(t, tt.code, j.code)
				var doc map[string]any
				require.NoError(t, json.Unmarshal([]byte(j.stdout), &doc), j.stdout)
				assert.Equal(t, tt.state, doc["state"])
			})
		}
	}
	t.Run("not found", func(t *testing.T) {
		a := newAgent(t, reply{status: 404, contentType: "application/json",
			body: []byte(`{"error":{"code":404,"status":"NOT_FOUND","message":"Task not found.","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}}`)})
		got := runWith(t, []string{"--get", exitTask, a.url()}, nil, nil)
		assert.Equal(t, exitAPI, got.code)
		assert.Contains(t, got.stderr, "Task not found.")
	})
}

// TestCancelTask runs --cancel against a fake agent over both bindings: a
// canceled task exits 0; a task that had already ended is refused with 409
// (or TaskNotCancelableError) and exits 5; an unreachable server exits 7.
func TestCancelTask(t *testing.T) {
	path := "/v2/agents/agt-1/a2a/tasks/" + exitTask + ":cancel"
	conflict := []byte(`{"error":{"code":409,"status":"FAILED_PRECONDITION","message":"Task is in a terminal state.","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_CANCELABLE","domain":"a2a-protocol.org"}]}}`)
	rpcConflict := []byte(`{"jsonrpc":"2.0","id":"1","error":{"code":-32002,"message":"Task is in a terminal state."}}`)
	for _, rpc := range []bool{false, true} {
		name := "REST"
		canceled, check := taskDoc("TASK_STATE_CANCELED", ""), expectTask(http.MethodPost, path, "")
		refused := reply{check: check, status: http.StatusConflict, contentType: "application/json", body: conflict}
		args := []string{"--cancel", exitTask, "-H", "Authorization: Bearer t0k3n"}
		if rpc {
			name = "JSON-RPC"
			canceled, check = rpcWrap(canceled), expectTask("", "", "CancelTask")
			refused = reply{check: check, contentType: "application/json", body: rpcConflict}
			args = append(args, "--jsonrpc")
		}
		t.Run(name, func(t *testing.T) {
			a := newAgent(t, reply{check: check, contentType: "application/json", body: canceled}, refused)
			got := runWith(t, append(args, a.url()), nil, nil)
			assert.Equal(t, exitOK, got.code, "stdout:\n%s\nstderr:\n%s", got.stdout, got.stderr)
			assert.Contains(t, got.stderr, "TASK_STATE_CANCELED")
			got = runWith(t, append(args, a.url()), nil, nil)
			assert.Equal(t, exitAPI, got.code, "stdout:\n%s\nstderr:\n%s", got.stdout, got.stderr)
			assert.Contains(t, got.stderr, "Task is in a terminal state.")
			assert.Equal(t, 2, a.requests())
		})
	}
	t.Run("unreachable", func(t *testing.T) {
		a := newAgent(t)
		u := a.url()
		a.srv.Close()
		got := runWith(t, []string{"--cancel", exitTask, u}, nil, nil)
		assert.Equal(t, exitIO, got.code, "stderr:\n%s", got.stderr)
	})
}

// TestTaskCallFlags checks the flags --get and --cancel refuse.
func TestTaskCallFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		say  string
	}{
		{"get on a file", []string{"--get", "t", "x.sse"}, "need an http(s) URL source"},
		{"get and message", []string{"--get", "t", "-m", "hi", "http://127.0.0.1:1/a2a"}, "exclude each other"},
		{"get and cancel", []string{"--get", "t", "--cancel", "t", "http://127.0.0.1:1/a2a"}, "exclude each other"},
		{"cancel and subscribe", []string{"--cancel", "t", "--subscribe", "t", "http://127.0.0.1:1/a2a"}, "exclude each other"},
		{"get with frames", []string{"--get", "t", "--frames", "http://127.0.0.1:1/a2a"}, "read no stream"},
		{"cancel with events", []string{"--cancel", "t", "--events", "http://127.0.0.1:1/a2a"}, "read no stream"},
		{"get with last event id", []string{"--get", "t", "--last-event-id", "3", "http://127.0.0.1:1/a2a"}, "--last-event-id goes with a stream"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runWith(t, tt.args, nil, nil)
			assert.Equal(t, exitUsage, got.code)
			assert.Contains(t, got.stderr, tt.say)
		})
	}
}
