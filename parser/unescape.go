package parser

import "bytes"

// appendUnescaped appends to dst the bytes that the JSON string contents raw
// (the bytes between the quotes, escapes still in place) stand for, and
// returns the extended buffer. The rules are byte-exact:
//
//   - bytes other than '\\' pass through unchanged, invalid UTF-8 included
//     (a text delta may end in the middle of a rune);
//   - the two-character escapes and \uXXXX give their UTF-8 encoding;
//   - a high surrogate escape immediately followed by a low surrogate escape
//     gives the 4-byte UTF-8 encoding of the pair;
//   - a lone surrogate escape gives its 3-byte generalized UTF-8 (WTF-8)
//     form: 0xED 0xA0–0xAF 0x80–0xBF for a high surrogate, 0xED 0xB0–0xBF
//     0x80–0xBF for a low one. Package utf8buf joins a high surrogate in
//     this form at the end of one delta with a low one at the start of the
//     next into the 4-byte UTF-8 of the pair.
//
// raw comes from a string that internal/jsonx accepted, so it holds no raw
// control character (they would be copied). On an invalid escape (\q, a \u
// with fewer than four hex digits), which jsonx refuses first, it returns
// the position in raw of the offending backslash, and -1 otherwise.
func appendUnescaped(dst, raw []byte) ([]byte, int) {
	for i := 0; i < len(raw); {
		if raw[i] != '\\' {
			// The run up to the next escape, found with IndexByte (a
			// byte loop here was half the time of decoding long texts
			// with escapes).
			n := bytes.IndexByte(raw[i:], '\\')
			if n < 0 {
				n = len(raw) - i
			}
			dst = append(dst, raw[i:i+n]...)
			i += n
			continue
		}
		if i+1 >= len(raw) {
			return dst, i
		}
		switch raw[i+1] {
		case '"':
			dst = append(dst, '"')
		case '\\':
			dst = append(dst, '\\')
		case '/':
			dst = append(dst, '/')
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := hex4(raw, i+2)
			if !ok {
				return dst, i
			}
			i += 6
			if r >= 0xD800 && r < 0xDC00 {
				// A high surrogate: pair it with a low one that follows
				// at once, or keep it alone in WTF-8 form.
				if r2, ok := hex4(raw, i+2); ok && raw[i] == '\\' && raw[i+1] == 'u' && r2 >= 0xDC00 && r2 < 0xE000 {
					cp := 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00)
					dst = append(dst, 0xF0|byte(cp>>18), 0x80|byte(cp>>12)&0x3F, 0x80|byte(cp>>6)&0x3F, 0x80|byte(cp)&0x3F)
					i += 6
					continue
				}
			}
			dst = appendUTF8Generalized(dst, r)
			continue
		default:
			return dst, i
		}
		i += 2
	}
	return dst, -1
}

// hex4 reads the four hex digits at raw[i:i+4].
func hex4(raw []byte, i int) (rune, bool) {
	if i < 0 || i+4 > len(raw) {
		return 0, false
	}
	var r rune
	for _, c := range raw[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// appendUTF8Generalized appends the UTF-8 form of r ≤ 0xFFFF, surrogates
// included (which utf8.AppendRune would replace with U+FFFD).
func appendUTF8Generalized(dst []byte, r rune) []byte {
	switch {
	case r < 0x80:
		return append(dst, byte(r))
	case r < 0x800:
		return append(dst, 0xC0|byte(r>>6), 0x80|byte(r)&0x3F)
	}
	return append(dst, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
}
