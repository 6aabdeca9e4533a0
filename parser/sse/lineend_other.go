//go:build !amd64

package sse

// hasAVX2 is false: only amd64 has the search of lineend_amd64.s, and the
// Lexer searches a long line for LF and for CR in turn.
const hasAVX2 = false

// indexLineEnd returns the index of the first LF or CR in b, or -1. It is
// lineend_amd64.s's reference; the Lexer does not call it here.
func indexLineEnd(b []byte) int {
	for i, c := range b {
		if c == '\n' || c == '\r' {
			return i
		}
	}
	return -1
}
