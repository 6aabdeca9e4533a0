//go:build !race

package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFeedAllocatesNothingPerChunk feeds a warm session the chunks of
// token deltas to an open artifact, each delta split in two chunks in the
// middle of a character, records included: a chunk allocates nothing, so
// the module's garbage comes only from new artifacts and the result, not
// from the rate at which the host feeds it. The artifact's text growing by
// doubling is amortised to 0 allocations per run.
func TestFeedAllocatesNothingPerChunk(t *testing.T) {
	const ids = `"taskId":"t1","contextId":"c1"`
	ss := newSession(options(0, 0, 0, 0))
	start := "data: {\"task\":{\"id\":\"t1\",\"contextId\":\"c1\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}\n\n" +
		"id: 1\ndata: {\"artifactUpdate\":{" + ids + ",\"artifact\":{\"artifactId\":\"a1\",\"parts\":[{\"text\":\"The \"}]}}}\n\n"
	out, err := ss.feed(nil, []byte(start))
	require.NoError(t, err)
	delta := []byte("id: 2\ndata: {\"artifactUpdate\":{" + ids + ",\"append\":true,\"artifact\":{\"artifactId\":\"a1\",\"parts\":[{\"text\":\"café \"}]}}}\n\n")
	cut := bytes.Index(delta, []byte("é")) + 1
	// feed is the measured function: its checks call require only on
	// failure, as a testify call would count its own allocations.
	feed := func() {
		out, err = ss.feed(out[:0], delta[:cut])
		if err != nil || len(out) != 0 {
			require.Failf(t, "the first half of a delta", "%d record bytes, %v", len(out), err)
		}
		out, err = ss.feed(out[:0], delta[cut:])
		if err != nil || len(out) == 0 || out[0] != recText {
			require.Failf(t, "the second half of a delta", "records %q, %v", out, err)
		}
	}
	for range 10 {
		feed() // warm up: the lexer's buffer, the records buffer
	}
	assert.Zero(t, testing.AllocsPerRun(200, feed), "allocations of a delta in two chunks")
}
