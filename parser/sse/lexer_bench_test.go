package sse_test

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"testing"

	"github.com/a2astream/a2astream/parser/internal/corpus"
	"github.com/a2astream/a2astream/parser/sse"
)

// BenchmarkLexer lexes the token-streaming corpus (about 20,000 frames)
// with the push Lexer fed whole, in 4 KiB chunks and one byte at a time (a
// 1/64 slice of the corpus, to keep the run short),
// with the pull Reader, and with two baselines on the same bytes: a plain
// read plus bytes.IndexByte over every line end (the floor for touching
// each byte) and bufio.Scanner with ScanLines (fast, but not a conforming
// SSE parser). The Lexer is not reset between iterations: the corpus is
// written again as the continuation of the same stream, as on a live
// connection.
func BenchmarkLexer(b *testing.B) {
	in := corpus.Tokens(corpus.Frames)
	frames := countFrames(b, in)
	b.Run("Lexer/whole", func(b *testing.B) { benchLexer(b, in, len(in), frames) })
	b.Run("Lexer/4KiB", func(b *testing.B) { benchLexer(b, in, 4<<10, frames) })
	small := corpus.Tokens(corpus.Frames / 64)
	b.Run("Lexer/1B", func(b *testing.B) { benchLexer(b, small, 1, countFrames(b, small)) })
	b.Run("Reader/32KiB", func(b *testing.B) {
		src := bytes.NewReader(in)
		r := sse.NewReader(src, nil)
		pass := func() {
			src.Reset(in)
			r.Reset(src, nil)
			n := 0
			for r.Next() {
				n++
			}
			if n != frames || r.Err() != nil {
				b.Fatalf("%d frames, %v", n, r.Err())
			}
		}
		pass() // grow the buffers before the timer starts
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			pass()
		}
	})
	b.Run("IndexByteLines", func(b *testing.B) {
		src := bytes.NewReader(in)
		buf := make([]byte, 32<<10)
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			src.Reset(in)
			if n := indexByteLines(src, buf); n == 0 {
				b.Fatal("no lines")
			}
		}
	})
	b.Run("BufioScanLines", func(b *testing.B) {
		src := bytes.NewReader(in)
		buf := make([]byte, 32<<10)
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			src.Reset(in)
			sc := bufio.NewScanner(src)
			sc.Buffer(buf, 1<<20)
			n := 0
			for sc.Scan() {
				n++
			}
			if n == 0 || sc.Err() != nil {
				b.Fatal(sc.Err())
			}
		}
	})
}

// indexByteLines reads r through buf and finds every LF with
// bytes.IndexByte, carrying a partial line to the next read; it returns
// the number of lines.
func indexByteLines(r io.Reader, buf []byte) int {
	lines, kept := 0, 0
	for {
		n, err := r.Read(buf[kept:])
		data := buf[:kept+n]
		i := 0
		for {
			j := bytes.IndexByte(data[i:], '\n')
			if j < 0 {
				break
			}
			lines++
			i += j + 1
		}
		kept = copy(buf, data[i:])
		if err != nil {
			return lines
		}
	}
}

func countFrames(b *testing.B, in []byte) int {
	lx := sse.NewLexer(nil)
	lx.Write(in)
	n := 0
	for lx.Next() {
		n++
	}
	if err := lx.Close(); err != nil {
		b.Fatal(err)
	}
	return n
}

// benchLexer writes in, in chunks of the given size, to one Lexer, each
// iteration continuing the same stream, and checks the frame count.
func benchLexer(b *testing.B, in []byte, chunk, want int) {
	lx := sse.NewLexer(nil)
	pass := func() {
		n := 0
		for p := in; len(p) > 0; {
			c := p[:min(chunk, len(p))]
			p = p[len(c):]
			lx.Write(c)
			for lx.Next() {
				n++
			}
		}
		if n != want {
			b.Fatalf("%d frames, want %d", n, want)
		}
	}
	pass() // grow the buffers before the timer starts (twice: the
	pass() // buffer reaches its final size on the second write of in)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		pass()
	}
	if err := lx.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkLexerLargeEvent lexes one 256 KiB event (and one of 64 KiB, to
// show that the cost per byte does not grow with the event) fed whole and
// one byte at a time, through the Lexer and through a Reader whose source
// returns one byte per Read. Fed one byte at a time the cost is linear: no byte
// is searched again (TestLexerSearchesEachByteOnce).
func BenchmarkLexerLargeEvent(b *testing.B) {
	for _, size := range []int{64 << 10, 256 << 10} {
		in := singleEvent(size, "\n")
		name := strconv.Itoa(size>>10) + "KiB"
		b.Run(name+"/whole", func(b *testing.B) { benchLexer(b, in, len(in), 1) })
		b.Run(name+"/1B", func(b *testing.B) { benchLexer(b, in, 1, 1) })
		b.Run(name+"/Reader1B", func(b *testing.B) {
			r := sse.NewReader(&loopReader{in: in}, nil)
			r.Next() // grow the buffers before the timer starts
			r.Next()
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				if !r.Next() {
					b.Fatal("no frame", r.Err())
				}
			}
		})
	}
}

// loopReader returns one byte per Read, repeating in forever.
type loopReader struct {
	in []byte
	i  int
}

func (r *loopReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	p[0] = r.in[r.i]
	r.i = (r.i + 1) % len(r.in)
	return 1, nil
}
