package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sseEvent is one frame of a hand-written stream.
func sseEvent(id, data string) string { return "id: " + id + "\ndata: " + data + "\n\n" }

const exitTask = "task.019e4100-0000-7000-8000-000000000001"

// taskStream is a task that goes to state and ends there.
func taskStream(state string) string {
	return sseEvent("1", `{"task":{"id":"`+exitTask+`","contextId":"ctx.1","status":{"state":"TASK_STATE_WORKING"}}}`) +
		sseEvent("2", `{"statusUpdate":{"taskId":"`+exitTask+`","contextId":"ctx.1","status":{"state":"`+state+`"}}}`)
}

// TestExitTable runs one input for every row of the exit table (and every
// state a row names) through the command, from a file, stdin or a server
// on 127.0.0.1, and checks the exit code.
func TestExitTable(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	// server answers every request with status, content type and body.
	server := func(status int, contentType, body string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", contentType)
			w.WriteHeader(status)
			w.Write([]byte(body))
		}))
		t.Cleanup(srv.Close)
		return srv.URL + "/a2a"
	}
	gone := httptest.NewServer(http.NotFoundHandler())
	goneURL := gone.URL + "/a2a"
	gone.Close()
	completed := string(sample(t, "completed.sse"))
	fs := frames(sample(t, "completed.sse"))
	cut := string(join(fs[:5]))
	unknownAppend := sseEvent("1", `{"task":{"id":"`+exitTask+`","contextId":"ctx.1","status":{"state":"TASK_STATE_WORKING"}}}`) +
		sseEvent("2", `{"artifactUpdate":{"taskId":"`+exitTask+`","contextId":"ctx.1","append":true,"artifact":{"artifactId":"art.9","parts":[{"text":"x"}]}}}`) +
		sseEvent("3", `{"statusUpdate":{"taskId":"`+exitTask+`","contextId":"ctx.1","status":{"state":"TASK_STATE_FAILED"}}}`)
	tests := []struct {
		name  string
		args  []string
		stdin string
		code  int
		say   string // a part of stderr or stdout
	}{
		{"completed", []string{file("completed.sse", completed)}, "", exitOK, "TASK_STATE_COMPLETED"},
		{"direct message reply", []string{"-"}, sseEvent("m-1", `{"message":{"messageId":"msg-9","contextId":"ctx.1","role":"ROLE_AGENT","parts":[{"text":"Hi there."}]}}`), exitOK, "direct message reply"},
		{"failed", []string{"-"}, taskStream("TASK_STATE_FAILED"), exitFailed, "TASK_STATE_FAILED"},
		{"canceled", []string{"-"}, taskStream("TASK_STATE_CANCELED"), exitFailed, "TASK_STATE_CANCELED"},
		{"rejected", []string{"-"}, taskStream("TASK_STATE_REJECTED"), exitFailed, "TASK_STATE_REJECTED"},
		{"usage error", []string{"--colour", "-"}, "", exitUsage, "flag provided but not defined"},
		{"input required", []string{"-"}, taskStream("TASK_STATE_INPUT_REQUIRED"), exitInterrupted, "TASK_STATE_INPUT_REQUIRED"},
		{"auth required", []string{"-"}, taskStream("TASK_STATE_AUTH_REQUIRED"), exitInterrupted, "TASK_STATE_AUTH_REQUIRED"},
		{"truncated file", []string{file("cut.sse", cut)}, "", exitTruncated, "resume with: a2astream --subscribe"},
		{"truncated stream, resume off", []string{"--no-resume", "-m", "x", server(200, "text/event-stream", cut)}, "", exitTruncated, "resume with"},
		{"HTTP error", []string{"-m", "x", server(502, "text/html", "<h1>Bad gateway</h1>")}, "", exitAPI, "HTTP 502"},
		{"JSON-RPC error", []string{"--jsonrpc", "-m", "x", server(200, "application/json", `{"jsonrpc":"2.0","id":"1","error":{"code":-32001,"message":"Task not found"}}`)}, "", exitAPI, "Task not found"},
		{"error in the stream", []string{"-"}, string(join(fs[:3])) + "event: error\ndata: {\"error\":{\"code\":500,\"status\":\"INTERNAL\",\"message\":\"model overloaded\"}}\n\n", exitAPI, "model overloaded"},
		{"error document piped from curl", []string{"-"}, `{"error":{"code":401,"status":"UNAUTHENTICATED","message":"Missing bearer token."}}` + "\n", exitAPI, "Missing bearer token."},
		{"HTML file", []string{file("page.html", "<!DOCTYPE html>\n<html><body>Sign in</body></html>\n")}, "", exitProtocol, `not an event stream, starting "<!DOCTYPE html>`},
		{"binary on stdin", []string{"-"}, "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", exitProtocol, "not an event stream"},
		{"HTML with 200", []string{"-m", "x", server(200, "text/html", "<html>login</html>")}, "", exitProtocol, `not an event stream: HTTP 200 with "text/html"`},
		{"invalid event", []string{"-"}, "data: {\"task\":\n\n", exitProtocol, "error:"},
		{"rule broken under --strict", []string{"--strict", "-"}, unknownAppend, exitProtocol, "append to an unknown artifact"},
		{"rule broken without --strict", []string{"-"}, unknownAppend, exitFailed, "append to an unknown artifact"},
		{"directory", []string{dir}, "", exitIO, "is a directory"},
		{"missing file", []string{filepath.Join(dir, "missing.sse")}, "", exitIO, "no such file"},
		{"unreachable server", []string{"-m", "x", goneURL}, "", exitIO, "error:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runWith(t, tt.args, strings.NewReader(tt.stdin), nil)
			assert.Equal(t, tt.code, got.code, "exit code\nstdout:\n%s\nstderr:\n%s", got.stdout, got.stderr)
			assert.True(t, strings.Contains(got.stderr, tt.say) || strings.Contains(got.stdout, tt.say), "output lacks %q\nstdout:\n%s\nstderr:\n%s", tt.say, got.stdout, got.stderr)
			// --json gives the same code.
			if tt.code != exitUsage {
				j := runWith(t, append([]string{"--json"}, tt.args...), bytes.NewReader([]byte(tt.stdin)), nil)
				assert.Equal(t, tt.code, j.code, "--json: exit code\n%s", j.stdout)
			}
		})
	}
}
