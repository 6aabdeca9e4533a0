package httpstream_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/httpstream"
)

// TestRead reads real HTTP responses from a server on 127.0.0.1: error
// documents of both bindings with and without an error status, a response
// that is no stream, and a stream written in flushed pieces.
func TestRead(t *testing.T) {
	completed, err := os.ReadFile("../../internal/samples/completed.sse")
	require.NoError(t, err)
	tests := []struct {
		name        string
		code        int
		contentType string
		body        string
		apiCode     int64 // the API error's code
		httpError   bool
		notStream   bool
	}{
		{"REST error document", 404, "application/json", `{"error":{"code":404,"status":"NOT_FOUND","message":"task not found"}}`, 404, false, false},
		{"JSON-RPC error with 200", 200, "application/json", `{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Task not found"}}`, -32001, false, false},
		{"HTML error page", 502, "text/html", `<html>bad gateway</html>`, 0, true, false},
		{"HTML page with 200", 200, "text/html", `<html>sign in</html>`, 0, false, true},
		{"event stream", 200, "text/event-stream", string(completed), 0, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.contentType)
				w.WriteHeader(tt.code)
				for part := range strings.SplitAfterSeq(tt.body, "\n\n") {
					io.WriteString(w, part)
					w.(http.Flusher).Flush()
				}
			}))
			defer srv.Close()
			require.True(t, strings.HasPrefix(srv.URL, "http://127.0.0.1:"))
			resp, err := http.Post(srv.URL+"/a2a/message:stream", "application/json", strings.NewReader(`{}`))
			require.NoError(t, err)
			defer resp.Body.Close()
			res, err := httpstream.Read(resp, nil)
			require.NotNil(t, res)
			assert.Equal(t, err, res.Err)
			switch {
			case tt.apiCode != 0:
				var api *parser.APIError
				require.ErrorAs(t, err, &api)
				assert.Equal(t, tt.apiCode, api.Code)
			case tt.notStream:
				var ne *reconstruct.NotEventStreamError
				require.ErrorAs(t, err, &ne)
				assert.Equal(t, tt.contentType, ne.ContentType)
				assert.Equal(t, tt.body, string(ne.Head))
			case tt.httpError:
				var he *reconstruct.HTTPError
				require.ErrorAs(t, err, &he)
				assert.Equal(t, tt.code, he.StatusCode)
				assert.Equal(t, tt.body, string(he.Body))
			default:
				require.NoError(t, err)
				assert.Equal(t, parser.TaskStateCompleted, res.State)
				require.NotNil(t, res.Answer)
				assert.True(t, strings.HasPrefix(string(res.Answer.Text()), "Asthme intermittent léger (J45.20)"))
			}
		})
	}
}
