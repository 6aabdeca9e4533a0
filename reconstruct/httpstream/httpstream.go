// Package httpstream is the HTTP side of package reconstruct: a [Client]
// that makes an A2A 1.0 agent's streaming calls (message:stream,
// tasks/{id}:subscribe, or their JSON-RPC methods) and hands out one uncut
// run, resubscribing with the task id and Last-Event-ID when a connection
// drops or stalls, and its calls answered with one document (message:send,
// GetTask, CancelTask); and [Check] and [Read] for callers that make the
// request themselves. It is a package of its own so that programs that
// never see an *http.Response, such as the WebAssembly module, do not link
// net/http.
//
//	c := &httpstream.Client{BaseURL: "https://host/v2/agents/ID/a2a", Header: auth}
//	run, err := c.SendStreamingMessage(ctx, &httpstream.UserMessage{Text: "…"})
//	if err != nil { … } // *parser.APIError, *reconstruct.NotEventStreamError, a transport error…
//	defer run.Close()   // leaves the task running on the server; run.Cancel(ctx) cancels it
//	for u, err := range run.Updates() { … } // reconstruct.Update values; err last
//	res := run.Result()
//
//	task, err := c.GetTask(ctx, taskID, nil)     // task.Result: the same reducer's Result; task.Raw: the document
//	task, err = c.CancelTask(ctx, taskID)        // 409 on a task that ended: a *parser.APIError
//	res, err = c.SendMessage(ctx, &httpstream.UserMessage{Text: "…"}) // message:send: a task or a direct reply
//
// The run ends a connection that stays silent for Client.IdleTimeout
// (default 60 s) with ErrIdleTimeout and resubscribes, at most
// Client.Retries times (default 5) with a doubling backoff with jitter; the
// whole run is bounded by Client.Timeout (default one hour) and by the
// context. A run cut short ends with a *reconstruct.TruncatedError that
// holds the cause and what to resume with.
//
// For a response obtained otherwise:
//
//	resp, err := http.DefaultClient.Do(req)
//	if err != nil { … }
//	defer resp.Body.Close()
//	res, err := httpstream.Read(resp, nil) // *parser.APIError, *reconstruct.HTTPError, *reconstruct.TruncatedError…
package httpstream

import (
	"io"
	"net/http"
	"strings"

	"github.com/a2astream/a2astream/reconstruct"
)

// Check checks the response of a streaming call before its body is read as
// a stream (see reconstruct.EventStream). It returns nil for an event
// stream; the server's *parser.APIError for an error document (a non-2xx
// status, or a 2xx with a JSON error body, as servers send errors); a
// *reconstruct.NotEventStreamError quoting the Content-Type and the first
// bytes for any other 2xx response (an HTML page, a JSON document that is
// no error); and a *reconstruct.HTTPError for any other non-2xx response.
// It reads the body only when it returns an error: at most
// reconstruct.MaxErrorBody bytes, or the 64 bytes it quotes of a 2xx
// response that is not JSON. It does not close the body.
func Check(resp *http.Response) error {
	ct := resp.Header.Get("Content-Type")
	if reconstruct.EventStream(resp.StatusCode, ct) {
		return nil
	}
	limit := int64(reconstruct.MaxErrorBody)
	if ok := resp.StatusCode >= 200 && resp.StatusCode <= 299; ok && !strings.Contains(strings.ToLower(ct), "json") {
		limit = 64
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, limit))
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
