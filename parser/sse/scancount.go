//go:build !lexcount

package sse

// scanCount is the Lexer's count of bytes searched, which only a build
// with the lexcount tag keeps (scancount_lexcount.go): here it is empty and
// add does nothing, so that it costs nothing.
type scanCount struct{}

func (*scanCount) add(int) {}
