package parser

// Frame is one dispatched Server-Sent Events event.
//
// The byte slices are views: they alias the lexer's buffer and are valid only
// until the next call to Write, Next, Close or Reset on the object that
// produced the Frame; they must not be modified. Use [Frame.Clone] to retain a
// Frame.
type Frame struct {
	// Offset is the 0-based byte offset in the stream (counting every byte
	// received, a byte order mark included) of the first byte of the first
	// line that contributed to this frame.
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
	// id was ever set or it was reset.
	ID []byte
	// Retry is the reconnection time in milliseconds from the most recent
	// valid "retry" field of this frame; meaningful only when HasRetry.
	Retry int64
	// HasRetry reports whether this frame carried a valid "retry" field.
	HasRetry bool
}
