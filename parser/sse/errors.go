package sse

import (
	"errors"
	"strconv"
)

// The errors that this package reports, usually wrapped in a *[SyntaxError]
// that says where they happened. Match them with errors.Is.
//
// A stream cut in the middle of an event is reported with
// io.ErrUnexpectedEOF as the wrapped error, and a reader that keeps returning
// no data and no error with io.ErrNoProgress.
var (
	// ErrEventTooLarge means one event exceeded Options.MaxEventSize. It is
	// reported as soon as the event passes the limit; the event is skipped
	// to its end and reading continues with the next one.
	ErrEventTooLarge = errors.New("sse: event exceeds MaxEventSize")
	// ErrBufferFull is returned by Lexer.Write, with nothing written, when
	// more than MaxEventSize bytes are already buffered unread: call Next
	// until it returns false, then write again.
	ErrBufferFull = errors.New("sse: lexer buffer full, call Next before Write")
	// ErrWriteAfterClose is returned by Lexer.Write after Close.
	ErrWriteAfterClose = errors.New("sse: Write after Close")
	// ErrInvalidRead means an io.Reader returned a negative count or one
	// larger than the buffer it was given.
	ErrInvalidRead = errors.New("sse: io.Reader returned an invalid count")
)

// SyntaxError reports a stream that the Lexer or Reader could not accept
// (an oversized event, a stream cut inside an event) or could not read, and
// where it was in the stream. The first error of a Lexer or Reader is
// sticky, except ErrEventTooLarge, after which reading continues with the
// next event.
type SyntaxError struct {
	// Position says where: Offset is the 0-based byte offset in the stream
	// of the start of the unfinished or oversized event concerned, or, when
	// no event was under way, of the first byte not yet consumed; Seq is the
	// 1-based ordinal of the last frame dispatched before the error (0 when
	// none was); ID is the SSE last event ID in force when the error
	// happened (nil when none).
	Position
	// Size is the number of bytes concerned: those dropped by a cut stream,
	// or, for an oversized event, MaxEventSize+1 (it is reported when it
	// passes the limit, before its length is known); 0 when it does not
	// apply.
	Size int64
	// Err is the underlying error: ErrEventTooLarge, io.ErrUnexpectedEOF,
	// io.ErrNoProgress, ErrInvalidRead or an error of the io.Reader.
	Err error
}

// prefix begins the text of every error of the package.
const prefix = "sse: "

// Error formats the error with every position that is known, "after" the
// frame since Seq is the last frame dispatched before it:
//
//	sse: after frame 3 (id "ev-7") at byte 1024, 312 bytes: unexpected EOF
func (e *SyntaxError) Error() string {
	b := make([]byte, 0, 96)
	b = append(b, prefix...)
	if e.Seq > 0 {
		b = append(b, "after "...)
	}
	b = e.Position.Append(b)
	if e.Size > 0 {
		b = append(b, ", "...)
		b = strconv.AppendInt(b, e.Size, 10)
		b = append(b, " byte"...)
		if e.Size != 1 {
			b = append(b, 's')
		}
	}
	b = append(b, ": "...)
	if e.Err != nil {
		// The package is named once: "sse: at byte 9: event exceeds
		// MaxEventSize", not "…: sse: event exceeds MaxEventSize".
		msg := e.Err.Error()
		if len(msg) > len(prefix) && msg[:len(prefix)] == prefix {
			msg = msg[len(prefix):]
		}
		b = append(b, msg...)
	} else {
		b = append(b, "syntax error"...)
	}
	return string(b)
}

// Unwrap returns the underlying error, so that errors.Is and errors.As see
// it.
func (e *SyntaxError) Unwrap() error { return e.Err }
