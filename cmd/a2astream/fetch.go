package main

// This file is structured as: the requests of URL mode (message:stream,
// tasks/{id}:subscribe, their JSON-RPC methods, or a plain GET), and the
// loop that reads the response and resubscribes when the connection drops.

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/a2astream/a2astream/reconstruct/httpstream"
)

// The JSON-RPC methods of A2A 1.0 that stream.
const (
	methodStream    = "SendStreamingMessage"
	methodSubscribe = "SubscribeToTask"
)

// fetch runs URL mode: the first request, then resubscriptions while the
// connection drops before the run ends.
func (r *runner) fetch() error {
	req, err := r.firstRequest()
	if err != nil {
		return err
	}
	resp, err := r.e.client.Do(req)
	if err != nil {
		return &ioError{err}
	}
	if err := httpstream.Check(resp); err != nil {
		resp.Body.Close()
		return err
	}
	readErr := r.consume(resp.Body, true)
	resp.Body.Close()

	delay := r.cfg.retryDelay
	for attempt := 1; !r.stream.Done(); attempt++ {
		why := "the stream ended"
		if readErr != nil {
			why = "the connection failed (" + readErr.Error() + ")"
		}
		taskID := r.stream.TaskID()
		switch {
		case r.cfg.noResume:
			r.end(readErr)
			return nil
		case !r.canSubscribe():
			r.out.note(why + " before the run ended; a GET stream cannot be resubscribed")
			r.end(readErr)
			return nil
		case taskID == "":
			r.out.note(why + " before the run ended, and before any event named the task")
			r.end(readErr)
			return nil
		case attempt > r.cfg.retries:
			r.out.note(why + " before the run ended; giving up after " + strconv.Itoa(r.cfg.retries) + " resubscriptions")
			r.end(readErr)
			return nil
		}
		lastID := string(r.stream.LastEventID())
		r.out.note(why + " before the run ended; resubscribing to task " + taskID +
			afterID(lastID) + " in " + delay.String() +
			" (attempt " + strconv.Itoa(attempt) + " of " + strconv.Itoa(r.cfg.retries) + ")")
		r.e.sleep(delay)
		delay *= 2
		if err := r.resume(); err != nil {
			r.end(readErr)
			return nil
		}
		req, err := r.subscribeRequest(taskID, lastID)
		if err != nil {
			return err
		}
		resp, err := r.e.client.Do(req)
		if err != nil {
			readErr = err
			continue
		}
		if err := httpstream.Check(resp); err != nil {
			resp.Body.Close()
			// The server refused the resubscription (the task is gone):
			// the run stays cut, and the refusal says why.
			r.out.note("the resubscription was refused: " + err.Error())
			r.end(err)
			return nil
		}
		before := r.fed
		readErr = r.consume(resp.Body, true)
		resp.Body.Close()
		if r.fed != before {
			delay = r.cfg.retryDelay
		}
	}
	r.end(nil)
	return nil
}

func afterID(id string) string {
	if id == "" {
		return ""
	}
	return " after event " + id
}

// canSubscribe reports whether the source is an A2A base URL that a
// subscription can be made to (not a URL fetched with GET).
func (r *runner) canSubscribe() bool {
	return r.cfg.hasMessage || r.cfg.hasData || r.cfg.subscribe != ""
}

// base returns the URL without a trailing slash.
func (r *runner) baseURL() string { return strings.TrimRight(r.cfg.source, "/") }

// firstRequest builds the request the flags ask for.
func (r *runner) firstRequest() (*http.Request, error) {
	switch {
	case r.cfg.subscribe != "":
		return r.subscribeRequest(r.cfg.subscribe, r.cfg.lastID)
	case r.cfg.hasData:
		body, err := r.dataBody()
		if err != nil {
			return nil, err
		}
		u := r.baseURL()
		if !r.cfg.jsonrpc {
			u += "/message:stream"
		}
		return r.newRequest(http.MethodPost, u, body, r.cfg.lastID)
	case r.cfg.hasMessage:
		body, err := r.messageBody()
		if err != nil {
			return nil, err
		}
		u := r.baseURL()
		if !r.cfg.jsonrpc {
			u += "/message:stream"
		}
		return r.newRequest(http.MethodPost, u, body, r.cfg.lastID)
	}
	return r.newRequest(http.MethodGet, r.cfg.source, nil, r.cfg.lastID)
}

// subscribeRequest builds tasks/{id}:subscribe, or the JSON-RPC
// SubscribeToTask call.
func (r *runner) subscribeRequest(taskID, lastID string) (*http.Request, error) {
	if r.cfg.jsonrpc {
		body, err := json.Marshal(rpcRequest{JSONRPC: "2.0", ID: newID(), Method: methodSubscribe, Params: subscribeParams{ID: taskID}})
		if err != nil {
			return nil, err
		}
		return r.newRequest(http.MethodPost, r.baseURL(), body, lastID)
	}
	return r.newRequest(http.MethodPost, r.baseURL()+"/tasks/"+taskID+":subscribe", nil, lastID)
}

// newRequest builds a request with the A2A headers, then the -H headers.
func (r *runner) newRequest(method, url string, body []byte, lastID string) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return nil, &ioError{err}
	}
	req.Header.Set("A2A-Version", "1.0")
	req.Header.Set("Accept", "text/event-stream")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	for _, h := range r.cfg.headers {
		i := strings.IndexByte(h, ':')
		name, value := strings.TrimSpace(h[:i]), strings.TrimSpace(h[i+1:])
		if value == "" {
			req.Header.Del(name)
			continue
		}
		if strings.EqualFold(name, "Host") {
			req.Host = value
			continue
		}
		req.Header.Set(name, value)
	}
	return req, nil
}

// dataBody returns the body of -d: as given, or read from a file with
// @FILE (@- for stdin).
func (r *runner) dataBody() ([]byte, error) {
	d := r.cfg.data
	if !strings.HasPrefix(d, "@") {
		return []byte(d), nil
	}
	var b []byte
	var err error
	if d == "@-" {
		b, err = io.ReadAll(r.stdin)
	} else {
		b, err = os.ReadFile(d[1:])
	}
	if err != nil {
		return nil, &ioError{err}
	}
	return b, nil
}

// The request bodies, written as structs so that the field order is fixed.
type (
	textPart struct {
		Text string `json:"text"`
	}
	userMessage struct {
		Role      string     `json:"role"`
		Parts     []textPart `json:"parts"`
		MessageID string     `json:"messageId"`
		TaskID    string     `json:"taskId,omitempty"`
		ContextID string     `json:"contextId,omitempty"`
	}
	sendParams struct {
		Message userMessage `json:"message"`
	}
	subscribeParams struct {
		ID string `json:"id"`
	}
	rpcRequest struct {
		JSONRPC string `json:"jsonrpc"`
		ID      string `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}
)

// messageBody builds the message:stream body for --message, or the
// SendStreamingMessage call with --jsonrpc.
func (r *runner) messageBody() ([]byte, error) {
	p := sendParams{Message: userMessage{
		Role:      "ROLE_USER",
		Parts:     []textPart{{Text: r.cfg.message}},
		MessageID: newID(),
		TaskID:    r.cfg.taskID,
		ContextID: r.cfg.contextID,
	}}
	if r.cfg.jsonrpc {
		return json.Marshal(rpcRequest{JSONRPC: "2.0", ID: newID(), Method: methodStream, Params: p})
	}
	return json.Marshal(p)
}

// newID returns a random UUIDv7 (RFC 9562), bare: A2A servers take it as a
// message id, and Corti accepts its ids without their prefix.
func newID() string {
	var u [16]byte
	rand.Read(u[:])
	binary.BigEndian.PutUint64(u[:8], uint64(time.Now().UnixMilli())<<16|binary.BigEndian.Uint64(u[:8])&0xffff)
	u[6] = u[6]&0x0f | 0x70
	u[8] = u[8]&0x3f | 0x80
	h := hex.EncodeToString(u[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
