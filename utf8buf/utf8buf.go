package utf8buf

// This file is structured as: the sequence classifier (generalized UTF-8,
// which accepts the 3-byte encodings of surrogates), the two pure functions
// CompletePrefix and Append with the in-place pair joiner they share, the
// Buffer type, and the display helper AppendDisplay.

import (
	"bytes"
	"unicode/utf8"
)

// MaxHeld is the largest number of bytes a [Buffer] holds back between
// calls, and the largest len(p)-[CompletePrefix](p) can be. The worst case is
// a complete WTF-8 high surrogate (3 bytes) followed by the first 2 bytes of
// what may become a WTF-8 low surrogate (0xED 0xB0–0xBF). Without a trailing
// high surrogate at most 3 bytes are held: an incomplete 4-byte sequence.
const MaxHeld = 5

// Byte ranges of the WTF-8 encodings of surrogates: 0xED, then the second
// byte, then any continuation byte.
const (
	surrogateLead = 0xED
	highLo        = 0xA0 // high surrogates U+D800–U+DBFF: second byte 0xA0–0xAF
	highHi        = 0xAF
	lowLo         = 0xB0 // low surrogates U+DC00–U+DFFF: second byte 0xB0–0xBF
	lowHi         = 0xBF
)

// isCont reports whether c is a continuation byte (10xxxxxx).
func isCont(c byte) bool { return c&0xC0 == 0x80 }

// lead describes the generalized UTF-8 sequence that c starts: its length n
// and the range [lo, hi] its second byte must fall in. n is 0 when c can
// never start a multi-byte sequence (a continuation byte, the overlong leads
// 0xC0 and 0xC1, or 0xF5–0xFF) and 1 for ASCII. Unlike UTF-8 proper, 0xED
// accepts 0x80–0xBF as second byte, so that surrogates encoded as WTF-8 are
// sequences too.
func lead(c byte) (n int, lo, hi byte) {
	switch {
	case c < 0x80:
		return 1, 0, 0
	case c < 0xC2:
		return 0, 0, 0
	case c < 0xE0:
		return 2, 0x80, 0xBF
	case c == 0xE0:
		return 3, 0xA0, 0xBF
	case c < 0xF0:
		return 3, 0x80, 0xBF
	case c == 0xF0:
		return 4, 0x90, 0xBF
	case c < 0xF4:
		return 4, 0x80, 0xBF
	case c == 0xF4:
		return 4, 0x80, 0x8F
	}
	return 0, 0, 0
}

// subpart returns the length of the generalized UTF-8 sequence at the start
// of t (len(t) > 0) and whether it is complete. When complete is false, n is
// the length of the maximal subpart: the longest prefix of t that is a
// prefix of some sequence (at least 1). If that prefix reaches the end of t
// it may still be completed by more input; otherwise it never can.
func subpart(t []byte) (n int, complete bool) {
	size, lo, hi := lead(t[0])
	switch size {
	case 0:
		return 1, false
	case 1:
		return 1, true
	}
	if len(t) < 2 || t[1] < lo || t[1] > hi {
		return 1, false
	}
	for n = 2; n < size; n++ {
		if n >= len(t) || !isCont(t[n]) {
			return n, false
		}
	}
	return size, true
}

// isShort reports whether t is a proper prefix of a generalized UTF-8
// sequence: a character that more input may still complete.
func isShort(t []byte) bool {
	if size, _, _ := lead(t[0]); size <= len(t) {
		return false // complete, or a byte that starts no sequence
	}
	n, _ := subpart(t)
	return n == len(t)
}

// isHigh reports whether t (len 3) is the WTF-8 encoding of a high surrogate.
func isHigh(t []byte) bool {
	return t[0] == surrogateLead && t[1] >= highLo && t[1] <= highHi && isCont(t[2])
}

// isLowStart reports whether t (len 1 or 2) is the start of the WTF-8
// encoding of a low surrogate.
func isLowStart(t []byte) bool {
	return t[0] == surrogateLead && (len(t) == 1 || t[1] >= lowLo && t[1] <= lowHi)
}

// isPair reports whether t (len ≥ 6) starts with a WTF-8 high surrogate
// immediately followed by a WTF-8 low surrogate.
func isPair(t []byte) bool {
	return isHigh(t[:3]) && t[3] == surrogateLead && t[4] >= lowLo && t[4] <= lowHi && isCont(t[5])
}

// indexLead returns the index of the first 0xED in p, or -1. Slices of 4
// to 15 bytes (most deltas) are checked as two overlapping words before
// any byte loop; longer ones use the vectorized bytes.IndexByte.
func indexLead(p []byte) int {
	switch {
	case len(p) >= 16:
		return bytes.IndexByte(p, surrogateLead)
	case len(p) >= 8:
		if !hasLead(word64(p)) && !hasLead(word64(p[len(p)-8:])) {
			return -1
		}
	case len(p) >= 4:
		if !hasLead(uint64(word32(p)) | uint64(word32(p[len(p)-4:]))<<32) {
			return -1
		}
	}
	for i, c := range p {
		if c == surrogateLead {
			return i
		}
	}
	return -1
}

// hasLead reports whether a byte of x is 0xED: a zero byte of x^0xED…
// borrows through its high bit, and any lowest such mark is exact.
func hasLead(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	y := x ^ (surrogateLead * ones)
	return (y-ones)&^y&highs != 0
}

// word64 and word32 read the first 8 and 4 bytes of p as little-endian
// words; the compiler makes each one load.
func word64(p []byte) uint64 {
	_ = p[7]
	return uint64(p[0]) | uint64(p[1])<<8 | uint64(p[2])<<16 | uint64(p[3])<<24 |
		uint64(p[4])<<32 | uint64(p[5])<<40 | uint64(p[6])<<48 | uint64(p[7])<<56
}

func word32(p []byte) uint32 {
	_ = p[3]
	return uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24
}

// putWord64 and putWord32 store x at p[:8] and p[:4], little-endian; the
// compiler makes each one store.
func putWord64(p []byte, x uint64) {
	_ = p[7]
	p[0], p[1], p[2], p[3] = byte(x), byte(x>>8), byte(x>>16), byte(x>>24)
	p[4], p[5], p[6], p[7] = byte(x>>32), byte(x>>40), byte(x>>48), byte(x>>56)
}

func putWord32(p []byte, x uint32) {
	_ = p[3]
	p[0], p[1], p[2], p[3] = byte(x), byte(x>>8), byte(x>>16), byte(x>>24)
}

// putPair writes at dst[:4] the UTF-8 encoding of the supplementary code
// point whose UTF-16 surrogate pair is WTF-8 encoded in src[:6].
func putPair(dst, src []byte) {
	hi := rune(src[1]&0x0F)<<6 | rune(src[2]&0x3F)
	lo := rune(src[4]&0x0F)<<6 | rune(src[5]&0x3F)
	utf8.EncodeRune(dst[:4], 0x10000+hi<<10|lo)
}

// CompletePrefix returns how many bytes of p end on a complete character:
// len(p) minus a trailing incomplete UTF-8 sequence (the first 1 or 2
// bytes of a WTF-8 surrogate count as one) and minus a trailing WTF-8 high
// surrogate, which a low surrogate in later input may join. The result is
// never less than len(p)-[MaxHeld].
//
// Bytes that can never become valid (a bad lead byte, a stray continuation
// byte, an overlong or out-of-range sequence start, a truncated sequence
// followed by a byte that cannot continue it) count as complete, and so does
// a lone low surrogate: they are handed on as they are. A high surrogate is
// held back only when it is at the very end of p or followed by the start of
// a possible low surrogate (0xED, or 0xED 0xB0–0xBF).
//
// CompletePrefix reads at most the last [MaxHeld] bytes of p.
func CompletePrefix(p []byte) int {
	// An ASCII last byte ends a character and cannot end a high
	// surrogate: the usual end of a token delta is answered here, in a
	// check small enough to be inlined into the caller.
	if len(p) == 0 || p[len(p)-1] < utf8.RuneSelf {
		return len(p)
	}
	return completePrefix(p)
}

// completePrefix is CompletePrefix for a p that ends with a non-ASCII byte.
func completePrefix(p []byte) int {
	end := len(p)
	// Every byte that is not a continuation byte starts a character, so the
	// last one within reach starts the only sequence that may be
	// incomplete; a 4-byte sequence ends at most 3 bytes after its lead.
	for i := len(p) - 1; i >= 0 && i >= len(p)-3; i-- {
		if !isCont(p[i]) {
			if isShort(p[i:]) {
				end = i
			}
			break
		}
	}
	if end >= 3 && isHigh(p[end-3:end]) && (end == len(p) || isLowStart(p[end:])) {
		return end - 3
	}
	return end
}

// joinFrom rewrites, in place, every WTF-8 high surrogate immediately
// followed by a WTF-8 low surrogate that starts at or after p[from] into the
// 4-byte UTF-8 encoding of their code point, and returns the shortened
// slice. Pairs cannot overlap (a low surrogate never starts a high one) and
// the 4-byte result contains no 0xED, so one pass is enough and the result
// does not depend on where the scan starts, as long as no pair starts
// before from.
func joinFrom(p []byte, from int) []byte {
	// Invariant: w ≤ s ≤ q ≤ len(p). p[:w] is final, p[s:q] has been
	// scanned and waits to be moved down to w.
	w, s, q := from, from, from
	for {
		k := indexLead(p[q:])
		if k < 0 {
			break
		}
		i := q + k
		if len(p)-i < 6 {
			break
		}
		if !isPair(p[i:]) {
			q = i + 1
			continue
		}
		if w != s {
			copy(p[w:], p[s:i])
		}
		w += i - s
		putPair(p[w:], p[i:])
		w += 4
		s, q = i+6, i+6
	}
	if w == s {
		return p
	}
	w += copy(p[w:], p[s:])
	return p[:w]
}

// Append appends p to dst and returns the extended slice, joining a WTF-8
// high surrogate immediately followed by a WTF-8 low surrogate into the
// 4-byte UTF-8 encoding of their supplementary code point. Pairs are joined
// inside p and across the seam, where the high surrogate (or part of it)
// ended dst: the join happens in place, so the only copy of p is the
// append itself. Nothing else changes: every other byte, valid or not, is
// appended as it is.
//
// dst is meant to be text built by earlier calls to Append. Append reads at
// most the last [MaxHeld] bytes of the old dst and rewrites only bytes at or
// after position [CompletePrefix](dst), so the part of the text reported
// complete before the call is never altered. For any split of a text into
// a and b, Append(Append(nil, a), b) equals Append(nil, a+b).
func Append(dst, p []byte) []byte {
	dst, _ = AppendComplete(dst, p)
	return dst
}

// AppendComplete is [Append] that also returns the length of the result's
// complete prefix, [CompletePrefix] of the result: what a live display of
// a text built from deltas shows after each one. A delta of up to 16 bytes
// appended to a text that ends on a whole character, the usual token, is
// copied and checked as words and its end read from the delta, without
// calling another function.
func AppendComplete(dst, p []byte) ([]byte, int) {
	n, k := len(dst), len(p)
	if m := n + k; m <= cap(dst) && k > 0 && k <= 16 && (n == 0 || dst[n-1] < utf8.RuneSelf) {
		// No pair starts in dst, so only one within p could be joined:
		// a pair is 6 bytes and starts with 0xED.
		out := dst[n:m]
		ok := true
		switch {
		case k >= 8:
			lo, hi := word64(p), word64(p[k-8:])
			if ok = !hasLead(lo) && !hasLead(hi); ok {
				putWord64(out, lo)
				putWord64(out[k-8:], hi)
			}
		case k >= 4:
			// A pair within 7 bytes starts at p[0] or p[1].
			lo, hi := word32(p), word32(p[k-4:])
			if ok = !hasLead(uint64(lo)); ok {
				putWord32(out, lo)
				putWord32(out[k-4:], hi)
			}
		default:
			// No pair fits.
			for i, c := range p {
				out[i] = c
			}
		}
		if ok {
			// No character spans the seam: the end is p's own, read
			// from p rather than from the bytes just stored (reading
			// those back would wait for the stores).
			if p[k-1] < utf8.RuneSelf {
				return dst[:m], m
			}
			return dst[:m], n + completePrefix(p)
		}
	}
	// A pair that p may complete starts at or after the complete prefix:
	// CompletePrefix holds back a high surrogate followed by nothing or by
	// the start of a low one. Without a 0xED from there on there is
	// nothing to join; p alone is scanned when dst ends on a whole
	// character, before it is copied.
	from := CompletePrefix(dst)
	lead := -1
	if from == n {
		lead = indexLead(p)
	}
	dst = append(dst, p...)
	if from < n {
		lead = indexLead(dst[from:])
	}
	if lead >= 0 {
		dst = joinFrom(dst, from)
	}
	return dst, CompletePrefix(dst)
}

// Buffer holds back the bytes at the end of one write that do not yet form
// a complete character, and puts them in front of the next write. It holds
// at most [MaxHeld] bytes. The zero value is an empty Buffer ready to use.
//
// A Buffer must not be used from multiple goroutines at once.
type Buffer struct {
	// held[:n] is the incomplete tail of the input so far, 0 ≤ n ≤ MaxHeld:
	// exactly the bytes CompletePrefix excluded from the last output.
	held [MaxHeld]byte
	n    int
	// buf backs the result of Write when the held bytes and p must be
	// joined or a surrogate pair rewritten; it grows to the largest such
	// write plus MaxHeld.
	buf []byte
}

// maxKeep is the largest scratch buffer Reset keeps for reuse.
const maxKeep = 64 << 10

// Write returns the longest prefix of the held bytes followed by p that
// ends on a complete character (see [CompletePrefix]), with WTF-8 surrogate
// pairs joined as by [Append], and holds back the rest (at most [MaxHeld]
// bytes) for the next call.
//
// The returned slice aliases p or the Buffer's internal storage and is valid
// only until the next call to Write, AppendWrite, Flush or Reset (and as
// long as p is not modified); it must not be modified. Use [Buffer.AppendWrite]
// to retain the output.
func (b *Buffer) Write(p []byte) []byte {
	if b.n == 0 && !hasPair(p) {
		c := CompletePrefix(p)
		b.n = copy(b.held[:], p[c:])
		return p[:c:c]
	}
	b.buf = b.AppendWrite(b.buf[:0], p)
	return b.buf
}

// hasPair reports whether p contains a WTF-8 surrogate pair to join.
func hasPair(p []byte) bool {
	for {
		i := indexLead(p)
		if i < 0 || len(p)-i < 6 {
			return false
		}
		if isPair(p[i:]) {
			return true
		}
		p = p[i+1:]
	}
}

// AppendWrite is like [Buffer.Write] but appends the complete prefix to dst
// and returns the extended slice. It uses no storage of its own besides the
// held bytes.
func (b *Buffer) AppendWrite(dst, p []byte) []byte {
	start := len(dst)
	dst = append(dst, b.held[:b.n]...)
	dst = append(dst, p...)
	dst = joinFrom(dst, start)
	c := start + CompletePrefix(dst[start:])
	b.n = copy(b.held[:], dst[c:])
	return dst[:c]
}

// Flush returns the held bytes as they are, possibly an incomplete or
// unpaired sequence, and empties the Buffer. Call it when the text ends,
// for example at an artifact's close.
//
// The returned slice aliases the Buffer's storage and is valid only until
// the next call to Write, AppendWrite, Flush or Reset; it must not be
// modified.
func (b *Buffer) Flush() []byte {
	n := b.n
	b.n = 0
	return b.held[:n:n]
}

// Reset discards the held bytes so that b can be reused for a new text. It
// keeps the internal storage unless it grew beyond 64 KiB.
func (b *Buffer) Reset() {
	b.n = 0
	if cap(b.buf) > maxKeep {
		b.buf = nil
	}
}

// Buffered returns the number of bytes held back, between 0 and [MaxHeld].
func (b *Buffer) Buffered() int { return b.n }

// replacement is U+FFFD REPLACEMENT CHARACTER in UTF-8.
const replacement = "\uFFFD"

// ReplacedLen returns the number of bytes at the start of p that the WHATWG
// Encoding Standard's UTF-8 decoder (JavaScript's TextDecoder) replaces with
// one U+FFFD: the maximal subpart of an ill-formed sequence, the longest
// prefix of a UTF-8 sequence that a byte breaks off or the end of p
// truncates, or a single byte that starts none (1 to 3 bytes). It returns 0
// when p is empty or starts with a well-formed character. Surrogates are
// ill-formed here: the 3 bytes of a WTF-8 lone surrogate are three
// replacements, as TextDecoder makes of them.
func ReplacedLen(p []byte) int {
	if len(p) == 0 || p[0] < utf8.RuneSelf {
		return 0
	}
	if r, size := utf8.DecodeRune(p); r != utf8.RuneError || size > 1 {
		return 0
	}
	size, lo, hi := lead(p[0])
	if size == 0 {
		return 1
	}
	if p[0] == surrogateLead {
		// UTF-8 proper: no surrogates, which lead lets through as WTF-8.
		hi = 0x9F
	}
	n := 1
	for ; n < size && n < len(p) && p[n] >= lo && p[n] <= hi; n++ {
		lo, hi = 0x80, 0xBF
	}
	return n
}

// AppendDisplay appends p to dst for display, with each ill-formed part
// replaced by U+FFFD, and returns the extended slice: each maximal subpart
// of an ill-formed sequence ([ReplacedLen] bytes) becomes one U+FFFD, as the
// WHATWG decoder (JavaScript's TextDecoder) makes of the bytes, so a 3-byte
// WTF-8 lone surrogate becomes three. This is the one rule the module
// applies wherever bytes must become text (citation offsets, the JSON
// result document). Valid UTF-8 is appended unchanged. Keep the stored text
// as it is and use AppendDisplay only for what people see.
func AppendDisplay(dst, p []byte) []byte {
	if utf8.Valid(p) {
		return append(dst, p...)
	}
	for i := 0; i < len(p); {
		if c := p[i]; c < utf8.RuneSelf {
			dst = append(dst, c)
			i++
			continue
		}
		if r, size := utf8.DecodeRune(p[i:]); r != utf8.RuneError || size > 1 {
			dst = append(dst, p[i:i+size]...)
			i += size
			continue
		}
		dst = append(dst, replacement...)
		i += ReplacedLen(p[i:])
	}
	return dst
}
