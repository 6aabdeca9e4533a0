package sse

import (
	"bytes"
	"strconv"
)

// Position says where something happened in a stream: the byte, the frame
// and the SSE id in force. The errors of this package and of the packages
// above it (the decoder's, the reducer's) embed it, so that e.Offset, e.Seq
// and e.ID read the same everywhere and every message says where in the same
// words.
type Position struct {
	// Offset is a 0-based byte offset in the stream, counting every byte
	// received; -1 when not known. What it points at (the start of a frame,
	// of an unfinished event) is documented by the type that embeds it.
	Offset int64
	// Seq is the 1-based ordinal of a frame ([Frame.Seq]); 0 when none.
	Seq int64
	// ID is the SSE last event ID in force ([Frame.ID]), an owned copy; nil
	// when none.
	ID []byte
}

// Position returns where f is: its offset, its ordinal and a copy of its id
// (nil when it has none), which stays valid after the lexer moves on.
func (f *Frame) Position() Position {
	return Position{Offset: f.Offset, Seq: f.Seq, ID: cloneID(f.ID)}
}

// cloneID returns a copy of id, or nil when it is empty: the form a
// Position holds.
func cloneID(id []byte) []byte {
	if len(id) == 0 {
		return nil
	}
	return bytes.Clone(id)
}

// Append appends the position as the error messages of every layer write
// it, each part only when it is known, separated by spaces:
//
//	frame 3 (id "ev-7") at byte 1024
func (p Position) Append(b []byte) []byte {
	start := len(b)
	sep := func() {
		if len(b) > start {
			b = append(b, ' ')
		}
	}
	if p.Seq > 0 {
		b = append(b, "frame "...)
		b = strconv.AppendInt(b, p.Seq, 10)
	}
	if len(p.ID) > 0 {
		sep()
		b = append(b, "(id "...)
		b = strconv.AppendQuote(b, string(p.ID))
		b = append(b, ')')
	}
	if p.Offset >= 0 {
		sep()
		b = append(b, "at byte "...)
		b = strconv.AppendInt(b, p.Offset, 10)
	}
	return b
}

// String returns the position as [Position.Append] writes it.
func (p Position) String() string { return string(p.Append(nil)) }
