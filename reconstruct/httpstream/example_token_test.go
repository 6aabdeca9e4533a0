package httpstream_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct/httpstream"
)

// bearer is an http.RoundTripper that sets a fresh token on every request
// it sends, the resubscriptions of a long run included.
type bearer struct {
	next  http.RoundTripper
	token func() string // a cached token, fetched again once it expired
}

func (b *bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context()) // a RoundTripper must not change the caller's request
	req.Header.Set("Authorization", "Bearer "+b.token())
	return b.next.RoundTrip(req)
}

// Tokens expire during long runs, which resubscribe: a RoundTripper in
// Client.HTTP sets a fresh one on every request (leave Authorization out
// of Client.Header). Here each token lasts one request, and the agent's
// first connection ends before the run does.
func ExampleClient_refreshToken() {
	events := []string{
		`{"task":{"id":"task.1","contextId":"ctx.1","status":{"state":"TASK_STATE_WORKING"}}}`,
		`{"artifactUpdate":{"taskId":"task.1","contextId":"ctx.1","lastChunk":true,"artifact":{"artifactId":"art.1","parts":[{"text":"Done."}]}}}`,
		`{"statusUpdate":{"taskId":"task.1","contextId":"ctx.1","status":{"state":"TASK_STATE_COMPLETED"}}}`,
	}
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.Path+" "+r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		from, _ := strconv.Atoi(r.Header.Get("Last-Event-ID"))
		for i := from; i < len(events); i++ {
			if r.URL.Path == "/a2a/message:stream" && i == 1 {
				return // the stream ends before the run does
			}
			fmt.Fprintf(w, "id: %d\ndata: %s\n\n", i+1, events[i])
		}
	}))
	defer srv.Close()

	issued := 0 // stands for an identity provider
	c := &httpstream.Client{
		BaseURL:    srv.URL + "/a2a",
		Header:     http.Header{"Tenant-Name": {"acme"}},
		HTTP:       &http.Client{Transport: &bearer{next: http.DefaultTransport, token: func() string { issued++; return "token-" + strconv.Itoa(issued) }}},
		RetryDelay: time.Millisecond,
	}
	run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "Summarise."})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := run.Wait()
	fmt.Println(res.State, err)
	mu.Lock()
	defer mu.Unlock()
	for _, s := range seen {
		fmt.Println(s)
	}
	// Output:
	// TASK_STATE_COMPLETED <nil>
	// /a2a/message:stream Bearer token-1
	// /a2a/tasks/task.1:subscribe Bearer token-2
}

// CancelTask cancels a task and returns it as the server left it; a task
// that already ended cannot be canceled: the server's 409 is a
// *parser.APIError with its reason. GetTask reads a task again, rebuilt by
// the reducer that rebuilds streamed runs.
func ExampleClient_CancelTask() {
	canceled := `{"id":"task.1","contextId":"ctx.1","status":{"state":"TASK_STATE_CANCELED"},"history":[{"messageId":"m.1","role":"ROLE_USER","parts":[{"text":"Summarise."}]}]}`
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		calls++
		if r.Method == http.MethodPost && calls > 1 {
			w.WriteHeader(http.StatusConflict)
			fmt.Fprint(w, `{"error":{"code":409,"status":"FAILED_PRECONDITION","message":"Task is in a terminal state.","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_CANCELABLE","domain":"a2a-protocol.org"}]}}`)
			return
		}
		fmt.Fprint(w, canceled)
	}))
	defer srv.Close()

	c := &httpstream.Client{BaseURL: srv.URL + "/a2a"}
	task, err := c.CancelTask(context.Background(), "task.1")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(task.Result.State)
	_, err = c.CancelTask(context.Background(), "task.1")
	var api *parser.APIError
	if errors.As(err, &api) {
		fmt.Println(api.Code, api.Reason)
	}
	task, err = c.GetTask(context.Background(), "task.1", &httpstream.GetTaskOptions{HistoryLength: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(task.Result.State, len(task.Raw.History))
	// Output:
	// TASK_STATE_CANCELED
	// 409 TASK_NOT_CANCELABLE
	// TASK_STATE_CANCELED 1
}
