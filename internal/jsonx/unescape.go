package jsonx

// This file is the one JSON string unescaper of the module: AppendUnescaped
// for whole strings and unescapeAt, the escape decoder it shares with
// KeyEqual. The policy for lone surrogates is the caller's.

import (
	"bytes"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// SurrogatePolicy says what [AppendUnescaped] writes for a \u escape of a
// lone surrogate: a high surrogate (D800–DBFF) not followed at once by a
// \u escape of a low one (DC00–DFFF), or a low one not preceded by a high
// one. A pair always gives the 4-byte UTF-8 of the character it encodes.
type SurrogatePolicy uint8

// The policies for lone surrogates.
const (
	// SurrogateReplace writes a lone surrogate as U+FFFD (EF BF BD), so
	// that the text of valid UTF-8 input is valid UTF-8: the policy of
	// keys, JSON Pointer tokens and cited values.
	SurrogateReplace SurrogatePolicy = iota
	// SurrogateWTF8 writes a lone surrogate in its 3-byte generalized
	// UTF-8 (WTF-8) form: ED A0–AF 80–BF for a high surrogate, ED B0–BF
	// 80–BF for a low one. It is the decoder's policy for texts, as a
	// delta may end between the two halves of a pair: package utf8buf
	// joins a high surrogate in this form at the end of one delta with a
	// low one at the start of the next into the 4-byte UTF-8 of the pair.
	SurrogateWTF8
)

// AppendUnescaped appends to dst the text that the raw JSON string
// contents s (the bytes between the quotes, escapes in place) stand for,
// and returns the extended slice. Bytes other than escapes are copied as
// they are, invalid UTF-8 and control characters included (a checked
// document holds no control character; a text delta may end in the middle
// of a character); the two-character escapes and \uXXXX give their UTF-8
// encoding, a surrogate pair the 4-byte UTF-8 of its character, and a
// lone surrogate what lone says.
//
// bad is the index in s of the backslash of the first invalid escape (an
// unknown one such as \q, a \u with fewer than four hex digits, a
// backslash at the end), and -1 when there is none; out then holds what
// was decoded before it.
func AppendUnescaped(dst, s []byte, lone SurrogatePolicy) (out []byte, bad int) {
	// The text is never longer than its escaped form (\uXXXX gives at
	// most 3 bytes, a pair of them 4), so the room is made once and the
	// runs and characters are written in place, without append's checks.
	n := len(dst)
	dst = slices.Grow(dst, len(s))[:n+len(s)]
	for i := 0; i < len(s); {
		// The run up to the next escape, found with IndexByte (a byte
		// loop here was half the time of decoding long texts with
		// escapes).
		k := bytes.IndexByte(s[i:], '\\')
		if k < 0 {
			n += copy(dst[n:], s[i:])
			break
		}
		n += copy(dst[n:], s[i:i+k])
		i += k
		var ok bool
		if n, i, ok = unescapeInto(dst, n, s, i, lone); !ok {
			return dst[:n], i
		}
	}
	return dst[:n], -1
}

// unescapeInto decodes the escape whose backslash is at s[i] into dst[n:],
// which has room for it, and returns the index past what it wrote and the
// index in s past the escape; ok is false, with i unchanged, for an unknown
// or truncated escape. The usual escapes are decoded inline: a
// two-character one, or a \u one of a character outside the surrogates.
func unescapeInto(dst []byte, n int, s []byte, i int, lone SurrogatePolicy) (int, int, bool) {
	if i+1 < len(s) {
		if c := unescapeShort[s[i+1]]; c != 0 {
			dst[n] = c
			return n + 1, i + 2, true
		}
		if s[i+1] == 'u' && i+6 <= len(s) {
			r := rune(hexVal[s[i+2]])<<12 | rune(hexVal[s[i+3]])<<8 | rune(hexVal[s[i+4]])<<4 | rune(hexVal[s[i+5]])
			if r >= 0 && (r < 0xD800 || r > 0xDFFF) {
				return n + utf8.EncodeRune(dst[n:], r), i + 6, true
			}
		}
	}
	r, next, ok := unescapeAt(s, i)
	if !ok {
		return n, i, false
	}
	return len(appendRune(dst[:n], r, lone)), next, true
}

// unescapeShort maps the letter of a two-character escape to the byte it
// stands for, and every other byte to 0.
var unescapeShort = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// hexVal maps a hex digit to its value and every other byte to -1 << 16,
// which makes any rune built from it negative.
var hexVal = func() (t [256]int32) {
	for c := range t {
		v, ok := unhex(byte(c))
		t[c] = int32(v)
		if !ok {
			t[c] = -1 << 16
		}
	}
	return t
}()

// unescapeAt decodes the escape sequence that starts with the backslash at
// s[i] and returns the rune and the index past the sequence; ok is false
// for an unknown or truncated escape. A \u escape of a high surrogate
// followed at once by one of a low surrogate gives the character of the
// pair; a lone surrogate is returned as it is (0xD800–0xDFFF), for
// appendRune to write by a policy.
func unescapeAt(s []byte, i int) (r rune, next int, ok bool) {
	if i+1 >= len(s) {
		return 0, 0, false
	}
	switch s[i+1] {
	case '"', '\\', '/':
		return rune(s[i+1]), i + 2, true
	case 'b':
		return '\b', i + 2, true
	case 'f':
		return '\f', i + 2, true
	case 'n':
		return '\n', i + 2, true
	case 'r':
		return '\r', i + 2, true
	case 't':
		return '\t', i + 2, true
	case 'u':
		r, ok := hex4(s, i+2)
		if !ok {
			return 0, 0, false
		}
		next = i + 6
		if r >= 0xD800 && r < 0xDC00 && next+1 < len(s) && s[next] == '\\' && s[next+1] == 'u' {
			if r2, ok := hex4(s, next+2); ok {
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					return dec, next + 6, true
				}
			}
		}
		return r, next, true
	}
	return 0, 0, false
}

// appendRune appends the UTF-8 of r, a lone surrogate as lone says.
func appendRune(dst []byte, r rune, lone SurrogatePolicy) []byte {
	if r < utf8.RuneSelf {
		return append(dst, byte(r))
	}
	if lone == SurrogateWTF8 && utf16.IsSurrogate(r) {
		return append(dst, 0xED, 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
	}
	// utf8.AppendRune writes U+FFFD for a surrogate.
	return utf8.AppendRune(dst, r)
}

// hex4 reads the four hex digits at s[i:i+4].
func hex4(s []byte, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range s[i : i+4] {
		v, ok := unhex(c)
		if !ok {
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, true
}

// HasEscape reports whether raw string content s contains an escape.
func HasEscape(s []byte) bool {
	return bytes.IndexByte(s, '\\') >= 0
}
