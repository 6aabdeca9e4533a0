package httpstream_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/httpstream"
)

// The two events of the runs below: the task, then its end.
const (
	eventTask = `{"task":{"id":"task.1","contextId":"ctx.1","status":{"state":"TASK_STATE_WORKING"}}}`
	eventDone = `{"statusUpdate":{"taskId":"task.1","contextId":"ctx.1","status":{"state":"TASK_STATE_COMPLETED"}}}`
)

// sseEvent is one frame carrying event in binding b.
func sseEvent(b parser.Binding, id, event string) string {
	if b == parser.BindingJSONRPC {
		event = `{"jsonrpc":"2.0","id":"1","result":` + event + `}`
	}
	return "id: " + id + "\ndata: " + event + "\n\n"
}

// uriAgent is an httptest server that records the request-target of each
// request and answers it with handle.
type uriAgent struct {
	srv    *httptest.Server
	mu     sync.Mutex
	uris   []string
	handle func(n int, w http.ResponseWriter, r *http.Request)
}

func newURIAgent(t *testing.T, handle func(n int, w http.ResponseWriter, r *http.Request)) *uriAgent {
	t.Helper()
	a := &uriAgent{handle: handle}
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		n := len(a.uris)
		a.uris = append(a.uris, r.RequestURI)
		a.mu.Unlock()
		a.handle(n, w, r)
	}))
	t.Cleanup(a.srv.Close)
	return a
}

func (a *uriAgent) requestURIs() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.uris...)
}

// TestClientBaseURLQuery checks that every call of both bindings keeps the
// base URL's query string: REST paths are appended to the URL's path (an
// escaped path stays escaped, a trailing slash goes), JSON-RPC posts to
// the URL itself, and a resubscription after a drop does the same.
func TestClientBaseURLQuery(t *testing.T) {
	const query = "?api_key=K%2B1&x=y"
	tests := []struct {
		name    string
		binding parser.Binding
		path    string // the base URL's path
		call    func(c *httpstream.Client) (*httpstream.Run, error)
		drop    bool // the first connection is dropped after the task
		want    []string
	}{
		{"REST send", parser.BindingREST, "/a2a/", send, false,
			[]string{"/a2a/message:stream" + query}},
		{"REST send, escaped path", parser.BindingREST, "/v2/agents/ag%2F1/a2a", send, false,
			[]string{"/v2/agents/ag%2F1/a2a/message:stream" + query}},
		{"REST send, resubscribed", parser.BindingREST, "/a2a", send, true,
			[]string{"/a2a/message:stream" + query, "/a2a/tasks/task.1:subscribe" + query}},
		{"REST subscribe", parser.BindingREST, "/a2a", subscribe, false,
			[]string{"/a2a/tasks/task.1:subscribe" + query}},
		{"JSON-RPC send", parser.BindingJSONRPC, "/a2a", send, false,
			[]string{"/a2a" + query}},
		{"JSON-RPC send, resubscribed", parser.BindingJSONRPC, "/a2a/", send, true,
			[]string{"/a2a" + query, "/a2a" + query}},
		{"JSON-RPC subscribe", parser.BindingJSONRPC, "/a2a", subscribe, false,
			[]string{"/a2a" + query}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newURIAgent(t, func(n int, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				if n == 0 && tt.drop {
					w.Write([]byte(sseEvent(tt.binding, "1", eventTask)))
					w.(http.Flusher).Flush()
					conn, _, err := w.(http.Hijacker).Hijack()
					if assert.NoError(t, err) {
						conn.Close()
					}
					return
				}
				w.Write([]byte(sseEvent(tt.binding, "1", eventTask) + sseEvent(tt.binding, "2", eventDone)))
			})
			c := &httpstream.Client{BaseURL: a.srv.URL + tt.path + query, Binding: tt.binding, RetryDelay: -1}
			run, err := tt.call(c)
			require.NoError(t, err)
			defer run.Close()
			res, err := run.Wait()
			require.NoError(t, err)
			assert.Equal(t, parser.TaskStateCompleted, res.State)
			assert.Equal(t, tt.want, a.requestURIs())
		})
	}
}

func send(c *httpstream.Client) (*httpstream.Run, error) {
	return c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "hi"})
}

func subscribe(c *httpstream.Client) (*httpstream.Run, error) {
	return c.SubscribeToTask(context.Background(), "task.1", "")
}

// closedAddr returns host:port of a port on 127.0.0.1 that nothing listens
// on.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// TestClientErrorsRedactURL checks the error texts of failed calls of both
// bindings, sent and subscribed: the URL they name shows its userinfo,
// query string and fragment as "…", never the secrets they hold, also when
// the URL is a redirect's target, and the error stays matchable.
func TestClientErrorsRedactURL(t *testing.T) {
	const secret = "s3cr3t"
	refused := closedAddr(t)
	redirectTo := func(loc string) *httptest.Server {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, loc, http.StatusTemporaryRedirect)
		}))
		t.Cleanup(srv.Close)
		return srv
	}
	notFound := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(notFound.Close)
	moved := redirectTo("http://" + refused + "/moved?token=" + secret + "#" + secret)
	loop := redirectTo("/a2a?api_key=" + secret)

	tests := []struct {
		name  string
		base  string
		want  string // in the error's text
		check func(t *testing.T, err error)
	}{
		{"connection refused", "http://user:" + secret + "@" + refused + "/a2a?api_key=" + secret + "#" + secret,
			`"http://…@` + refused + `/a2a`, func(t *testing.T, err error) {
				var ue *url.Error
				require.ErrorAs(t, err, &ue)
				assert.ErrorIs(t, err, syscall.ECONNREFUSED)
			}},
		{"404", notFound.URL + "/a2a?api_key=" + secret, "404", func(t *testing.T, err error) {
			var he *reconstruct.HTTPError
			require.ErrorAs(t, err, &he)
		}},
		{"redirect to a refused port", moved.URL + "/a2a?api_key=" + secret, `"http://` + refused + `/moved?…"`, func(t *testing.T, err error) {
			assert.ErrorIs(t, err, syscall.ECONNREFUSED)
		}},
		{"redirect loop", loop.URL + "/a2a?api_key=" + secret, `/a2a?…": stopped after 10 redirects`, func(t *testing.T, err error) {
			var ue *url.Error
			require.ErrorAs(t, err, &ue)
		}},
		{"base URL that does not parse", "http://user:" + secret + "@[::1/a2a?api_key=" + secret, `"http://…@[::1/a2a?…"`, func(t *testing.T, err error) {
			var ue *url.Error
			require.ErrorAs(t, err, &ue)
			assert.Equal(t, "parse", ue.Op)
		}},
	}
	for _, tt := range tests {
		for _, b := range []parser.Binding{parser.BindingREST, parser.BindingJSONRPC} {
			for _, call := range []struct {
				name string
				do   func(c *httpstream.Client) (*httpstream.Run, error)
			}{{"send", send}, {"subscribe", subscribe}} {
				t.Run(tt.name+"/"+b.String()+"/"+call.name, func(t *testing.T) {
					c := &httpstream.Client{BaseURL: tt.base, Binding: b, Retries: -1}
					run, err := call.do(c)
					require.Error(t, err)
					require.Nil(t, run)
					text := err.Error()
					assert.NotContains(t, text, secret)
					assert.NotContains(t, text, "user")
					assert.Contains(t, text, tt.want)
					tt.check(t, err)
				})
			}
		}
	}
}

// TestClientErrorsRedactOpen checks a request the caller built with Open:
// the transport's error names its URL without the query string.
func TestClientErrorsRedactOpen(t *testing.T) {
	req, err := http.NewRequest(http.MethodGet, "http://"+closedAddr(t)+"/stream?sig=s3cr3t", nil)
	require.NoError(t, err)
	_, err = (&httpstream.Client{Retries: -1}).Open(context.Background(), req)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "s3cr3t")
	assert.Contains(t, err.Error(), `/stream?…"`)
	assert.True(t, errors.Is(err, syscall.ECONNREFUSED), "%v", err)
}

// TestClientTaskCallsBaseURLQuery checks that the one-document calls
// (SendMessage, GetTask, CancelTask) keep the base URL's query string too,
// GetTask's historyLength added to it, and that JSON-RPC posts them to the
// URL itself.
func TestClientTaskCallsBaseURLQuery(t *testing.T) {
	const query = "?api_key=K%2B1"
	task := `{"id":"task.1","contextId":"ctx.1","status":{"state":"TASK_STATE_COMPLETED"}}`
	ctx := context.Background()
	history := &httpstream.GetTaskOptions{HistoryLength: 2}
	tests := []struct {
		name    string
		binding parser.Binding
		call    func(c *httpstream.Client) error
		want    string
	}{
		{"REST send", parser.BindingREST, func(c *httpstream.Client) error {
			_, err := c.SendMessage(ctx, &httpstream.UserMessage{Text: "hi"})
			return err
		}, "/a2a/message:send" + query},
		{"REST get", parser.BindingREST, func(c *httpstream.Client) error {
			_, err := c.GetTask(ctx, "task.1", history)
			return err
		}, "/a2a/tasks/task.1" + query + "&historyLength=2"},
		{"REST cancel", parser.BindingREST, func(c *httpstream.Client) error {
			_, err := c.CancelTask(ctx, "task.1")
			return err
		}, "/a2a/tasks/task.1:cancel" + query},
		{"JSON-RPC get", parser.BindingJSONRPC, func(c *httpstream.Client) error {
			_, err := c.GetTask(ctx, "task.1", history)
			return err
		}, "/a2a" + query},
		{"JSON-RPC cancel", parser.BindingJSONRPC, func(c *httpstream.Client) error {
			_, err := c.CancelTask(ctx, "task.1")
			return err
		}, "/a2a" + query},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newURIAgent(t, func(n int, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				doc := task
				if tt.name == "REST send" {
					doc = `{"task":` + task + `}`
				}
				if tt.binding == parser.BindingJSONRPC {
					doc = `{"jsonrpc":"2.0","id":"1","result":` + task + `}`
				}
				w.Write([]byte(doc))
			})
			c := &httpstream.Client{BaseURL: a.srv.URL + "/a2a/" + query, Binding: tt.binding}
			require.NoError(t, tt.call(c))
			assert.Equal(t, []string{tt.want}, a.requestURIs())
		})
	}
}
