package jsonx

import (
	"bytes"
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

// longDoc returns an artifact update whose one text has about n bytes of
// prose, every non-ASCII character written as a \u escape when escaped is
// set, raw otherwise (the shapes of bench's large corpus).
func longDoc(n int, escaped bool) []byte {
	word := `dyspnea on exertion, café 血压 noted `
	if escaped {
		word = `dyspnea on exertion, caf\u00e9 \u8840\u538b \"noted\"\n`
	}
	return []byte(`{"artifactUpdate":{"taskId":"t","artifact":{"artifactId":"a","parts":[{"text":"` +
		strings.Repeat(word, n/len(word)+1) + `"}]}}}`)
}

// BenchmarkParseLongText measures Parse on a 256 KiB text delta, with raw
// UTF-8 and with dense escapes: the string scan dominates.
func BenchmarkParseLongText(b *testing.B) {
	for _, escaped := range []bool{false, true} {
		doc := longDoc(256<<10, escaped)
		name := map[bool]string{false: "raw", true: "escaped"}[escaped]
		b.Run(name, func(b *testing.B) {
			var p Parser
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Parse(doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppendUnescapedLong measures the unescaper on the escaped 256
// KiB text of BenchmarkParseLongText.
func BenchmarkAppendUnescapedLong(b *testing.B) {
	doc := longDoc(256<<10, true)
	s := doc[bytes.Index(doc, []byte(`"text":"`))+8 : len(doc)-6]
	var dst []byte
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	bad := -1
	for b.Loop() {
		dst, bad = AppendUnescaped(dst[:0], s, SurrogateWTF8)
	}
	require.Equal(b, -1, bad, "bad escape")
}

// BenchmarkUnescapeStringToken measures UnescapeString on a token delta's
// text, as the decoder checks it once per event of a token stream.
func BenchmarkUnescapeStringToken(b *testing.B) {
	data := []byte(`{"text":" the quick brown"}`)
	var dst []byte
	end, ok := 0, false
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		dst, end, _, ok = UnescapeString(dst[:0], data, 8)
	}
	require.True(b, ok, "valid string")
	require.Equal(b, len(data)-1, end, "end of the string")
}
