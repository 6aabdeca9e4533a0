package httpstream_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
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

const taskID = "task.019e4040-0d00-79c0-91e8-2f3a4b5c6d7e"

// taskDoc builds a task document in the given state from the citations
// sample: a thinking artifact, the cited answer with its data parts, two
// history messages, $usage, and the status message when msg is not "".
func taskDoc(t *testing.T, state, msg string) string {
	t.Helper()
	data, err := samples.Streams.ReadFile("citations.sse")
	require.NoError(t, err)
	var answer json.RawMessage
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || !strings.Contains(line, `"lastChunk":true`) || strings.Contains(line, "intermediate-thinking") {
			continue
		}
		var ev struct {
			ArtifactUpdate struct {
				Artifact json.RawMessage `json:"artifact"`
			} `json:"artifactUpdate"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &ev))
		answer = ev.ArtifactUpdate.Artifact
	}
	require.NotEmpty(t, answer)
	status := `{"state":"` + state + `","timestamp":"2026-05-19T12:40:05Z"`
	if msg != "" {
		status += `,"message":{"messageId":"msg.q","role":"ROLE_AGENT","parts":[{"text":"` + msg + `"}]}`
	}
	status += "}"
	return `{"id":"` + taskID + `","contextId":"ctx.019e403f-22a0-70d1-a2f9-3a4b5c6d7e8f","status":` + status +
		`,"artifacts":[{"artifactId":"art.think","parts":[{"text":"Let me look up the labs."}],"metadata":{"type":"intermediate-thinking"}},` + string(answer) + `]` +
		`,"history":[{"messageId":"msg.u","role":"ROLE_USER","parts":[{"text":"Summarise."}]},{"messageId":"msg.a","role":"ROLE_AGENT","parts":[{"text":"Working on it."}]}]` +
		`,"metadata":{"$usage":{"model":"corti-default","inputTokens":5120,"outputTokens":188,"totalTokens":5308,"credits":53.08}}}`
}

// streamed is what the reducer makes of doc when it comes as a stream's
// task event: what GetTask must give.
func streamed(t *testing.T, doc string) *reconstruct.Result {
	t.Helper()
	res, _ := reconstruct.Read(strings.NewReader("data: {\"task\":"+doc+"}\n\n"), nil)
	return res
}

// rpcResult wraps a result in a JSON-RPC response.
func rpcResult(result string) string {
	return `{"jsonrpc":"2.0","id":"1","result":` + result + `}`
}

func serveJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// rpcCall is a JSON-RPC request as the test agent reads it.
type rpcCall struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      string          `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

func decodeCall(t *testing.T, body []byte) rpcCall {
	t.Helper()
	var c rpcCall
	require.NoError(t, json.Unmarshal(body, &c))
	assert.Equal(t, "2.0", c.JSONRPC)
	assert.NotEmpty(t, c.ID)
	return c
}

// TestClientGetTask reads a completed task and one waiting for input over
// both bindings: the request is GET tasks/{id}?historyLength=N or GetTask
// with its params, and the Result is what the reducer makes of the same
// task in a stream (state, status message, answer, thinking, artifacts,
// usage, citations), with the raw task beside it.
func TestClientGetTask(t *testing.T) {
	tests := []struct {
		name, state, msg string
		answer           bool
	}{
		{"completed", "TASK_STATE_COMPLETED", "", true},
		{"input required", "TASK_STATE_INPUT_REQUIRED", "Which visit?", false},
		{"working", "TASK_STATE_WORKING", "Reading the labs.", false},
	}
	for _, tt := range tests {
		for _, b := range []parser.Binding{parser.BindingREST, parser.BindingJSONRPC} {
			t.Run(tt.name+"/"+b.String(), func(t *testing.T) {
				doc := taskDoc(t, tt.state, tt.msg)
				a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
					if b == parser.BindingJSONRPC {
						serveJSON(w, 200, rpcResult(doc))
						return
					}
					serveJSON(w, 200, doc)
				})
				c := &httpstream.Client{BaseURL: a.base() + "/", Binding: b, Header: http.Header{"Authorization": {"Bearer t"}}}
				task, err := c.GetTask(context.Background(), taskID, &httpstream.GetTaskOptions{HistoryLength: 2})
				require.NoError(t, err)

				reqs := a.requests()
				require.Len(t, reqs, 1)
				assert.Equal(t, "Bearer t", reqs[0].header.Get("Authorization"))
				assert.Equal(t, "1.0", reqs[0].header.Get("A2A-Version"))
				assert.Equal(t, "application/json", reqs[0].header.Get("Accept"))
				if b == parser.BindingJSONRPC {
					assert.Equal(t, http.MethodPost, reqs[0].method)
					assert.Equal(t, "/a2a", reqs[0].path)
					call := decodeCall(t, reqs[0].body)
					assert.Equal(t, "GetTask", call.Method)
					assert.JSONEq(t, `{"id":"`+taskID+`","historyLength":2}`, string(call.Params))
				} else {
					assert.Equal(t, http.MethodGet, reqs[0].method)
					assert.Equal(t, "/a2a/tasks/"+taskID, reqs[0].path)
					assert.Empty(t, reqs[0].body)
				}

				want := streamed(t, doc)
				if tt.state == "TASK_STATE_WORKING" {
					// A stream that ends there is cut; a snapshot is not.
					require.ErrorIs(t, want.Err, reconstruct.ErrTruncated)
					want.Err = nil
				}
				require.Empty(t, cmp.Diff(want, task.Result, cmpResult), "-streamed +GetTask")
				res := task.Result
				assert.NoError(t, res.Err)
				assert.Equal(t, taskID, string(res.TaskID))
				assert.Equal(t, tt.state, res.State.String())
				assert.Equal(t, tt.msg, string(reconstruct.MessageText(res.StatusMessage)))
				require.Len(t, res.Artifacts, 2)
				require.Len(t, res.Thinking(), 1)
				assert.Equal(t, "Let me look up the labs.", string(res.Thinking()[0].Text()))
				require.NotNil(t, res.Usage)
				assert.Equal(t, int64(5308), res.Usage.TotalTokens)
				if tt.answer {
					require.NotNil(t, res.Answer)
					assert.Contains(t, string(res.Answer.Text()), "Mr. Jørgensen has type 2 diabetes")
					assert.Len(t, res.Answer.Citations, 5)
				} else {
					assert.Nil(t, res.Answer)
				}
				require.NotNil(t, task.Raw)
				assert.Equal(t, taskID, string(task.Raw.ID))
				require.Len(t, task.Raw.History, 2)
				assert.Equal(t, "Working on it.", string(task.Raw.History[1].Parts[0].Text))
			})
		}
	}
	t.Run("no history option", func(t *testing.T) {
		var query string
		a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
			query = r.URL.RawQuery
			serveJSON(w, 200, taskDoc(t, "TASK_STATE_COMPLETED", ""))
		})
		c := &httpstream.Client{BaseURL: a.base()}
		_, err := c.GetTask(context.Background(), taskID, nil)
		require.NoError(t, err)
		assert.Empty(t, query)
		_, err = c.GetTask(context.Background(), taskID, &httpstream.GetTaskOptions{HistoryLength: -1})
		require.NoError(t, err)
		assert.Equal(t, "historyLength=0", query)
	})
}

// TestClientSendMessage sends a message with message:send over both
// bindings, answered with a task and with a direct message.
func TestClientSendMessage(t *testing.T) {
	reply := `{"messageId":"msg.r","contextId":"ctx.1","role":"ROLE_AGENT","parts":[{"text":"J45.909 — mild intermittent asthma."}]}`
	for _, b := range []parser.Binding{parser.BindingREST, parser.BindingJSONRPC} {
		t.Run(b.String(), func(t *testing.T) {
			doc := taskDoc(t, "TASK_STATE_COMPLETED", "")
			answers := []string{`{"task":` + doc + `}`, `{"message":` + reply + `}`}
			a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
				if b == parser.BindingJSONRPC {
					serveJSON(w, 200, rpcResult(answers[n]))
					return
				}
				serveJSON(w, 200, answers[n])
			})
			c := &httpstream.Client{BaseURL: a.base(), Binding: b}
			res, err := c.SendMessage(context.Background(), &httpstream.UserMessage{Text: "Résumé", TaskID: "task.1", ContextID: "ctx.1", MessageID: "m-1"})
			require.NoError(t, err)
			require.Empty(t, cmp.Diff(streamed(t, doc), res, cmpResult), "-streamed +SendMessage")
			assert.Equal(t, parser.TaskStateCompleted, res.State)

			res, err = c.SendMessage(context.Background(), &httpstream.UserMessage{Text: "Code it."})
			require.NoError(t, err)
			assert.NoError(t, res.Err)
			assert.Empty(t, res.TaskID)
			require.NotNil(t, res.Message)
			assert.Equal(t, "J45.909 — mild intermittent asthma.", string(res.Answer.Text()))

			reqs := a.requests()
			require.Len(t, reqs, 2)
			wantMsg := `{"message":{"role":"ROLE_USER","parts":[{"text":"Résumé"}],"messageId":"m-1","taskId":"task.1","contextId":"ctx.1"}}`
			assert.Equal(t, http.MethodPost, reqs[0].method)
			assert.Equal(t, "application/json", reqs[0].header.Get("Content-Type"))
			if b == parser.BindingJSONRPC {
				assert.Equal(t, "/a2a", reqs[0].path)
				call := decodeCall(t, reqs[0].body)
				assert.Equal(t, "SendMessage", call.Method)
				assert.JSONEq(t, wantMsg, string(call.Params))
			} else {
				assert.Equal(t, "/a2a/message:send", reqs[0].path)
				assert.JSONEq(t, wantMsg, string(reqs[0].body))
			}
		})
	}
}

// TestClientCancelTask cancels a working task over both bindings (POST
// tasks/{id}:cancel with {}, or CancelTask) and gets the CANCELED task;
// canceling a task that already ended is refused with 409 (REST) or
// TaskNotCancelableError (JSON-RPC), a *parser.APIError with its reason.
func TestClientCancelTask(t *testing.T) {
	canceled := taskDoc(t, "TASK_STATE_CANCELED", "")
	for _, b := range []parser.Binding{parser.BindingREST, parser.BindingJSONRPC} {
		t.Run(b.String(), func(t *testing.T) {
			a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
				switch {
				case n == 0 && b == parser.BindingJSONRPC:
					serveJSON(w, 200, rpcResult(canceled))
				case n == 0:
					serveJSON(w, 200, canceled)
				case b == parser.BindingJSONRPC:
					serveJSON(w, 200, `{"jsonrpc":"2.0","id":"1","error":{"code":-32002,"message":"Task cannot be canceled","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_CANCELABLE","domain":"a2a-protocol.org"}]}}`)
				default:
					serveJSON(w, 409, `{"error":{"code":409,"status":"FAILED_PRECONDITION","message":"Task is in a terminal state.","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_CANCELABLE","domain":"a2a-protocol.org"}]}}`)
				}
			})
			c := &httpstream.Client{BaseURL: a.base(), Binding: b}
			task, err := c.CancelTask(context.Background(), taskID)
			require.NoError(t, err)
			assert.Equal(t, parser.TaskStateCanceled, task.Result.State)
			assert.Equal(t, parser.TaskStateCanceled, task.Raw.Status.State)

			_, err = c.CancelTask(context.Background(), taskID)
			var api *parser.APIError
			require.ErrorAs(t, err, &api)
			assert.Equal(t, b, api.Binding)
			assert.Equal(t, "TASK_NOT_CANCELABLE", api.Reason)
			if b == parser.BindingJSONRPC {
				assert.Equal(t, int64(-32002), api.Code)
			} else {
				assert.Equal(t, int64(409), api.Code)
			}

			reqs := a.requests()
			require.Len(t, reqs, 2)
			assert.Equal(t, http.MethodPost, reqs[0].method)
			if b == parser.BindingJSONRPC {
				call := decodeCall(t, reqs[0].body)
				assert.Equal(t, "CancelTask", call.Method)
				assert.JSONEq(t, `{"id":"`+taskID+`"}`, string(call.Params))
			} else {
				assert.Equal(t, "/a2a/tasks/"+taskID+":cancel", reqs[0].path)
				assert.Equal(t, "{}", string(reqs[0].body))
				assert.Equal(t, "application/json", reqs[0].header.Get("Content-Type"))
			}
		})
	}
}

// TestClientTaskCallErrors checks the errors of the calls answered with
// one document: the server's error documents of both bindings, a page
// that is none, a body that is no A2A document, one too large, and
// message:send answered with an update.
func TestClientTaskCallErrors(t *testing.T) {
	notFoundREST := `{"error":{"code":404,"status":"NOT_FOUND","message":"Task not found.","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org","metadata":{"taskId":"` + taskID + `"}}]}}`
	tests := []struct {
		name        string
		binding     parser.Binding
		status      int
		contentType string
		body        string
		opts        *reconstruct.Options
		check       func(t *testing.T, err error)
	}{
		{"REST 404 document", parser.BindingREST, 404, "application/json", notFoundREST, nil, func(t *testing.T, err error) {
			var api *parser.APIError
			require.ErrorAs(t, err, &api)
			assert.Equal(t, int64(404), api.Code)
			assert.Equal(t, "TASK_NOT_FOUND", api.Reason)
			assert.Equal(t, `{"taskId":"`+taskID+`"}`, string(api.Metadata))
		}},
		{"REST 200 error document", parser.BindingREST, 200, "application/json", notFoundREST, nil, func(t *testing.T, err error) {
			var api *parser.APIError
			require.ErrorAs(t, err, &api)
			assert.Equal(t, "TASK_NOT_FOUND", api.Reason)
		}},
		{"JSON-RPC TaskNotFoundError", parser.BindingJSONRPC, 200, "application/json", `{"jsonrpc":"2.0","id":"1","error":{"code":-32001,"message":"Task not found"}}`, nil, func(t *testing.T, err error) {
			var api *parser.APIError
			require.ErrorAs(t, err, &api)
			assert.Equal(t, parser.BindingJSONRPC, api.Binding)
			assert.Equal(t, int64(-32001), api.Code)
		}},
		{"HTML 502", parser.BindingREST, 502, "text/html", "<h1>Bad gateway</h1>", nil, func(t *testing.T, err error) {
			var he *reconstruct.HTTPError
			require.ErrorAs(t, err, &he)
			assert.Equal(t, 502, he.StatusCode)
		}},
		{"HTML 200", parser.BindingREST, 200, "text/html", "<!DOCTYPE html>", nil, func(t *testing.T, err error) {
			var de *parser.DecodeError
			require.ErrorAs(t, err, &de)
		}},
		{"too large", parser.BindingREST, 200, "application/json", taskDocFor(), &reconstruct.Options{MaxEventSize: 64}, func(t *testing.T, err error) {
			require.ErrorIs(t, err, httpstream.ErrResponseTooLarge)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.contentType)
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.body)
			})
			c := &httpstream.Client{BaseURL: a.base(), Binding: tt.binding, Options: tt.opts}
			task, err := c.GetTask(context.Background(), taskID, nil)
			assert.Nil(t, task)
			tt.check(t, err)
			_, err = c.CancelTask(context.Background(), taskID)
			tt.check(t, err)
		})
	}
	t.Run("message:send answered with an update", func(t *testing.T) {
		a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
			serveJSON(w, 200, `{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}`)
		})
		res, err := (&httpstream.Client{BaseURL: a.base()}).SendMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
		assert.Nil(t, res)
		require.ErrorIs(t, err, httpstream.ErrUnexpectedReply)
	})
	t.Run("unreachable", func(t *testing.T) {
		a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {})
		u := a.base()
		a.srv.Close()
		_, err := (&httpstream.Client{BaseURL: u}).GetTask(context.Background(), taskID, nil)
		require.Error(t, err)
		var api *parser.APIError
		assert.False(t, errors.As(err, &api))
	})
}

// taskDocFor is a small task document, longer than 64 bytes.
func taskDocFor() string {
	return `{"id":"` + taskID + `","contextId":"ctx.1","status":{"state":"TASK_STATE_WORKING"}}`
}

// TestRunCancel cancels a running stream over both bindings, from the
// goroutine that reads it, from another while it is read, and on a
// subscription not read yet (Cancel then reads it): the run sends
// CancelTask for its task and reads on to the CANCELED status the server
// then streams; the run ends normally, and Close was not needed to stop it.
func TestRunCancel(t *testing.T) {
	completed, err := samples.Streams.ReadFile("completed.sse")
	require.NoError(t, err)
	fs := framesOf(t, completed)
	head := completed[:fs[2].end]
	const id = "task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62"
	end := `data: {"statusUpdate":{"taskId":"` + id + `","contextId":"ctx.019e401a-3968-7c4f-a02b-4d9e7f3c8b51","status":{"state":"TASK_STATE_CANCELED"}}}` + "\n\n"
	canceledDoc := `{"id":"` + id + `","contextId":"ctx.019e401a-3968-7c4f-a02b-4d9e7f3c8b51","status":{"state":"TASK_STATE_CANCELED"}}`
	for _, b := range []parser.Binding{parser.BindingREST, parser.BindingJSONRPC} {
		for _, mode := range []string{"from the reader", "while read", "unread subscription"} {
			t.Run(b.String()+"/"+mode, func(t *testing.T) {
				stream, tail := head, []byte(end)
				if b == parser.BindingJSONRPC {
					stream, tail = toJSONRPC(stream), toJSONRPC(tail)
				}
				cancel := make(chan struct{})
				a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
					if n == 0 {
						serveSSE(w, stream)
						select {
						case <-cancel:
						case <-r.Context().Done():
							return
						}
						w.Write(tail)
						return
					}
					close(cancel)
					if b == parser.BindingJSONRPC {
						serveJSON(w, 200, rpcResult(canceledDoc))
						return
					}
					serveJSON(w, 200, canceledDoc)
				})
				c := &httpstream.Client{BaseURL: a.base(), Binding: b}
				var run *httpstream.Run
				if mode == "unread subscription" {
					run, err = c.SubscribeToTask(context.Background(), id, "")
				} else {
					run, err = c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
				}
				require.NoError(t, err)
				defer run.Close()
				switch mode {
				case "unread subscription":
					// The task is known from the call: Cancel reads the
					// run to its end itself.
					require.NoError(t, run.Cancel(context.Background()))
				case "while read":
					done := make(chan error)
					go func() {
						_, err := run.Wait()
						done <- err
					}()
					// Cancel once the reader has seen the task.
					deadline := time.Now().Add(10 * time.Second)
					for {
						err := run.Cancel(context.Background())
						if !errors.Is(err, httpstream.ErrNoTask) {
							require.NoError(t, err)
							break
						}
						require.True(t, time.Now().Before(deadline), "the task id never came")
						time.Sleep(time.Millisecond)
					}
					require.NoError(t, <-done)
				default:
					sent := false
					for u, err := range run.Updates() {
						require.NoError(t, err)
						if u.Kind == reconstruct.UpdateText && !sent {
							require.NoError(t, run.Cancel(context.Background()))
							sent = true
						}
					}
					assert.True(t, sent)
				}
				assert.Equal(t, parser.TaskStateCanceled, run.Result().State)
				assert.NoError(t, run.Result().Err)
				reqs := a.requests()
				require.Len(t, reqs, 2)
				if b == parser.BindingJSONRPC {
					assert.Equal(t, "CancelTask", decodeCall(t, reqs[1].body).Method)
				} else {
					assert.Equal(t, "/a2a/tasks/"+id+":cancel", reqs[1].path)
				}
			})
		}
	}
}

// TestRunCloseDetaches checks that Close only leaves the run: no cancel
// goes to the server, and the task can be subscribed to again.
func TestRunCloseDetaches(t *testing.T) {
	completed, err := samples.Streams.ReadFile("completed.sse")
	require.NoError(t, err)
	fs := framesOf(t, completed)
	a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
		if n == 0 {
			serveSSE(w, completed[:fs[2].end])
			a.stall(r)
			return
		}
		serveSSE(w, completed)
	})
	c := &httpstream.Client{BaseURL: a.base()}
	run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
	require.NoError(t, err)
	for u, err := range run.Updates() {
		require.NoError(t, err)
		if u.Kind == reconstruct.UpdateText {
			break // leaving the loop closes the run
		}
	}
	require.NoError(t, run.Close())
	require.ErrorIs(t, run.Result().Err, httpstream.ErrClosed)
	reqs := a.requests()
	require.Len(t, reqs, 1, "Close sent nothing to the server")
	assert.Equal(t, "/a2a/message:stream", reqs[0].path)

	again, err := c.SubscribeToTask(context.Background(), string(run.Result().TaskID), "")
	require.NoError(t, err)
	res, err := again.Wait()
	require.NoError(t, err)
	assert.Equal(t, parser.TaskStateCompleted, res.State)
}
