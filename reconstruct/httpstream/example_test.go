package httpstream_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"

	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/httpstream"
)

// A Client sends a message and hands out the run's text as it streams. The
// agent's first connection ends after two events; the Client resubscribes
// with the task id and Last-Event-ID, and the caller sees one uncut run.
func ExampleClient() {
	events := []string{
		`{"task":{"id":"task.1","contextId":"ctx.1","status":{"state":"TASK_STATE_WORKING"}}}`,
		`{"artifactUpdate":{"taskId":"task.1","contextId":"ctx.1","artifact":{"artifactId":"art.1","parts":[{"text":"Hello"}]}}}`,
		`{"artifactUpdate":{"taskId":"task.1","contextId":"ctx.1","append":true,"lastChunk":true,"artifact":{"artifactId":"art.1","parts":[{"text":", world."}]}}}`,
		`{"statusUpdate":{"taskId":"task.1","contextId":"ctx.1","status":{"state":"TASK_STATE_COMPLETED"}}}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		from, _ := strconv.Atoi(r.Header.Get("Last-Event-ID"))
		for i := from; i < len(events); i++ {
			if r.URL.Path == "/a2a/message:stream" && i == 2 {
				return // the stream ends before the run does
			}
			fmt.Fprintf(w, "id: %d\ndata: %s\n\n", i+1, events[i])
		}
	}))
	defer srv.Close()

	c := &httpstream.Client{
		BaseURL:    srv.URL + "/a2a",
		Header:     http.Header{"Authorization": {"Bearer t0k3n"}},
		RetryDelay: time.Millisecond,
		OnResubscribe: func(r *httpstream.Resubscription) {
			fmt.Printf("\n[resubscribing to %s after event %s]\n", r.TaskID, r.LastEventID)
		},
	}
	run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "Say hello"})
	if err != nil {
		fmt.Println(err) // the server's *parser.APIError, an unreachable server…
		return
	}
	defer run.Close()
	for u, err := range run.Updates() {
		if err != nil {
			fmt.Println("\nerror:", err) // a *reconstruct.TruncatedError: resume with its TaskID and LastEventID
			return
		}
		if u.Kind == reconstruct.UpdateText {
			fmt.Print(string(u.Text))
		}
	}
	res := run.Result()
	fmt.Printf("\n%s: %s\n", res.State, res.Answer.Text())
	// Output:
	// Hello
	// [resubscribing to task.1 after event 2]
	// , world.
	// TASK_STATE_COMPLETED: Hello, world.
}

// A server that answers a streaming call with a REST error document: Read
// returns the typed error instead of reading a stream.
func ExampleRead() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"error":{"code":404,"status":"NOT_FOUND","message":"Task not found.","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}}`)
	}))
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/tasks/task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62:subscribe", "application/json", nil)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	_, err = httpstream.Read(resp, nil)
	fmt.Println(err)
	// Output: parser: server error 404 NOT_FOUND (TASK_NOT_FOUND): Task not found.
}
