package fuzz

import (
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// testdataStreams returns the recorded streams of ../internal/samples, read
// at test time so that new recordings join the seed corpora.
func testdataStreams(tb testing.TB) map[string][]byte {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "internal", "samples", "*.sse"))
	require.NoError(tb, err)
	require.NotEmpty(tb, paths, "no ../internal/samples/*.sse streams")
	out := make(map[string][]byte, len(paths))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		require.NoError(tb, err)
		out[filepath.Base(p)] = b
	}
	return out
}

// split cuts in into chunks of random sizes between 1 and maxChunk drawn
// from rng; a maxChunk of 1 gives 1-byte chunks.
func split(in []byte, rng *rand.Rand, maxChunk int) [][]byte {
	var chunks [][]byte
	for len(in) > 0 {
		n := min(len(in), 1+rng.IntN(maxChunk))
		chunks = append(chunks, in[:n])
		in = in[n:]
	}
	return chunks
}

// randReader hands out its input in reads of random sizes, returns (0, nil)
// now and then (never 100 times in a row), and returns the last bytes
// together with io.EOF when eofWithData is set.
type randReader struct {
	in          []byte
	rng         *rand.Rand
	maxRead     int
	eofWithData bool
	// read counts the bytes handed out.
	read int
}

func (r *randReader) Read(p []byte) (int, error) {
	if len(r.in) == 0 {
		return 0, io.EOF
	}
	if r.rng.IntN(8) == 0 {
		return 0, nil
	}
	n := min(len(p), len(r.in), 1+r.rng.IntN(r.maxRead))
	copy(p, r.in[:n])
	r.in = r.in[n:]
	r.read += n
	if len(r.in) == 0 && r.eofWithData {
		return n, io.EOF
	}
	return n, nil
}
