//go:build !amd64 || purego

package sse

// hasAVX2 is false: only amd64 has the search of lineend_amd64.s, and the
// Lexer searches each line for LF, and for CR in turn (the portable
// search). The purego build tag selects this file on amd64 as well, so
// that the portable search is tested on the machine that builds it.
const hasAVX2 = false

// indexLineEnd returns the index of the first LF or CR in b, or -1, and
// whether a NUL comes before it. It is lineend_amd64.s's reference; the
// Lexer does not call it here.
func indexLineEnd(b []byte) (i int, nul bool) {
	for i, c := range b {
		switch c {
		case '\n', '\r':
			return i, nul
		case 0:
			nul = true
		}
	}
	return -1, nul
}

// prefetch does nothing here: lineend_amd64.s's prefetch of the room a
// read is about to fill (see input.warm) is a hint to the processor.
func prefetch([]byte) {}
