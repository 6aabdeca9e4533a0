package parser

import (
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/sse"
)

// decodeAfter decodes second with a Decoder that decoded first just before,
// and reports whether the Decoder reused the shape of first.
func decodeAfter(d *Decoder, first, second string) (*Event, error, bool) {
	d.Decode(&sse.Frame{Data: []byte(first)})
	ev, err := d.Decode(&sse.Frame{Offset: 9, Seq: 3, ID: []byte("e3"), Data: []byte(second)})
	return ev, err, ev != nil && ev == &d.shape.ev
}

// checkLikeFresh fails when decoding second after first differs in any way
// (nil or empty slices included) from decoding it with a new Decoder.
func checkLikeFresh(t *testing.T, got *Event, gotErr error, second string) {
	t.Helper()
	want, wantErr := new(Decoder).Decode(&sse.Frame{Offset: 9, Seq: 3, ID: []byte("e3"), Data: []byte(second)})
	if wantErr == nil {
		require.NoError(t, gotErr, "a new Decoder gives no error")
	} else {
		require.EqualError(t, gotErr, wantErr.Error(), "the error a new Decoder gives")
	}
	require.Empty(t, cmp.Diff(want, got), "event differs from a new Decoder's (-new +reused)")
}

func TestShapeMatchesFullDecode(t *testing.T) {
	const (
		rest  = `{"artifactUpdate":{"taskId":"t1","contextId":"c1","artifact":{"artifactId":"a1","parts":[{"text":"%"}]},"append":true,"lastChunk":false}}`
		rpc   = `{"jsonrpc":"2.0","id":"req-1","result":{"artifactUpdate":{"taskId":"t1","artifact":{"artifactId":"a1","parts":[{"text":"%"}]},"append":true}}}`
		metas = ` {"artifactUpdate":{"metadata":{"type":"x"},"taskId":"t1","artifact":{"name":"","metadata":{"$usage":{"model":"m","inputTokens":"3"}},` +
			`"parts":[{"mediaType":"text/plain","text":"%","metadata":{"citations":[{"dataPartId":"g"}],"dataPartId":"g2"}}],"description":"d","artifactId":"a1"},"append":true}} `
	)
	with := func(doc, text string) string { return strings.Replace(doc, "%", text, 1) }
	tests := []struct {
		name          string
		first, second string
		reused        bool
	}{
		{"plain", with(rest, "Hello"), with(rest, ", world"), true},
		{"escapes", with(rest, "a"), with(rest, `caf\u00e9 \"q\" \\ \n \ud83d`), true},
		{"escaped first", with(rest, `\u00e9`), with(rest, "b"), true},
		{"empty", with(rest, "a"), with(rest, ""), true},
		{"longer", with(rest, "a"), with(rest, strings.Repeat("dyspnea ", 5000)), true},
		{"JSON-RPC", with(rpc, "a"), with(rpc, "b"), true},
		{"views around the text", with(metas, "a"), with(metas, `b\tc`), true},
		{"raw control character", with(rest, "a"), with(rest, "b\x01c"), false},
		{"bad escape", with(rest, "a"), with(rest, `b\qc`), false},
		{"short unicode escape", with(rest, "a"), with(rest, `b\u00`), false},
		{"trailing backslash", with(rest, "a"), with(rest, `b\`), false},
		{"quote ends the text early", with(rest, "a"), with(rest, `b","url":"c`), false},
		{"quote and a second text", with(rest, "a"), with(rest, `b"},{"text":"c`), false},
		{"tail differs", with(rest, "a"), strings.Replace(with(rest, "b"), `"lastChunk":false`, `"lastChunk":true`, 1), false},
		{"head differs", with(rest, "a"), strings.Replace(with(rest, "b"), `"t1"`, `"t2"`, 1), false},
		{"shorter than the envelope", with(rest, "a"), `{"a":1}`, false},
		{"head only", with(rest, "a"), rest[:strings.Index(rest, "%")], false},
		{"escaped id is not kept", strings.Replace(with(rest, "a"), "t1", `t\u0031`, 1), strings.Replace(with(rest, "b"), "t1", `t\u0031`, 1), false},
		{"two parts are not kept", with(rest, `a"},{"text":"b`), with(rest, `c"},{"text":"d`), false},
		{"null text is not kept", strings.Replace(rest, `"%"`, `null,"url":"u"`, 1), with(rest, "b"), false},
		{"extensions are not kept", strings.Replace(with(rest, "a"), `"parts"`, `"extensions":["x"],"parts"`, 1), strings.Replace(with(rest, "b"), `"parts"`, `"extensions":["x"],"parts"`, 1), false},
		{"status update", with(rest, "a"), `{"statusUpdate":{"taskId":"t1","status":{"state":"TASK_STATE_WORKING"}}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d Decoder
			ev, err, reused := decodeAfter(&d, tt.first, tt.second)
			assert.Equal(t, tt.reused, reused, "reused the shape")
			checkLikeFresh(t, ev, err, tt.second)
		})
	}
}

// TestShapeKeptAcrossOtherEvents checks that a status update or a failed
// frame between two deltas leaves the shape in place, and that Reset
// drops it.
func TestShapeKeptAcrossOtherEvents(t *testing.T) {
	delta := func(s string) *sse.Frame {
		return &sse.Frame{Data: []byte(`{"artifactUpdate":{"taskId":"t","artifact":{"artifactId":"a","parts":[{"text":"` + s + `"}]},"append":true}}`)}
	}
	var d Decoder
	_, err := d.Decode(delta("a"))
	require.NoError(t, err)
	for _, data := range []string{`{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_WORKING"}}}`, `{"artifactUpdate":`} {
		d.Decode(&sse.Frame{Data: []byte(data)})
		ev, err := d.Decode(delta("b"))
		require.NoError(t, err, "after %s", data)
		require.Same(t, &d.shape.ev, ev, "after %s: the shape was not reused", data)
		require.Equal(t, "b", string(ev.ArtifactUpdate.Artifact.Parts[0].Text), "after %s", data)
	}
	d.Reset()
	ev, _ := d.Decode(delta("c"))
	require.NotSame(t, &d.shape.ev, ev, "the shape survived Reset")
}

// FuzzShape decodes a document, then the same document with its text
// string replaced by arbitrary bytes, with one Decoder. Property: the
// second event or error is exactly what a new Decoder gives.
func FuzzShape(f *testing.F) {
	f.Add([]byte(`{"artifactUpdate":{"taskId":"t","artifact":{"artifactId":"a","parts":[{"text":"x"}]},"append":true}}`), []byte(`y\u00e9"`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"artifactUpdate":{"artifact":{"parts":[{"text":"","metadata":{"citations":[]}}],"metadata":{"type":"t"}}}}}`), []byte(`\ud83d\"`))
	f.Add([]byte(`{"artifactUpdate":{"artifact":{"parts":[{"text":"x"}]}}}`), []byte(`a"},{"text":"b"`))
	f.Add([]byte(`{"artifactUpdate":{"artifact":{"parts":[{"text":"x"}]}}}`), []byte("\x00\""))
	f.Fuzz(func(t *testing.T, doc, text []byte) {
		if len(doc) > 1<<14 || len(text) > 1<<14 {
			return
		}
		var d Decoder
		if _, err := d.Decode(&sse.Frame{Data: doc}); err != nil || !d.shape.ok {
			return
		}
		// text replaces the old text and its closing quote.
		second := string(d.shape.head) + string(text) + string(d.shape.tail)
		ev, err := d.Decode(&sse.Frame{Offset: 9, Seq: 3, ID: []byte("e3"), Data: []byte(second)})
		checkLikeFresh(t, ev, err, second)
	})
}

// TestDecoderSameEnvelope checks SameEnvelope's contract along a sequence
// of events decoded by one Decoder: true exactly for a text delta in the
// envelope of the event decoded just before it.
func TestDecoderSameEnvelope(t *testing.T) {
	delta := func(art, s string) string {
		return `{"artifactUpdate":{"taskId":"t","artifact":{"artifactId":"` + art + `","parts":[{"text":"` + s + `"}]},"append":true}}`
	}
	status := `{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_WORKING"}}}`
	var d Decoder
	steps := []struct {
		name  string
		data  string
		reset bool // Reset before this event
		want  bool
	}{
		{"a first delta", delta("a", "x"), false, false},
		{"the next delta", delta("a", `y\n`), false, true},
		{"an empty text", delta("a", ""), false, true},
		{"another event", status, false, false},
		{"a delta after it", delta("a", "z"), false, false},
		{"the next one again", delta("a", "w"), false, true},
		{"two parts", delta("a", `x"},{"text":"y`), false, false},
		{"a bad escape", delta("a", `bad\q`), false, false},
		{"after a failure", delta("a", "v"), false, false},
		{"invalid JSON", `{"artifactUpdate":`, false, false},
		{"another artifact", delta("b", "x"), false, false},
		{"its next delta", delta("b", "y"), false, true},
		{"the first artifact's envelope", delta("a", "x"), false, false},
		{"after Reset", delta("a", "u"), true, false},
		{"and again", delta("a", "t"), false, true},
	}
	for _, st := range steps {
		if st.reset {
			d.Reset()
		}
		d.Decode(&sse.Frame{Data: []byte(st.data)})
		assert.Equal(t, st.want, d.SameEnvelope(), st.name)
	}
}

// TestViewsCoverEveryField walks the types by reflection: every []byte
// field of an artifact update event and of its part must be one of views,
// except the part's payloads, which keep refuses unless nil or the text.
// A field added to Event, Artifact, Part or Metadata later fails here
// until views knows it.
func TestViewsCoverEveryField(t *testing.T) {
	var e Event
	var p Part
	skip := map[uintptr]bool{
		reflect.ValueOf(&p.Text).Pointer(): true, reflect.ValueOf(&p.Raw).Pointer(): true,
		reflect.ValueOf(&p.URL).Pointer(): true, reflect.ValueOf(&p.Data).Pointer(): true,
	}
	want := map[uintptr]string{}
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch {
		case v.Type() == reflect.TypeOf([]byte(nil)):
			if a := v.Addr().Pointer(); !skip[a] {
				want[a] = path
			}
		case v.Kind() == reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		}
	}
	ev := reflect.ValueOf(&e).Elem()
	walk(ev.FieldByName("RPCID"), "RPCID")
	walk(ev.FieldByName("ArtifactUpdate"), "ArtifactUpdate")
	walk(reflect.ValueOf(&p).Elem(), "Part")
	got := map[uintptr]bool{}
	for _, v := range views(&e, &p) {
		got[reflect.ValueOf(v).Pointer()] = true
	}
	for a, path := range want {
		assert.True(t, got[a], "views misses %s", path)
	}
	assert.Len(t, got, len(want), "views has as many fields as the types")
}
