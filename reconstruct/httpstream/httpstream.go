// Package httpstream reads the *http.Response of an A2A streaming call
// (message:stream, tasks/{id}:subscribe, or their JSON-RPC methods) with
// package reconstruct. It is a package of its own so that programs that
// never see an *http.Response, such as the WebAssembly module, do not link
// net/http.
//
//	resp, err := http.DefaultClient.Do(req)
//	if err != nil { … }
//	defer resp.Body.Close()
//	res, err := httpstream.Read(resp, nil) // *parser.APIError, *reconstruct.HTTPError, *reconstruct.TruncatedError…
package httpstream

import (
	"io"
	"net/http"

	"github.com/a2astream/a2astream/reconstruct"
)

// Check checks the response of a streaming call before its body is read as
// a stream. It returns the server's *parser.APIError for a non-2xx status,
// and for a 2xx response with a JSON body (servers send errors that way), a
// *reconstruct.HTTPError when such a body is no error document, and nil for
// an event stream. It reads at most reconstruct.MaxErrorBody bytes of the
// body, only when it returns an error, and does not close it.
func Check(resp *http.Response) error {
	ct := resp.Header.Get("Content-Type")
	if reconstruct.EventStream(resp.StatusCode, ct) {
		return nil
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, reconstruct.MaxErrorBody))
	return reconstruct.ResponseError(resp.StatusCode, ct, body)
}

// Read checks the response with Check and reads its body as a stream with
// reconstruct.Read. The error is the Result's Err. It does not close the
// body.
func Read(resp *http.Response, opts *reconstruct.Options) (*reconstruct.Result, error) {
	if err := Check(resp); err != nil {
		return &reconstruct.Result{Err: err}, err
	}
	return reconstruct.Read(resp.Body, opts)
}
