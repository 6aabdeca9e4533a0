package reconstruct

import (
	"errors"
	"strconv"

	"github.com/a2astream/a2astream/parser"
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
	// ErrNoAnswer means a run completed without a sealed artifact that is
	// not intermediate thinking.
	ErrNoAnswer = errors.New("reconstruct: run completed without an answer artifact")
	// ErrArtifactTooLarge means an artifact grew past
	// Options.MaxArtifactSize; the run stopped.
	ErrArtifactTooLarge = errors.New("reconstruct: artifact exceeds MaxArtifactSize")
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

// Where locates an event in the stream.
type Where struct {
	// Offset is the 0-based byte offset in the stream of the event's frame;
	// -1 when the event did not come from a frame.
	Offset int64
	// Seq is the 1-based ordinal of the event's frame; 0 when none.
	Seq int64
	// ID is the SSE last event id in force for the frame; "" when none.
	ID string
}

func whereOf(f *parser.Frame) Where {
	if f == nil {
		return Where{Offset: -1}
	}
	return Where{Offset: f.Offset, Seq: f.Seq, ID: string(f.ID)}
}

func (w *Where) appendTo(b []byte) []byte {
	if w.Seq > 0 {
		b = append(b, "frame "...)
		b = strconv.AppendInt(b, w.Seq, 10)
		b = append(b, ' ')
	}
	if w.ID != "" {
		b = append(b, "(id "...)
		b = strconv.AppendQuote(b, w.ID)
		b = append(b, ") "...)
	}
	if w.Offset >= 0 {
		b = append(b, "at byte "...)
		b = strconv.AppendInt(b, w.Offset, 10)
	}
	return b
}

// Diagnostic reports an event that broke the protocol's rules. It is also
// the error Apply returns for it under Options.Strict.
type Diagnostic struct {
	// Where locates the event.
	Where
	// ArtifactID is the artifact concerned; "" when none.
	ArtifactID string
	// TaskID is the task id the event named, for ErrOtherTask.
	TaskID string
	// From and To are the states of a forbidden transition (ErrTransition)
	// or the final state and the new one (ErrAfterFinal).
	From, To parser.TaskState
	// Err is one of the package's sentinels.
	Err error
}

// Error describes the diagnostic with its place in the stream.
func (d *Diagnostic) Error() string {
	b := make([]byte, 0, 96)
	b = append(b, "reconstruct: "...)
	b = d.Where.appendTo(b)
	if d.ArtifactID != "" {
		b = append(b, " artifact "...)
		b = strconv.AppendQuote(b, d.ArtifactID)
	}
	if d.TaskID != "" {
		b = append(b, " task "...)
		b = strconv.AppendQuote(b, d.TaskID)
	}
	if d.From != 0 || d.To != 0 {
		b = append(b, ' ')
		b = append(b, d.From.String()...)
		b = append(b, " -> "...)
		b = append(b, d.To.String()...)
	}
	b = append(b, ": "...)
	b = append(b, d.Err.Error()...)
	return string(b)
}

// Unwrap returns the sentinel.
func (d *Diagnostic) Unwrap() error { return d.Err }

// EventError is an error that ended a run at one event: the server's error
// (Err wraps ErrServer and the *parser.APIError) or a limit.
type EventError struct {
	// Where locates the event.
	Where
	// Err is the error.
	Err error
}

// Error describes the error with its place in the stream.
func (e *EventError) Error() string {
	b := make([]byte, 0, 96)
	b = append(b, "reconstruct: "...)
	b = e.Where.appendTo(b)
	b = append(b, ": "...)
	b = append(b, e.Err.Error()...)
	return string(b)
}

// Unwrap returns the underlying error.
func (e *EventError) Unwrap() error { return e.Err }

// serverError joins ErrServer and the server's *parser.APIError.
type serverError struct{ api *parser.APIError }

func (e *serverError) Error() string   { return e.api.Error() }
func (e *serverError) Unwrap() []error { return []error{ErrServer, e.api} }

// TruncatedError reports a stream that ended before the run did, with what
// a client needs to resubscribe. errors.Is matches ErrTruncated, and also
// io.ErrUnexpectedEOF when the stream was cut inside an event.
type TruncatedError struct {
	// TaskID is the task to resubscribe to (tasks/{id}:subscribe); "" when
	// no event named one.
	TaskID string
	// ContextID is the run's context id.
	ContextID string
	// State is the last state seen.
	State parser.TaskState
	// LastEventID is the SSE id of the last event received, for the
	// Last-Event-ID header; "" when none.
	LastEventID string
	// Offset is the number of bytes of the stream consumed.
	Offset int64
	// Cut is the lexer's error when the stream ended inside an event (a
	// *parser.SyntaxError wrapping io.ErrUnexpectedEOF); nil when it ended
	// between events.
	Cut error
}

// Error describes the truncation and how to resume.
func (e *TruncatedError) Error() string {
	b := make([]byte, 0, 160)
	b = append(b, "reconstruct: stream ended in state "...)
	b = append(b, e.State.String()...)
	b = append(b, " after "...)
	b = strconv.AppendInt(b, e.Offset, 10)
	b = append(b, " bytes"...)
	if e.TaskID != "" {
		b = append(b, "; resubscribe to task "...)
		b = strconv.AppendQuote(b, e.TaskID)
	}
	if e.LastEventID != "" {
		b = append(b, " with Last-Event-ID "...)
		b = strconv.AppendQuote(b, e.LastEventID)
	}
	if e.Cut != nil {
		b = append(b, " (cut inside an event)"...)
	}
	return string(b)
}

// Unwrap returns ErrTruncated and the cut error, if any.
func (e *TruncatedError) Unwrap() []error {
	if e.Cut != nil {
		return []error{ErrTruncated, e.Cut}
	}
	return []error{ErrTruncated}
}
