package httpstream_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/internal/samples"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/httpstream"
)

// refusal is an answer a server may give a resubscription.
type refusal struct {
	status      int
	contentType string
	header      map[string]string
	body        string
}

func (f refusal) serve(w http.ResponseWriter) {
	for k, v := range f.header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", f.contentType)
	w.WriteHeader(f.status)
	io.WriteString(w, f.body)
}

// TestClientResubscribeAnswers answers the first resubscription of a
// dropped run with each status a server or proxy sends: the transient ones
// (408, 425, 429, 500, 502, 503, 504, a 2xx that is no event stream, a
// JSON-RPC error that is not about the task) are retried with the backoff,
// and the run completes equal to the uncut one; the refusals (400, 401,
// 403, 404, 409, an A2A error document naming the task, whatever its
// status) end the run, cut, with the refusal as the cause. A REST error
// document's code counts as its status.
func TestClientResubscribeAnswers(t *testing.T) {
	completed, err := samples.Streams.ReadFile("completed.sse")
	require.NoError(t, err)
	fs := framesOf(t, completed)
	head := completed[:fs[2].end]
	uncut, err := reconstruct.Read(bytes.NewReader(completed), nil)
	require.NoError(t, err)

	plain := func(status int) refusal {
		return refusal{status: status, contentType: "text/plain", body: http.StatusText(status)}
	}
	restDoc := func(status int, name, reason string) refusal {
		return refusal{status: status, contentType: "application/json",
			body: `{"error":{"code":` + strconv.Itoa(status) + `,"status":"` + name + `","message":"m","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"` + reason + `","domain":"a2a-protocol.org"}]}}`}
	}
	rpcDoc := func(code int) refusal {
		return refusal{status: 200, contentType: "application/json", body: `{"jsonrpc":"2.0","id":"1","error":{"code":` + strconv.Itoa(code) + `,"message":"m"}}`}
	}
	tests := []struct {
		name   string
		answer refusal
		retry  bool
	}{
		{"408", plain(408), true},
		{"425", plain(425), true},
		{"429", plain(429), true},
		{"500", plain(500), true},
		{"502 HTML", refusal{status: 502, contentType: "text/html", body: "<h1>Bad gateway</h1>"}, true},
		{"503", plain(503), true},
		{"503 REST document", restDoc(503, "UNAVAILABLE", ""), true},
		{"504", plain(504), true},
		{"200 HTML page", refusal{status: 200, contentType: "text/html", body: "<!DOCTYPE html><p>maintenance</p>"}, true},
		{"204 empty", refusal{status: 204}, true},
		{"200 JSON-RPC internal error", rpcDoc(-32603), true},
		{"400", plain(400), false},
		{"401 REST document", restDoc(401, "UNAUTHENTICATED", ""), false},
		{"403", plain(403), false},
		{"404", plain(404), false},
		{"404 TASK_NOT_FOUND", restDoc(404, "NOT_FOUND", "TASK_NOT_FOUND"), false},
		{"409", restDoc(409, "FAILED_PRECONDITION", "TASK_NOT_CANCELABLE"), false},
		{"503 TASK_NOT_FOUND", restDoc(503, "UNAVAILABLE", "TASK_NOT_FOUND"), false},
		{"200 REST 403 document", refusal{status: 200, contentType: "application/json", body: `{"error":{"code":403,"status":"PERMISSION_DENIED","message":"m"}}`}, false},
		{"200 REST 503 document", refusal{status: 200, contentType: "application/json", body: `{"error":{"code":503,"status":"UNAVAILABLE","message":"m"}}`}, true},
		{"200 JSON-RPC TaskNotFoundError", rpcDoc(-32001), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
				switch n {
				case 0:
					serveSSE(w, head)
					drop(t, w)
				case 1:
					tt.answer.serve(w)
				default:
					replay(t, w, r, completed, fs)
				}
			})
			var causes []error
			c := &httpstream.Client{BaseURL: a.base(), RetryDelay: time.Millisecond, Jitter: -1,
				OnResubscribe: func(r *httpstream.Resubscription) { causes = append(causes, r.Err) }}
			run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
			require.NoError(t, err)
			res, err := run.Wait()
			if tt.retry {
				require.NoError(t, err)
				require.Empty(t, cmp.Diff(uncut, res, cmpResult))
				require.Len(t, a.requests(), 3)
				require.Len(t, causes, 2)
				if tt.answer.contentType != "" {
					// (A 2xx without a Content-Type is read as a
					// stream, here an empty one: no error.)
					assert.Error(t, causes[1], "the second resubscription tells why the first failed")
				}
				return
			}
			require.ErrorIs(t, err, reconstruct.ErrTruncated)
			var trunc *reconstruct.TruncatedError
			require.ErrorAs(t, err, &trunc)
			assert.NotContains(t, []error{nil, io.EOF}, trunc.Cause)
			var api *parser.APIError
			var he *reconstruct.HTTPError
			switch {
			case errors.As(err, &api):
				if api.Binding == parser.BindingREST && tt.answer.status != 200 {
					assert.Equal(t, int64(tt.answer.status), api.Code)
				}
			case errors.As(err, &he):
				assert.Equal(t, tt.answer.status, he.StatusCode)
			default:
				t.Fatalf("cause %v is neither an APIError nor an HTTPError", trunc.Cause)
			}
			assert.Len(t, a.requests(), 2)
		})
	}
}

// TestClientRetryAfter checks that a transient answer's Retry-After, in
// seconds or as an HTTP date, sets the next backoff, capped by
// MaxRetryDelay; that retries stop at Retries, with the last answer as the
// cause; and that Timeout bounds a wait that Retry-After asks for.
func TestClientRetryAfter(t *testing.T) {
	completed, err := samples.Streams.ReadFile("completed.sse")
	require.NoError(t, err)
	fs := framesOf(t, completed)
	head := completed[:fs[2].end]
	busy := func(retryAfter string) refusal {
		return refusal{status: 503, contentType: "text/plain", header: map[string]string{"Retry-After": retryAfter}, body: "busy"}
	}
	tests := []struct {
		name       string
		retryAfter func() string
		maxDelay   time.Duration
		want       time.Duration // the second backoff
	}{
		{"seconds", func() string { return "1" }, 5 * time.Second, time.Second},
		{"seconds capped", func() string { return "120" }, 40 * time.Millisecond, 40 * time.Millisecond},
		{"HTTP date capped", func() string { return time.Now().Add(time.Hour).UTC().Format(http.TimeFormat) }, 40 * time.Millisecond, 40 * time.Millisecond},
		{"HTTP date past", func() string { return "Sun, 06 Nov 1994 08:49:37 GMT" }, 40 * time.Millisecond, 2 * time.Millisecond},
		{"unreadable", func() string { return "soon" }, 40 * time.Millisecond, 2 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
				switch n {
				case 0:
					serveSSE(w, head)
					drop(t, w)
				case 1:
					busy(tt.retryAfter()).serve(w)
				default:
					replay(t, w, r, completed, fs)
				}
			})
			var delays []time.Duration
			c := &httpstream.Client{BaseURL: a.base(), RetryDelay: time.Millisecond, MaxRetryDelay: tt.maxDelay, Jitter: -1,
				OnResubscribe: func(r *httpstream.Resubscription) { delays = append(delays, r.Delay) }}
			run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
			require.NoError(t, err)
			start := time.Now()
			res, err := run.Wait()
			require.NoError(t, err)
			assert.Equal(t, parser.TaskStateCompleted, res.State)
			require.Len(t, delays, 2)
			assert.Equal(t, tt.want, delays[1])
			assert.GreaterOrEqual(t, time.Since(start), delays[0]+delays[1])
		})
	}

	t.Run("retries", func(t *testing.T) {
		a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
			if n == 0 {
				serveSSE(w, head)
				drop(t, w)
				return
			}
			busy("0").serve(w)
		})
		c := &httpstream.Client{BaseURL: a.base(), Retries: 3, RetryDelay: -1}
		run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
		require.NoError(t, err)
		_, err = run.Wait()
		var he *reconstruct.HTTPError
		require.ErrorAs(t, err, &he)
		assert.Equal(t, 503, he.StatusCode)
		require.ErrorIs(t, err, reconstruct.ErrTruncated)
		assert.Len(t, a.requests(), 4)
	})

	t.Run("timeout", func(t *testing.T) {
		a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
			if n == 0 {
				serveSSE(w, head)
				drop(t, w)
				return
			}
			busy("3600").serve(w)
		})
		c := &httpstream.Client{BaseURL: a.base(), RetryDelay: -1, MaxRetryDelay: time.Hour, Timeout: 300 * time.Millisecond}
		run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
		require.NoError(t, err)
		start := time.Now()
		_, err = run.Wait()
		require.ErrorIs(t, err, httpstream.ErrTimeout)
		assert.Less(t, time.Since(start), 5*time.Second)
		assert.Len(t, a.requests(), 2)
	})
}
