package parser

import (
	"errors"
	"strconv"

	"github.com/a2astream/a2astream/internal/errtext"
	"github.com/a2astream/a2astream/parser/sse"
)

// The errors that the Decoder and the document decoders report, wrapped in
// a *[DecodeError] that says where they happened. Match them with errors.Is.
// The lexer's errors are package sse's.
var (
	// ErrInvalidJSON means a frame's data or a document is not valid JSON
	// (DecodeError.JSONOffset says where), or a JSON string holds an invalid escape
	// or a raw control character.
	ErrInvalidJSON = errors.New("parser: invalid JSON")
	// ErrTooDeep means JSON nesting exceeded the decoder's depth limit of
	// 300 levels, every value counting as one.
	ErrTooDeep = errors.New("parser: JSON nested too deeply")
	// ErrFieldType means a member has the wrong JSON type, such as a number
	// where the schema wants a string (DecodeError.JSONPointer names it).
	ErrFieldType = errors.New("parser: wrong JSON type for field")
	// ErrFieldValue means a member has the right JSON type but a value the
	// schema does not allow: an unknown enum name, bad base64, a non-integer
	// token count.
	ErrFieldValue = errors.New("parser: invalid value for field")
	// ErrNoPayload means a stream response has none of task, message,
	// statusUpdate, artifactUpdate (nor an error, nor a single unknown key),
	// a JSON-RPC response has neither result nor error, a part has none of
	// text, raw, url and data, or an error body has no error member.
	ErrNoPayload = errors.New("parser: no payload in stream response")
	// ErrTwoPayloads means a stream response or JSON-RPC response has more
	// than one payload key, or a part has more than one of text, raw, url
	// and data.
	ErrTwoPayloads = errors.New("parser: more than one payload")
	// ErrLegacyShape means the data has a shape of A2A 0.3 that this A2A
	// 1.0 decoder does not read and whose text it would lose: a "kind"
	// discriminator, a "file" part, lowercase states or roles, a message's
	// parts under "content", a status message under "update", a message
	// payload under "msg", a "final" flag beside the payload. (A "final"
	// inside a status update is ignored: StatusUpdate.LegacyFinal.)
	ErrLegacyShape = errors.New("parser: A2A 0.3 shape, not A2A 1.0")
	// ErrInvalidID means an id is not a UUIDv7, bare or with the prefix of
	// its kind.
	ErrInvalidID = errors.New("parser: invalid id")
)

// DecodeError reports frame data or a document that the package could not
// decode, and where: the frame in the stream (Offset, in bytes of the
// stream), the byte in its data (JSONOffset, in bytes of the frame's JSON
// data) and the JSON member (JSONPointer), as jsontext's SyntacticError
// gives ByteOffset and JSONPointer.
type DecodeError struct {
	// Position says which frame: Offset is the 0-based byte offset in the
	// stream of its start, Seq its 1-based ordinal, ID the SSE last event
	// ID in force for it (nil when none); all zero for a document outside a
	// stream.
	sse.Position
	// JSONOffset is the 0-based byte offset inside the frame's data (the
	// JSON payload, or the document) where the problem was found; -1 when
	// it is not known. Offset+JSONOffset is not a stream offset: the data
	// is the frame's "data" lines joined, without their field names.
	JSONOffset int
	// JSONPointer is the RFC 6901 JSON Pointer of the member concerned,
	// such as "/artifactUpdate/artifact/parts/0/text" (a '~' in a name is
	// "~0", a '/' "~1"); "" (the whole payload) when no member applies.
	// Past 12 levels of nesting it points at the ancestor 12 levels down.
	JSONPointer string
	// Err is the underlying error, one of the package's sentinels.
	Err error
}

// Error formats the error with every position that is known:
//
//	parser: frame 3 (id "ev-7") at byte 1024, member /statusUpdate/status/state, data byte 40: invalid value for field
//
// The wrapped error's text follows without a "parser: " of its own, so
// that the text names the package once. The pointer, which may hold a
// member name the agent chose, is written as errtext.AppendText writes it.
func (e *DecodeError) Error() string {
	b := make([]byte, 0, 96)
	b = append(b, "parser: "...)
	b = e.Position.Append(b)
	if e.JSONPointer != "" {
		b = append(b, ", member "...)
		b = errtext.AppendText(b, e.JSONPointer)
	}
	if e.JSONOffset >= 0 {
		b = append(b, ", data byte "...)
		b = strconv.AppendInt(b, int64(e.JSONOffset), 10)
	}
	b = append(b, ": "...)
	if e.Err == nil {
		return string(append(b, "decode error"...))
	}
	return string(errtext.AppendCause(b, "parser", e.Err))
}

// Unwrap returns the underlying error, so that errors.Is and errors.As see
// it.
func (e *DecodeError) Unwrap() error { return e.Err }
