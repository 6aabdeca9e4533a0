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
