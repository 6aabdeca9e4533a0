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

// longText returns a text string's contents of about 200 bytes with esc
// at its start, within its first 64 bytes and well past them, and runs of
// plain text between.
func longText(esc string) string {
	run := strings.Repeat("plain text ", 4)
	return esc + run + esc + strings.Repeat("x", 30) + run + esc + run + esc + run + esc
}

// Long texts with escapes, which the parser of DecodeInPlace unescapes
// over themselves as it checks them, decode as Decode decodes them,
// wherever a stream response holds a text part; the same strings where
// the Event keeps a raw view (metadata, a data part, an unknown payload,
// an error's details, the JSON-RPC id) are left as received; and invalid
// ones fail as with Decode, at the same offset.
func TestDecodeInPlaceLongTexts(t *testing.T) {
	escapes := []struct{ name, esc string }{
		{"quote", `\"`},
		{"backslash", `\\`},
		{"slash", `\/`},
		{"control letters", `\b\f\n\r\t`},
		{"BMP", `\u00e9\u65E5\u0041\u0000\u001f`},
		{"surrogate pair", `\ud83d\ude00`},
		{"lone high", `\ud83d`},
		{"lone low", `\ude00`},
		{"high then pair", `\ud83d\ud83d\ude00`},
		{"low then high", `\udc00\ud800`},
		{"escaped backslash before u", `\\ud83d`},
		{"uppercase hex", `\uD83D\uDE00\u00C9`},
	}
	shapes := []struct{ name, doc string }{
		{"artifact update", `{"artifactUpdate":{"taskId":"t","artifact":{"artifactId":"a","parts":[{"text":"‹›"}]},"append":true}}`},
		{"snake case", `{"artifact_update":{"artifact":{"parts":[{"data":{"text":"‹›"}},{"text":"‹›","metadata":{"text":"‹›"}}]}}}`},
		{"message", `{"message":{"role":"ROLE_AGENT","parts":[{"text":"‹›"},{"text":"‹›"}],"metadata":{"text":"‹›","type":"‹›"}}}`},
		{"status update", `{"statusUpdate":{"status":{"state":"TASK_STATE_WORKING","message":{"parts":[{"text":"‹›"}]}}}}`},
		{"task", `{"task":{"id":"t","status":{"message":{"parts":[{"text":"‹›"}]}},"history":[{"parts":[{"text":"‹›"}]},{"parts":[{"data":["‹›"]},{"text":"‹›"}]}],"artifacts":[{"parts":[{"text":"‹›"}]}],"metadata":{"parts":[{"text":"‹›"}]}}}`},
		{"JSON-RPC", `{"jsonrpc":"2.0","id":"‹›","result":{"message":{"parts":[{"text":"‹›"}]}}}`},
		{"JSON-RPC with an ignored payload beside", `{"message":{"parts":[{"text":"‹›"}]},"jsonrpc":"2.0","id":1,"result":{"artifactUpdate":{"artifact":{"parts":[{"text":"‹›"}]}}}}`},
		{"unknown payload", `{"newPayload":{"message":{"parts":[{"text":"‹›"}]},"parts":[{"text":"‹›"}]}}`},
		{"JSON-RPC unknown payload", `{"jsonrpc":"2.0","id":"‹›","result":{"newPayload":{"parts":[{"text":"‹›"}]}}}`},
		{"error document", `{"error":{"code":3,"message":"‹›","details":[{"parts":[{"text":"‹›"}]},{"reason":"‹›","metadata":{"text":"‹›"}}]}}`},
		{"JSON-RPC error", `{"jsonrpc":"2.0","id":"‹›","error":{"code":-1,"message":"‹›","data":{"message":{"parts":[{"text":"‹›"}]}}}}`},
		{"escaped key", `{"message":{"parts":[{"t\u0065xt":"‹›"}]}}`},
	}
	for _, sh := range shapes {
		for _, e := range escapes {
			t.Run(sh.name+"/"+e.name, func(t *testing.T) {
				data := []byte(strings.ReplaceAll(sh.doc, "‹›", longText(e.esc)))
				want, got, _ := decodeBoth(t, data)
				require.NotNil(t, want)
				require.Empty(t, cmp.Diff(want, got), "DecodeInPlace's event differs from Decode's")
			})
		}
	}
	// at is the offset in text of the offending byte, -1 for the end of
	// the data.
	bad := []struct {
		name, text string
		at         int
	}{
		{"unknown escape", `\q`, 0},
		{"short u escape", `\u12"`, 0},
		{"non-hex digit", `\u12g4`, 0},
		{"raw control character", "\x01", 0},
		{"raw newline", "ab\n", 2},
		{"no closing quote", `\u0041 and then the end`, -1},
		{"backslash at the end", `\`, -1},
	}
	for _, b := range bad {
		for _, where := range []struct{ name, before, after string }{
			{"in the first 64 bytes", `\n`, strings.Repeat("y", 150) + `\n`},
			{"past the first 64 bytes", longText(`\t`), longText(`\u00e9`)},
			{"between a pair's halves", longText(`\n`) + `\ud83d`, `\ude00`},
		} {
			t.Run("invalid/"+b.name+"/"+where.name, func(t *testing.T) {
				head := `{"message":{"parts":[{"text":"` + longText(`\"`) + `"},{"text":"` + where.before
				doc := head + b.text
				pos := len(head) + b.at
				if b.at < 0 {
					pos = len(doc)
				} else {
					doc += where.after + `"}]}}`
				}
				want, got, _ := decodeBoth(t, []byte(doc))
				assert.Nil(t, want)
				assert.Nil(t, got)
				var de *DecodeError
				_, err := new(Decoder).DecodeInPlace(&sse.Frame{Data: []byte(doc)})
				require.ErrorAs(t, err, &de)
				assert.ErrorIs(t, err, ErrInvalidJSON)
				assert.Equal(t, pos, de.JSONOffset, "the offending byte")
				assert.Equal(t, "/message/parts/1/text", de.JSONPointer)
			})
		}
	}
	t.Run("invalid after a text", func(t *testing.T) {
		doc := `{"message":{"parts":[{"text":"` + longText(`\ud83d\ude00`) + `"}],"metadata":{"a":tru}}}`
		want, got, _ := decodeBoth(t, []byte(doc))
		assert.Nil(t, want)
		assert.Nil(t, got)
	})
}

// A delta whose data DecodeInPlace changed outside its text (a long text
// the decoder ignores, beside a JSON-RPC result, unescaped over itself)
// is not kept for the delta shortcut: a next frame with those changed
// bytes, invalid JSON here, fails as Decode fails, rather than matching
// the kept head.
func TestDecodeInPlaceShapeIgnoredText(t *testing.T) {
	ignored := `{"message":{"parts":[{"text":"` + longText(`\"`) + `"}]},"jsonrpc":"2.0","id":1,"result":{"artifactUpdate":{"artifact":{"parts":[{"text":"`
	tail := `"}]},"append":true}}}`
	first := []byte(ignored + `one` + tail)
	var d Decoder
	ev, err := d.DecodeInPlace(&sse.Frame{Seq: 1, Data: first})
	require.NoError(t, err)
	require.Equal(t, "one", string(ev.ArtifactUpdate.Artifact.Parts[0].Text))
	head := first[:len(ignored)]
	require.NotEqual(t, ignored, string(head), "the ignored text is unescaped over itself")
	next := []byte(string(head) + `two` + tail)
	wantEv, want := new(Decoder).Decode(&sse.Frame{Seq: 2, Data: bytes.Clone(next)})
	require.Error(t, want, "the changed bytes are no JSON")
	got, err := d.DecodeInPlace(&sse.Frame{Seq: 2, Data: next})
	require.Equal(t, want, err)
	require.Empty(t, cmp.Diff(wantEv, got))
	// The first frame's shape was not kept.
	require.False(t, d.SameEnvelope())
}
