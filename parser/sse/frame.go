package sse

// Frame is one dispatched Server-Sent Events event.
//
// The byte slices are views: they alias the lexer's buffers and are valid
// only until the next call to Write, Fill, FillLine, Next, Close or Reset on
// the object that produced the Frame; ID read through the *Frame lives
// longer (see ID). They must not be modified. Use [Frame.Clone] to retain a
// Frame.
type Frame struct {
	// Offset is the 0-based byte offset in the stream (counting every byte
	// received, a byte order mark included) of the first byte of the first
	// line that contributed to this frame: its first line that is not a
	// comment.
	Offset int64
	// Seq is the 1-based ordinal of this frame among the frames dispatched
	// by the same lexer since it was created or last Reset.
	Seq int64
	// Event is the event type: the last "event" field's value, or
	// "message" when the frame had none.
	Event []byte
	// Data is the frame's data buffer: its "data" lines joined with LF,
	// without the trailing LF. A dispatched frame always had at least one
	// data line, although Data may be empty.
	Data []byte
	// ID is the last event ID in force when the frame was dispatched (it
	// persists across frames until an "id" field changes it); empty when no
	// id was ever set or it was reset. In the Frame a Lexer or Reader
	// returns, ID stays valid across Write, Fill, FillLine, Close and the
	// calls to Next that return no frame, until Next returns another frame
	// or Reset (Resume) is called: when the lexer moves or gives up the
	// bytes it views, it points ID at a copy of its own first. So a caller
	// may keep the *Frame, and read its ID, until the next frame without a
	// copy. A copy of the slice itself is valid as the other views are, and
	// through the call to a Lexer's Next that returns the next frame, which
	// moves no byte: a caller that took it before that call still has the
	// id of the frame before (reconstruct's Stream, when that frame fails).
	ID []byte
	// Retry is the reconnection time in milliseconds from the most recent
	// valid "retry" field of this frame; meaningful only when HasRetry.
	Retry int64
	// HasRetry reports whether this frame carried a valid "retry" field.
	HasRetry bool
}

// Clone returns a copy of f whose slices share no memory with the lexer
// that produced it, so that it stays valid after the next call. It makes one
// allocation for the three slices.
func (f Frame) Clone() Frame {
	b := make([]byte, 0, len(f.Event)+len(f.Data)+len(f.ID))
	f.Event, b = cloneInto(f.Event, b)
	f.Data, b = cloneInto(f.Data, b)
	f.ID, _ = cloneInto(f.ID, b)
	return f
}

// cloneInto appends s to b and returns the appended part (nil when s is
// nil) and the extended b.
func cloneInto(s, b []byte) ([]byte, []byte) {
	if s == nil {
		return nil, b
	}
	n := len(b)
	b = append(b, s...)
	return b[n:len(b):len(b)], b
}
