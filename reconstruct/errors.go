package reconstruct

import (
	"errors"
	"io"
	"strconv"

	"github.com/a2astream/a2astream/internal/errtext"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
)

// The errors that this package reports. Rule violations are the Err of a
// [Diagnostic]; the others end a run, wrapped in a type that says where.
// Match them with errors.Is.
var (
	// ErrTruncated means the stream ended before a terminal or interrupted
	// state: resubscribe with the task id and the last event id of the
	// *TruncatedError that wraps it.
	ErrTruncated = errors.New("reconstruct: stream ended before a terminal or interrupted state")
	// ErrUnknownArtifact means an append arrived for an artifact never
	// created; the artifact was created from it.
	ErrUnknownArtifact = errors.New("reconstruct: append to an unknown artifact")
	// ErrAfterFinal means an event arrived after the run's terminal state;
	// terminal states are immutable. Artifact updates are still kept.
	ErrAfterFinal = errors.New("reconstruct: event after a terminal state")
	// ErrTransition means a status update asked for a transition the task
	// lifecycle forbids; the new state was not taken if the old one was
	// terminal, and taken otherwise.
	ErrTransition = errors.New("reconstruct: transition the task lifecycle forbids")
	// ErrOtherTask means an event named another task than the run's; it
	// was not applied.
	ErrOtherTask = errors.New("reconstruct: event for another task")
	// ErrSealedArtifact means an update arrived for an artifact that a
	// lastChunk had already closed; it was applied and the artifact
	// reopened.
	ErrSealedArtifact = errors.New("reconstruct: update to a sealed artifact")
	// ErrUnknownEvent means a stream response of a kind this package does
	// not know arrived; it was skipped.
	ErrUnknownEvent = errors.New("reconstruct: unknown stream response kind")
	// ErrLegacyField means an event carried a member of A2A 0.3 that A2A
	// 1.0 removed and whose meaning is unambiguous, so it was ignored:
	// "final" in a status update (finality comes from the state). It is
	// reported once per run, for the first event that carries one;
	// Diagnostic.JSONPointer names the member. A2A 0.3 shapes that would lose
	// text are refused by the decoder instead (parser.ErrLegacyShape).
	ErrLegacyField = errors.New("reconstruct: A2A 0.3 member that A2A 1.0 removed, ignored")
	// ErrNoAnswer means a run completed without a sealed artifact that is
	// not intermediate thinking.
	ErrNoAnswer = errors.New("reconstruct: run completed without an answer artifact")
	// ErrArtifactTooLarge means an artifact grew past
	// Options.MaxArtifactSize; the run stopped.
	ErrArtifactTooLarge = errors.New("reconstruct: artifact exceeds MaxArtifactSize")
	// ErrRunTooLarge means the artifacts of a run together grew past
	// Options.MaxRunSize; the run stopped.
	ErrRunTooLarge = errors.New("reconstruct: artifacts exceed MaxRunSize")
	// ErrTooManyArtifacts means a run created more than
	// Options.MaxArtifacts artifacts; the run stopped.
	ErrTooManyArtifacts = errors.New("reconstruct: more than MaxArtifacts artifacts")
	// ErrTooManyDiagnostics means a run broke the rules more than
	// Options.MaxDiagnostics times; the run stopped.
	ErrTooManyDiagnostics = errors.New("reconstruct: more than MaxDiagnostics diagnostics")
	// ErrServer is the error the server sent inside the stream, seen
	// through an *EventError; errors.As finds the *parser.APIError.
	ErrServer = errors.New("reconstruct: the server sent an error")
	// ErrClosed means an event was applied after Close.
	ErrClosed = errors.New("reconstruct: reducer closed")
)

// positionOf returns the position of frame f; Offset -1 when the event did
// not come from a frame.
func positionOf(f *sse.Frame) sse.Position {
	if f == nil {
		return sse.Position{Offset: -1}
	}
	return f.Position()
}

// Diagnostic reports an event that broke the protocol's rules. It is also
// the error Apply returns for it under Options.Strict.
type Diagnostic struct {
	// Position locates the event's frame: its offset (-1 when the event
	// did not come from a frame), its ordinal and the SSE id in force.
	sse.Position
	// ArtifactID is the artifact concerned; nil when none.
	ArtifactID []byte
	// TaskID is the task id the event named, for ErrOtherTask; nil
	// otherwise.
	TaskID []byte
	// JSONPointer is the RFC 6901 JSON Pointer of the member concerned,
	// such as "/statusUpdate/final" for ErrLegacyField, as
	// parser.DecodeError gives it; "" when none.
	JSONPointer string
	// From and To are the states of a forbidden transition (ErrTransition)
	// or the final state and the new one (ErrAfterFinal).
	From, To parser.TaskState
	// Err is one of the package's sentinels, or the reporter's own for a
	// diagnostic given to [Reducer.Report].
	Err error
}

// Error describes the diagnostic with its place in the stream, then Err
// without a "reconstruct: " of its own:
//
//	reconstruct: frame 2 (id "7") at byte 179 artifact "a": append to an unknown artifact
func (d *Diagnostic) Error() string {
	b := make([]byte, 0, 96)
	b = append(b, "reconstruct: "...)
	b = d.Position.Append(b)
	if len(d.ArtifactID) > 0 {
		b = append(b, " artifact "...)
		b = strconv.AppendQuote(b, string(d.ArtifactID))
	}
	if len(d.TaskID) > 0 {
		b = append(b, " task "...)
		b = strconv.AppendQuote(b, string(d.TaskID))
	}
	if d.JSONPointer != "" {
		b = append(b, " member "...)
		b = errtext.AppendText(b, d.JSONPointer)
	}
	if d.From != 0 || d.To != 0 {
		b = append(b, ' ')
		b = append(b, d.From.String()...)
		b = append(b, " -> "...)
		b = append(b, d.To.String()...)
	}
	b = append(b, ": "...)
	return string(errtext.AppendCause(b, "reconstruct", d.Err))
}

// Unwrap returns the sentinel.
func (d *Diagnostic) Unwrap() error { return d.Err }

// Report records d, a problem with the event received in frame f (nil when
// it did not come from a frame) that the Reducer cannot see for itself,
// such as what another SDK's decoding lost before an adapter converted the
// event. It is kept as the rules Apply checks are: d.Position is set from
// f, d's byte slices are copied, d counts toward Options.MaxDiagnostics,
// and under Options.Strict it ends the run, with an UpdateDone in
// [Reducer.Pending]. Report returns the error that ended the run, if it
// did; after that it does nothing and returns the same error. Call it
// before applying the event, and do not apply the event when it returns an
// error.
func (r *Reducer) Report(f *sse.Frame, d Diagnostic) error {
	r.updates = r.updates[:0]
	if r.err != nil {
		return r.err
	}
	if r.finished {
		return ErrClosed
	}
	d.ArtifactID, d.TaskID = ownID(d.ArtifactID), ownID(d.TaskID)
	r.diag(f, d)
	return r.err
}

// EventError is an error that ended a run at one event: the server's error
// (Err wraps ErrServer and the *parser.APIError) or a limit.
type EventError struct {
	// Position locates the event's frame: its offset (-1 when the event
	// did not come from a frame), its ordinal and the SSE id in force.
	sse.Position
	// Err is the error.
	Err error
}

// Error describes the error with its place in the stream, then Err
// without a "reconstruct: " of its own (a limit's sentinel); the server's
// error keeps its "parser: ".
func (e *EventError) Error() string {
	b := make([]byte, 0, 96)
	b = append(b, "reconstruct: "...)
	b = e.Position.Append(b)
	b = append(b, ": "...)
	return string(errtext.AppendCause(b, "reconstruct", e.Err))
}

// Unwrap returns the underlying error.
func (e *EventError) Unwrap() error { return e.Err }

// serverError joins ErrServer and the server's *parser.APIError.
type serverError struct{ api *parser.APIError }

func (e *serverError) Error() string   { return e.api.Error() }
func (e *serverError) Unwrap() []error { return []error{ErrServer, e.api} }

// TruncatedError reports a stream that ended before the run did, with what
// a client needs to resubscribe, and says how it ended: inside an event (Cut,
// with the bytes of that event dropped) or between events, at the end of the
// input or on a read error (Cause). errors.Is matches ErrTruncated, also
// io.ErrUnexpectedEOF when the stream was cut inside an event, and the cause:
// errors.Is and errors.As reach a connection reset, a deadline
// (context.DeadlineExceeded, a net.Error whose Timeout is true), an idle
// timeout or a cancellation given to [Stream.CloseWithError] or returned by
// the reader of [Read]. A plain end of input (io.EOF) is no cause: a
// TruncatedError never matches io.EOF, which read loops take for a clean end.
type TruncatedError struct {
	// TaskID is the task to resubscribe to (tasks/{id}:subscribe); ""
	// when no event named one.
	TaskID string
	// ContextID is the run's context id; "" when none.
	ContextID string
	// State is the last state seen.
	State parser.TaskState
	// LastEventID is the SSE id of the last event received, for the
	// Last-Event-ID header; "" when none.
	LastEventID string
	// Offset is the number of bytes of the stream consumed; -1 when the
	// source counts no bytes (a2ago's runs, which read a2a-go's events).
	Offset int64
	// Cut is the lexer's error when the stream ended inside an event (a
	// *sse.SyntaxError wrapping io.ErrUnexpectedEOF, whose Offset is
	// where that event began); nil when it ended between events.
	Cut error
	// Dropped is the number of bytes of the event the cut left unfinished,
	// which were discarded; 0 when the stream ended between events.
	Dropped int64
	// Cause is the error the input failed with (the one given to
	// Stream.CloseWithError, or returned by Read's reader): a connection
	// reset, a deadline, an idle timeout, a cancellation. nil when the input
	// simply ended (Close, io.EOF).
	Cause error

	// The error is not comparable with ==, as before its ids became
	// strings: the module then links no equality function for it.
	_ [0]func()
}

// Error describes the truncation, how the stream ended and how to resume
// (with no byte count when Offset is -1):
//
//	reconstruct: stream ended in state TASK_STATE_WORKING after 5120 bytes, inside an event (312 bytes dropped), cause: connection reset by peer; resubscribe to task "…" with Last-Event-ID "…"
func (e *TruncatedError) Error() string {
	b := make([]byte, 0, 200)
	b = append(b, "reconstruct: stream ended in state "...)
	b = append(b, e.State.String()...)
	if e.Offset >= 0 {
		b = append(b, " after "...)
		b = appendBytes(b, e.Offset)
		b = append(b, ',')
	}
	if e.Cut != nil {
		b = append(b, " inside an event ("...)
		b = appendBytes(b, e.Dropped)
		b = append(b, " dropped)"...)
	} else {
		b = append(b, " between events"...)
	}
	if e.Cause != nil {
		b = append(b, ", cause: "...)
		b = errtext.AppendCause(b, "reconstruct", e.Cause)
	} else {
		b = append(b, ", at the end of the input"...)
	}
	if len(e.TaskID) > 0 {
		b = append(b, "; resubscribe to task "...)
		b = strconv.AppendQuote(b, e.TaskID)
		if len(e.LastEventID) > 0 {
			b = append(b, " with Last-Event-ID "...)
			b = strconv.AppendQuote(b, e.LastEventID)
		}
	} else {
		b = append(b, "; no task id to resubscribe to"...)
	}
	return string(b)
}

// appendBytes appends "1 byte" or "n bytes".
func appendBytes(b []byte, n int64) []byte {
	b = strconv.AppendInt(b, n, 10)
	if n == 1 {
		return append(b, " byte"...)
	}
	return append(b, " bytes"...)
}

// Unwrap returns ErrTruncated, the cut error and the cause, those that are
// set.
func (e *TruncatedError) Unwrap() []error {
	errs := make([]error, 1, 3)
	errs[0] = ErrTruncated
	if e.Cut != nil {
		errs = append(errs, e.Cut)
	}
	if e.Cause != nil {
		errs = append(errs, e.Cause)
	}
	return errs
}

// splitEnd sorts the error given to Reducer.Finish: the lexer's error for
// a stream cut inside an event (a *sse.SyntaxError wrapping
// io.ErrUnexpectedEOF) is the cut, anything else the cause; an
// errors.Join of both is split. io.EOF is a plain end, no cause.
func splitEnd(err error) (cut, cause error) {
	if isCut(err) {
		return err, nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs := j.Unwrap()
		for i, e := range errs {
			if isCut(e) {
				rest := append(append([]error{}, errs[:i]...), errs[i+1:]...)
				if len(rest) == 1 {
					return e, plainEnd(rest[0])
				}
				return e, errors.Join(rest...)
			}
		}
	}
	return nil, plainEnd(err)
}

// isCut reports whether err is the lexer's error for a stream cut inside
// an event.
func isCut(err error) bool {
	se, ok := err.(*sse.SyntaxError)
	return ok && se.Err == io.ErrUnexpectedEOF
}

// plainEnd returns err, or nil for io.EOF, the plain end of the input.
func plainEnd(err error) error {
	if err == io.EOF {
		return nil
	}
	return err
}
