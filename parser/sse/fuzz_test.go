package sse_test

import (
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/google/go-cmp/cmp"

	"github.com/a2astream/a2astream/parser/sse"
)

// FuzzLexer checks, for any input and MaxEventSize: no panic; every error is
// a *SyntaxError wrapping ErrEventTooLarge or io.ErrUnexpectedEOF; the same
// frames, errors and last event ID whether the input is fed whole, whole
// before any Next, one byte at a time, in random chunks drawn from seed,
// read by a Reader, or read with FillLine; and InputOffset()+Buffered()
// always equals the bytes written. The seeds are the rule table and the recorded streams.
func FuzzLexer(f *testing.F) {
	for _, tc := range lexCases {
		f.Add([]byte(tc.in), uint16(tc.max), int64(len(tc.in)))
	}
	for _, in := range testdataStreams(f) {
		f.Add([]byte(in), uint16(0), int64(1))
		f.Add([]byte(in), uint16(200), int64(2))
	}
	f.Fuzz(func(t *testing.T, in []byte, max uint16, seed int64) {
		if len(in) > 1<<16 {
			return // cap the work per input
		}
		opts := &sse.Options{MaxEventSize: int(max)}
		whole := lexChunks(t, [][]byte{in}, opts, true)
		for _, r := range whole.records {
			if r[:3] != "too" && r[:3] != "cut" {
				require.Equal(t, byte('@'), r[0], "undocumented error: %s", r)
			}
		}
		check := func(how string, got lexResult) {
			t.Helper()
			require.Empty(t, cmp.Diff(whole.records, got.records), "%s differs from whole (-whole +%s)", how, how)
			require.Equal(t, whole.last, got.last, "%s: LastEventID", how)
		}
		if len(in) <= int(max) || max == 0 {
			check("undrained", lexChunks(t, [][]byte{in}, opts, false))
		}
		if len(in) <= 4096 {
			check("1-byte", lexChunks(t, chunksOf(in, 1), opts, true))
		}
		rng := rand.New(rand.NewPCG(uint64(seed), 0))
		var chunks [][]byte
		for rest := in; len(rest) > 0; {
			n := min(len(rest), 1+rng.IntN(64))
			chunks = append(chunks, rest[:n])
			rest = rest[n:]
		}
		check("random", lexChunks(t, chunks, opts, true))
		check("FillLine", fillLex(t, &chunkReader{chunks: slices.Clone(chunks)}, 1+rng.IntN(256), opts))

		r := sse.NewReader(&chunkReader{chunks: chunks}, opts)
		var got []string
		for {
			if r.Next() {
				got = append(got, record(r.Frame()))
				continue
			}
			err := r.Err()
			if err == nil {
				break
			}
			var se *sse.SyntaxError
			require.ErrorAs(t, err, &se, "Reader: undocumented error")
			require.True(t, errors.Is(err, sse.ErrEventTooLarge) || errors.Is(err, io.ErrUnexpectedEOF), "Reader: undocumented error %v", err)
			got = append(got, errRecord(err))
			if !errors.Is(err, sse.ErrEventTooLarge) {
				break
			}
		}
		require.Empty(t, cmp.Diff(whole.records, got), "Reader differs from the Lexer (-lexer +reader)")
	})
}

// chunkReader returns its chunks one per Read.
type chunkReader struct{ chunks [][]byte }

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.chunks[0])
	c.chunks[0] = c.chunks[0][n:]
	if len(c.chunks[0]) == 0 {
		c.chunks = c.chunks[1:]
	}
	return n, nil
}
