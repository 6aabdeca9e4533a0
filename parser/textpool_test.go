//go:build !race

package parser

import (
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/sse"
)

// A fresh Decoder per stream takes the large text buffer that the last
// one handed back to the pool when its next event came (on WebAssembly,
// the pool's one slot): decoding a 10 MB text allocates a
// fraction of it (the parser's index of its escapes, at most an eighth of
// the data, grown by doubling), not a new buffer that must be cleared.
func TestDecoderLargeTextFromPool(t *testing.T) {
	big := bigTextEvent(10_000_000, true)
	status := []byte(`{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_COMPLETED"}}}`)
	stream := func() {
		var d Decoder
		for i, data := range [][]byte{big, status} {
			ev, err := d.Decode(&sse.Frame{Seq: int64(i + 1), Data: data})
			require.NoError(t, err)
			if i == 0 {
				require.Greater(t, len(ev.ArtifactUpdate.Artifact.Parts[0].Text), 9_000_000, "text")
			}
		}
	}
	stream()
	var per []uint64
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		stream()
		runtime.ReadMemStats(&after)
		per = append(per, after.TotalAlloc-before.TotalAlloc)
	}
	// A collection may empty the pool once between two streams.
	assert.Less(t, slices.Min(per), uint64(10_000_000/3), "bytes allocated per stream of a fresh Decoder (%v)", per)
}
