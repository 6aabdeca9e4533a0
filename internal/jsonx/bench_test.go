package jsonx

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// benchDelta is a typical A2A text delta, with one escape in its text.
var benchDelta = []byte(`{"artifactUpdate":{"taskId":"task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62","contextId":"ctx.0192f4c8-3d6b-7c4f-a02b-4d9e7f3c8b51","artifact":{"artifactId":"art.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c63","parts":[{"text":" the caf\u00e9 is open and the weather"}]},"append":true,"lastChunk":false}}`)

// BenchmarkParseDelta measures Parse and the root's members on one delta.
func BenchmarkParseDelta(b *testing.B) {
	var p Parser
	b.SetBytes(int64(len(benchDelta)))
	b.ReportAllocs()
	var fs []Field
	for b.Loop() {
		v, err := p.Parse(benchDelta)
		if err != nil {
			b.Fatal(err)
		}
		fs = p.AppendFields(fs[:0], v)
	}
	require.Len(b, fs, 1, "root members")
}
