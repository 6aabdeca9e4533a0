//go:build !purego

package sse

// hasAVX2 reports that indexLineEnd may be used: it searches a line for LF,
// CR and NUL at once, faster than one bytes.IndexByte for LF alone on a
// long line, where the Lexer would otherwise search for LF and for CR in
// turn.
var hasAVX2 = cpuHasAVX2()

// indexLineEnd returns the index of the first LF or CR in b, or -1, and
// whether a NUL comes before it (anywhere in b when there is none); only
// when hasAVX2 (lineend_amd64.s).
//
//go:noescape
func indexLineEnd(b []byte) (i int, nul bool)

// cpuHasAVX2 reports whether the processor and the operating system
// support AVX2 (lineend_amd64.s).
func cpuHasAVX2() bool

// prefetch asks the processor to bring the cache lines of p in, one
// PREFETCHT0 every 64 bytes (lineend_amd64.s): the room a read is about to
// fill (see input.warm). It reads nothing and never faults.
//
//go:noescape
func prefetch(p []byte)
