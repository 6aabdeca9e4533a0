package httpstream

// This file is structured as: the Client and its defaults; the requests it
// makes (message:stream, tasks/{id}:subscribe, their JSON-RPC methods);
// the Run with its read loop, resubscription and backoff; the idle
// watchdog.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"math"
	mrand "math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a2astream/a2astream/internal/errtext"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
)

// The defaults of a [Client]'s zero fields.
const (
	// DefaultIdleTimeout is the longest a connection may stay silent (no
	// byte of the response, keep-alive comments included) before the read
	// is ended with ErrIdleTimeout and the run resubscribes: 60 seconds.
	DefaultIdleTimeout = 60 * time.Second
	// DefaultTimeout is the longest a run may take, resubscriptions and
	// backoff included: one hour.
	DefaultTimeout = time.Hour
	// DefaultRetries is the number of resubscriptions a run may make
	// after dropped connections: 5.
	DefaultRetries = 5
	// DefaultRetryDelay is the backoff before the first resubscription:
	// 500 milliseconds. It doubles with each resubscription that brought
	// nothing, and starts over after one that did.
	DefaultRetryDelay = 500 * time.Millisecond
	// DefaultMaxRetryDelay caps the backoff: 30 seconds.
	DefaultMaxRetryDelay = 30 * time.Second
	// DefaultJitter is the part of each backoff that is random: 0.5, so a
	// delay d is waited as a duration drawn between d/2 and d.
	DefaultJitter = 0.5
)

// The errors a run's connection ends with, besides those of the transport
// and the server. They end a read; when the run had not ended, they are the
// cause inside its *reconstruct.TruncatedError (errors.Is finds them there),
// which holds the task id and last event id to resume with.
var (
	// ErrIdleTimeout means no byte arrived for Client.IdleTimeout: the
	// connection was given up and, retries permitting, the run
	// resubscribed.
	ErrIdleTimeout = errors.New("httpstream: no data received within the idle timeout")
	// ErrTimeout means the run took longer than Client.Timeout.
	ErrTimeout = errors.New("httpstream: the run exceeded its timeout")
	// ErrClosed means the run was closed with Run.Close, or its loop left
	// before the end.
	ErrClosed = errors.New("httpstream: run closed")
	// ErrUpdatesUsed means Run.Updates was ranged over a second time: a
	// run's updates are handed out once.
	ErrUpdatesUsed = errors.New("httpstream: the run's updates were already read")
)

// Client is the front door to an A2A 1.0 agent: it sends a message
// (message:stream, or the JSON-RPC method SendStreamingMessage) or
// subscribes to a task (tasks/{id}:subscribe, or SubscribeToTask), reads the
// Server-Sent Events stream with a reconstruct.Stream, and when the
// connection drops, stalls or ends before the run reached a terminal or
// interrupted state, resubscribes with the task id and Last-Event-ID, so
// that the caller sees one uncut run. It also makes the calls answered
// with one document, read by the same reducer: SendMessage (message:send),
// GetTask and CancelTask.
//
// Its zero fields select the documented defaults. A Client may be used by
// multiple goroutines at once; its fields must not change while a run it
// started is read.
type Client struct {
	// BaseURL is the agent's A2A base URL, such as
	// https://host/v2/agents/{id}/a2a. REST calls append "/message:stream"
	// and "/tasks/{id}:subscribe" to its path, JSON-RPC calls go to
	// BaseURL itself; its query string (?api_key=…) is kept on every call,
	// and errors show it, its fragment and its userinfo as "…". With Open
	// it may be "": the run then cannot resubscribe.
	BaseURL string
	// Binding is the protocol binding: parser.BindingREST (the default,
	// also for 0) or parser.BindingJSONRPC.
	Binding parser.Binding
	// HTTP makes the requests; nil means http.DefaultClient. The timeouts
	// and Close end a pending read by cancelling the request's context, as
	// net/http's transport honours; an http.Client.Timeout would cut long
	// runs, leave it 0.
	HTTP *http.Client
	// Header is added to every request (authorization, tenant). A name
	// replaces the value the Client would send (A2A-Version: 1.0, Accept:
	// text/event-stream, Content-Type: application/json); a name with no
	// values removes the header; "Host" sets the request's Host.
	// Last-Event-ID is set by the run on a resubscription.
	Header http.Header
	// Options configures the reconstruct.Stream that reads the run; nil
	// selects its defaults.
	Options *reconstruct.Options
	// IdleTimeout is how long a connection may go without a byte, from
	// the request on, before its read ends with ErrIdleTimeout (and the
	// run resubscribes, retries permitting). It is not a limit on the
	// run's length. The read ends after between IdleTimeout and an eighth
	// more of silence, plus however late the system fires two timers (the
	// clock is read by a timer ticking eight times per IdleTimeout, not
	// by every read; under 8 ms, once per IdleTimeout, so up to twice it).
	// 0 means DefaultIdleTimeout; a negative value turns it off.
	IdleTimeout time.Duration
	// Timeout caps the whole run, resubscriptions and backoff included:
	// past it the run ends with ErrTimeout as its cause. 0 means
	// DefaultTimeout; a negative value turns it off (the context's
	// deadline still applies).
	Timeout time.Duration
	// Retries caps the resubscriptions of one run. 0 means
	// DefaultRetries; a negative value turns resubscription off. A
	// resubscription that fails transiently (no answer; 408, 425, 429,
	// 500, 502, 503 or 504; a 2xx that is no event stream) counts as one
	// and is followed by the next, after the backoff or the answer's
	// Retry-After if longer (capped by MaxRetryDelay). Any other answer
	// (400, 401, 403, 404, 409…, or an A2A error document naming the task
	// as not found) is the server's refusal: the run ends, with it as the
	// cause.
	Retries int
	// RetryDelay is the backoff before the first resubscription, doubled
	// after each one that brought no data, up to MaxRetryDelay. 0 means
	// DefaultRetryDelay; a negative value means no wait.
	RetryDelay time.Duration
	// MaxRetryDelay caps the backoff. 0 means DefaultMaxRetryDelay.
	MaxRetryDelay time.Duration
	// Jitter is the random part of each backoff: a delay d is waited as a
	// duration drawn uniformly between d*(1-Jitter) and d. 0 means
	// DefaultJitter; a negative value means none; values above 1 count
	// as 1.
	Jitter float64
	// OnResubscribe, when not nil, is called before each resubscription,
	// before its backoff, in the goroutine reading the run.
	OnResubscribe func(*Resubscription)
	// Tee, when not nil, is written every byte read from the run's
	// connections, in order, before the Stream reads it; a new connection
	// starts after the call to OnResubscribe. An error it returns ends
	// the run as a failed read does, without resubscribing.
	Tee io.Writer
}

// Resubscription tells of a connection that ended before the run did, and
// of the resubscription about to be made.
type Resubscription struct {
	// Attempt is the 1-based number of the resubscription in the run.
	Attempt int
	// Retries is the number of resubscriptions allowed.
	Retries int
	// Delay is the backoff waited before it.
	Delay time.Duration
	// TaskID is the task subscribed to.
	TaskID string
	// LastEventID is the Last-Event-ID sent; "" when none.
	LastEventID string
	// Err is why the connection ended: the read error (ErrIdleTimeout, a
	// reset, …) or the failed request of the last resubscription; nil
	// when the server ended the response before the run ended.
	Err error
}

// UserMessage is the user message SendMessage and SendStreamingMessage
// send, as one text part. Its ids are strings, as a caller types them or
// reads them from its configuration, and as the run's own ids are
// everywhere (Result, TruncatedError, Resubscription).
type UserMessage struct {
	// Text is the message's text.
	Text string
	// TaskID continues a task, such as one waiting in INPUT_REQUIRED; ""
	// starts a new one.
	TaskID string
	// ContextID is the context id; "" lets the server choose.
	ContextID string
	// MessageID is the message id; "" means a new random UUIDv7.
	MessageID string
}

// The JSON-RPC methods of A2A 1.0 that stream.
const (
	methodStream    = "SendStreamingMessage"
	methodSubscribe = "SubscribeToTask"
)

// The request bodies, written as structs so that the member order is fixed.
type (
	textPart struct {
		Text string `json:"text"`
	}
	wireMessage struct {
		Role      string     `json:"role"`
		Parts     []textPart `json:"parts"`
		MessageID string     `json:"messageId"`
		TaskID    string     `json:"taskId,omitempty"`
		ContextID string     `json:"contextId,omitempty"`
	}
	sendParams struct {
		Message wireMessage `json:"message"`
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

// SendStreamingMessage sends m with message:stream (or the JSON-RPC method
// SendStreamingMessage) and returns the run once the server answered with an event stream. The error
// is the server's *parser.APIError, a *reconstruct.HTTPError or
// *reconstruct.NotEventStreamError for an answer that is no stream, the
// transport's error, ErrIdleTimeout or ErrTimeout, or the context's cause;
// the run is nil then. ctx bounds the whole run, not only this call.
func (c *Client) SendStreamingMessage(ctx context.Context, m *UserMessage) (*Run, error) {
	p := c.sendParams(m)
	var body []byte
	var err error
	suffix := ""
	if c.Binding == parser.BindingJSONRPC {
		body, err = json.Marshal(rpcRequest{JSONRPC: "2.0", ID: NewID(), Method: methodStream, Params: p})
	} else {
		body, err = json.Marshal(p)
		suffix = "/message:stream"
	}
	if err != nil {
		return nil, err
	}
	req, err := c.newRequest(http.MethodPost, suffix, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	return c.start(ctx, req, m.TaskID, "")
}

// SubscribeToTask follows the task taskID with tasks/{id}:subscribe (or
// the JSON-RPC method SubscribeToTask), sending lastEventID as
// Last-Event-ID unless it is "". Its run and errors are
// SendStreamingMessage's; a drop before any event
// resubscribes with taskID and lastEventID. The ids are strings, not the
// []byte of the package's results, as a caller types them or reads them
// from its configuration.
func (c *Client) SubscribeToTask(ctx context.Context, taskID, lastEventID string) (*Run, error) {
	req, err := c.subscribeRequest(taskID)
	if err != nil {
		return nil, err
	}
	return c.start(ctx, req, taskID, lastEventID)
}

// Open sends req, a streaming call the caller built (a raw request body, a
// GET of a stream), with the Client's headers added as for the other calls,
// and reads its response as the run. After a drop it resubscribes at
// BaseURL, unless BaseURL is "". Its run and errors are
// SendStreamingMessage's.
func (c *Client) Open(ctx context.Context, req *http.Request) (*Run, error) {
	return c.start(ctx, req, "", "")
}

// subscribeRequest builds tasks/{id}:subscribe, or the JSON-RPC call.
func (c *Client) subscribeRequest(taskID string) (*http.Request, error) {
	if c.Binding == parser.BindingJSONRPC {
		body, err := json.Marshal(rpcRequest{JSONRPC: "2.0", ID: NewID(), Method: methodSubscribe, Params: subscribeParams{ID: taskID}})
		if err != nil {
			return nil, err
		}
		return c.newRequest(http.MethodPost, "", bytes.NewReader(body))
	}
	return c.newRequest(http.MethodPost, "/tasks/"+url.PathEscape(taskID)+":subscribe", nil)
}

// prepare sets the headers of a request: the A2A ones where req has none,
// then Header, then lastID.
func (c *Client) prepare(req *http.Request, lastID string) {
	if req.Header == nil {
		req.Header = make(http.Header)
	}
	def := func(name, value string) {
		if _, ok := req.Header[name]; !ok {
			req.Header[name] = []string{value}
		}
	}
	def("A2a-Version", "1.0")
	def("Accept", "text/event-stream")
	if req.Body != nil && req.Body != http.NoBody {
		def("Content-Type", "application/json")
	}
	for name, values := range c.Header {
		name = http.CanonicalHeaderKey(name)
		if name == "Host" {
			if len(values) > 0 {
				req.Host = values[0]
			}
			continue
		}
		if len(values) == 0 {
			delete(req.Header, name)
			continue
		}
		req.Header[name] = append([]string(nil), values...)
	}
	if lastID != "" {
		req.Header["Last-Event-Id"] = []string{lastID}
	}
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return http.DefaultClient
}

// start makes the run's first request; taskID and lastID are what the
// caller named, for a resubscription before the stream names them.
func (c *Client) start(ctx context.Context, req *http.Request, taskID, lastID string) (*Run, error) {
	r := &Run{c: c, s: reconstruct.NewStream(c.Options), taskID: taskID, lastID: lastID}
	r.idle = positive(c.IdleTimeout, DefaultIdleTimeout)
	r.retries = c.Retries
	if r.retries == 0 {
		r.retries = DefaultRetries
	}
	r.delay0 = c.RetryDelay
	if r.delay0 == 0 {
		r.delay0 = DefaultRetryDelay
	}
	r.delay0 = max(r.delay0, 0)
	r.maxDelay = positive(c.MaxRetryDelay, DefaultMaxRetryDelay)
	r.delay = r.delay0
	r.jitter = c.Jitter
	if r.jitter == 0 {
		r.jitter = DefaultJitter
	}
	r.jitter = min(max(r.jitter, 0), 1)
	var cancel context.CancelCauseFunc
	r.ctx, cancel = context.WithCancelCause(ctx)
	stopTimeout := func() {}
	if t := positive(c.Timeout, DefaultTimeout); t > 0 {
		r.ctx, stopTimeout = context.WithTimeoutCause(r.ctx, t, ErrTimeout)
	}
	r.cancel = func(err error) {
		cancel(err)
		stopTimeout()
	}
	if _, err := r.connect(req, lastID); err != nil {
		r.cancel(ErrClosed)
		return nil, err
	}
	return r, nil
}

// positive returns d, def when d is 0, and 0 (off) when d is negative.
func positive(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}

// Run is one run of an agent read from its streaming call, resubscribed
// after drops: range over Updates, then read Result. Close it when done
// (it may be called at any time, from any goroutine, also while a read
// is blocked); Updates and Result must not be called concurrently.
//
// A run that ends before its response does (the terminal event came; the
// server ends the response right after it) leaves the rest of the body to
// be read in the background, at most 64 KiB for at most a second (or
// Client.IdleTimeout if shorter), before the body is closed: a body read
// to its end lets the HTTP client keep the connection for its next
// request. Close does not cut that read.
type Run struct {
	c        *Client
	s        *reconstruct.Stream
	ctx      context.Context
	cancel   func(error) // cancels ctx with the cause, and stops its timer
	idle     time.Duration
	retries  int
	delay0   time.Duration
	delay    time.Duration // the next backoff, before jitter
	maxDelay time.Duration
	jitter   float64
	attempts int // resubscriptions made
	// taskID and lastID are the task and Last-Event-ID the caller named,
	// used until the stream names its own.
	taskID, lastID string

	used atomic.Bool // Updates was ranged over
	// task is the task id the run's events named, set once from the
	// goroutine reading the run, for Cancel from any goroutine.
	task atomic.Pointer[string]

	mu      sync.Mutex
	conn    *conn // the current connection; nil between connections
	reading bool  // Updates is reading conn: it closes conn itself
	closed  bool
}

// conn is one response being read, with its context and watchdog.
type conn struct {
	resp   *http.Response
	ctx    context.Context
	cancel context.CancelCauseFunc
	// detach stops the run's context from cancelling ctx, and reports
	// whether it had not yet.
	detach func() bool
	wd     *watchdog
}

func (cn *conn) close() {
	cn.detach()
	cn.wd.stop()
	cn.cancel(ErrClosed)
	cn.resp.Body.Close()
}

// answer is what the server said to a request that failed: its status
// code, 0 when no response came, and the wait its Retry-After header asked
// for, 0 when none.
type answer struct {
	status     int
	retryAfter time.Duration
}

// connect sends req with a context that the run's context cancels, a
// watchdog for the idle timeout, and checks the response; on success it is
// the run's conn. On failure it returns the error and the server's answer.
// The connection's context is not the run's child, so that the end of a
// run that ended (Close, the caller's cancel) does not cut the read of
// what is left of its body (see finish).
func (r *Run) connect(req *http.Request, lastID string) (answer, error) {
	ctx, cancel := context.WithCancelCause(context.WithoutCancel(r.ctx))
	detach := context.AfterFunc(r.ctx, func() { cancel(context.Cause(r.ctx)) })
	wd := newWatchdog(r.idle, cancel)
	req = req.WithContext(ctx)
	r.c.prepare(req, lastID)
	resp, err := r.c.do(req)
	var a answer
	if err == nil {
		err = Check(resp)
		if err != nil {
			a = answer{status: resp.StatusCode, retryAfter: retryAfter(resp.Header.Get("Retry-After"), time.Now())}
			resp.Body.Close()
		}
	}
	if err != nil {
		if r.ctx.Err() != nil {
			// The run's context ended the request: its cause is ctx's,
			// whether or not the AfterFunc ran yet.
			cancel(context.Cause(r.ctx))
		}
		err = causeOf(ctx, err)
		detach()
		wd.stop()
		cancel(ErrClosed)
		return a, err
	}
	cn := &conn{resp: resp, ctx: ctx, cancel: cancel, detach: detach, wd: wd}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		cn.close()
		return answer{}, ErrClosed
	}
	r.conn = cn
	return answer{}, nil
}

// causeOf returns why ctx was cancelled when it was, and err otherwise:
// the transport reports a cancelled request as context.Canceled.
func causeOf(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		if cause := context.Cause(ctx); cause != nil {
			return cause
		}
	}
	return err
}

// dropConn closes the current connection.
func (r *Run) dropConn() {
	r.mu.Lock()
	cn := r.conn
	r.conn = nil
	r.mu.Unlock()
	if cn != nil {
		cn.close()
	}
}

// Close ends the run: a pending read returns at once, and a run not read to
// its end is truncated with ErrClosed as the cause. It detaches from the
// task without cancelling it: the task goes on on the server and can be
// followed again with SubscribeToTask (Cancel cancels it). It always
// returns nil and may be called more than once, from any goroutine.
func (r *Run) Close() error {
	r.cancel(ErrClosed)
	r.mu.Lock()
	r.closed = true
	var cn *conn
	if !r.reading {
		// No read holds the connection; otherwise the cancelled read
		// returns and Updates closes it.
		cn, r.conn = r.conn, nil
	}
	r.mu.Unlock()
	if cn != nil {
		cn.close()
	}
	return nil
}

// Result returns the run as rebuilt so far; once Updates has been read to
// its end it is the whole run, with Result.Err saying why it did not end
// normally (a *reconstruct.TruncatedError whose cause may be
// ErrIdleTimeout, ErrTimeout, ErrClosed or the context's cause).
func (r *Run) Result() *reconstruct.Result { return r.s.Result() }

// TaskID returns the run's task id, for Client.Subscribe; "" until an
// event named it.
func (r *Run) TaskID() string { return r.s.TaskID() }

// LastEventID returns the SSE id of the last event applied, for
// Client.Subscribe; "" when none.
func (r *Run) LastEventID() string { return string(r.s.LastEventID()) }

// Wait reads the run to its end, dropping the updates, and returns its
// Result and Result.Err.
func (r *Run) Wait() (*reconstruct.Result, error) {
	for range r.Updates() {
	}
	res := r.s.Result()
	return res, res.Err
}

// readSize is the size of the reads from a connection.
const readSize = 32 << 10

// feedSize is the most of a read handed to the Stream at once: its lexer
// makes room for all of a write, so a 32 KiB read written whole would
// grow its buffer to 64 KiB for events of a few hundred bytes; in 2 KiB
// pieces the buffer stays sized by the events.
const feedSize = 2 << 10

// readBufs holds the read buffers of runs that ended, so that a program
// making many runs does not allocate one per run.
var readBufs = sync.Pool{New: func() any { return new([readSize]byte) }}

// Updates returns an iterator over the run's updates, resubscriptions
// included, ending with the UpdateDone; when the run ended with an error,
// the iterator then yields it once more, with a zero Update, as the error
// of the sequence (a *reconstruct.TruncatedError for a run cut short). The
// updates' views are valid only until the iteration continues. Leaving the
// loop early closes the run. A run's updates are handed out once: ranging
// again yields only ErrUpdatesUsed.
func (r *Run) Updates() iter.Seq2[reconstruct.Update, error] {
	return func(yield func(reconstruct.Update, error) bool) {
		if r.used.Swap(true) {
			yield(reconstruct.Update{}, ErrUpdatesUsed)
			return
		}
		r.mu.Lock()
		r.reading = true
		r.mu.Unlock()
		defer func() {
			r.mu.Lock()
			r.reading = false
			r.mu.Unlock()
			r.dropConn()
			r.cancel(ErrClosed)
		}()
		if !r.loop(yield) {
			// The caller left: the run ends here.
			r.s.CloseWithError(ErrClosed)
			for r.s.Next() {
			}
			return
		}
		if err := r.s.Result().Err; err != nil {
			yield(reconstruct.Update{}, err)
		}
	}
}

// loop reads the connections until the run ends, handing each update to
// yield, and reports whether yield took them all.
func (r *Run) loop(yield func(reconstruct.Update, error) bool) bool {
	b := readBufs.Get().(*[readSize]byte)
	defer readBufs.Put(b)
	buf := b[:]
	for {
		r.mu.Lock()
		cn := r.conn
		r.mu.Unlock()
		var readErr error
		if cn != nil {
			var ok bool
			readErr, ok = r.read(cn, buf, yield)
			if !ok {
				return false
			}
			r.dropConn()
		} else {
			readErr = ErrClosed
		}
		if r.s.Done() {
			break
		}
		if errors.Is(readErr, errTee) {
			r.s.CloseWithError(readErr)
			break
		}
		if err := r.resubscribe(readErr); err != nil {
			r.s.CloseWithError(err)
			break
		}
	}
	r.s.Close()
	return r.drain(yield)
}

// errTee marks a failed write to Client.Tee.
var errTee = errors.New("httpstream: Tee failed")

type teeError struct{ err error }

func (e *teeError) Error() string {
	return string(errtext.AppendCause([]byte(errTee.Error()+": "), "httpstream", e.err))
}
func (e *teeError) Unwrap() []error { return []error{errTee, e.err} }

// read feeds the connection's body to the Stream until it ends or the run
// does, reading it by sse.ReadSome's rule (a body stuck at no data and no
// error ends with io.ErrNoProgress). It returns the read error (nil at the
// end of the body or of the run) and whether yield took every update.
func (r *Run) read(cn *conn, buf []byte, yield func(reconstruct.Update, error) bool) (error, bool) {
	for {
		n, err := sse.ReadSome(cn.resp.Body, buf)
		if n > 0 {
			cn.wd.touch()
			r.delay = r.delay0
			if r.c.Tee != nil {
				if _, terr := r.c.Tee.Write(buf[:n]); terr != nil {
					return &teeError{terr}, true
				}
			}
			for p := buf[:n]; len(p) > 0; {
				k := min(len(p), feedSize)
				if _, werr := r.s.Write(p[:k]); werr != nil {
					return werr, true
				}
				p = p[k:]
				if !r.drain(yield) {
					return nil, false
				}
				if r.s.Done() {
					if err == nil {
						// The body may not have ended yet.
						r.finish()
					}
					return nil, true
				}
			}
		}
		if err == io.EOF {
			return nil, true
		}
		if err != nil {
			return causeOf(cn.ctx, err), true
		}
	}
}

// The bounds of the read of what is left of a connection's body after the
// run ended (see finish): the server ends the response after the terminal
// event, so the end of the body follows at once.
const (
	lingerTime  = time.Second
	lingerBytes = 64 << 10
)

// finish takes the run's connection after its run ended, and reads what is
// left of its body in the background (at most lingerBytes, for at most
// lingerTime or the idle timeout if shorter) before closing it: a body
// read to its end lets the transport keep the connection for the next
// request, where closing it before cuts the connection.
func (r *Run) finish() {
	r.mu.Lock()
	cn := r.conn
	r.conn = nil
	r.mu.Unlock()
	if cn == nil {
		return
	}
	if !cn.detach() {
		// The run's context has ended: no waiting.
		cn.close()
		return
	}
	linger := lingerTime
	if r.idle > 0 {
		linger = min(linger, r.idle)
	}
	go func() {
		t := time.AfterFunc(linger, func() { cn.cancel(ErrClosed) })
		_, _ = io.CopyN(io.Discard, cn.resp.Body, lingerBytes)
		t.Stop()
		cn.close()
	}()
}

// drain hands the Stream's pending updates to yield, and reports whether
// it took them all.
func (r *Run) drain(yield func(reconstruct.Update, error) bool) bool {
	for r.s.Next() {
		if r.task.Load() == nil {
			r.noteTask()
		}
		if !yield(*r.s.Update(), nil) {
			return false
		}
	}
	return true
}

// noteTask keeps the run's task id for Cancel once an event named it.
func (r *Run) noteTask() {
	if id := r.s.TaskID(); len(id) > 0 {
		s := string(id)
		r.task.Store(&s)
	}
}

// resubscribe makes a new connection after the last one ended with
// readErr (nil for a clean end) before the run did: backoff, Resume,
// tasks/{id}:subscribe, again after a transient failure (see transient).
// It returns nil when a connection is open, and the error that ends the
// run otherwise.
func (r *Run) resubscribe(readErr error) error {
	var after time.Duration // the last answer's Retry-After
	for {
		if err := r.ctx.Err(); err != nil {
			return context.Cause(r.ctx)
		}
		taskID := r.s.TaskID()
		if taskID == "" {
			taskID = r.taskID
		}
		if r.retries < 0 || r.c.BaseURL == "" || taskID == "" || r.attempts >= r.retries {
			return readErr
		}
		r.attempts++
		lastID := string(r.s.LastEventID())
		if lastID == "" {
			lastID = r.lastID
		}
		d := max(r.backoff(), min(after, r.maxDelay))
		if r.c.OnResubscribe != nil {
			r.c.OnResubscribe(&Resubscription{Attempt: r.attempts, Retries: r.retries, Delay: d, TaskID: taskID, LastEventID: lastID, Err: readErr})
		}
		if d > 0 {
			t := time.NewTimer(d)
			select {
			case <-r.ctx.Done():
				t.Stop()
				return context.Cause(r.ctx)
			case <-t.C:
			}
		}
		if err := r.s.Resume(); err != nil {
			return readErr
		}
		req, err := r.c.subscribeRequest(taskID)
		if err != nil {
			return err
		}
		a, err := r.connect(req, lastID)
		if err == nil {
			return nil
		}
		if r.ctx.Err() != nil {
			return context.Cause(r.ctx)
		}
		if !transient(a.status, err) {
			// The server refused the resubscription (the task is
			// gone, the token expired): the run stays cut, and the
			// refusal says why.
			return err
		}
		readErr, after = err, a.retryAfter
	}
}

// transient reports whether a resubscription that failed with err, the
// server having answered with status (0 when no response came), is to be
// retried. A failed connection, 408, 425, 429, 500, 502, 503, 504 and a
// 2xx that is no event stream (a proxy's page) are transient. Any other
// status (400, 401, 403, 404, 409…) and an A2A error document naming the
// task (reason TASK_NOT_FOUND, or JSON-RPC's TaskNotFoundError -32001,
// whatever the status) are the server's refusal, which ends the run. A
// REST error document's code is an HTTP status: it is taken as the
// status, also when the document came with a 200.
func transient(status int, err error) bool {
	var api *parser.APIError
	if errors.As(err, &api) {
		if api.Reason == "TASK_NOT_FOUND" || api.Binding == parser.BindingJSONRPC && api.Code == -32001 {
			return false
		}
		if api.Binding == parser.BindingREST && 100 <= api.Code && api.Code <= 599 {
			status = int(api.Code)
		}
	}
	switch status {
	case 0, http.StatusRequestTimeout, http.StatusTooEarly, http.StatusTooManyRequests,
		http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return 200 <= status && status <= 299
}

// retryAfter returns the wait a Retry-After header value asks for, in
// delay-seconds or as an HTTP date (RFC 9110), counted from now; 0 when
// the value is absent, unreadable or in the past.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseUint(v, 10, 32); err == nil {
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// backoff returns the wait before the next resubscription, with jitter,
// and doubles the next one; a connection that brought data resets it (see
// read).
func (r *Run) backoff() time.Duration {
	d := r.delay
	r.delay = min(2*r.delay, r.maxDelay)
	if d > 0 && r.jitter > 0 {
		d -= time.Duration(mrand.Float64() * r.jitter * float64(d))
	}
	return d
}

// watchdog cancels a connection's context with ErrIdleTimeout once no byte
// arrived for idle. A read only marks that it happened (reading the clock
// at every read cost about 90 ns, a tenth of the client's own CPU time when
// a server flushes every event); a timer ticks idleTicks times per idle and
// reads the clock. A tick that finds the mark takes its own time as the
// time of the last read (the read happened since the tick before), and the
// tick that comes idle after it cancels: its delay is computed from the
// clock each time, so that the lateness of the ticks does not add up. A
// connection is cut after between idle and idle + idle/idleTicks of
// silence, plus how late two ticks fired.
type watchdog struct {
	read    atomic.Bool
	idle    time.Duration
	tick    time.Duration
	start   time.Time
	seen    atomic.Int64 // nanoseconds from start to the last tick that found a read
	stopped atomic.Bool
	// timer is set before it first runs, and read by fire on the timer's
	// goroutine: an atomic, for the race detector to see the order.
	timer  atomic.Pointer[time.Timer]
	cancel context.CancelCauseFunc
}

// idleTicks is the number of ticks of a watchdog per idle timeout, for an
// idle timeout of at least idleTicks milliseconds (one tick per timeout
// for shorter ones).
const idleTicks = 8

func newWatchdog(idle time.Duration, cancel context.CancelCauseFunc) *watchdog {
	w := &watchdog{cancel: cancel, idle: idle, tick: idle / idleTicks, start: time.Now()}
	if w.tick < time.Millisecond {
		w.tick = idle
	}
	if idle > 0 {
		t := time.AfterFunc(math.MaxInt64, w.fire)
		w.timer.Store(t)
		t.Reset(w.tick)
	}
	return w
}

func (w *watchdog) fire() {
	if w.stopped.Load() {
		return
	}
	now := time.Since(w.start)
	seen := time.Duration(w.seen.Load())
	if w.read.Swap(false) {
		seen = now
		w.seen.Store(int64(now))
	}
	left := w.idle - (now - seen)
	if left > 0 {
		w.timer.Load().Reset(min(w.tick, left))
		return
	}
	w.cancel(ErrIdleTimeout)
}

// touch marks a read; it writes to memory only once per tick.
func (w *watchdog) touch() {
	if w.tick > 0 && !w.read.Load() {
		w.read.Store(true)
	}
}

func (w *watchdog) stop() {
	w.stopped.Store(true)
	if t := w.timer.Load(); t != nil {
		t.Stop()
	}
}

// NewID returns a random UUIDv7 (RFC 9562), bare, for a message id or a
// JSON-RPC request id: A2A servers take it as a message id, and Corti
// accepts its ids without their prefix. It is a string, as the ids of a
// [UserMessage] a caller sends are.
func NewID() string {
	var u [16]byte
	rand.Read(u[:])
	binary.BigEndian.PutUint64(u[:8], uint64(time.Now().UnixMilli())<<16|binary.BigEndian.Uint64(u[:8])&0xffff)
	u[6] = u[6]&0x0f | 0x70
	u[8] = u[8]&0x3f | 0x80
	h := hex.EncodeToString(u[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
