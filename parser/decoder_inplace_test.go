package parser

import (
	"bytes"
	"io/fs"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/internal/samples"
	"github.com/a2astream/a2astream/parser/sse"
)

// decodeBoth decodes data with Decode and, from a copy, with DecodeInPlace,
// each with its own Decoder, and returns both events and the copy.
func decodeBoth(t *testing.T, data []byte) (want, got *Event, inPlace []byte) {
	t.Helper()
	var d1, d2 Decoder
	want, err1 := d1.Decode(&sse.Frame{Seq: 1, Data: data})
	inPlace = bytes.Clone(data)
	got, err2 := d2.DecodeInPlace(&sse.Frame{Seq: 1, Data: inPlace})
	require.Equal(t, err1, err2, "errors")
	return want, got, inPlace
}

// DecodeInPlace gives the event Decode gives; the escaped texts of text
// parts are unescaped over their own JSON strings in the data, and no
// other byte of the data changes, so that the views of other strings and
// the raw views (metadata, data parts) are as Decode's.
func TestDecodeInPlace(t *testing.T) {
	const meta = `"metadata":{"type":"intermediate-thinking","note":"a\"b\\c\u0041","$usage":{"model":"m\u00e9"}}`
	for _, tt := range []struct{ name, json string }{
		{"ASCII", `plain`},
		{"quotes and backslashes", `say \"hi\" \\ C:\\dir\\`},
		{"short escapes", `a\nb\tc\rd\be\ff\/g`},
		{"BMP escapes", `\u00e9\u65E5\u0041`},
		{"surrogate pair", `smile \ud83d\ude00!`},
		{"split pair, first half", `The \ud83d`},
		{"split pair, second half", `\ude00 end`},
		{"two high surrogates", `\ud83d\ud83d\ude00`},
		{"escaped backslash before u", `\\ud83d`},
		{"only escapes", `\n\n\"\\`},
		{"empty", ``},
	} {
		t.Run(tt.name, func(t *testing.T) {
			head := `{"artifactUpdate":{"taskId":"t\u0031","artifact":{"artifactId":"a\n1","name":"n\"",` + meta +
				`,"parts":[{"data":{"k":"v\n\u0041"}},{"text":"`
			tail := `",` + meta + `},{"text":"second one"}]}}}`
			data := []byte(head + tt.json + tail)
			want, got, inPlace := decodeBoth(t, data)
			require.Empty(t, cmp.Diff(want, got), "DecodeInPlace's event differs from Decode's")
			assert.Equal(t, head, string(inPlace[:len(head)]), "the data before the text")
			assert.Equal(t, tail, string(inPlace[len(data)-len(tail):]), "the data after the text")
			text := got.ArtifactUpdate.Artifact.Parts[1].Text
			if len(text) > 0 {
				assert.Same(t, &inPlace[len(head)], unsafe.SliceData(text), "the text is a view of the data")
			}
			second := got.ArtifactUpdate.Artifact.Parts[2].Text
			i := strings.LastIndex(string(data), `second`)
			assert.Same(t, &inPlace[i], unsafe.SliceData(second), "the second text is a view of the data")
		})
	}
}

// Every frame of the samples decodes to the same event in place.
func TestDecodeInPlaceSamples(t *testing.T) {
	names, err := fs.Glob(samples.Streams, "*.sse")
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for _, name := range names {
		in, err := fs.ReadFile(samples.Streams, name)
		require.NoError(t, err)
		lx := sse.NewLexer(nil)
		_, err = lx.Write(in)
		require.NoError(t, err)
		lx.Close()
		n := 0
		for lx.Next() {
			data := bytes.Clone(lx.Frame().Data)
			want, got, _ := decodeBoth(t, data)
			require.Empty(t, cmp.Diff(want, got), "%s frame %d", name, lx.Frame().Seq)
			n++
		}
		require.Positive(t, n, name)
	}
}
