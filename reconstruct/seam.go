package reconstruct

// This file is the seam between a Stream and its Reducer: streamReducer,
// the methods a Stream calls, and the unexported ones among them.

import (
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
)

// streamReducer is what a Stream calls on its Reducer, and all it calls:
// the Stream holds a Reducer, not this interface, so that its calls are
// direct; the interface states their contract, and the assertion below
// keeps it in step with the Reducer.
//
// Buffers. The frame and the event handed to Apply and repeat are views
// into the lexer's and the decoder's buffers, valid during the call only.
// The Reducer copies what it keeps of them (the last event id, with setID;
// ids, texts, parts and metadata, into buffers of its own; an error event's
// *parser.APIError is the caller's already) and keeps no view into them:
// the Stream may write to the lexer, which moves or reuses its buffer,
// between any two calls. LastEventID returns the Reducer's own copy.
//
// The last event id. Apply copies its frame's id (setID); repeat does not,
// but for a delta that ends the run: after repeat, the last event id is
// the ID of the lexer's Frame, which the lexer keeps valid across writes
// until it returns another frame, and the Stream hands it to setID
// before any call that reads the Reducer's (Fail, Finish, Result,
// LastEventID) or lets the lexer drop it (its Resume and Reset). When the
// frame after it fails to decode, the Stream hands setID the ID it took
// before the lexer returned that frame: the lexer moves no byte in the
// call that returns a frame. A delta costs no copy of its id so.
//
// Updates. Pending returns the updates of the last call to Apply, repeat
// (when it returned true), Fail or Finish; their texts are views into the
// Reducer's own buffers. The slice and its views are valid until the next
// of those calls or Reset: the Stream hands them out before it calls
// again, and copies those it keeps longer (Close).
//
// Order. muteText, if called, comes before the first event. Events go to
// Apply, or to repeat when extended reported that the last one took the
// delta route and the decoder reports the next in its envelope
// (parser.Decoder.SameEnvelope): repeat applies it as Apply would, or
// applies nothing and returns false, and the Stream then calls Apply. Once
// Err is not nil the Stream applies nothing more; Finish ends the run (and
// does nothing more after an error, or when called again), closed reports
// it. Reset starts another run.
type streamReducer interface {
	Reset(opts *Options)
	muteText()

	Apply(f *sse.Frame, ev *parser.Event) error
	repeat(f *sse.Frame, ev *parser.Event) bool
	setID(id []byte)
	extended() bool
	Fail(err error)
	Finish(offset int64, cut error) error
	Pending() []Update

	Err() error
	Done() bool
	closed() bool
	taskID() string
	LastEventID() []byte
	Result() *Result
}

var _ streamReducer = (*Reducer)(nil)

// extended reports whether the last event took the delta route.
func (r *Reducer) extended() bool { return r.delta != nil }

// muteText makes r build no UpdateText, for a caller that reads none.
func (r *Reducer) muteText() { r.mute = true }

// taskID returns the run's task id, without the LastEventID update that
// Result makes (a copy of the id, when it changed).
func (r *Reducer) taskID() string { return r.res.TaskID }

// closed reports whether Finish was called.
func (r *Reducer) closed() bool { return r.finished }

// setID makes id, the id of the frame of the event being applied, the
// last event id: a copy, in the Reducer's buffer, so that it outlives the
// frame and allocates nothing once the buffer fits an id.
func (r *Reducer) setID(id []byte) { r.lastID = append(r.lastID[:0], id...) }
