package httpstream

// This file holds the calls answered with one JSON document rather than a
// stream: message:send, GetTask and CancelTask, over REST or JSON-RPC, the
// reading of their answer with the reducer that rebuilds runs, and
// Run.Cancel.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
)

// The errors of the calls answered with one document.
var (
	// ErrResponseTooLarge means the answer of SendMessage, GetTask or
	// CancelTask was longer than Client.Options.MaxEventSize (by default
	// sse.DefaultMaxEventSize): a task document is held whole, as one
	// event of a stream is.
	ErrResponseTooLarge = errors.New("httpstream: the response exceeds MaxEventSize")
	// ErrUnexpectedReply means message:send was answered with a document
	// that is neither a task nor a message (a status or artifact update).
	ErrUnexpectedReply = errors.New("httpstream: message:send answered with neither a task nor a message")
	// ErrNoTask means Run.Cancel was called before any event named the
	// run's task, on a run whose caller named none.
	ErrNoTask = errors.New("httpstream: the run has no task id yet")
)

// The JSON-RPC methods of A2A 1.0 answered with one document.
const (
	methodSend   = "SendMessage"
	methodGet    = "GetTask"
	methodCancel = "CancelTask"
)

// getParams are GetTask's JSON-RPC params.
type getParams struct {
	ID            string `json:"id"`
	HistoryLength *int   `json:"historyLength,omitempty"`
}

// Task is a task as the server returned it from GetTask or CancelTask.
type Task struct {
	// Result is the task as the reducer that rebuilds runs takes a task
	// snapshot: its ids, State and StatusMessage (the question of
	// INPUT_REQUIRED, the failure of FAILED), every artifact (sealed when
	// the state is terminal, and the thinking ones), the Answer (the last
	// sealed artifact that is not thinking) when the state is terminal,
	// its Citations, and Usage. Its Err is nil unless a limit of Client.Options was passed:
	// a task that is still working is not a cut run.
	Result *reconstruct.Result
	// Raw is the task document as decoded, its History included; it is
	// owned by the caller.
	Raw *parser.Task
}

// GetTaskOptions configures GetTask; nil selects the defaults.
type GetTaskOptions struct {
	// HistoryLength caps the number of history messages the server
	// returns (historyLength). 0 leaves it to the server; a negative
	// value asks for none.
	HistoryLength int
}

// SendMessage sends m with message:send (or the JSON-RPC method
// SendMessage), the call for a reply that is not streamed, and returns the
// server's answer as a Result: a task, as [Task.Result] holds it, or a
// direct message reply (Result.Message, and its parts as Result.Answer). A
// server may answer before the task ends: Result.State then says where it
// is (SUBMITTED, WORKING), and SubscribeToTask or GetTask follow it.
// Client.Timeout and ctx bound the call; IdleTimeout does not, as a server
// may say nothing until the task ends. Nothing is retried.
//
// The error is the server's *parser.APIError (REST or JSON-RPC), a
// *reconstruct.HTTPError for another non-2xx answer, a *parser.DecodeError
// for a body that is no A2A document, ErrUnexpectedReply,
// ErrResponseTooLarge, the transport's error, ErrTimeout (Client.Timeout)
// or the context's cause.
func (c *Client) SendMessage(ctx context.Context, m *UserMessage) (*reconstruct.Result, error) {
	p := c.sendParams(m)
	body, err := c.call(ctx, http.MethodPost, "/message:send", p, methodSend, p)
	if err != nil {
		return nil, err
	}
	var d parser.Decoder
	ev, err := d.Decode(&sse.Frame{Data: body})
	if err != nil {
		return nil, err
	}
	switch ev.Kind {
	case parser.KindError:
		return nil, ev.Err
	case parser.KindTask, parser.KindMessage:
		return c.reduce(ev)
	}
	return nil, ErrUnexpectedReply
}

// GetTask reads the task taskID (GET tasks/{id}, or the JSON-RPC method
// GetTask). Its errors are SendMessage's; a task the server does not know
// is its *parser.APIError (404, reason TASK_NOT_FOUND; JSON-RPC code
// -32001). When the reducer stops at a limit of Client.Options, the Task
// holds what it rebuilt, and the error is Result.Err.
func (c *Client) GetTask(ctx context.Context, taskID string, opts *GetTaskOptions) (*Task, error) {
	p := getParams{ID: taskID}
	path := "/tasks/" + url.PathEscape(taskID)
	if opts != nil && opts.HistoryLength != 0 {
		n := max(opts.HistoryLength, 0)
		p.HistoryLength = &n
		path += "?historyLength=" + strconv.Itoa(n)
	}
	return c.taskCall(ctx, http.MethodGet, path, nil, methodGet, p)
}

// CancelTask asks the server to cancel the task taskID (POST
// tasks/{id}:cancel with an empty JSON object, or the JSON-RPC method
// CancelTask), and returns the task as the server left it, normally
// CANCELED. A task already in a terminal state cannot be canceled: the
// server answers 409, a *parser.APIError with its Reason (JSON-RPC:
// TaskNotCancelableError, code -32002). Its other errors are GetTask's.
func (c *Client) CancelTask(ctx context.Context, taskID string) (*Task, error) {
	return c.taskCall(ctx, http.MethodPost, "/tasks/"+url.PathEscape(taskID)+":cancel", struct{}{}, methodCancel, subscribeParams{ID: taskID})
}

// taskCall makes a call answered with a task document (see call), and
// rebuilds the task.
func (c *Client) taskCall(ctx context.Context, method, path string, rest any, rpcMethod string, rpc any) (*Task, error) {
	body, err := c.call(ctx, method, path, rest, rpcMethod, rpc)
	if err != nil {
		return nil, err
	}
	raw, err := parser.DecodeTask(body)
	if err != nil {
		return nil, err
	}
	res, err := c.reduce(&parser.Event{Kind: parser.KindTask, Task: *raw})
	return &Task{Result: res, Raw: raw}, err
}

// reduce rebuilds the result of one event that came alone, a task or a
// message reply, with the reducer of runs. The result is final when the
// event ended the run; otherwise it is the snapshot as it stands, without
// the TruncatedError of a cut stream.
func (c *Client) reduce(ev *parser.Event) (*reconstruct.Result, error) {
	red := reconstruct.NewReducer(c.Options)
	if err := red.Apply(nil, ev); err != nil {
		return red.Result(), err
	}
	if red.Done() {
		red.Finish(0, nil)
	}
	return red.Result(), nil
}

// call makes a call answered with one JSON document: over REST, method at
// path under BaseURL with rest as the JSON body (none when nil); over
// JSON-RPC, rpcMethod with rpc as its params. It returns the body of a 2xx
// answer, at most MaxEventSize bytes, and the server's error for any
// other.
func (c *Client) call(ctx context.Context, method, path string, rest any, rpcMethod string, rpc any) ([]byte, error) {
	var doc any
	if c.Binding == parser.BindingJSONRPC {
		method, path, doc = http.MethodPost, "", rpcRequest{JSONRPC: "2.0", ID: NewID(), Method: rpcMethod, Params: rpc}
	} else {
		doc = rest
	}
	var body io.Reader
	if doc != nil {
		b, err := json.Marshal(doc)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(b)
	}
	if t := positive(c.Timeout, DefaultTimeout); t > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, t, ErrTimeout)
		defer cancel()
	}
	req, err := c.newRequest(method, path, body)
	if err != nil {
		return nil, err
	}
	req = req.WithContext(ctx)
	req.Header = http.Header{"Accept": {"application/json"}}
	c.prepare(req, "")
	resp, err := c.do(req)
	if err != nil {
		return nil, causeOf(ctx, err)
	}
	defer resp.Body.Close()
	limit := sse.DefaultMaxEventSize
	if c.Options != nil && c.Options.MaxEventSize > 0 {
		limit = c.Options.MaxEventSize
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	if err != nil {
		return nil, causeOf(ctx, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, reconstruct.ResponseError(resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	if len(b) > limit {
		return nil, ErrResponseTooLarge
	}
	return b, nil
}

// Cancel cancels the run's task on the server (CancelTask), where Close
// only leaves it running, and then reads the run on to its end, the
// CANCELED status the server sends, dropping the updates as Wait does. It
// returns CancelTask's error (the run goes on then), or the run's, nil
// when it ended normally: Result then holds the CANCELED state. Called
// while Updates is ranged over (inside its loop, or from another
// goroutine), it only cancels, and that loop reads on to the end. The
// task is the one the run's events named, or the one the caller
// subscribed to; before either, Cancel returns ErrNoTask.
func (r *Run) Cancel(ctx context.Context) error {
	id := r.taskID
	if p := r.task.Load(); p != nil {
		id = *p
	}
	if id == "" {
		return ErrNoTask
	}
	if _, err := r.c.CancelTask(ctx, id); err != nil {
		return err
	}
	if r.used.Load() {
		return nil
	}
	_, err := r.Wait()
	return err
}

// sendParams is the message m as message:send and message:stream take it.
func (c *Client) sendParams(m *UserMessage) sendParams {
	id := m.MessageID
	if id == "" {
		id = NewID()
	}
	return sendParams{Message: wireMessage{Role: "ROLE_USER", Parts: []textPart{{Text: m.Text}}, MessageID: id, TaskID: m.TaskID, ContextID: m.ContextID}}
}
