package httpstream_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/a2astream/a2astream/reconstruct/httpstream"
)

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
