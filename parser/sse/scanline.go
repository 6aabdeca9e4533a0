package sse

// This file is the line search: scanLine, which finds the next complete
// line with the search that suits it (AVX2 where the processor has it, a
// word at a time for a short line, bytes.IndexByte for a long one, a byte
// loop for the few bytes of a small write) and the CR window; and lineEnd,
// FillLine's search, which leaves scanLine the bytes it searched.

import (
	"bytes"
	"math/bits"
)

const (
	// crWindow is how far ahead of a line the search for CR may look.
	crWindow = 16 << 10
	// shortWords is how many words of a line that is not a data line
	// searchLF tests itself before it calls bytes.IndexByte: 64 bytes,
	// more than an id line with a UUID or a prefixed one, an event line or
	// a keep-alive comment takes.
	shortWords = 8
	// shortScan is the length under which a search tests the bytes one by
	// one rather than call bytes.IndexByte.
	shortScan = 16
)

// lineSearch remembers how far the searches for the end of the line at
// input.cur got, so that each byte is searched at most once for LF and
// once for CR, whatever the chunking. Invariants (a value below cur means
// "search from cur"):
//
//	lfNext ≤ len(buf) and buf[cur:lfNext] holds no LF;
//	crNext ≤ len(buf) and buf[cur:crNext] holds no CR;
//	skipLF: the line before cur ended with a CR last in the input then
//	buffered, and an LF at buf[cur] belongs to that line end (begin).
type lineSearch struct {
	lfNext int
	crNext int
	skipLF bool
}

// scanLine finds the complete line that starts at cur and moves cur past
// its line end (CRLF, LF or CR). It returns the line, buf[ls:e] without
// its line end; clean, which reports that the search went over each byte
// of the line and saw no NUL (so that an id needs no second look); and ok.
// With no complete line buffered it returns ok false, leaving cur, and
// remembers how far it searched.
//
// The searches, cheapest first: a blank line is known by its first byte.
// Where the processor has AVX2 and the search for CR has got as far as the
// one for LF (always in a stream without CR; in one with CRLF once the CR
// is behind), one pass searches for both (indexLineEnd), unless only a few
// bytes are left to search. Otherwise the LF comes first: a line that
// starts with "data:" (a payload, usually long) is searched with
// bytes.IndexByte at once; any other (an id, event or retry line, a
// comment) is usually short, so its first words are tested for LF and NUL
// a word at a time (searchWords) before bytes.IndexByte searches the rest;
// a few bytes, as when the input comes a byte at a time, are tested one by
// one. Then a CR before the LF (searchCR).
func (lx *Lexer) scanLine() (ls, e int, clean, ok bool) {
	b, s := lx.in.buf, &lx.search
	ls = lx.in.cur
	if ls == len(b) {
		s.lfNext = ls
		return ls, ls, false, false
	}
	if c := b[ls]; c == '\n' || c == '\r' {
		return ls, ls, true, lx.endLine(ls)
	}
	lf := max(s.lfNext, ls)
	if lf < len(b) && b[lf] != '\n' {
		if hasAVX2 && max(s.crNext, ls) == lf && len(b)-lf >= shortScan {
			// No LF and no CR before the first of them.
			i, nul := indexLineEnd(b[lf:])
			e = len(b)
			if i >= 0 {
				e = lf + i
			}
			s.crNext = e
			return ls, e, lf == ls && !nul, lx.endLine(e)
		}
		found := false
		if lf == ls && lf+8 <= len(b) {
			if w := word(b[lf:]); w&(1<<40-1) == dataPrefix {
				lf += 5
			} else {
				lf, clean, found = searchWords(b, lf, w)
			}
		}
		if found {
		} else if len(b)-lf < shortScan {
			for lf < len(b) && b[lf] != '\n' {
				lf++
			}
		} else if i := bytes.IndexByte(b[lf:], '\n'); i >= 0 {
			lf += i
		} else {
			lf = len(b)
		}
	}
	e = lf
	if s.crNext < lf {
		// The line may end at a CR before the LF: the line after it then
		// starts before lf, and buf[its start:lf] holds no LF either.
		s.lfNext = lf
		e = lx.searchCR(ls, lf)
	}
	return ls, e, clean, lx.endLine(e)
}

// blankLine is scanLine's cheap case after a field line, as the last line
// of most events is: it reports whether a blank line starts at cur, within
// limit (see lineLimit), and if so moves cur past it. A blank line last in
// buf is left to scanLine (after a CR, an LF may follow).
func (lx *Lexer) blankLine(limit int) bool {
	b, c := lx.in.buf, lx.in.cur
	if c+1 >= len(b) || c > limit {
		return false
	}
	next := c + 1
	if b[c] == '\r' {
		if b[next] == '\n' {
			next++
		}
	} else if b[c] != '\n' {
		return false
	}
	lx.in.cur = next
	return true
}

// endLine ends the line at e, its LF or CR, or len(buf) when none has
// come: it moves cur past the line end (a CR and the LF after it are one;
// a CR last in buf sets skipLF) and reports true, or it records that
// buf[cur:] holds no LF and reports false.
func (lx *Lexer) endLine(e int) bool {
	b := lx.in.buf
	if e == len(b) {
		lx.search.lfNext = e
		return false
	}
	next := e + 1
	if b[e] == '\r' {
		if next == len(b) {
			lx.search.skipLF = true
		} else if b[next] == '\n' {
			next++
		}
	}
	lx.in.cur = next
	return true
}

// searchWords tests up to shortWords words of b from lf, the first one w,
// for LF and NUL. It returns the index of the LF, whether no NUL comes
// before it, and true; or, with no LF in them, where it stopped and false.
func searchWords(b []byte, lf int, w uint64) (int, bool, bool) {
	var nul uint64
	for n := shortWords; ; {
		if m := zeroBytes(w ^ lfs); m != 0 {
			// The line ends in w: its bytes are those below the LF.
			m &= -m
			return lf + bits.TrailingZeros64(m)>>3, nul|zeroBytes(w)&(m-1) == 0, true
		}
		nul |= zeroBytes(w)
		lf += 8
		if n--; n == 0 || lf+8 > len(b) {
			return lf, false, false
		}
		w = word(b[lf:])
	}
}

// searchCR returns the end of the line that starts at ls and holds no LF
// before lf: the index of its first CR, or lf when it has none. A short
// stretch (an id line, a blank line of a CRLF stream, or a few bytes that
// came a byte at a time) is tested one byte at a time, to the LF only; a
// longer one with bytes.IndexByte, a window ahead, at least to lf, so that
// the two searches stay within the same cached bytes and, in a stream
// without CR, the search for CR runs once per crWindow bytes, not once per
// line. crNext remembers where it stopped.
func (lx *Lexer) searchCR(ls, lf int) int {
	b := lx.in.buf
	cr := max(lx.search.crNext, ls)
	if lf-cr < shortScan {
		for cr < lf && b[cr] != '\r' {
			cr++
		}
	} else if b[cr] != '\r' {
		end := max(lf, min(len(b), cr+crWindow))
		i := bytes.IndexByte(b[cr:end], '\r')
		if i < 0 {
			i = end - cr
		}
		cr += i
	}
	lx.search.crNext = cr
	return min(lf, cr)
}

// lineEnd reports whether buf[from:] holds a line end, LF or CR. Where the
// searches of Next had got to from, it moves them on as far as it searched,
// so that Next does not search those bytes again: each to its line end, or
// to the first line end of the other kind in a short search or, with
// AVX2, in a line longer than the input before (which look for both at
// once), or to the end of buf when there is none.
func (lx *Lexer) lineEnd(from int) bool {
	b, s, cur := lx.in.buf[from:], &lx.search, lx.in.cur
	lf, cr := len(b), -1 // -1: CR not searched
	if len(b) < shortScan {
		for i, c := range b {
			if c == '\n' || c == '\r' {
				lf = i
				break
			}
		}
		cr = lf
	} else if hasAVX2 && max(s.crNext, cur) == from {
		// Searched for CR as far as this read: both at once
		// (indexLineEnd, as Next does), no LF and no CR before
		// the first of them.
		if i, _ := indexLineEnd(b); i >= 0 {
			lf = i
		}
		cr = lf
	} else if i := bytes.IndexByte(b, '\n'); i >= 0 {
		lf = i
	} else {
		cr = len(b)
		if i := bytes.IndexByte(b, '\r'); i >= 0 {
			cr = i
		}
	}
	if max(s.lfNext, cur) == from {
		s.lfNext = from + lf
	}
	if cr >= 0 && max(s.crNext, cur) == from {
		s.crNext = from + cr
	}
	return lf < len(b) || 0 <= cr && cr < len(b)
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
	lfs   = '\n' * ones
)

// zeroBytes returns a word whose lowest set bit is the high bit of the
// first zero byte of w in little-endian order, or 0 when w has none. Bits
// above that one may be set wrongly.
func zeroBytes(w uint64) uint64 { return (w - ones) &^ w & highs }

// word reads the first 8 bytes of b as a little-endian word, which the
// compiler makes one load (encoding/binary would link reflect into the
// WebAssembly module).
func word(b []byte) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}
