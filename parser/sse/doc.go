// Package sse splits a Server-Sent Events byte stream into frames, following
// the WHATWG HTML standard's rules for parsing and interpreting an event
// stream. It is the first step of the a2astream pipeline: the [Lexer] (push,
// chunks of any size) and the [Reader] (pull, over an io.Reader) turn bytes
// into [Frame]s, which package parser decodes into A2A events. It knows
// nothing of A2A and imports no other package of the module.
//
// # Reading frames
//
// With an io.Reader, such as an HTTP response body:
//
//	r := sse.NewReader(resp.Body, nil)
//	for r.Next() {
//		f := r.Frame() // f.Data, f.Event, f.ID are views
//		...
//	}
//	if err := r.Err(); err != nil { // nil at a clean end of the stream
//		// errors.Is(err, io.ErrUnexpectedEOF): the stream was cut inside
//		// an event; resume with r.LastEventID() as Last-Event-ID.
//	}
//
// or, as an iterator, for f, err := range r.All() { ... }, where the error,
// if any, comes once, last, with a nil Frame.
//
// With chunks pushed as a network or a browser delivers them, of any size
// down to one byte:
//
//	lx := sse.NewLexer(nil)
//	for chunk := range chunks {
//		lx.Write(chunk)
//		for lx.Next() {
//			f := lx.Frame()
//			...
//		}
//		if err := lx.Err(); err != nil { ... } // an oversized event
//	}
//	if err := lx.Close(); err != nil { ... } // a cut stream
//	for lx.Next() { ... } // frames still buffered, if Next was not drained
//
// The allowed call order on a Lexer is
//
//	{ Write { Next [ Frame ] } [ Err ] } Close { Next [ Frame ] } [ Err ]
//
// with LastEventID, Retry, InputOffset and Buffered allowed at any time and
// Reset starting over. Write returns ErrBufferFull, writing nothing, when
// more than MaxEventSize bytes are buffered unread: call Next until it
// returns false after each Write, as in the loop above.
//
// # Rules
//
// A UTF-8 byte order mark is skipped once, only at the very start of the
// stream, also when it arrives split over several chunks. Lines end with
// CRLF, LF or a lone CR; a CR that ends one chunk and an LF that starts the
// next are one line end. Other bytes, U+2028 and U+2029 included, are not
// line ends, and the bytes are not otherwise decoded or validated. A line
// that starts with ':' is a comment (see [Options].OnComment); a line without
// a colon is a field name with an empty value; one space after the colon is
// removed, no more. "data" lines are joined with LF; a blank line ends the
// event, which is dispatched as a frame unless it had no data line; the
// event type defaults to "message". "id" sets the last event ID, which
// persists across events, unless its value contains NUL; an empty id resets
// it. "retry" is honoured only when it is all ASCII digits. Other fields are
// ignored. At the end of the input an unfinished event is not dispatched
// and Close reports it.
//
// # Limits and errors
//
// Options.MaxEventSize (default [DefaultMaxEventSize], 16 MiB; 0 means the
// default, never unlimited) caps one event. A larger event is reported as
// soon as it passes the limit, not when it ends (nor never, when it does
// not), as a *[SyntaxError] wrapping [ErrEventTooLarge] with its offset and
// Size MaxEventSize+1, and skipped to its end; calling Next again reads the
// next event normally. A Lexer holds
// at most MaxEventSize bytes of one event plus the chunk being written; a
// Reader at most MaxEventSize plus its 32 KiB read buffer. Every other error
// is final and sticky: io.ErrUnexpectedEOF for a stream cut inside an
// event (Size is the number of bytes dropped), a read error, or
// io.ErrNoProgress for a reader that returned no data and no error 100
// times in a row, each wrapped in a *SyntaxError. Frames completed before an
// error are always returned first.
//
// # Offsets and lifetimes
//
// Offsets are 0-based byte offsets in the stream, counting every byte
// received, a byte order mark included: [Frame].Offset is where the
// frame's first non-comment line starts, SyntaxError.Offset where the event
// concerned starts, and InputOffset how far the input has been consumed.
// Frame.Seq counts dispatched frames from 1.
//
// A Frame's slices, and LastEventID's, alias the Lexer's buffers and are
// valid only until the next call to Write, Fill, FillLine, Next, Close or
// Reset (Next or Reset on a Reader), like bufio.Scanner's Bytes; the
// Lexer's own Frame keeps its ID valid longer, until the next frame (see
// [Frame].ID). [Frame.Clone] makes a copy that stays valid. Once its
// buffers have grown, a Lexer or Reader allocates nothing per frame.
//
// A Lexer or Reader must not be used from multiple goroutines at once;
// distinct ones are independent.
//
// # Build tags
//
// On amd64 with AVX2 the Lexer searches lines with assembly; elsewhere, or
// built with the purego tag, with portable Go. Both give the same frames.
package sse
