//go:build !race

package reconstruct_test

// This file measures many streams open at once: each a goroutine reading a
// token stream through its own Stream, parked between two events.

import (
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
)

// tokenRun returns the two halves of a realistic token stream, with UUID
// event ids: its head (the task, then deltas of a few tokens, about 60
// events) and its rest (more deltas, the consolidating close and
// COMPLETED). A stream parked between the two has read its head.
func tokenRun(n int) (head, rest []byte, answer string) {
	var b strings.Builder
	var text strings.Builder
	seq := 0
	ev := func(data string) {
		seq++
		b.WriteString("id: " + uuid(n*1000+seq) + "\nevent: message\ndata: " + data + "\n\n")
	}
	ev(task("TASK_STATE_WORKING"))
	ev(status("TASK_STATE_WORKING", message("m-"+uuid(n), "Looking at the notes."), ""))
	words := []string{"The", " patient", " reports", " a", " dry", " cough", " for", " three", " days", ";", " no", " fever", ".", "\n"}
	for i := 0; i < 120; i++ {
		d := words[i%len(words)] + words[(i+3)%len(words)] + words[(i+7)%len(words)]
		text.WriteString(d)
		if i == 0 {
			ev(first(uuid(n+1<<20), d))
		} else {
			ev(more(uuid(n+1<<20), d))
		}
		if i == 59 {
			head = []byte(b.String())
			b.Reset()
		}
	}
	ev(completion(uuid(n+1<<20), text2(text.String())))
	ev(status("TASK_STATE_COMPLETED", "", usage))
	return head, []byte(b.String()), text.String()
}

// netChunk is the size of the writes: a TCP segment's payload.
const netChunk = 1460

// writeAll writes p to s in netChunk writes, reading every update.
func writeAll(s *reconstruct.Stream, p []byte) error {
	for len(p) > 0 {
		n := min(len(p), netChunk)
		if _, err := s.Write(p[:n]); err != nil {
			return err
		}
		for s.Next() {
		}
		p = p[n:]
	}
	return nil
}

// openStreams runs n streams at once, each in its own goroutine, and
// returns the live heap per stream while they are all parked between two
// events, beyond the bytes of text each holds (measured after a GC, the
// streams' inputs allocated before the baseline). It then lets them end
// and checks their answers.
func openStreams(t testing.TB, n int) float64 {
	heads := make([][]byte, n)
	rests := make([][]byte, n)
	answers := make([]string, n)
	for i := range n {
		heads[i], rests[i], answers[i] = tokenRun(i)
	}
	parked := make(chan int, n) // each stream's text bytes held
	resume := make(chan struct{})
	results := make([]*reconstruct.Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	before := heapAfterGC()
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := reconstruct.NewStream(nil)
			if errs[i] = writeAll(s, heads[i]); errs[i] != nil {
				parked <- 0
				return
			}
			held := 0
			if res := s.Result(); len(res.Artifacts) > 0 {
				held = len(res.Artifacts[0].Text())
			}
			parked <- held
			<-resume
			if errs[i] = writeAll(s, rests[i]); errs[i] != nil {
				return
			}
			errs[i] = s.Close()
			results[i] = s.Result()
		}()
	}
	texts := 0
	for range n {
		texts += <-parked
	}
	after := heapAfterGC()
	close(resume)
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i])
		require.Equal(t, answers[i], string(results[i].Answer.Text()))
	}
	runtime.KeepAlive(heads)
	runtime.KeepAlive(rests)
	return (float64(after) - float64(before) - float64(texts)) / float64(n)
}

// maxOpenStream is the bound on the live heap of an open stream parked
// between events, beyond the text it holds (issue 20's goal).
const maxOpenStream = 16 << 10

// An open Stream parked between events holds at most 16 KiB beyond its
// texts: the buffers an event needs while it is in flight are not kept
// large between events.
func TestOpenStreamsHeap(t *testing.T) {
	per := openStreams(t, 2000)
	t.Logf("%.0f bytes per open stream beyond its text", per)
	assert.LessOrEqual(t, per, float64(maxOpenStream), "live heap per open stream")
}

// BenchmarkOpenStreams opens 10,000 streams at once and reports the live
// heap per stream parked between events, beyond its text (B/stream).
func BenchmarkOpenStreams(b *testing.B) {
	for range b.N {
		b.ReportMetric(openStreams(b, 10_000), "B/stream")
	}
}

// A Stream reused with Reset keeps its lexer and decoder with their
// buffers: a run of 32 KiB reads allocates per stream what its Result
// holds (about 6.5 KB for this run), not a lexer's read buffer again (39 KB
// in all before).
func TestStreamReuseKeepsBuffers(t *testing.T) {
	head, rest, answer := tokenRun(1)
	in := append(head, rest...)
	s := reconstruct.NewStream(nil)
	run := func() {
		s.Reset(nil)
		for p := in; len(p) > 0; {
			n := min(len(p), sse.ReadSize)
			if _, err := s.Write(p[:n]); err != nil {
				require.NoError(t, err)
			}
			for s.Next() {
			}
			p = p[n:]
		}
		if err := s.Close(); err != nil {
			require.NoError(t, err)
		}
		for s.Next() {
		}
	}
	run()
	require.Equal(t, answer, string(s.Result().Answer.Text()))
	const runs = 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		run()
	}
	runtime.ReadMemStats(&after)
	perStream := (after.TotalAlloc - before.TotalAlloc) / runs
	t.Logf("%d bytes allocated per reused stream", perStream)
	assert.Less(t, perStream, uint64(sse.ReadSize), "bytes allocated per stream by a reused Stream")
}
