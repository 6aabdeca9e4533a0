package sse

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestIndexLineEnd checks the search for the first LF or CR against a byte
// loop, at every length up to 300 and every alignment of the first byte
// within 32, with the line ends and NULs anywhere, among bytes that share
// their low four bits (which the AVX2 search looks up) and bytes with the
// high bit set (AVX2 on amd64, where the processor has it; the byte loop
// elsewhere).
func TestIndexLineEnd(t *testing.T) {
	if !hasAVX2 {
		t.Log("no AVX2: indexLineEnd is the byte loop, which the Lexer does not call")
	}
	var alike []byte
	for c := range 256 {
		if low := c & 15; c != 0 && c != '\n' && c != '\r' && (low == 0 || low == '\n' || low == '\r') {
			alike = append(alike, byte(c))
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 300+32)
	for n := range 301 {
		for off := range 32 {
			for i := range buf {
				buf[i] = byte('a' + r.IntN(26))
				switch r.IntN(150) {
				case 0:
					buf[i] = "\r\n"[r.IntN(2)]
				case 1:
					buf[i] = 0
				case 2, 3, 4, 5, 6, 7, 8, 9:
					buf[i] = alike[r.IntN(len(alike))]
				case 10, 11:
					buf[i] = byte(0x80 + r.IntN(128))
				}
			}
			b := buf[off : off+n]
			want := bytes.IndexAny(b, "\r\n")
			wantNUL := bytes.IndexByte(b[:max(want, 0)], 0) >= 0
			if want < 0 {
				wantNUL = bytes.IndexByte(b, 0) >= 0
			}
			if got, nul := indexLineEnd(b); got != want || nul != wantNUL {
				require.Equal(t, []any{want, wantNUL}, []any{got, nul}, "indexLineEnd of %d bytes at offset %d: %q", n, off, b)
			}
		}
	}
}

// TestLexerLongLineEnds reads data lines longer than the reads (searched
// for LF and CR at once past their first read, with AVX2) whose end is a
// CR, a CRLF or an LF at every place around the reads' edges, and checks
// the frames: a CR ends a line as an LF does.
func TestLexerLongLineEnds(t *testing.T) {
	const read = 4096
	for _, eol := range []string{"\n", "\r", "\r\n"} {
		for _, n := range []int{read - 7, read - 1, read, read + 1, 2*read - 6, 2*read + 5, 3*read + 31, 3*read + 32, 3*read + 33} {
			a := strings.Repeat("x", n)
			in := "data: " + a + eol + "data: b" + eol + eol + "data: c" + eol + eol
			var lx Lexer
			var got []string
			for p := []byte(in); len(p) > 0; {
				k := min(read, len(p))
				_, err := lx.Write(p[:k])
				require.NoError(t, err)
				p = p[k:]
				for lx.Next() {
					got = append(got, string(lx.Frame().Data))
				}
				require.NoError(t, lx.Err())
			}
			require.NoError(t, lx.Close())
			for lx.Next() {
				got = append(got, string(lx.Frame().Data))
			}
			require.Equal(t, []string{a + "\nb", "c"}, got, "line of %d bytes ended by %q", n, eol)
			// The same through a Reader (FillLine), 4 KiB per read.
			rd := NewReader(&pieces{s: in, n: read}, nil)
			got = got[:0]
			for rd.Next() {
				got = append(got, string(rd.Frame().Data))
			}
			require.NoError(t, rd.Err())
			require.Equal(t, []string{a + "\nb", "c"}, got, "Reader: line of %d bytes ended by %q", n, eol)
		}
	}
}

// pieces reads s at most n bytes per Read.
type pieces struct {
	s string
	n int
}

func (p *pieces) Read(b []byte) (int, error) {
	if len(p.s) == 0 {
		return 0, io.EOF
	}
	k := copy(b[:min(len(b), p.n)], p.s)
	p.s = p.s[k:]
	return k, nil
}
