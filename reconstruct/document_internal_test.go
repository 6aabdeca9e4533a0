package reconstruct

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
)

// encode is encoding/json's text for v as the CLI writes it: no HTML
// escaping, no final newline.
func encode(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(v))
	return strings.TrimSuffix(b.String(), "\n")
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"empty", ""},
		{"plain", "hello"},
		{"quote and backslash", `a"b\c`},
		{"short escapes", "\b\f\n\r\t"},
		{"other controls", "\x00\x01\x1f\x7f"},
		{"html", "<a href='x'>&amp;</a>"},
		{"line and paragraph separators", "a\u2028b\u2029c"},
		{"multibyte", "café 血压 🩺"},
		{"invalid utf-8, one byte per subpart", "a\xffb\xc3(c\xed\xa0\x80d"},
		{"lone continuation", "\x80\x80x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := writer{first: true}
			w.str("k", tt.in)
			assert.Equal(t, `"k":`+encode(t, tt.in), string(w.b), "str(%q) and encoding/json", tt.in)
			assert.Equal(t, encode(t, tt.in), string(AppendJSONString(nil, []byte(tt.in))), "AppendJSONString(%q) and encoding/json", tt.in)
			marshalled, err := json.Marshal(tt.in)
			require.NoError(t, err)
			assert.Equal(t, string(marshalled), string(appendString(nil, []byte(tt.in), true)), "appendString(%q, html) and json.Marshal", tt.in)
		})
	}
}

func TestFloatMatchesEncodingJSON(t *testing.T) {
	for _, f := range []float64{0, 1, -1, 1.6, 53.08, 0.1, 1e-6, 9.99e-7, 1e-7, 1.5e-10, 123456789, 1e20, 1e21, 1.2345e21, -3e-9, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		w := writer{opts: &JSONOptions{}}
		w.float(f)
		assert.Equal(t, encode(t, f), string(w.b), "float(%v) and encoding/json", f)
		assert.True(t, encodable(&Result{Usage: &parser.Usage{Credits: f, Fields: parser.UsageCredits}}), "credits %v refused", f)
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		assert.False(t, encodable(&Result{Usage: &parser.Usage{Credits: f, Fields: parser.UsageCredits}}), "credits %v accepted; encoding/json refuses them", f)
	}
}

func TestCompactMatchesEncodingJSON(t *testing.T) {
	for _, raw := range []string{
		`{ "a" : [ 1 , 2 ,{ } , [ ] ] , "b\" c" : " x  y " }`,
		"\n\t{\"k\":\r\n\"v\\\\\"}\n",
		`"\u2028 <&>"`,
		`  123  `,
	} {
		var want bytes.Buffer
		require.NoError(t, json.Compact(&want, []byte(raw)))
		// Whole, and in two sizedWriter cut at every byte.
		for at := range len(raw) + 1 {
			var c compactor
			got := c.append(c.append(nil, []byte(raw[:at])), []byte(raw[at:]))
			assert.Equal(t, want.String(), string(got), "compactor(%q | %q) and json.Compact", raw[:at], raw[at:])
		}
	}
}

// streams returns the results of the recorded streams of internal/samples.
func streams(t *testing.T) map[string]*Result {
	t.Helper()
	paths, err := filepath.Glob("../internal/samples/*.sse")
	require.NoError(t, err)
	require.NotEmpty(t, paths, "no recorded streams in ../internal/samples")
	out := map[string]*Result{}
	for _, p := range paths {
		f, err := os.Open(p)
		require.NoError(t, err)
		res, _ := Read(f, nil)
		f.Close()
		out[filepath.Base(p)] = res
		// The same stream cut in the middle ends truncated.
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		res, _ = Read(bytes.NewReader(data[:len(data)/2]), nil)
		out[filepath.Base(p)+" cut"] = res
	}
	return out
}

func TestIndentMatchesEncodingJSON(t *testing.T) {
	for name, res := range streams(t) {
		t.Run(name, func(t *testing.T) {
			compact := AppendJSON(nil, res, res.Err, nil)
			require.True(t, json.Valid(compact), "invalid JSON: %s", compact)
			var want bytes.Buffer
			require.NoError(t, json.Indent(&want, bytes.TrimSuffix(compact, []byte("\n")), "", "  "))
			want.WriteByte('\n')
			got := AppendJSON(nil, res, res.Err, &JSONOptions{Indent: true})
			assert.Equal(t, want.String(), string(got), "the indented document and json.Indent of the compact one")
		})
	}
}

func TestDocumentFields(t *testing.T) {
	res := streams(t)["citations.sse"]
	var doc struct {
		State  string
		Answer struct {
			Text      string
			Citations []struct {
				ID         string
				UTF16Index int
				Target     json.RawMessage
			}
		}
		Error *struct{ Type string }
	}
	require.NoError(t, json.Unmarshal(AppendJSON(nil, res, res.Err, nil), &doc))
	assert.Equal(t, "TASK_STATE_COMPLETED", doc.State, "state")
	assert.Nil(t, doc.Error, "error")
	want := res.Answer.Citations
	require.NotEmpty(t, want, "the answer's citations")
	require.Len(t, doc.Answer.Citations, len(want), "citations")
	for i, c := range doc.Answer.Citations {
		assert.Equal(t, string(want[i].ID), c.ID, "citation %d: id", i)
		assert.Equal(t, want[i].UTF16Index, c.UTF16Index, "citation %d: utf16Index", i)
		assert.True(t, json.Valid(c.Target), "citation %d: target %s", i, c.Target)
	}
}

func TestErrors(t *testing.T) {
	cut := streams(t)["completed.sse cut"]
	var trunc *TruncatedError
	require.ErrorAs(t, cut.Err, &trunc, "the cut stream's error")
	ioErr := errors.New("read: connection reset")
	tests := []struct {
		name string
		res  *Result
		err  error
		opts *JSONOptions
		want string
	}{
		{"truncated", cut, cut.Err, nil, `"error":{"type":"truncated","message":` + string(appendString(nil, []byte(cut.Err.Error()), false)) + `,"taskId":"` + string(trunc.TaskID) + `"`},
		{"syntax", nil, &parser.DecodeError{Position: sse.Position{Offset: 12, Seq: 2, ID: []byte("7")}, JSONOffset: 9, JSONPointer: "/task/id", Err: parser.ErrInvalidJSON}, nil, `"error":{"type":"syntax","message":`},
		{"syntax place", nil, &parser.DecodeError{Position: sse.Position{Offset: 12, Seq: 2, ID: []byte("7")}, JSONOffset: 9, JSONPointer: "/task/id", Err: parser.ErrInvalidJSON}, nil, `"offset":12,"seq":2,"id":"7","jsonOffset":9,"jsonPointer":"/task/id"}`},
		{"syntax at the first byte of the data", nil, &parser.DecodeError{Position: sse.Position{Offset: 12, Seq: 2}, JSONOffset: 0, Err: parser.ErrInvalidJSON}, nil, `"offset":12,"seq":2,"jsonOffset":0}`},
		{"syntax, data offset unknown", nil, &parser.DecodeError{Position: sse.Position{Offset: 12, Seq: 2}, JSONOffset: -1, Err: parser.ErrInvalidJSON}, nil, `"offset":12,"seq":2}`},
		{"not an event stream", nil, &NotEventStreamError{StatusCode: 200, ContentType: "text/html", Head: []byte("<html>\xff")}, nil, `"httpStatus":200,"contentType":"text/html","head":"<html>\ufffd"}`},
		{"other", nil, ioErr, nil, `"error":{"type":"other","message":"read: connection reset"}`},
		{"error type hook", nil, ioErr, &JSONOptions{ErrorType: func(error) string { return "io" }}, `"error":{"type":"io","message":"read: connection reset"}`},
		{"api, binding unknown", nil, &parser.APIError{Code: 404, Message: "no task"}, nil, `"error":{"type":"api","message":"no task","code":404}`},
		{"api, REST", nil, &parser.APIError{Binding: parser.BindingREST, Code: 404, Message: "no task"}, nil, `"error":{"type":"api","message":"no task","binding":"REST","code":404}`},
		{"no result", nil, ioErr, nil, `{"state":"","taskId":"","contextId":"","answer":null,"thinking":[],"artifacts":[],"statusMessage":null,"message":null,"usage":null,"lastEventId":"","diagnostics":[],"error":`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(AppendJSON(nil, tt.res, tt.err, tt.opts))
			assert.Contains(t, got, tt.want, "the document")
			assert.True(t, json.Valid([]byte(got)), "invalid JSON: %s", got)
			// AppendError writes the same member, for the CLI's
			// --events lines.
			member := string(AppendErrorJSON([]byte("x"), tt.err, tt.opts))
			require.True(t, strings.HasPrefix(member, "x"), "AppendError appends: %s", member)
			assert.True(t, strings.HasSuffix(got, `"error":`+member[1:]+"}\n"), "document\n%s\ndoes not end with the error member\n%s", got, member[1:])
		})
	}
	assert.Equal(t, "null", string(AppendErrorJSON(nil, nil, nil)), "AppendError of no error")
}

func TestUnrepresentableCreditsGiveTheFallback(t *testing.T) {
	res := &Result{Usage: &parser.Usage{Credits: math.Inf(1), Fields: parser.UsageCredits}}
	assert.Equal(t, "x"+fallback+"\n", string(AppendJSON([]byte("x"), res, nil, nil)), "Append")
	var b bytes.Buffer
	require.NoError(t, WriteJSON(&b, res, nil, nil), "Write")
	assert.Equal(t, fallback+"\n", b.String(), "Write")
}

// bigResult is a run whose answer has texts, data and raw content of
// several Write chunks, with escapes, multibyte and invalid UTF-8, U+2028
// and whitespace in the data at every distance from a chunk's end.
func bigResult() *Result {
	var text, data, raw []byte
	piece := []byte("Zoë\t«\"a\\b\"» 血压 🩺 \xe2\x82 \u2028 <&> \x00")
	for len(text) < 5*chunk {
		text = append(text, piece...)
		text = append(text, byte('a'+len(text)%26))
	}
	data = append(data, "{ \"list\" : [\n"...)
	for i := 0; len(data) < 5*chunk; i++ {
		if i > 0 {
			data = append(data, " ,\n\t"...)
		}
		data = append(data, `{"k\"\\" : "v \u00e9 \\\" x", "n": [ 1 , 2 ]}`...)
	}
	data = append(data, "\n] }"...)
	for i := range 3*chunk + 7 {
		raw = append(raw, byte(i*7))
	}
	a := &Artifact{Sealed: true, Artifact: parser.Artifact{ArtifactID: []byte("art"), Parts: []parser.Part{
		{Kind: parser.PartText, Text: text},
		{Kind: parser.PartData, Data: data},
		{Kind: parser.PartData, Data: append([]byte("not json "), text...)},
		{Kind: parser.PartRaw, Raw: raw},
		{Kind: parser.PartText, Text: text[:len(text)/3]},
	}}}
	return &Result{State: parser.TaskStateCompleted, TaskID: "t", Answer: a, Artifacts: []*Artifact{a}}
}

// sizedWriter records the size of each Write call.
type sizedWriter struct {
	bytes.Buffer
	sizes []int
}

func (p *sizedWriter) Write(b []byte) (int, error) {
	p.sizes = append(p.sizes, len(b))
	return p.Buffer.Write(b)
}

// Write writes, in sizedWriter, the bytes Append appends.
func TestWriteMatchesAppend(t *testing.T) {
	results := streams(t)
	results["big"] = bigResult()
	for name, res := range results {
		for _, opts := range []*JSONOptions{nil, {Indent: true}} {
			t.Run(name+" indent "+strconv.FormatBool(opts != nil), func(t *testing.T) {
				want := AppendJSON(nil, res, res.Err, opts)
				var got sizedWriter
				require.NoError(t, WriteJSON(&got, res, res.Err, opts))
				if !bytes.Equal(got.Bytes(), want) {
					// Documents of many MiB: the message shows where they
					// part, not two whole documents.
					i := 0
					for i < min(got.Len(), len(want)) && got.Bytes()[i] == want[i] {
						i++
					}
					require.Failf(t, "Write differs from Append", "at byte %d of %d: %q, want %q", i, len(want),
						got.Bytes()[i:min(got.Len(), i+40)], want[i:min(len(want), i+40)])
				}
				if name == "big" {
					assert.Greater(t, len(got.sizes), 5, "Write made %d sizedWriter of %d bytes", len(got.sizes), len(want))
					for _, n := range got.sizes {
						// An indented piece is at most its compact form
						// plus a newline and indentation per byte.
						assert.LessOrEqual(t, n, 8*(flushAt+6*chunk), "piece of %d bytes", n)
					}
				}
			})
		}
	}
}

// cut never splits a character, so that each side of the cut escapes as
// the whole does.
func TestCut(t *testing.T) {
	s := []byte("a€b😀\xe2\x82c\x80\x80\x80\x80\x80d\xf0\x9f\x98")
	for n := 1; n < len(s); n++ {
		k := cutAt(s, n)
		require.True(t, k > 0 && k <= n, "cut(%d) = %d", n, k)
		whole := appendString(nil, s, false)
		parts := append(append([]byte{'"'}, appendStringBody(nil, s[:k], false)...), appendStringBody(nil, s[k:], false)...)
		require.Equal(t, string(whole), string(append(parts, '"')), "cut at %d (asked %d)", k, n)
	}
}

// errWriter fails once it has taken n bytes, and counts the calls after.
type errWriter struct{ n, after int }

func (w *errWriter) Write(p []byte) (int, error) {
	if w.n < 0 {
		w.after++
	}
	if w.n -= len(p); w.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// Write returns the first error of its writer and stops writing.
func TestWriteError(t *testing.T) {
	w := &errWriter{n: flushAt}
	err := WriteJSON(w, bigResult(), nil, nil)
	require.EqualError(t, err, "disk full")
	assert.Zero(t, w.after, "writes after the error")
}
