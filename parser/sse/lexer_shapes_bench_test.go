package sse_test

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/internal/corpus"
	"github.com/a2astream/a2astream/parser/sse"
)

// The shapes of streams that real servers send, beside the token corpus's
// short numeric ids: UUID ids (a2a-go writes them), Corti-style prefixed ids,
// no ids, CRLF line ends, large events and a single 10 MB event. Each is
// generated here, deterministically, so that the benchmarks need nothing
// outside the package.

// uuidID returns a random-looking 36-character UUID (version 7 layout).
func uuidID(r *rand.Rand) string {
	const hex = "0123456789abcdef"
	var b [36]byte
	for i := range b {
		b[i] = hex[r.IntN(16)]
	}
	b[8], b[13], b[18], b[23] = '-', '-', '-', '-'
	b[14] = '7'
	return string(b[:])
}

// prefixedID returns a Corti-style id: a kind prefix and a UUID, 41
// characters.
func prefixedID(r *rand.Rand) string { return "task." + uuidID(r) }

// reshape rewrites the LF-only stream in: every "id: " line's value is
// replaced by id() (or the line dropped when id is nil), and every line end
// becomes eol.
func reshape(in []byte, id func() string, eol string) []byte {
	var out []byte
	for len(in) > 0 {
		i := bytes.IndexByte(in, '\n')
		line := in[:i]
		in = in[i+1:]
		if bytes.HasPrefix(line, []byte("id: ")) {
			if id == nil {
				continue
			}
			line = []byte("id: " + id())
		}
		out = append(out, line...)
		out = append(out, eol...)
	}
	return out
}

// bigEvents returns n events of about size bytes each, with UUID ids.
func bigEvents(n, size int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	var out []byte
	for range n {
		ev := singleEvent(size, "\n")
		out = append(out, "id: "+uuidID(r)...)
		out = append(out, ev[bytes.IndexByte(ev, '\n'):]...)
	}
	return out
}

// shape is one generated stream; oneB marks the one read one byte at a
// time (a slice of the corpus, to keep the run short).
type shape struct {
	name string
	in   []byte
	oneB bool
}

func shapes() []shape {
	rng := func() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }
	tokens := corpus.Tokens(corpus.Frames)
	small := corpus.Tokens(corpus.Frames / 64)
	uuid, prefixed := rng(), rng()
	uuid1B := rng()
	return []shape{
		{name: "numeric", in: tokens},
		{name: "uuid", in: reshape(tokens, func() string { return uuidID(uuid) }, "\n")},
		{name: "prefixed", in: reshape(tokens, func() string { return prefixedID(prefixed) }, "\n")},
		{name: "noid", in: reshape(tokens, nil, "\n")},
		{name: "crlf", in: reshape(tokens, nil, "\r\n")},
		{name: "256KiB", in: bigEvents(16, 256<<10)},
		{name: "10MB", in: bigEvents(1, 10<<20)},
		{name: "uuid1B", in: reshape(small, func() string { return uuidID(uuid1B) }, "\n"), oneB: true},
	}
}

// BenchmarkLexerShapes reads each shape with a reused Reader (32 KiB reads,
// or 1-byte reads for the 1B shape), with the push Lexer fed whole (or one
// byte at a time), and with the bytes.IndexByte limit on the same reads: a
// plain read plus one search per LF. The Reader's time over the limit's is
// the ratio that bench/RESULTS.md bounds by 2.
func BenchmarkLexerShapes(b *testing.B) {
	for _, s := range shapes() {
		frames := countFrames(b, s.in)
		src := bytes.NewReader(s.in)
		var rd io.Reader = src
		if s.oneB {
			rd = iotest.OneByteReader(src)
		}
		reader := func() io.Reader {
			src.Reset(s.in)
			return rd
		}
		b.Run(s.name+"/Reader", func(b *testing.B) {
			r := sse.NewReader(nil, nil)
			pass := func() {
				r.Reset(reader(), nil)
				n := 0
				for r.Next() {
					n++
				}
				if n != frames || r.Err() != nil {
					b.Fatalf("%d frames, want %d: %v", n, frames, r.Err())
				}
			}
			pass() // grow the buffers before the timer starts
			b.SetBytes(int64(len(s.in)))
			b.ReportAllocs()
			for b.Loop() {
				pass()
			}
		})
		chunk := len(s.in)
		if s.oneB {
			chunk = 1
		}
		b.Run(s.name+"/Lexer", func(b *testing.B) { benchLexer(b, s.in, chunk, frames) })
		b.Run(s.name+"/IndexByte", func(b *testing.B) {
			buf := make([]byte, sse.ReadSize)
			b.SetBytes(int64(len(s.in)))
			b.ReportAllocs()
			for b.Loop() {
				if n := indexByteLimit(reader(), buf); n == 0 {
					b.Fatal("no lines")
				}
			}
		})
	}
}

// indexByteLimit reads r through buf and counts every LF with
// bytes.IndexByte in each read, as the bench module's limit does (a line
// split across reads costs nothing more); it returns the number of LFs.
func indexByteLimit(r io.Reader, buf []byte) int {
	lines := 0
	for {
		n, err := r.Read(buf)
		for b := buf[:n]; ; {
			i := bytes.IndexByte(b, '\n')
			if i < 0 {
				break
			}
			lines++
			b = b[i+1:]
		}
		if err != nil {
			return lines
		}
	}
}

// TestShapes checks the generated shapes: every event of each is read back
// with the id the shape gives it.
func TestShapes(t *testing.T) {
	idLen := map[string]int{"numeric": -1, "uuid": 36, "prefixed": 41, "noid": 0, "crlf": 0, "256KiB": 36, "10MB": 36, "uuid1B": 36}
	for _, s := range shapes() {
		t.Run(s.name, func(t *testing.T) {
			r := sse.NewReader(bytes.NewReader(s.in), nil)
			n := 0
			for r.Next() {
				n++
				if want := idLen[s.name]; want >= 0 {
					require.Len(t, r.Frame().ID, want, "frame %d: the id", n)
				}
			}
			require.NoError(t, r.Err())
			assert.Equal(t, bytes.Count(s.in, []byte("data:")), n, "frames, one per data line")
		})
	}
}
