//go:build lexcount

package sse_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/internal/corpus"
	"github.com/a2astream/a2astream/parser/sse"
)

// TestLexerFillLineBytesScanned counts the bytes that the searches for line
// ends go past (go test -tags lexcount) when FillLine reads the input, one
// byte per read or in 4 KiB reads, and Next runs after each call: the bytes
// FillLine searched are not searched again by Next, so the Lexer searches
// at most twice the input, as when it is written whole, and the counts
// differ by at most one byte per line.
func TestLexerFillLineBytesScanned(t *testing.T) {
	for _, in := range [][]byte{
		singleEvent(256<<10, "\n"),
		singleEvent(256<<10, "\r\n"),
		singleEvent(256<<10, "\r"),
		corpus.Tokens(500),
	} {
		lines := int64(bytes.Count(in, []byte("\n")) + bytes.Count(in, []byte("\r")))
		lx := sse.NewLexer(nil)
		lx.Write(in)
		for lx.Next() {
		}
		require.NoError(t, lx.Close())
		whole := lx.BytesScanned()
		for _, chunk := range []int{1, 4 << 10} {
			lx := sse.NewLexer(nil)
			r := &chunkReader{chunks: chunksOf(in, chunk)}
			for {
				_, err := lx.FillLine(r, sse.ReadSize)
				for lx.Next() {
				}
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
			}
			require.NoError(t, lx.Close())
			n := lx.BytesScanned()
			assert.LessOrEqual(t, n, 2*int64(len(in)), "%d-byte input in %d-byte reads: bytes scanned, at most twice the input", len(in), chunk)
			assert.InDelta(t, whole, n, float64(lines), "%d-byte input: bytes scanned in %d-byte reads and whole, at most one byte per line apart", len(in), chunk)
		}
	}
}
