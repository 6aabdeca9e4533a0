//go:build !race

package parser

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/a2astream/a2astream/parser/sse"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// streamRuns is how many streams a per-stream allocation test averages
// over: enough that the runtime's own occasional allocations round down to
// zero (the reason is in parser/sse's lexer_memory_test.go).
const streamRuns = 25

// TestDecodeAllocs proves that a warm Decoder allocates nothing per event.
func TestDecodeAllocs(t *testing.T) {
	tests := []struct {
		name string
		data string
	}{
		{"artifactUpdate delta", `{"artifactUpdate":{"taskId":"task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62","contextId":"ctx.0192f4c8-3d6b-7c4f-a02b-4d9e7f3c8b51","append":true,"artifact":{"artifactId":"art.0192f4c8-6a9e-7f72-a35e-70c1ac6fbe84","parts":[{"text":"contract "}]}}}`},
		{"artifactUpdate delta with escapes and a split pair", `{"artifactUpdate":{"taskId":"t","append":true,"artifact":{"artifactId":"a","parts":[{"text":"say \"hi\"\n\u2028 \ud83d"}]}}}`},
		{"artifactUpdate JSON-RPC", `{"jsonrpc":"2.0","id":"msg-001","result":{"artifactUpdate":{"taskId":"t","append":true,"artifact":{"artifactId":"a","parts":[{"text":"x"}]}}}}`},
		{"statusUpdate with usage", `{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED","timestamp":"2026-05-19T12:00:01Z"},"metadata":{"$usage":{"model":"corti-default","inputTokens":100,"outputTokens":20,"cachedInputTokens":64,"cacheCreationInputTokens":0,"totalTokens":120,"credits":1.2}}}}`},
		{"statusUpdate with message", `{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_INPUT_REQUIRED","message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"Which patient?"}],"metadata":{"$timestamp":"2026-05-19T12:00:01Z"}}}}}`},
		{"completion close with cited data parts", `{"artifactUpdate":{"taskId":"t","lastChunk":true,"artifact":{"artifactId":"a","parts":[{"text":"Answer [1].","metadata":{"citations":[{"data_part_id":"g1","offset":7,"locator":"/rows/0"}]}},{"data":{"rows":[{"id":1}]},"metadata":{"dataPartId":"g1"}},{"raw":"aGVsbG8="},{"url":"https://x/y"}]}}}`},
		{"task with history and artifacts", `{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"},"history":[{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"q"}],"extensions":["e"],"referenceTaskIds":["r"]},{"messageId":"m2","role":"ROLE_AGENT","parts":[{"text":"a"},{"text":"b"}]}],"artifacts":[{"artifactId":"a1","parts":[{"text":"x"}]},{"artifactId":"a2","name":"n","parts":[{"data":[1,2]}]}],"metadata":{"$usage":{"totalTokens":3}}}}`},
	}
	var d Decoder
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &sse.Frame{Seq: 1, Data: []byte(tt.data)}
			_, err := d.Decode(f)
			require.NoError(t, err)
			allocs := testing.AllocsPerRun(100, func() {
				// testify's arguments allocate: require is called only on failure.
				if _, err := d.Decode(f); err != nil {
					require.NoError(t, err)
				}
			})
			assert.Zero(t, allocs, "Decode allocations per event")
		})
	}
}

// TestDecodeAllocsNewShapes proves that the full decode of a delta, and the
// keeping of its shape, allocate nothing once warm: deltas of two shapes
// in turn are never reused.
func TestDecodeAllocsNewShapes(t *testing.T) {
	frames := []*sse.Frame{
		{Data: []byte(`{"artifactUpdate":{"taskId":"t","append":true,"artifact":{"artifactId":"a","parts":[{"text":"one \u00e9"}]}}}`)},
		{Data: []byte(`{"artifactUpdate":{"taskId":"t","append":true,"artifact":{"artifactId":"b","parts":[{"text":"two"}]}}}`)},
	}
	var d Decoder
	decodeBoth := func() {
		for _, f := range frames {
			// testify's arguments allocate: require is called only on failure.
			ev, err := d.Decode(f)
			if err != nil {
				require.NoError(t, err)
			}
			if ev == &d.shape.ev {
				require.Fail(t, "a delta of the other shape was reused")
			}
		}
	}
	decodeBoth()
	assert.Zero(t, testing.AllocsPerRun(100, decodeBoth), "Decode allocations per two deltas")
}

// bigTextEvent returns an artifact update whose one text part holds about
// size bytes, with escapes.
func bigTextEvent(size int, last bool) []byte {
	line := `The patient reports a \"dry\" cough; no fever.\n` // 48 bytes
	return []byte(`{"artifactUpdate":{"taskId":"task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62","append":` + strconv.FormatBool(!last) +
		`,"lastChunk":` + strconv.FormatBool(last) + `,"artifact":{"artifactId":"art.0192f4c8-6a9e-7f72-a35e-70c1ac6fbe84","parts":[{"text":"` +
		strings.Repeat(line, size/len(line)) + `"}]}}}`)
}

// A Decoder reused with Reset for one stream after another of the same
// kind allocates nothing per stream, large events included: Reset keeps the
// buffers that the stream before it needed.
func TestDecoderReuseAllocs(t *testing.T) {
	status := []byte(`{"statusUpdate":{"taskId":"task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62","status":{"state":"TASK_STATE_COMPLETED","message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"Done \u2014 \"ok\""}]}}}}`)
	var quarter [][]byte
	for i := range 8 {
		quarter = append(quarter, bigTextEvent(256<<10, i == 7))
	}
	for _, tt := range []struct {
		name   string
		events [][]byte
	}{
		{"256 KiB events", append(quarter, status)},
		{"one 10 MB event", [][]byte{bigTextEvent(10_000_000, true), status}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var d Decoder
			stream := func() {
				d.Reset()
				for i, data := range tt.events {
					if _, err := d.Decode(&sse.Frame{Seq: int64(i + 1), Data: data}); err != nil {
						require.NoError(t, err)
					}
				}
			}
			stream()
			allocs := testing.AllocsPerRun(streamRuns, stream)
			assert.Zero(t, allocs, "allocations per stream of a reused Decoder")
		})
	}
}

// A Decoder after Reset keeps nothing of the data it decoded: a pooled
// Decoder does not keep the buffer of the last frame (a lexer's) alive.
func TestDecoderResetKeepsNoData(t *testing.T) {
	var d Decoder
	data := bigTextEvent(8<<20, true)
	_, err := d.Decode(&sse.Frame{Seq: 1, Data: data})
	require.NoError(t, err)
	d.Reset()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	runtime.KeepAlive(data) // alive until here
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	assert.Greater(t, int64(before.HeapAlloc)-int64(after.HeapAlloc), int64(8<<20)*9/10, "heap freed with the frame's data")
	runtime.KeepAlive(&d)
}

// A stream whose large text comes in deltas of one envelope, which the
// Decoder decodes by reusing the first one's parse, also finds its buffer
// kept by Reset: two large deltas after a small one, then a small one.
func TestDecoderReuseAllocsSameEnvelope(t *testing.T) {
	small := bigTextEvent(48, false)
	large := bigTextEvent(4<<20, false)
	events := [][]byte{small, large, large, small}
	var d Decoder
	stream := func() {
		d.Reset()
		for i, data := range events {
			if _, err := d.Decode(&sse.Frame{Seq: int64(i + 1), Data: data}); err != nil {
				require.NoError(t, err)
			}
		}
		if !d.SameEnvelope() {
			require.True(t, d.SameEnvelope(), "the deltas share the first one's envelope")
		}
	}
	stream()
	assert.Zero(t, testing.AllocsPerRun(streamRuns, stream), "allocations per stream of a reused Decoder")
}
