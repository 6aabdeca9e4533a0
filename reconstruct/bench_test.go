package reconstruct_test

import (
	"bytes"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
)

// benchCorpus generates one long A2A token-streaming run of about n frames
// (REST binding, an id line and one data line per event, a keep-alive
// comment every 50 frames): a task snapshot, then narrations of 60 token
// deltas each (ASCII, accented, CJK and emoji words), closed alternately as
// intermediate thinking followed by a WORKING status, or by a consolidating
// completion close, and a COMPLETED status with $usage at the end. The
// output is deterministic.
func benchCorpus(n int) []byte {
	words := []string{"The ", "patient ", "reports ", "mild ", "intermittent ", "asthma", ", ", "café ", "au ", "lait ",
		"spots; ", "血压 ", "正常 ", "🩺 ", "no ", "wheeze ", "on ", "auscultation", ". ", "Plan: ", "salbutamol ", "PRN", ".\n"}
	var b strings.Builder
	frames := 0
	event := func(data string) {
		frames++
		b.WriteString("id: " + strconv.Itoa(frames) + "\ndata: " + data + "\n\n")
		if frames%50 == 0 {
			b.WriteString(": keep-alive\n\n")
		}
	}
	event(task("TASK_STATE_WORKING"))
	for k := 0; frames < n-1; k++ {
		art := "art.0192f4c8-" + strconv.Itoa(5000+k) + "-7a1b-8c2d-3e4f5a6b7c8d"
		var text strings.Builder
		for i := 0; i < 60 && frames < n-3; i++ {
			w := words[(i+k)%len(words)]
			text.WriteString(w)
			if i == 0 {
				event(first(art, w))
			} else {
				event(more(art, w))
			}
		}
		if k%2 == 0 {
			event(thinkingClose(art))
			event(status("TASK_STATE_WORKING", "", ""))
		} else {
			event(completion(art, `{"text":"`+esc(text.String())+`"}`))
		}
	}
	event(status("TASK_STATE_COMPLETED", "", usage))
	return []byte(b.String())
}

const benchFrames = 20000

// lexDecode lexes and decodes in, written in chunks of chunk bytes, and
// returns the number of frames.
func lexDecode(b *testing.B, lx *sse.Lexer, dec *parser.Decoder, in []byte, chunk int) int {
	lx.Reset(nil)
	frames := 0
	for p := in; len(p) > 0; {
		c := p[:min(chunk, len(p))]
		p = p[len(c):]
		lx.Write(c)
		for lx.Next() {
			f := lx.Frame()
			if _, err := dec.Decode(f); err != nil {
				b.Fatal(err)
			}
			frames++
		}
	}
	lx.Close()
	return frames
}

// lexDecodeReduce runs in through s, written in chunks of chunk bytes,
// draining the updates.
func lexDecodeReduce(b *testing.B, s *reconstruct.Stream, in []byte, chunk int) {
	s.Reset(nil)
	for p := in; len(p) > 0; {
		c := p[:min(chunk, len(p))]
		p = p[len(c):]
		s.Write(c)
		for s.Next() {
		}
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	for s.Next() {
	}
}

// BenchmarkPipeline measures lex + decode alone and lex + decode + reduce
// (a Stream, updates drained) on the same generated corpus of about
// 20,000 frames, written whole and in 4 KiB chunks. Compare the MB/s of
// LexDecode/x and LexDecodeReduce/x of one run: the reducer's share is the
// difference.
func BenchmarkPipeline(b *testing.B) {
	in := benchCorpus(benchFrames)
	if res, err := reconstruct.Read(strings.NewReader(string(in)), nil); err != nil || res.Answer == nil {
		b.Fatalf("corpus: %v", err)
	}
	for _, chunk := range []int{len(in), 4 << 10} {
		name := "whole"
		if chunk != len(in) {
			name = "4KiB"
		}
		b.Run("LexDecode/"+name, func(b *testing.B) {
			lx := sse.NewLexer(nil)
			var dec parser.Decoder
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				lexDecode(b, lx, &dec, in, chunk)
			}
		})
		b.Run("LexDecodeReduce/"+name, func(b *testing.B) {
			s := reconstruct.NewStream(nil)
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				lexDecodeReduce(b, s, in, chunk)
			}
		})
		// Ratio runs both, one after the other in each iteration, and
		// reports, from the process CPU time each took (interleaved, the
		// two see the same load on a shared machine): the full pipeline's
		// throughput as a percentage of lex + decode alone (pipeline-%),
		// its time as a multiple of theirs (pipeline-x, the figure issue 8
		// bounds by 1.3) and what the reducer adds per frame
		// (reduce-ns/frame).
		b.Run("Ratio/"+name, func(b *testing.B) {
			lx := sse.NewLexer(nil)
			var dec parser.Decoder
			s := reconstruct.NewStream(nil)
			var ld, ldr int64
			frames := 0
			b.SetBytes(int64(2 * len(in)))
			b.ReportAllocs()
			for b.Loop() {
				t0 := processCPU()
				frames += lexDecode(b, lx, &dec, in, chunk)
				t1 := processCPU()
				lexDecodeReduce(b, s, in, chunk)
				t2 := processCPU()
				ld, ldr = ld+t1-t0, ldr+t2-t1
			}
			if ld > 0 && ldr > 0 {
				b.ReportMetric(100*float64(ld)/float64(ldr), "pipeline-%")
				b.ReportMetric(float64(ldr)/float64(ld), "pipeline-x")
				b.ReportMetric(float64(ldr-ld)/float64(frames), "reduce-ns/frame")
			}
		})
	}
}

// longAnswer returns a run streaming one answer of about size bytes in
// 8-byte deltas, then its consolidating close (one event as large as the
// answer) and COMPLETED.
func longAnswer(size int) []byte {
	var b, answer strings.Builder
	b.WriteString(sseStream("l", task("TASK_STATE_WORKING")))
	for i := 0; answer.Len() < size; i++ {
		w := "tok" + strconv.Itoa(i%10) + "é " // 7 bytes
		answer.WriteString(w)
		if i == 0 {
			b.WriteString("data: " + first("a", w) + "\n\n")
		} else {
			b.WriteString("data: " + more("a", w) + "\n\n")
		}
	}
	b.WriteString("data: " + completion("a", text(answer.String())) + "\n\n")
	b.WriteString("data: " + status("TASK_STATE_COMPLETED", "", "") + "\n\n")
	return []byte(b.String())
}

// BenchmarkOneByteWrites feeds a Stream one byte at a time with a 64 KiB
// and a 256 KiB answer: the cost per byte (MB/s) stays the same, the
// pipeline is linear in the input whatever the chunking.
func BenchmarkOneByteWrites(b *testing.B) {
	for _, size := range []int{64 << 10, 256 << 10} {
		in := longAnswer(size)
		b.Run(strconv.Itoa(size>>10)+"KiB", func(b *testing.B) {
			s := reconstruct.NewStream(nil)
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				s.Reset(nil)
				for i := range in {
					s.Write(in[i : i+1])
					for s.Next() {
					}
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReducerApplyDelta applies appended token deltas to one artifact
// with a Reducer (no lexing or decoding): allocs/op rounds to 0 and B/op
// shows only the amortised growth of the artifact's text. Every 4096
// deltas a replacing event starts the artifact over with another text, to
// keep it bounded.
func BenchmarkReducerApplyDelta(b *testing.B) {
	var dec parser.Decoder
	decode := func(data string) *parser.Event {
		f := sse.Frame{Data: []byte(data)}
		ev, err := dec.Decode(&f)
		if err != nil {
			b.Fatal(err)
		}
		return ev
	}
	r := reconstruct.NewReducer(nil)
	f := sse.Frame{Seq: 1, ID: []byte("evt-1")}
	if err := r.Apply(&f, decode(task("TASK_STATE_WORKING"))); err != nil {
		b.Fatal(err)
	}
	restart := parser.NewDecoder()
	// Not "The ": a replay from the start, which would catch up with the
	// text shown and hand out nothing.
	fr := sse.Frame{Data: []byte(first("art-1", "Restart "))}
	restartEv, err := restart.Decode(&fr)
	if err != nil {
		b.Fatal(err)
	}
	delta := decode(more("art-1", "token "))
	b.SetBytes(int64(len("token ")))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if n++; n%4096 == 0 {
			r.Apply(&f, restartEv)
		}
		if err := r.Apply(&f, delta); err != nil {
			b.Fatal(err)
		}
	}
}

// largeAppends returns a run that streams one answer in appends of 256 KiB
// each (events of them, the shape of the large bench corpus), then an
// empty lastChunk and COMPLETED, and the answer's size.
func largeAppends(events int) ([]byte, int) {
	words := []string{"The ", "patient ", "reports ", "\"mild\" ", "pain; ", "naïve ", "ø ", "\n", "— ", "dose "}
	var chunk strings.Builder
	for i := 0; chunk.Len() < 256<<10-200; i++ {
		chunk.WriteString(words[i%len(words)])
	}
	var b strings.Builder
	b.WriteString(sseStream("l", task("TASK_STATE_WORKING")))
	for i := range events {
		up := more("a", chunk.String())
		if i == 0 {
			up = first("a", chunk.String())
		}
		b.WriteString("id: " + strconv.Itoa(i+2) + "\ndata: " + up + "\n\n")
	}
	b.WriteString("data: " + artifactUpdate("a", true, true, "", text("")) + "\n\n")
	b.WriteString("data: " + status("TASK_STATE_COMPLETED", "", "") + "\n\n")
	return []byte(b.String()), events * chunk.Len()
}

// BenchmarkLargeAppends streams 99 appends of 256 KiB into one artifact
// through a reused Stream in 4 KiB writes, and through Read, and lexes and
// decodes the same input alone: the difference is what the reducer adds,
// mostly the growth of the artifact's text (one buffer that the Stream's
// updates show, pieces joined once in Read). alloc-x is the bytes
// allocated per run as a multiple of the answer's.
func BenchmarkLargeAppends(b *testing.B) {
	in, size := largeAppends(99)
	b.Run("LexDecode", func(b *testing.B) {
		lx := sse.NewLexer(nil)
		var dec parser.Decoder
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			lexDecode(b, lx, &dec, in, 4<<10)
		}
	})
	b.Run("LexDecodeReduce", func(b *testing.B) {
		s := reconstruct.NewStream(nil)
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		for b.Loop() {
			lexDecodeReduce(b, s, in, 4<<10)
			if got := len(s.Result().Answer.Text()); got != size {
				b.Fatalf("answer of %d bytes, want %d", got, size)
			}
		}
		runtime.ReadMemStats(&m1)
		b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(b.N)/float64(size), "alloc-x")
	})
	b.Run("Read", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		for b.Loop() {
			res, err := reconstruct.Read(bytes.NewReader(in), nil)
			if err != nil || len(res.Answer.Text()) != size {
				b.Fatalf("answer of %d bytes, want %d; err %v", len(res.Answer.Text()), size, err)
			}
		}
		runtime.ReadMemStats(&m1)
		b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(b.N)/float64(size), "alloc-x")
	})
}
