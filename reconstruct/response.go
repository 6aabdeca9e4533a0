package reconstruct

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/a2astream/a2astream/internal/errtext"
	"github.com/a2astream/a2astream/parser"
)

// This file classifies the response of a streaming call without importing
// net/http, so that the WebAssembly build stays small; package
// reconstruct/httpstream applies it to an *http.Response.

// MaxErrorBody is the number of bytes of a response body that is not an
// event stream worth reading to find the error it carries: 1 MiB.
const MaxErrorBody = 1 << 20

// EventStream reports whether the response of a streaming call
// (message:stream, tasks/{id}:subscribe, or their JSON-RPC methods) with
// this status code and Content-Type is to be read as an event stream: a 2xx
// status with the media type text/event-stream, or with no Content-Type
// (the bytes then tell: see [NotEventStreamError]). Servers answer errors
// with a non-2xx status, or with a 200 and a JSON error document; pass the
// body of any other response to ResponseError.
func EventStream(status int, contentType string) bool {
	if status < 200 || status > 299 {
		return false
	}
	mt := mediaType(contentType)
	return mt == "text/event-stream" || mt == ""
}

// mediaType returns the media type of a Content-Type value, without its
// parameters, trimmed and in lower case.
func mediaType(ct string) string {
	for i := 0; i < len(ct); i++ {
		if ct[i] == ';' {
			ct = ct[:i]
			break
		}
	}
	for len(ct) > 0 && (ct[0] == ' ' || ct[0] == '\t') {
		ct = ct[1:]
	}
	for len(ct) > 0 && (ct[len(ct)-1] == ' ' || ct[len(ct)-1] == '\t') {
		ct = ct[:len(ct)-1]
	}
	b := []byte(ct)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// ResponseError returns the error carried by the body of a streaming
// call's response that is not an event stream (see EventStream): the
// server's *parser.APIError when the body is a REST or JSON-RPC error
// document (a REST document without a code takes the HTTP status), a
// *NotEventStreamError for any other 2xx response, and an *HTTPError
// holding the start of the body otherwise.
func ResponseError(status int, contentType string, body []byte) error {
	if apiErr, err := parser.DecodeAPIError(body); err == nil {
		if apiErr.Code == 0 && apiErr.Binding == parser.BindingREST {
			apiErr.Code = int64(status)
		}
		return apiErr
	}
	if 200 <= status && status <= 299 {
		return &NotEventStreamError{StatusCode: status, ContentType: contentType, Head: head(body)}
	}
	return &HTTPError{StatusCode: status, ContentType: contentType, Body: bytes.Clone(body[:min(len(body), 4<<10)])}
}

// headSize is the number of bytes of the input a NotEventStreamError
// quotes.
const headSize = 64

// head returns a copy of the first headSize bytes of b.
func head(b []byte) []byte {
	return bytes.Clone(b[:min(len(b), headSize)])
}

// ErrNotEventStream means the input is not a Server-Sent Events stream; it
// is seen through a *NotEventStreamError.
var ErrNotEventStream = errors.New("reconstruct: not an event stream")

// NotEventStreamError reports input that is not a Server-Sent Events
// stream: the 2xx response of a streaming call whose Content-Type is
// neither text/event-stream nor a JSON error document (an HTML page, say),
// or bytes that held no frame and whose first line that is neither blank
// nor a comment is no SSE field (data, id, event or retry): an HTML page, a
// binary file, a JSON document piped from curl. errors.Is matches
// ErrNotEventStream, and errors.As finds the server's *parser.APIError when
// the bytes were its JSON error document.
type NotEventStreamError struct {
	// StatusCode is the response's HTTP status; 0 for input that came
	// without one (a file, standard input, a body already checked).
	StatusCode int
	// ContentType is the response's Content-Type; "" when it had none.
	ContentType string
	// Head is the start of the input, at most 64 bytes.
	Head []byte
	// Err is the *parser.APIError that the input held as a JSON error
	// document; nil otherwise.
	Err error
}

// Error says what the input was, and quotes its start.
func (e *NotEventStreamError) Error() string {
	b := append([]byte(nil), "reconstruct: not an event stream"...)
	if e.StatusCode != 0 {
		b = append(b, ": HTTP "...)
		b = strconv.AppendInt(b, int64(e.StatusCode), 10)
		b = append(b, " with "...)
		if e.ContentType == "" {
			b = append(b, "no content type"...)
		} else {
			b = strconv.AppendQuote(b, e.ContentType)
		}
	}
	if e.Err != nil {
		b = append(b, " but an error document: "...)
		b = errtext.AppendCause(b, "reconstruct", e.Err)
		return string(b)
	}
	if len(e.Head) == 0 {
		b = append(b, ", with an empty body"...)
		return string(b)
	}
	b = append(b, ", starting "...)
	b = strconv.AppendQuote(b, string(e.Head))
	return string(b)
}

// Unwrap returns ErrNotEventStream, and the error document's error if any.
func (e *NotEventStreamError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrNotEventStream, e.Err}
	}
	return []error{ErrNotEventStream}
}

// HTTPError is the answer of a streaming call that was not an event stream
// and not an error document either.
type HTTPError struct {
	// StatusCode is the HTTP status code.
	StatusCode int
	// ContentType is the response's Content-Type.
	ContentType string
	// Body is the start of the body, at most 4 KiB.
	Body []byte
}

// Error describes the response, with the control and bidirectional
// formatting characters of the server's Content-Type escaped.
func (e *HTTPError) Error() string {
	b := append([]byte(nil), "reconstruct: HTTP "...)
	b = strconv.AppendInt(b, int64(e.StatusCode), 10)
	b = append(b, " with "...)
	if e.ContentType == "" {
		b = append(b, "no content type"...)
	} else {
		b = errtext.AppendText(b, e.ContentType)
	}
	b = append(b, ", not an event stream"...)
	return string(b)
}
