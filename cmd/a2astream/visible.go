package main

// This file is structured as: how a terminal shows what an agent sent
// (appendVisible, one rule per character), the screen of one output
// stream that applies it or not and the flag that chooses, the same for
// the JSON outputs (jsonScreen), then where the escape sequences of a text
// lie, so that a footnote marker is never put inside one.

import (
	"io"
	"slices"
	"unicode/utf8"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/internal/errtext"
	"github.com/a2astream/a2astream/utf8buf"
)

// appendVisible appends p to dst as a terminal must show an agent's text,
// which is untrusted, and returns the extended slice. A control character
// other than newline and tab is shown as a visible sign: a C0 character
// and DEL as its Unicode control picture (ESC as ␛, BEL as ␇, CR as ␍), a
// C1 character (U+0080 to U+009F) as a Go escape (CSI as \u009b). So is a
// bidirectional formatting character (errtext.Bidi: RLO as \u202e, RLM as
// \u200f), which would make a terminal that lays text out by the
// bidirectional algorithm show it in another order than it was sent.
// Zero-width and other invisible characters (U+200B to U+200D, U+2060,
// U+FEFF, U+00AD) are text: they reorder nothing, and the joiners are part
// of emoji and of scripts such as Persian and Devanagari. Each maximal
// subpart of ill-formed UTF-8 is one U+FFFD, as utf8buf.AppendDisplay
// writes it. Everything else is appended unchanged. The rule is per
// character, with no state: a text may be shown in pieces, as long as each
// ends on a whole character, as the updates of a reconstruct.Stream do.
func appendVisible(dst, p []byte) []byte {
	for i := 0; i < len(p); {
		j := i
		for j < len(p) && plain(p[j]) {
			j++
		}
		dst = append(dst, p[i:j]...)
		if i = j; i == len(p) {
			break
		}
		if c := p[i]; c < utf8.RuneSelf {
			dst = appendPicture(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, "\uFFFD"...)
			size = max(utf8buf.ReplacedLen(p[i:]), 1)
		case r <= 0x9f || errtext.Bidi(r):
			dst = appendUEscape(dst, r)
		default:
			dst = append(dst, p[i:i+size]...)
		}
		i += size
	}
	return dst
}

// plain reports whether the ASCII byte c is shown as it is: a printable
// character, a newline or a tab.
func plain(c byte) bool { return c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' }

// appendPicture appends the Unicode control picture of the C0 character
// or DEL c: U+2400 to U+241F, and U+2421 for DEL.
func appendPicture(dst []byte, c byte) []byte {
	if c == 0x7f {
		return utf8.AppendRune(dst, 0x2421)
	}
	return utf8.AppendRune(dst, 0x2400+rune(c))
}

func hexDigit(n byte) byte { return "0123456789abcdef"[n] }

// screen is how one output stream shows what the agent sent: with its
// control characters made visible (escape, see appendVisible), or as
// sent. The tool's own styles are written around what it returns.
type screen struct{ escape bool }

// bytes returns p as the stream shows it: p itself, or a new slice.
func (s screen) bytes(p []byte) []byte {
	if !s.escape {
		return p
	}
	return appendVisible(nil, p)
}

// str returns x as the stream shows it.
func (s screen) str(x string) string {
	if !s.escape {
		return x
	}
	return string(appendVisible(nil, []byte(x)))
}

// controls is the rule the flags choose for the control characters the
// agent sent: shown visibly on a terminal only (the default), passed to
// a terminal as sent (--raw), or shown visibly everywhere (--visible).
type controls int

const (
	controlsAuto controls = iota
	controlsRaw
	controlsVisible
)

// screen returns the screen of an output stream that is a terminal or
// not.
func (c controls) screen(terminal bool) screen {
	switch c {
	case controlsRaw:
		return screen{}
	case controlsVisible:
		return screen{escape: true}
	}
	return screen{escape: terminal}
}

// jsonScreen writes the JSON of --json, --frames and --events to w, and
// when escape is set, as a terminal must receive it: the C1 characters
// (U+0080 to U+009F), DEL and the bidirectional formatting characters
// (errtext.Bidi), which JSON strings may hold as they are, are written as
// \u escapes, which stand for the same characters, so the JSON is the same;
// the JSON writers already escape C0 characters and replace ill-formed
// UTF-8. A character cut by the end of a Write (at most 3 bytes) is held
// until the next Write or Flush.
type jsonScreen struct {
	w      io.Writer
	escape bool
	held   []byte // the start of a character that ended the last Write
	in     []byte // held and the next Write's bytes, joined
	buf    []byte // what the last Write wrote
}

// Write writes p, escaped when j.escape is set.
func (j *jsonScreen) Write(p []byte) (int, error) {
	if !j.escape || len(p) == 0 {
		return j.w.Write(p)
	}
	in := p
	if len(j.held) > 0 {
		j.in = append(append(j.in[:0], j.held...), p...)
		in, j.held = j.in, j.held[:0]
	}
	b := j.buf[:0]
	for i := 0; i < len(in); {
		c := in[i]
		if c < utf8.RuneSelf {
			if c == 0x7f {
				b = appendUEscape(b, rune(c))
			} else {
				b = append(b, c)
			}
			i++
			continue
		}
		if !utf8.FullRune(in[i:]) {
			j.held = append(j.held, in[i:]...)
			break
		}
		r, size := utf8.DecodeRune(in[i:])
		if r >= 0x80 && r <= 0x9f || errtext.Bidi(r) {
			b = appendUEscape(b, r)
		} else {
			b = append(b, in[i:i+size]...)
		}
		i += size
	}
	j.buf = b
	if _, err := j.w.Write(b); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a held character start.
func (j *jsonScreen) Flush() error {
	if len(j.held) == 0 {
		return nil
	}
	_, err := j.w.Write(j.held)
	j.held = j.held[:0]
	return err
}

// appendUEscape appends the JSON and Go escape \uXXXX of r (below
// U+10000), with lower-case hexadecimal digits.
func appendUEscape(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u', hexDigit(byte(r>>12&15)), hexDigit(byte(r>>8&15)), hexDigit(byte(r>>4&15)), hexDigit(byte(r&15)))
}

// outsideSequences returns cites with every ByteOffset that falls inside
// an escape sequence of text moved to the end of that sequence, so that a
// marker put there is shown, and leaves the sequence whole; cites itself
// when none does. Each byte of text is looked at once.
func outsideSequences(text []byte, cites []citations.Resolved) []citations.Resolved {
	order := make([]int, len(cites))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cites[a].ByteOffset - cites[b].ByteOffset })
	out, copied := cites, false
	start, end := nextSequence(text, 0)
	for _, i := range order {
		at := cites[i].ByteOffset
		for start < len(text) && end <= at {
			start, end = nextSequence(text, end)
		}
		if start < at && at < end {
			if !copied {
				out, copied = slices.Clone(cites), true
			}
			out[i].ByteOffset = end
		}
	}
	return out
}

// nextSequence returns where the first escape sequence of text at or
// after from starts and ends (start < end); len(text) for both when there
// is none.
func nextSequence(text []byte, from int) (start, end int) {
	for i := from; i < len(text); i++ {
		if text[i] == 0x1b || text[i] == 0xc2 && i+1 < len(text) && text[i+1] >= 0x80 && text[i+1] <= 0x9f {
			return i, sequenceEnd(text, i)
		}
	}
	return len(text), len(text)
}

// sequenceEnd returns the end of the escape sequence that starts at
// text[i], an ESC or a C1 character in UTF-8, as a terminal reads it
// (ECMA-48): a control sequence (ESC [ or CSI) runs to its final byte; a
// control string (OSC, DCS, SOS, PM, APC, by ESC or C1) to its terminator
// (BEL, ESC \ or ST; CAN or SUB cancel it, another ESC ends it); any other
// ESC takes its intermediate bytes and final byte; any other C1 character
// is one. A sequence cut off by a byte that cannot continue it ends before
// that byte; one cut off by the end of text ends there.
func sequenceEnd(text []byte, i int) int {
	if text[i] == 0xc2 {
		switch text[i+1] {
		case 0x9b:
			return csiEnd(text, i+2)
		case 0x90, 0x98, 0x9d, 0x9e, 0x9f:
			return stringEnd(text, i+2)
		}
		return i + 2
	}
	j := i + 1
	if j == len(text) {
		return j
	}
	switch c := text[j]; {
	case c == '[':
		return csiEnd(text, j+1)
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		return stringEnd(text, j+1)
	case c >= 0x20 && c <= 0x2f:
		for j < len(text) && text[j] >= 0x20 && text[j] <= 0x2f {
			j++
		}
		if j < len(text) && text[j] >= 0x30 && text[j] <= 0x7e {
			j++
		}
		return j
	case c >= 0x30 && c <= 0x7e:
		return j + 1
	}
	return j
}

// csiEnd returns the end of a control sequence whose parameters start at
// text[j]: past its final byte (0x40 to 0x7E), after parameter and
// intermediate bytes (0x20 to 0x3F).
func csiEnd(text []byte, j int) int {
	for j < len(text) && text[j] >= 0x20 && text[j] <= 0x3f {
		j++
	}
	if j < len(text) && text[j] >= 0x40 && text[j] <= 0x7e {
		j++
	}
	return j
}

// stringEnd returns the end of a control string whose content starts at
// text[j]: past BEL, ESC \, ST (U+009C), CAN or SUB, or at an ESC that
// starts another sequence, or at the end of text.
func stringEnd(text []byte, j int) int {
	for ; j < len(text); j++ {
		switch text[j] {
		case 0x07, 0x18, 0x1a:
			return j + 1
		case 0x1b:
			if j+1 < len(text) && text[j+1] == '\\' {
				return j + 2
			}
			return j
		case 0xc2:
			if j+1 < len(text) && text[j+1] == 0x9c {
				return j + 2
			}
		}
	}
	return j
}
