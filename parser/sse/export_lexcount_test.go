//go:build lexcount

package sse

// BytesScanned returns how many bytes the Lexer's searches for line ends
// have gone past so far.
func (lx *Lexer) BytesScanned() int64 { return lx.scanned.n }
