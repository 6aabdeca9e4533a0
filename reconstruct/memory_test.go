//go:build !race

package reconstruct_test

// This file holds the memory tests: what a Result keeps alive once Read
// returns, the peak heap of a stream with one large event, the allocations
// of a large answer, and the resident bytes of many open streams. Every
// figure is read from runtime.MemStats after a collection, never from time.

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/reconstruct"
)

// uuid returns the i-th UUID-shaped id, as a2a-go writes event ids.
func uuid(i int) string {
	return fmt.Sprintf("%08x-4e7c-7d50-b13c-%012x", i*2654435761%(1<<32), i)
}

// proseText returns size bytes of answer text in words, with newlines and
// quotes that JSON escapes (so the decoder unescapes them).
func proseText(size int) string {
	var b strings.Builder
	words := []string{"The ", "patient ", "reports ", "\"mild\" ", "pain; ", "naïve ", "ø ", "\n", "— ", "dose "}
	for i := 0; b.Len() < size; i++ {
		b.WriteString(words[i%len(words)])
	}
	return b.String()[:size]
}

// deltaRun returns an SSE stream with UUID ids that streams text in deltas
// of about delta bytes (split on whole characters), then, when consolidate
// is set, the consolidating close carrying the whole text in one event
// (Corti's shape), or else an empty lastChunk delta, then COMPLETED.
func deltaRun(text string, delta int, consolidate bool) []byte {
	var b strings.Builder
	n := 0
	ev := func(data string) {
		n++
		b.WriteString("id: " + uuid(n) + "\ndata: " + data + "\n\n")
	}
	ev(task("TASK_STATE_WORKING"))
	for i := 0; i < len(text); {
		j := min(i+delta, len(text))
		for j < len(text) && text[j]&0xC0 == 0x80 {
			j++
		}
		if i == 0 {
			ev(first("a", text[i:j]))
		} else {
			ev(more("a", text[i:j]))
		}
		i = j
	}
	if consolidate {
		ev(completion("a", text2(text)))
	} else {
		ev(artifactUpdate("a", true, true, "", text2("")))
	}
	ev(status("TASK_STATE_COMPLETED", "", usage))
	return []byte(b.String())
}

// text2 is text (a plain text part), named apart from the parameter above.
func text2(s string) string { return text(s) }

// heapAfterGC returns the live heap after a full collection.
func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// resultBytes returns the bytes of the texts and parts a Result holds: the
// texts, raw and data contents, URLs and metadata of its artifacts' and
// messages' parts.
func resultBytes(res *reconstruct.Result) int {
	n := 0
	parts := func(ps []reconstruct.Part) {
		for _, p := range ps {
			n += len(p.Text) + len(p.Raw) + len(p.URL) + len(p.Data) + len(p.Metadata) + len(p.Filename) + len(p.MediaType)
		}
	}
	for _, a := range res.Artifacts {
		parts(a.Parts)
		n += len(a.Metadata)
	}
	for _, m := range []*reconstruct.Message{res.Message, res.StatusMessage} {
		if m != nil {
			parts(m.Parts)
			n += len(m.Metadata)
		}
	}
	return n
}

// keptAfter returns the live heap that the value run returns keeps alive,
// with the value.
func keptAfter[T any](run func() T) (T, int64) {
	before := heapAfterGC()
	v := run()
	after := heapAfterGC()
	runtime.KeepAlive(v)
	return v, int64(after) - int64(before)
}

// A Result holds only what it owns: once Read returns, or once a Stream is
// closed and dropped, keeping the Result keeps its texts and parts (and
// little else), not the lexer's and decoder's buffers.
func TestResultKeepsOnlyItsOwn(t *testing.T) {
	for _, tc := range []struct {
		name        string
		size        int
		consolidate bool
	}{
		{"130KB deltas", 130_000, false},
		{"130KB deltas and close", 130_000, true},
		{"10MB deltas", 10_000_000, false},
		{"10MB deltas and close", 10_000_000, true},
	} {
		in := deltaRun(proseText(tc.size), 64, tc.consolidate)
		t.Run(tc.name+"/Read", func(t *testing.T) {
			res, kept := keptAfter(func() *reconstruct.Result {
				res, err := reconstruct.Read(bytes.NewReader(in), nil)
				require.NoError(t, err)
				return res
			})
			require.Len(t, res.Answer.Text(), tc.size)
			own := resultBytes(res)
			t.Logf("kept %d bytes for %d of texts and parts: %.3fx", kept, own, float64(kept)/float64(own))
			assert.LessOrEqual(t, float64(kept), 1.2*float64(own), "heap kept alive by the Result")
			runtime.KeepAlive(in) // alive throughout, so not counted
		})
		t.Run(tc.name+"/Stream", func(t *testing.T) {
			res, kept := keptAfter(func() *reconstruct.Result {
				s := reconstruct.NewStream(nil)
				for p := in; len(p) > 0; {
					n := min(len(p), 1460)
					_, err := s.Write(p[:n])
					require.NoError(t, err)
					for s.Next() {
					}
					p = p[n:]
				}
				require.NoError(t, s.Close())
				for s.Next() {
				}
				return s.Result() // the Stream is dropped here
			})
			require.Len(t, res.Answer.Text(), tc.size)
			own := resultBytes(res)
			t.Logf("kept %d bytes for %d of texts and parts: %.3fx", kept, own, float64(kept)/float64(own))
			assert.LessOrEqual(t, float64(kept), 1.2*float64(own), "heap kept alive by the Result")
			runtime.KeepAlive(in) // alive throughout, so not counted
		})
	}
}
