package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// benchCorpus is the corpus of wasm/bench/stacks.mjs, generated the same
// way: one task, then answer artifacts each typed out in 60 token deltas
// (an id line per event, a keep-alive every 50 events) and closed by a
// consolidating lastChunk, then COMPLETED with $usage; about frames events.
func benchCorpus(frames int) []byte {
	const (
		task = "task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62"
		ctx  = "ctx.0192f4c8-3d6b-7c4f-a02b-4d9e7f3c8b51"
		ids  = `"taskId":"` + task + `","contextId":"` + ctx + `"`
	)
	words := []string{"The ", "patient ", "reports ", "mild ", "intermittent ", "asthma", ", ", "café ", "au ", "lait ",
		"spots; ", "血压 ", "正常 ", "🩺 ", "no ", "wheeze ", "on ", "auscultation", ". ", "Plan: ", "salbutamol ", "PRN", ".\n"}
	quote := func(s string) string { return `"` + strings.ReplaceAll(s, "\n", `\n`) + `"` }
	var b strings.Builder
	n := 0
	event := func(data string) {
		n++
		b.WriteString("id: " + strconv.Itoa(n) + "\ndata: " + data + "\n\n")
		if n%50 == 0 {
			b.WriteString(": keep-alive\n\n")
		}
	}
	event(`{"task":{"id":"` + task + `","contextId":"` + ctx + `","status":{"state":"TASK_STATE_WORKING","timestamp":"2026-05-19T12:00:00Z"}}}`)
	for run := 0; n < frames-62; run++ {
		art := "art.0192f4c8-" + strconv.Itoa(5000+run) + "-7a1b-8c2d-3e4f5a6b7c8d"
		var answer strings.Builder
		for i := range 60 {
			w := words[(i+run)%len(words)]
			answer.WriteString(w)
			appendFlag := ""
			if i > 0 {
				appendFlag = `"append":true,`
			}
			event(`{"artifactUpdate":{` + ids + `,` + appendFlag + `"artifact":{"artifactId":"` + art + `","parts":[{"text":` + quote(w) + `}]}}}`)
		}
		event(`{"artifactUpdate":{` + ids + `,"lastChunk":true,"artifact":{"artifactId":"` + art + `","parts":[{"text":` + quote(answer.String()) + `}]}}}`)
	}
	event(`{"statusUpdate":{` + ids + `,"status":{"state":"TASK_STATE_COMPLETED","timestamp":"2026-05-19T12:00:01Z"},"metadata":{"$usage":{"model":"corti-default","inputTokens":100,"outputTokens":60,"totalTokens":160,"credits":1.6}}}}`)
	return []byte(b.String())
}

// BenchmarkSession runs the corpus of the JS benchmark through a session
// in 200 B and 40 KiB chunks, as a2a_feed and a2a_end do, records
// included: natively it is the Go core's speed, and under GOOS=wasip1 in
// Node (see wasm/bench/bench.mjs) the module's speed without the JS side.
//
//	GOOS=wasip1 GOARCH=wasm go test -exec="node $PWD/wasm/test/go_wasip1_exec.mjs" -run='^$' -bench=Session ./wasm
func BenchmarkSession(b *testing.B) {
	in := benchCorpus(20000)
	for _, chunk := range []int{200, 40 << 10} {
		b.Run(strconv.Itoa(chunk)+"B", func(b *testing.B) {
			var out []byte
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				ss := newSession(options(0, 0, 0, 0))
				for p := in; len(p) > 0; {
					c := p[:min(chunk, len(p))]
					p = p[len(c):]
					out, _ = ss.feed(out[:0], c)
				}
				out, _ = ss.end(out[:0], nil)
				// In the timed loop: require only on failure.
				if len(out) == 0 || out[len(out)-6] != recDone {
					require.Fail(b, "the run did not end with a done record")
				}
			}
		})
	}
}
