//go:build lexcount

package sse

// scanCount is the Lexer's count of bytes searched for line ends, kept in
// a build with the lexcount tag so that TestLexerBytesScanned can prove that
// no byte is searched twice whatever the chunking.
type scanCount struct{ n int64 }

func (c *scanCount) add(n int) { c.n += int64(n) }
