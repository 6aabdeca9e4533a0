//go:build lexcount

package sse_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/internal/corpus"
	"github.com/a2astream/a2astream/parser/sse"
)

// TestLexerBytesScanned counts the bytes that the searches for line ends
// go past (through the counter that only a build with the lexcount tag
// keeps: go test -tags lexcount) for one 256 KiB event with each kind of
// line end and for the token corpus: fed one byte at a time or in 4 KiB
// chunks the Lexer must search at most twice the input (one search for LF,
// one for CR), as fed whole, and the counts may differ by at most one byte
// per line (a search that starts on the byte it finds).
func TestLexerBytesScanned(t *testing.T) {
	for _, in := range [][]byte{
		singleEvent(256<<10, "\n"),
		singleEvent(256<<10, "\r\n"),
		singleEvent(256<<10, "\r"),
		corpus.Tokens(500),
	} {
		lines := int64(bytes.Count(in, []byte("\n")) + bytes.Count(in, []byte("\r")))
		scan := func(chunk int) int64 {
			lx := sse.NewLexer(nil)
			for _, c := range chunksOf(in, chunk) {
				lx.Write(c)
				for lx.Next() {
				}
			}
			require.NoError(t, lx.Close())
			return lx.BytesScanned()
		}
		whole := scan(len(in))
		for _, chunk := range []int{1, 7, 4 << 10} {
			n := scan(chunk)
			assert.LessOrEqual(t, n, 2*int64(len(in)), "%d-byte input in %d-byte chunks: bytes scanned, at most twice the input", len(in), chunk)
			assert.InDelta(t, whole, n, float64(lines), "%d-byte input: bytes scanned in %d-byte chunks and whole, at most one byte per line apart", len(in), chunk)
		}
		assert.LessOrEqual(t, whole, 2*int64(len(in)), "%d-byte input: bytes scanned whole, at most twice the input", len(in))
	}
}
