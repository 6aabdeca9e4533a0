package a2ago

import (
	"encoding/json"
	"errors"
	"iter"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
)

// Reduce rebuilds the run that seq streams, the iterator that a2a-go's
// client returns from SendStreamingMessage or SubscribeToTask, with the
// rules of reconstruct.Reducer, and returns its Result and error
// (Result.Err).
//
// The error is nil when the run reached a terminal or interrupted state or
// was a direct message reply. A sequence that ends before that, with no
// error or with another error than a protocol error (a transport error, a
// cancellation, a non-200 answer, an event a2a-go's client could not
// parse: a2a-go does not tell these apart), is a
// *reconstruct.TruncatedError: its TaskID is the task to subscribe to again
// (a2a-go's client gives no SSE ids, so LastEventID is "", nor byte
// counts, so Offset is -1), its Cause that error. An error that
// is a2a-go's protocol error (an *a2a.Error, or one of a2a's error
// sentinels, such as the server's error sent inside the stream) ends the
// run as the server's error does on the byte path: a
// *reconstruct.EventError matching reconstruct.ErrServer, whose
// *parser.APIError holds what a2a-go kept of it (see [APIError]). An event
// that cannot be converted ends the run with the converter's error (see
// [Converter.Event]; an error other than the *parser.DecodeError comes in a
// *reconstruct.EventError that names the event's ordinal). Everything
// received before an error stays in the Result.
//
// The Result equals the one that reconstruct.Read gives for the bytes that
// a2a-go's server wrote for the same events, except for what the a2a-go
// client does not hand on: Result.LastEventID is "", and a Diagnostic's
// sse.Position has the event's ordinal (Seq) but no byte offset (-1) nor
// SSE id; and except for the diagnostics of what a2a-go's decoding loses
// ([ErrReplacedText], [ErrNoParts]).
func Reduce(seq iter.Seq2[a2a.Event, error], opts *reconstruct.Options) (*reconstruct.Result, error) {
	var d driver
	d.r.Reset(opts)
	d.run(seq, nil)
	return d.r.Result(), d.r.Err()
}

// Updates is Reduce as an iterator of the live updates, the same updates
// that reconstruct.Updates gives on the byte path, ending with the
// UpdateDone. When the run ended with an error, the iterator yields it once
// more, last, with a zero Update. The updates' views are valid only until
// the iteration continues. Stopping the iteration stops ranging over seq,
// which makes a2a-go's client close its connection.
func Updates(seq iter.Seq2[a2a.Event, error], opts *reconstruct.Options) iter.Seq2[reconstruct.Update, error] {
	return func(yield func(reconstruct.Update, error) bool) {
		var d driver
		d.r.Reset(opts)
		each := func() bool {
			for _, u := range d.r.Pending() {
				if !yield(u, nil) {
					return false
				}
			}
			return true
		}
		if !d.run(seq, each) {
			return
		}
		if err := d.r.Err(); err != nil {
			yield(reconstruct.Update{}, err)
		}
	}
}

// driver applies the events of sequences to a Reducer.
type driver struct {
	r     reconstruct.Reducer
	c     Converter
	frame sse.Frame
	// n is the number of events and errors received, over every
	// sequence of the run: the ordinal of the last one.
	n int64
	// losses holds what the event being applied shows of a2a-go's
	// losses; reported the kinds already reported in the run.
	losses   []reconstruct.Diagnostic
	reported loss
}

// run applies seq's events in order and finishes the run, calling each
// (when not nil) after every step that may have left updates; it reports
// false when each did.
func (d *driver) run(seq iter.Seq2[a2a.Event, error], each func() bool) bool {
	ok, cause := d.feed(seq, each)
	if !ok {
		return false
	}
	d.r.Finish(-1, cause)
	return each == nil || each()
}

// feed applies seq's events in order, calling each (when not nil) after
// every step that may have left updates. It returns false when each did,
// and the error that ended seq when it is no protocol error (a transport
// error, a cancellation: the cause of a truncation).
func (d *driver) feed(seq iter.Seq2[a2a.Event, error], each func() bool) (bool, error) {
	for ev, err := range seq {
		d.n++
		// The frame locates the event in diagnostics and errors: its
		// ordinal, no byte offset, no SSE id.
		d.frame = sse.Frame{Offset: -1, Seq: d.n}
		if err != nil {
			api := APIError(err)
			if api == nil {
				return true, err
			}
			d.r.Apply(&d.frame, &parser.Event{Kind: parser.KindError, Err: api})
		} else if pe, cerr := d.c.Event(ev, d.n); cerr != nil {
			var de *parser.DecodeError
			if !errors.As(cerr, &de) {
				// Say which event: the decoder's error does.
				cerr = &reconstruct.EventError{Position: d.frame.Position(), Err: cerr}
			}
			d.r.Fail(cerr)
		} else if d.report(pe) == nil {
			d.r.Apply(&d.frame, pe)
		}
		if each != nil && !each() {
			return false, nil
		}
		if d.r.Err() != nil {
			// Nothing more can change the run.
			break
		}
	}
	return true, nil
}

// Run rebuilds one run from the event sequences of its connections: the
// sequence of SendStreamingMessage, then, each time it ends before the run
// did, the sequence of SubscribeToTask for the run's task, applied to the
// same reconstruct.Reducer, as reconstruct.Stream does with Resume. A task
// snapshot that a subscription starts with keeps the artifacts already
// sealed, so the Result is that of the uncut run:
//
//	run := a2ago.NewRun(nil)
//	done := run.Read(client.SendStreamingMessage(ctx, req))
//	for try := 0; !done && run.TaskID() != "" && try < 3; try++ {
//		done = run.Read(client.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: a2a.TaskID(run.TaskID())}))
//	}
//	res, err := run.Close()
//
// A Run must not be used from multiple goroutines at once.
type Run struct {
	d      driver
	cause  error
	closed bool
}

// NewRun returns a Run configured by opts; nil opts selects the defaults.
func NewRun(opts *reconstruct.Options) *Run {
	r := new(Run)
	r.d.r.Reset(opts)
	return r
}

// Read applies the events of seq, the sequence of one connection, and
// reports whether the run has ended: a terminal or interrupted state, a
// direct reply, or an error (the server's, or an event that could not be
// converted). false means seq ended first, with no error or with a
// transport error; the run may go on with the sequence of SubscribeToTask
// for TaskID. Read does nothing after Close and reports true.
func (r *Run) Read(seq iter.Seq2[a2a.Event, error]) bool {
	if r.closed {
		return true
	}
	_, r.cause = r.d.feed(seq, nil)
	return r.d.r.Done()
}

// Updates is Read as an iterator of the live updates of seq's events, for a
// typing UI. When an error ends the run here (the server's, or an event
// that could not be converted), its UpdateDone comes last, and then the
// error, with a zero Update; otherwise the run's UpdateDone and Result come
// from Close. Stopping the iteration stops ranging over seq. Updates yields
// nothing after Close.
func (r *Run) Updates(seq iter.Seq2[a2a.Event, error]) iter.Seq2[reconstruct.Update, error] {
	return func(yield func(reconstruct.Update, error) bool) {
		if r.closed {
			return
		}
		each := func() bool {
			for _, u := range r.d.r.Pending() {
				if !yield(u, nil) {
					return false
				}
			}
			return true
		}
		ok, cause := r.d.feed(seq, each)
		if !ok {
			return
		}
		r.cause = cause
		if err := r.d.r.Err(); err != nil {
			yield(reconstruct.Update{}, err)
		}
	}
}

// Done reports whether the run has ended: a terminal or interrupted state,
// a direct reply, an error, or Close.
func (r *Run) Done() bool { return r.closed || r.d.r.Done() }

// TaskID returns the run's task id, the task to subscribe to after a cut;
// "" when no event named one.
func (r *Run) TaskID() string { return r.d.r.Result().TaskID }

// Close ends the run and returns its Result and error, as Reduce does: a
// run that has not ended is a *reconstruct.TruncatedError whose Cause is
// the error that ended the last sequence read. Further calls return the
// same.
func (r *Run) Close() (*reconstruct.Result, error) {
	if !r.closed {
		r.closed = true
		r.d.r.Finish(-1, r.cause)
	}
	return r.d.r.Result(), r.d.r.Err()
}

// protocolErrors are a2a-go's error sentinels: an error that matches one
// came from the server (or from a2a-go's own check of what it sent).
var protocolErrors = []error{
	a2a.ErrParseError, a2a.ErrInvalidRequest, a2a.ErrMethodNotFound,
	a2a.ErrInvalidParams, a2a.ErrInternalError, a2a.ErrServerError,
	a2a.ErrTaskNotFound, a2a.ErrTaskNotCancelable,
	a2a.ErrPushNotificationNotSupported, a2a.ErrUnsupportedOperation,
	a2a.ErrUnsupportedContentType, a2a.ErrInvalidAgentResponse,
	a2a.ErrExtendedCardNotConfigured, a2a.ErrExtensionSupportRequired,
	a2a.ErrVersionNotSupported, a2a.ErrUnauthenticated, a2a.ErrUnauthorized,
}

// APIError returns the *parser.APIError for err when err is a2a-go's
// protocol error (an *a2a.Error, or an error matching one of a2a's
// sentinels such as a2a.ErrTaskNotFound), and nil otherwise (a transport
// error, a cancellation). a2a-go's client keeps only part of the server's
// error: the APIError has the Message, the ErrorInfo Reason that a2a-go
// maps the error to (such as "TASK_NOT_FOUND"), the Domain
// a2a-protocol.org, and as Details the JSON of the *a2a.Error's Details
// map; it has no Binding, RPCID, Code or Status, which a2a-go drops.
func APIError(err error) *parser.APIError {
	var ae *a2a.Error
	if !errors.As(err, &ae) {
		known := false
		for _, s := range protocolErrors {
			if errors.Is(err, s) {
				known = true
				break
			}
		}
		if !known {
			return nil
		}
	}
	api := &parser.APIError{
		Message: err.Error(),
		Reason:  a2a.ErrorReason(err),
		Domain:  a2a.ProtocolDomain,
	}
	if ae != nil {
		api.Message = ae.Error()
		if len(ae.Details) > 0 {
			if b, jerr := json.Marshal(ae.Details); jerr == nil {
				api.Details = b
			}
		}
	}
	return api
}
