package reconstruct

import (
	"strconv"

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
// status whose body is not JSON. Servers answer errors with a non-2xx
// status, or with a 200 and a JSON error document; pass the body of such a
// response to ResponseError.
func EventStream(status int, contentType string) bool {
	if status < 200 || status > 299 {
		return false
	}
	mt := mediaType(contentType)
	return mt != "application/json" && mt != "application/problem+json"
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
// document (a REST document without a code takes the HTTP status), and an
// *HTTPError holding the start of the body otherwise.
func ResponseError(status int, contentType string, body []byte) error {
	if apiErr, err := parser.DecodeAPIError(body); err == nil {
		if apiErr.Code == 0 && apiErr.Binding == parser.BindingREST {
			apiErr.Code = int64(status)
		}
		return apiErr
	}
	return &HTTPError{StatusCode: status, ContentType: contentType, Body: append([]byte(nil), body[:min(len(body), 4<<10)]...)}
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

// Error describes the response.
func (e *HTTPError) Error() string {
	b := append([]byte(nil), "reconstruct: HTTP "...)
	b = strconv.AppendInt(b, int64(e.StatusCode), 10)
	b = append(b, " with "...)
	if e.ContentType == "" {
		b = append(b, "no content type"...)
	} else {
		b = append(b, e.ContentType...)
	}
	b = append(b, ", not an event stream"...)
	return string(b)
}
