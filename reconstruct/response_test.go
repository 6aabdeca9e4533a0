package reconstruct_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
)

// TestResponseError: a response that is not an event stream (a non-2xx
// status, or a 2xx whose Content-Type is not text/event-stream) carries the
// server's error document of either binding, or is not an event stream (a
// 2xx), or an HTTP error; an event stream is read as such.
func TestResponseError(t *testing.T) {
	tests := []struct {
		name        string
		code        int
		contentType string
		body        string
		stream      bool  // EventStream says to read it as a stream
		apiCode     int64 // the API error's code; 0 for an *HTTPError
		notStream   bool  // a *NotEventStreamError
	}{
		{"REST error document", 404, "application/json",
			`{"error":{"code":404,"status":"NOT_FOUND","message":"task not found","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}}`,
			false, 404, false},
		{"REST error without code", 429, "application/json", `{"error":{"status":"RESOURCE_EXHAUSTED","message":"slow down"}}`, false, 429, false},
		{"JSON-RPC error with 200", 200, "application/json", `{"jsonrpc":"2.0","id":"msg-001","error":{"code":-32001,"message":"Task not found"}}`, false, -32001, false},
		{"REST error with 200 and parameters", 200, " Application/JSON ; charset=utf-8", `{"error":{"code":400,"status":"INVALID_ARGUMENT","message":"bad"}}`, false, 400, false},
		{"problem+json", 403, "application/problem+json", `{"error":{"code":403,"message":"forbidden"}}`, false, 403, false},
		{"HTML error page", 502, "text/html", `<html>bad gateway</html>`, false, 0, false},
		{"JSON that is no error", 200, "application/json", `{"hello":"world"}`, false, 0, true},
		{"HTML page with 200", 200, "text/html; charset=utf-8", "<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>" + strings.Repeat("x", 100), false, 0, true},
		{"plain text with 204", 204, "text/plain", "", false, 0, true},
		{"event stream", 200, "text/event-stream", "", true, 0, false},
		{"event stream with charset", 200, " Text/Event-Stream; charset=utf-8", "", true, 0, false},
		{"no content type", 200, "", "", true, 0, false},
		{"event stream with an error status", 500, "text/event-stream", "oops", false, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.stream, reconstruct.EventStream(tt.code, tt.contentType))
			if tt.stream {
				return
			}
			err := reconstruct.ResponseError(tt.code, tt.contentType, []byte(tt.body))
			if tt.apiCode != 0 {
				var api *parser.APIError
				require.ErrorAs(t, err, &api)
				assert.Equal(t, tt.apiCode, api.Code)
				return
			}
			if tt.notStream {
				var ne *reconstruct.NotEventStreamError
				require.ErrorAs(t, err, &ne)
				require.ErrorIs(t, err, reconstruct.ErrNotEventStream)
				assert.Equal(t, tt.code, ne.StatusCode)
				assert.Equal(t, tt.contentType, ne.ContentType)
				assert.Equal(t, tt.body[:min(len(tt.body), 64)], string(ne.Head))
				assert.Contains(t, ne.Error(), strconv.Quote(tt.contentType))
				if len(ne.Head) > 0 {
					assert.Contains(t, ne.Error(), strconv.Quote(string(ne.Head)))
				} else {
					assert.Contains(t, ne.Error(), "empty body")
				}
				return
			}
			var he *reconstruct.HTTPError
			require.ErrorAs(t, err, &he)
			assert.Equal(t, tt.code, he.StatusCode)
			assert.Equal(t, tt.contentType, he.ContentType)
			assert.Equal(t, tt.body, string(he.Body))
			assert.Contains(t, he.Error(), tt.contentType)
		})
	}
}
