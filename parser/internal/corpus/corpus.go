// Package corpus generates the synthetic A2A token-streaming SSE stream that
// the benchmarks and allocation tests of package parser and package sse
// read, so that both measure the same bytes.
package corpus

import "strconv"

// Tokens generates an A2A token-streaming SSE stream of about n
// frames, shaped like Corti's: every event has an id line and one data
// line; a task snapshot opens each run, then artifactUpdate token deltas
// (non-ASCII included), a consolidated lastChunk close and a COMPLETED
// statusUpdate with $usage; a ": keep-alive" comment every 50 frames. Runs
// repeat until n frames are written. The output is deterministic.
func Tokens(n int) []byte {
	const (
		task = "task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62"
		ctx  = "ctx.0192f4c8-3d6b-7c4f-a02b-4d9e7f3c8b51"
	)
	words := []string{"The ", "patient ", "reports ", "mild ", "intermittent ", "asthma", ", ", "café ", "au ", "lait ",
		"spots; ", "血压 ", "正常 ", "🩺 ", "no ", "wheeze ", "on ", "auscultation", ". ", "Plan: ", "salbutamol ", "PRN", ".\n"}
	var b []byte
	frame := 0
	event := func(data []byte) {
		frame++
		b = append(b, "id: "...)
		b = strconv.AppendInt(b, int64(frame), 10)
		b = append(b, "\ndata: "...)
		b = append(b, data...)
		b = append(b, "\n\n"...)
		if frame%50 == 0 {
			b = append(b, ": keep-alive\n\n"...)
		}
	}
	var d, answer []byte
	for run := 0; frame < n; run++ {
		art := "art.0192f4c8-" + strconv.Itoa(5000+run%5000) + "-7a1b-8c2d-3e4f5a6b7c8d"
		d = append(d[:0], `{"task":{"id":"`+task+`","contextId":"`+ctx+`","status":{"state":"TASK_STATE_WORKING","timestamp":"2026-05-19T12:00:00Z"}}}`...)
		event(d)
		answer = answer[:0]
		for i := 0; i < 60 && frame < n-2; i++ {
			w := words[(i+run)%len(words)]
			answer = append(answer, w...)
			d = append(d[:0], `{"artifactUpdate":{"taskId":"`+task+`","contextId":"`+ctx+`",`...)
			if i > 0 {
				d = append(d, `"append":true,`...)
			}
			d = append(d, `"artifact":{"artifactId":"`+art+`","parts":[{"text":`...)
			d = strconv.AppendQuote(d, w)
			d = append(d, `}]}}}`...)
			event(d)
		}
		d = append(d[:0], `{"artifactUpdate":{"taskId":"`+task+`","contextId":"`+ctx+`","lastChunk":true,"artifact":{"artifactId":"`+art+`","parts":[{"text":`...)
		d = strconv.AppendQuote(d, string(answer))
		d = append(d, `}]}}}`...)
		event(d)
		d = append(d[:0], `{"statusUpdate":{"taskId":"`+task+`","contextId":"`+ctx+`","status":{"state":"TASK_STATE_COMPLETED","timestamp":"2026-05-19T12:00:01Z"},"metadata":{"$usage":{"model":"corti-default","inputTokens":100,"outputTokens":60,"totalTokens":160,"credits":1.6}}}}`...)
		event(d)
	}
	return b
}

// Frames is the number of frames of the corpus that the benchmarks read.
const Frames = 20000
