// Package utf8buf cuts a stream of text deltas on character boundaries.
//
// An agent streams text as a series of deltas, and a delta may end in the
// middle of a character: inside a multi-byte UTF-8 sequence, or (when the
// JSON escaped it as \ud83d\ude00 and the split fell between the two
// escapes) between the two halves of a UTF-16 surrogate pair. The decoder in
// package parser unescapes each delta byte-exactly and encodes a lone
// surrogate escape as its 3-byte generalized UTF-8 (WTF-8) form: a high
// surrogate U+D800–U+DBFF as 0xED 0xA0–0xAF 0x80–0xBF, a low surrogate
// U+DC00–U+DFFF as 0xED 0xB0–0xBF 0x80–0xBF. This package puts such
// pieces back together:
//
//   - an incomplete UTF-8 sequence at the end of a delta is held back until
//     the next delta completes it;
//   - a WTF-8 high surrogate immediately followed by a WTF-8 low surrogate,
//     whether in one delta or across any split, becomes the 4-byte UTF-8
//     sequence of the supplementary code point (6 bytes become 4);
//   - a high surrogate at the end of a delta is held back, since a low
//     surrogate starting the next one may join it.
//
// Nothing else changes. Bytes that can never become valid (a bad lead byte,
// a stray continuation byte, the overlong leads 0xC0 and 0xC1, 0xF5–0xFF, a
// sequence whose second byte is out of range, a truncated sequence followed
// by a byte that cannot continue it) are handed on at once, as they are; a
// high surrogate not followed by a low one, and a lone low surrogate, are
// handed on as their 3 bytes. No byte is dropped, and nothing is held
// forever: at most [MaxHeld] (5) bytes, a high surrogate plus the first 2
// bytes of a possible low surrogate; at most 3 when no high surrogate is
// involved. The output is the same however the input is chunked. For
// display, [AppendDisplay] shows each ill-formed part as U+FFFD; keep the
// stored text as it is.
//
// # Streaming with a Buffer
//
// A [Buffer] carries the held bytes from one write to the next. Its zero
// value is ready to use. The allowed call order is
//
//	Write* Flush { Reset Write* Flush }
//
// where AppendWrite may stand for any Write. Each Write returns a view of
// the complete characters so far; Flush returns what is left at the end of
// the text (an incomplete sequence or an unpaired high surrogate, as is):
//
//	var b utf8buf.Buffer
//	for _, delta := range deltas {
//		show(b.Write(delta)) // whole characters only
//	}
//	show(b.Flush())
//
// A view returned by Write or Flush is valid only until the next call on the
// Buffer; [Buffer.AppendWrite] appends to a slice of the caller's instead.
// Write allocates nothing in steady state: it returns a slice of its
// argument when nothing is held and no pair needs joining, and otherwise
// reuses a scratch buffer as large as the largest such write.
//
// # Keeping the whole text
//
// A consumer that keeps each text in full (the artifact reducer) needs no
// Buffer: the text itself holds the incomplete tail. [Append] appends a
// delta, joining a surrogate pair split at the seam in place, so each delta
// is copied once; [CompletePrefix] tells how far the text ends on a complete
// character, so the live part can be handed on in whole characters:
//
//	text = utf8buf.Append(text, delta)
//	c := utf8buf.CompletePrefix(text)
//	emit(text[emitted:c]) // the new whole characters
//	emitted = c
//	// at the close: emit(text[emitted:])
//
// Append rewrites only bytes at or after the previous CompletePrefix, so
// what was emitted never changes, and CompletePrefix reads at most the last
// [MaxHeld] bytes, so both cost O(len(delta)) whatever the text's length.
// The stored text after any sequence of Append calls equals the
// concatenation of the deltas with surrogate pairs joined, and the emitted
// parts equal what a Buffer fed the same deltas returns.
//
// The functions are safe for concurrent use on distinct slices. A Buffer
// must not be used from multiple goroutines at once.
package utf8buf
