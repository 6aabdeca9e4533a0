package parser

import (
	"bytes"
	"strconv"

	"github.com/a2astream/a2astream/internal/errtext"
)

// APIError is an error reported by an A2A server: a REST error document
// ({"error":{"code":404,"status":"NOT_FOUND","message":…,"details":[…]}}) or a
// JSON-RPC error response ({"jsonrpc":"2.0","id":…,"error":{"code":-32001,
// "message":…,"data":…}}), whether it came as a response body
// ([DecodeAPIError]) or inside a stream (an [Event] of KindError). Match it
// with errors.As. Its fields are owned copies.
type APIError struct {
	// Binding is the shape the error came in.
	Binding Binding
	// RPCID is the JSON-RPC response id (BindingJSONRPC only).
	RPCID RPCID
	// Code is the HTTP status code (REST, such as 404) or the JSON-RPC error
	// code (such as -32001 for TaskNotFoundError); 0 when absent.
	Code int64
	// Status is the REST status name, such as "NOT_FOUND"; "" for JSON-RPC.
	Status string
	// Message is the human-readable message.
	Message string
	// Reason is the ErrorInfo reason, such as "TASK_NOT_FOUND", from the
	// first detail that has one; "" when none.
	Reason string
	// Domain is that detail's domain, such as "a2a-protocol.org".
	Domain string
	// Metadata is the exact JSON of that detail's metadata object; nil
	// when absent.
	Metadata []byte
	// Details is the exact JSON of the REST "details" array or of the
	// JSON-RPC "data" value (an array or an object); nil when absent.
	Details []byte
}

// Error describes the error as "parser: server error <code> <status>
// (<reason>): <message>", leaving out what is absent and a reason that
// repeats the status. The server's texts are written with their control
// and bidirectional formatting characters escaped (\x1b, \u202e), so that
// logging the error to a terminal cannot make it act; the fields keep
// them as sent.
func (e *APIError) Error() string {
	b := make([]byte, 0, 64+len(e.Message))
	b = append(b, "parser: server error"...)
	if e.Code != 0 {
		b = append(b, ' ')
		b = strconv.AppendInt(b, e.Code, 10)
	}
	if e.Status != "" {
		b = append(b, ' ')
		b = errtext.AppendText(b, e.Status)
	}
	if e.Reason != "" && e.Reason != e.Status {
		b = append(b, " ("...)
		b = errtext.AppendText(b, e.Reason)
		b = append(b, ')')
	}
	if e.Message != "" {
		b = append(b, ": "...)
		b = errtext.AppendText(b, e.Message)
	}
	return string(b)
}

// DecodeAPIError decodes an error response body of either binding. It
// returns a *DecodeError when body is not one (ErrNoPayload when it has no
// "error" member). It allocates: the APIError is owned by the caller.
func DecodeAPIError(body []byte) (*APIError, error) {
	var d Decoder
	ev, err := d.decodeDoc(bytes.Clone(body), docError)
	if err != nil {
		return nil, err
	}
	return ev.Err, nil
}

// DecodeTask decodes a task document: the body of the REST GET task
// response, or a JSON-RPC response whose result is a task. When the body is
// an error document of either binding, it returns the *APIError as the
// error. It allocates: the Task and its byte slices are owned by the caller
// and stay valid.
func DecodeTask(doc []byte) (*Task, error) {
	var d Decoder
	ev, err := d.decodeDoc(bytes.Clone(doc), docTask)
	if err != nil {
		return nil, err
	}
	if ev.Kind == KindError {
		return nil, ev.Err
	}
	t := ev.Task
	return &t, nil
}
