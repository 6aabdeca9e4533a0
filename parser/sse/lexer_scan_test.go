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

// TestLexerBytesScanned counts the bytes that the searches for line ends
// go past (through the counter that only a build with the lexcount tag
// keeps: go test -tags lexcount) for one 256 KiB event with each kind of
// line end and for the token corpus: written one byte at a time or in
// chunks, or read by FillLine one byte or 4 KiB per read with Next after
// each call, the Lexer must search at most twice the input (one search for
// LF, one for CR), as written whole, and the counts may differ by at most
// one byte per line (a search that starts on the byte it finds). The bytes
// FillLine searched are not searched again by Next.
func TestLexerBytesScanned(t *testing.T) {
	for _, in := range [][]byte{
		singleEvent(256<<10, "\n"),
		singleEvent(256<<10, "\r\n"),
		singleEvent(256<<10, "\r"),
		corpus.Tokens(500),
	} {
		lines := int64(bytes.Count(in, []byte("\n")) + bytes.Count(in, []byte("\r")))
		scan := func(chunk int, fill bool) int64 {
			lx := sse.NewLexer(nil)
			if fill {
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
			} else {
				for _, c := range chunksOf(in, chunk) {
					lx.Write(c)
					for lx.Next() {
					}
				}
			}
			require.NoError(t, lx.Close())
			return lx.BytesScanned()
		}
		whole := scan(len(in), false)
		for _, tc := range []struct {
			chunk int
			fill  bool
		}{{1, false}, {7, false}, {4 << 10, false}, {1, true}, {4 << 10, true}} {
			n := scan(tc.chunk, tc.fill)
			how := "written"
			if tc.fill {
				how = "read by FillLine"
			}
			assert.LessOrEqual(t, n, 2*int64(len(in)), "%d-byte input %s in %d-byte pieces: bytes scanned, at most twice the input", len(in), how, tc.chunk)
			assert.InDelta(t, whole, n, float64(lines), "%d-byte input: bytes scanned %s in %d-byte pieces and whole, at most one byte per line apart", len(in), how, tc.chunk)
		}
		assert.LessOrEqual(t, whole, 2*int64(len(in)), "%d-byte input: bytes scanned whole, at most twice the input", len(in))
	}
}
