//go:build !race

package parser

import (
	"testing"

	"github.com/a2astream/a2astream/parser/sse"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
