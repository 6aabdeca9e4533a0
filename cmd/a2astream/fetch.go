package main

// This file is structured as: URL mode, a thin shell over
// httpstream.Client (the request the flags ask for, the notes told on
// stderr while the client resubscribes, the frames shown by --frames and
// --events); then the bodies of -d.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/httpstream"
)

// client returns the httpstream.Client the flags configure.
func (r *runner) client() *httpstream.Client {
	c := &httpstream.Client{
		BaseURL:       r.cfg.source,
		HTTP:          r.e.client,
		Header:        r.header(),
		Options:       r.options(),
		IdleTimeout:   offIfZero(r.cfg.idleTimeout),
		Timeout:       offIfZero(r.cfg.timeout),
		Retries:       r.cfg.retries,
		RetryDelay:    offIfZero(r.cfg.retryDelay),
		Jitter:        r.e.jitter,
		OnResubscribe: r.resubscribing,
	}
	if r.cfg.jsonrpc {
		c.Binding = parser.BindingJSONRPC
	}
	if r.cfg.noResume || r.cfg.retries == 0 {
		c.Retries = -1
	}
	if !r.canSubscribe() {
		c.BaseURL = ""
	}
	if r.lx != nil {
		c.Tee = frameTee{r}
	}
	return c
}

// offIfZero maps a flag's 0 ("off" on the command line) to the client's
// negative value for off.
func offIfZero[T ~int64](d T) T {
	if d == 0 {
		return -1
	}
	return d
}

// header turns the -H flags into the client's Header: a name with an empty
// value removes the header, and --last-event-id sets Last-Event-ID.
func (r *runner) header() http.Header {
	h := make(http.Header)
	if r.cfg.lastID != "" && r.cfg.subscribe == "" {
		h.Set("Last-Event-ID", r.cfg.lastID)
	}
	for _, line := range r.cfg.headers {
		i := strings.IndexByte(line, ':')
		name, value := http.CanonicalHeaderKey(strings.TrimSpace(line[:i])), strings.TrimSpace(line[i+1:])
		if value == "" {
			h[name] = nil
			continue
		}
		h[name] = []string{value}
	}
	return h
}

// canSubscribe reports whether the source is an A2A base URL that a
// subscription can be made to (not a URL fetched with GET).
func (r *runner) canSubscribe() bool {
	return r.cfg.hasMessage || r.cfg.hasData || r.cfg.subscribe != ""
}

// fetch runs URL mode: the first request, then the run's updates, which
// the client keeps uncut across resubscriptions.
func (r *runner) fetch() error {
	c := r.client()
	var run *httpstream.Run
	var err error
	switch {
	case r.cfg.subscribe != "":
		run, err = c.SubscribeToTask(r.ctx, r.cfg.subscribe, r.cfg.lastID)
	case r.cfg.hasMessage:
		run, err = c.SendStreamingMessage(r.ctx, &httpstream.UserMessage{Text: r.cfg.message, TaskID: r.cfg.taskID, ContextID: r.cfg.contextID})
	default:
		var req *http.Request
		if req, err = r.request(); err != nil {
			return err
		}
		run, err = c.Open(r.ctx, req)
	}
	if err != nil {
		return startError(r.ctx, err)
	}
	defer run.Close()
	for u, err := range run.Updates() {
		if err != nil {
			break
		}
		if u.Kind == reconstruct.UpdateDone {
			r.res, r.runErr = u.Result, u.Err
		}
		r.out.update(&u)
	}
	r.endFrames()
	r.res = run.Result()
	r.runErr = r.res.Err
	r.tellEnd(run)
	return nil
}

// startError classifies an error that kept the run from starting: the
// server's answers are kept as they are; a signal is an interruption;
// anything else (a refused connection, a timeout) is an I/O error.
func startError(ctx context.Context, err error) error {
	var api *parser.APIError
	var he *reconstruct.HTTPError
	var sig *interruptError
	switch {
	case errors.As(err, &api), errors.As(err, &he), errors.Is(err, reconstruct.ErrNotEventStream), errors.As(err, &sig):
		return err
	}
	return &ioError{err}
}

// resubscribing tells of a resubscription, and starts the frame lexer of
// --frames and --events on the new connection.
func (r *runner) resubscribing(rs *httpstream.Resubscription) {
	r.attempts = rs.Attempt
	why := "the stream ended"
	if rs.Err != nil {
		why = "the connection failed (" + rs.Err.Error() + ")"
	}
	r.out.note(why + " before the run ended; resubscribing to task " + rs.TaskID +
		afterID(rs.LastEventID) + " in " + rs.Delay.String() +
		" (attempt " + strconv.Itoa(rs.Attempt) + " of " + strconv.Itoa(rs.Retries) + ")")
	r.resumeFrames()
}

// tellEnd tells why a run that was cut was not resumed.
func (r *runner) tellEnd(run *httpstream.Run) {
	var trunc *reconstruct.TruncatedError
	if !errors.As(r.runErr, &trunc) {
		return
	}
	why := "the stream ended"
	if trunc.Cause != nil {
		why = "the connection failed (" + trunc.Cause.Error() + ")"
	}
	var api *parser.APIError
	var he *reconstruct.HTTPError
	var sig *interruptError
	switch {
	case errors.As(trunc.Cause, &sig):
		r.out.note(sig.Error() + "; the run is cut")
	case errors.Is(trunc.Cause, httpstream.ErrTimeout):
		r.out.note("the run took longer than --timeout " + r.cfg.timeout.String())
	case r.attempts > 0 && (errors.As(trunc.Cause, &api) || errors.As(trunc.Cause, &he) || errors.Is(trunc.Cause, reconstruct.ErrNotEventStream)):
		r.out.note("the resubscription was refused: " + trunc.Cause.Error())
	case r.cfg.noResume:
	case !r.canSubscribe():
		r.out.note(why + " before the run ended; a GET stream cannot be resubscribed")
	case r.attempts > 0 && r.attempts >= r.cfg.retries:
		r.out.note(why + " before the run ended; giving up after " + strconv.Itoa(r.attempts) + " resubscription" + plural(r.attempts))
	case len(trunc.TaskID) == 0:
		r.out.note(why + " before the run ended, and before any event named the task")
	}
}

func afterID(id string) string {
	if id == "" {
		return ""
	}
	return " after event " + id
}

// request builds the request of -d (POSTed as is to message:stream, or to
// the base URL with --jsonrpc) or, with neither -m, -d nor --subscribe, the
// GET of the URL.
func (r *runner) request() (*http.Request, error) {
	if !r.cfg.hasData {
		c := &httpstream.Client{BaseURL: r.cfg.source}
		req, err := c.NewRequest(http.MethodGet, "", nil)
		if err != nil {
			return nil, &ioError{err}
		}
		return req, nil
	}
	body, err := r.dataBody()
	if err != nil {
		return nil, err
	}
	path := "/message:stream"
	if r.cfg.jsonrpc {
		path = ""
	}
	c := &httpstream.Client{BaseURL: r.cfg.source}
	req, err := c.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	if err != nil {
		return nil, &ioError{err}
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

// frameTee hands the bytes of the connections to the frame lexer of
// --frames and --events.
type frameTee struct{ r *runner }

func (t frameTee) Write(p []byte) (int, error) {
	t.r.feedFrames(p)
	return len(p), nil
}
