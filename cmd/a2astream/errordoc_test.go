package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestErrorMemberSameInEveryOutput checks that the --events line of a run
// that never started carries the same "error" member, byte for byte, as
// the --json document of the same run: one classifier names every error
// for both outputs.
func TestErrorMemberSameInEveryOutput(t *testing.T) {
	restDoc := `{"error":{"code":404,"status":"NOT_FOUND","message":"Task not found.","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}}`
	unreachable := httptest.NewServer(http.NotFoundHandler())
	unreachableURL := unreachable.URL
	unreachable.Close()
	tests := []struct {
		name     string
		reply    *reply // nil: no server answers
		wantType string
	}{
		{"REST 404", &reply{status: 404, contentType: "application/json", body: []byte(restDoc)}, "api"},
		{"HTML 502", &reply{status: 502, contentType: "text/html", body: []byte("<h1>Bad gateway</h1>")}, "http"},
		{"JSON that is no error", &reply{status: 200, contentType: "application/json", body: []byte(`{"task":{"id":"t"}}`)}, "notEventStream"},
		{"HTML page with 200", &reply{status: 200, contentType: "text/html", body: []byte("<!DOCTYPE html><title>Sign in</title>")}, "notEventStream"},
		{"unreachable", nil, "io"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			outputs := map[string]string{}
			for _, mode := range []string{"--json", "--events"} {
				url := unreachableURL
				if tt.reply != nil {
					url = newAgent(t, *tt.reply).url()
				}
				got := runWith(t, []string{mode, "-m", "x", "--retries", "0", url}, nil, nil)
				var doc struct {
					Kind  string          `json:"kind"`
					Error json.RawMessage `json:"error"`
				}
				lines := strings.Split(strings.TrimSuffix(got.stdout, "\n"), "\n")
				if mode == "--events" {
					require.Len(t, lines, 1, "%s: one line of kind Error:\n%s", mode, got.stdout)
				}
				require.NoError(t, json.Unmarshal([]byte(got.stdout), &doc), "%s: %s", mode, got.stdout)
				if mode == "--events" {
					require.Equal(t, "Error", doc.Kind, "%s: %s", mode, got.stdout)
				}
				var compact bytes.Buffer
				require.NoError(t, json.Compact(&compact, doc.Error), "%s: %s", mode, got.stdout)
				outputs[mode] = compact.String()
			}
			require.Equal(t, outputs["--json"], outputs["--events"], "the --events error member differs from the --json one")
			var e struct{ Type string }
			require.NoError(t, json.Unmarshal([]byte(outputs["--json"]), &e))
			require.Equal(t, tt.wantType, e.Type, "error %s", outputs["--json"])
		})
	}
}

// TestSyntaxErrorPlace checks that a frame that does not decode is
// located in the "error" member of --json and of its --events line alike:
// offset in bytes of the stream, jsonOffset in bytes of the frame's data,
// jsonPointer the member as an RFC 6901 pointer.
func TestSyntaxErrorPlace(t *testing.T) {
	const task = `data: {"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}` + "\n\n"
	stream := task + `data: {"statusUpdate":{"taskId":"t","metadata":{"$usage":{"inputTokens":"x"}}}}` + "\n\n"
	want := errorDoc{Type: "syntax", Offset: ptr(int64(len(task))), Seq: 2, JSONOffset: ptr(int64(strings.Index(stream[len(task)+6:], `"x"`))), JSONPointer: "/statusUpdate/metadata/$usage/inputTokens"}

	res := runWith(t, []string{"--json", "-"}, strings.NewReader(stream), nil)
	require.Equal(t, exitProtocol, res.code, res.stderr)
	var doc resultDoc
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &doc), res.stdout)
	require.NotNil(t, doc.Error)
	got := *doc.Error
	got.Message = ""
	require.Equal(t, want, got)

	res = runWith(t, []string{"--events", "-"}, strings.NewReader(stream), nil)
	lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
	require.Len(t, lines, 2, res.stdout)
	var line struct{ Error errorDoc }
	require.NoError(t, json.Unmarshal([]byte(lines[1]), &line), lines[1])
	line.Error.Message = ""
	require.Equal(t, want, line.Error)
}

func ptr[T any](v T) *T { return &v }
