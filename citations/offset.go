package citations

import (
	"unicode/utf8"

	"github.com/a2astream/a2astream/utf8buf"
)

// This file converts offsets between bytes, code points and UTF-16 code
// units. Text is decoded the way the WHATWG Encoding Standard's UTF-8
// decoder does (what JavaScript's TextDecoder and browsers use): each
// maximal subpart of an ill-formed sequence becomes one U+FFFD. So an
// invalid subpart counts as its own length in bytes, one code point and one
// UTF-16 unit, and a JavaScript caller's string lines up with RuneIndex and
// UTF16Index even when the text holds invalid bytes. The same rule
// (utf8buf.ReplacedLen) writes such text into the JSON result document of
// the command-line tool and the WebAssembly module, so the offsets index
// its strings too.

// step returns the length in bytes of the character (or of the maximal
// invalid subpart, as utf8buf.ReplacedLen measures it) that starts at
// text[i], and its length in UTF-16 units. i must be < len(text).
func step(text []byte, i int) (n, u16 int) {
	if text[i] < utf8.RuneSelf {
		return 1, 1
	}
	r, size := utf8.DecodeRune(text[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		return utf8buf.ReplacedLen(text[i:]), 1
	case size == 4:
		return 4, 2
	}
	return size, 1
}

// in returns p's coordinate in unit u.
func (p TextPosition) in(u Unit) int {
	switch u {
	case Bytes:
		return p.ByteOffset
	case UTF16:
		return p.UTF16Index
	}
	return p.RuneIndex
}

// walker advances over a text one character at a time and never moves
// backwards, so a run of non-decreasing offsets costs one pass.
type walker struct {
	text []byte
	pos  TextPosition // 0 ≤ pos.ByteOffset ≤ len(text), on a character boundary
}

// seek moves to offset off in unit u, or reports why it cannot: the
// offset is past the end, or inside a character. off must not be below
// the walker's current position in u; the walker stays at the last
// boundary before off on failure.
func (w *walker) seek(off int, u Unit) (TextPosition, error) {
	if off < 0 {
		return TextPosition{}, ErrNegativeOffset
	}
	for w.pos.in(u) < off {
		if w.pos.ByteOffset >= len(w.text) {
			return TextPosition{}, ErrOffsetOutOfRange
		}
		// Fast path over ASCII, where every unit agrees.
		i, p := w.pos.ByteOffset, w.pos
		limit := len(w.text)
		if rem := off - p.in(u); rem < limit-i {
			limit = i + rem
		}
		for i < limit && w.text[i] < 0x80 {
			i++
		}
		if d := i - p.ByteOffset; d > 0 {
			w.pos = TextPosition{p.ByteOffset + d, p.RuneIndex + d, p.UTF16Index + d}
			continue
		}
		n, u16 := step(w.text, w.pos.ByteOffset)
		next := TextPosition{w.pos.ByteOffset + n, w.pos.RuneIndex + 1, w.pos.UTF16Index + u16}
		if next.in(u) > off {
			return TextPosition{}, ErrOffsetSplitsChar
		}
		w.pos = next
	}
	return w.pos, nil
}

// Convert returns the position in all three units of offset off, counted
// in unit u from the start of text. It fails with ErrNegativeOffset,
// ErrOffsetOutOfRange (off past the end; the end itself is valid) or
// ErrOffsetSplitsChar (off inside a character in unit u). It reads text
// once up to the offset; to place many offsets, sort them and use
// [Resolver], which walks the text once for all of them.
func Convert(text []byte, off int, u Unit) (TextPosition, error) {
	w := walker{text: text}
	return w.seek(off, u)
}
