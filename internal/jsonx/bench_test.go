package jsonx

import (
	"strings"
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

// benchEscaped is a clinical text as a JSON string's contents, dense with
// escapes: accents, quotes, a newline and a surrogate pair.
var benchEscaped = []byte(strings.Repeat(`Le patient pr\u00e9sente une toux \"s\u00e8che\" depuis 3 jours.\nTA 12/8 \ud83e\ude7a `, 50))

// BenchmarkAppendUnescaped measures the unescaper on a text dense with
// escapes, under the decoder's policy.
func BenchmarkAppendUnescaped(b *testing.B) {
	var dst []byte
	b.SetBytes(int64(len(benchEscaped)))
	b.ReportAllocs()
	bad := -1
	for b.Loop() {
		dst, bad = AppendUnescaped(dst[:0], benchEscaped, SurrogateWTF8)
	}
	require.Equal(b, -1, bad, "bad escape")
}
