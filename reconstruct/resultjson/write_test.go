package resultjson

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
	"github.com/a2astream/a2astream/reconstruct"
)

// encode is encoding/json's text for v as the CLI writes it: no HTML
// escaping, no final newline.
func encode(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
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
			if got, want := string(appendString(nil, tt.in, false)), encode(t, tt.in); got != want {
				t.Errorf("appendString(%q) = %s, encoding/json %s", tt.in, got, want)
			}
			if got, want := string(AppendString(nil, []byte(tt.in))), encode(t, tt.in); got != want {
				t.Errorf("AppendString(%q) = %s, encoding/json %s", tt.in, got, want)
			}
			marshalled, err := json.Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(appendString(nil, []byte(tt.in), true)); got != string(marshalled) {
				t.Errorf("appendString(%q, html) = %s, json.Marshal %s", tt.in, got, marshalled)
			}
		})
	}
}

func TestFloatMatchesEncodingJSON(t *testing.T) {
	for _, f := range []float64{0, 1, -1, 1.6, 53.08, 0.1, 1e-6, 9.99e-7, 1e-7, 1.5e-10, 123456789, 1e20, 1e21, 1.2345e21, -3e-9, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		w := writer{opts: &Options{}}
		w.float(f)
		if got, want := string(w.b), encode(t, f); got != want {
			t.Errorf("float(%v) = %s, encoding/json %s", f, got, want)
		}
		if !encodable(&reconstruct.Result{Usage: &reconstruct.Usage{Credits: f, Fields: parser.UsageCredits}}) {
			t.Errorf("credits %v refused", f)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if encodable(&reconstruct.Result{Usage: &reconstruct.Usage{Credits: f, Fields: parser.UsageCredits}}) {
			t.Errorf("credits %v accepted; encoding/json refuses them", f)
		}
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
		if err := json.Compact(&want, []byte(raw)); err != nil {
			t.Fatal(err)
		}
		// Whole, and in two pieces cut at every byte.
		for at := range len(raw) + 1 {
			var c compactor
			got := c.append(c.append(nil, []byte(raw[:at])), []byte(raw[at:]))
			if !bytes.Equal(got, want.Bytes()) {
				t.Errorf("compactor(%q | %q) = %s, json.Compact %s", raw[:at], raw[at:], got, want.Bytes())
			}
		}
	}
}

// streams returns the results of the recorded streams of internal/samples.
func streams(t *testing.T) map[string]*reconstruct.Result {
	t.Helper()
	paths, err := filepath.Glob("../../internal/samples/*.sse")
	if err != nil || len(paths) == 0 {
		t.Fatal("no recorded streams in ../../internal/samples", err)
	}
	out := map[string]*reconstruct.Result{}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		res, _ := reconstruct.Read(f, nil)
		f.Close()
		out[filepath.Base(p)] = res
		// The same stream cut in the middle ends truncated.
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		res, _ = reconstruct.Read(bytes.NewReader(data[:len(data)/2]), nil)
		out[filepath.Base(p)+" cut"] = res
	}
	return out
}

func TestIndentMatchesEncodingJSON(t *testing.T) {
	for name, res := range streams(t) {
		t.Run(name, func(t *testing.T) {
			compact := Append(nil, res, res.Err, nil)
			if !json.Valid(compact) {
				t.Fatalf("invalid JSON: %s", compact)
			}
			var want bytes.Buffer
			if err := json.Indent(&want, bytes.TrimSuffix(compact, []byte("\n")), "", "  "); err != nil {
				t.Fatal(err)
			}
			want.WriteByte('\n')
			if got := Append(nil, res, res.Err, &Options{Indent: true}); !bytes.Equal(got, want.Bytes()) {
				t.Errorf("indented document differs from json.Indent of the compact one:\n%s\nwant\n%s", got, want.Bytes())
			}
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
	if err := json.Unmarshal(Append(nil, res, res.Err, nil), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.State != "TASK_STATE_COMPLETED" || doc.Error != nil {
		t.Errorf("state %q, error %v", doc.State, doc.Error)
	}
	want := res.Answer.Citations
	if len(doc.Answer.Citations) != len(want) || len(want) == 0 {
		t.Fatalf("%d citations, want %d", len(doc.Answer.Citations), len(want))
	}
	for i, c := range doc.Answer.Citations {
		if c.ID != string(want[i].ID) || c.UTF16Index != want[i].UTF16Index || !json.Valid(c.Target) {
			t.Errorf("citation %d = %+v, want id %s utf16Index %d", i, c, want[i].ID, want[i].UTF16Index)
		}
	}
}

func TestErrors(t *testing.T) {
	cut := streams(t)["completed.sse cut"]
	var trunc *reconstruct.TruncatedError
	if !errors.As(cut.Err, &trunc) {
		t.Fatalf("cut stream ended with %v", cut.Err)
	}
	ioErr := errors.New("read: connection reset")
	tests := []struct {
		name string
		res  *reconstruct.Result
		err  error
		opts *Options
		want string
	}{
		{"truncated", cut, cut.Err, nil, `"error":{"type":"truncated","message":` + string(appendString(nil, cut.Err.Error(), false)) + `,"taskId":"` + trunc.TaskID + `"`},
		{"syntax", nil, &parser.DecodeError{Offset: 12, Seq: 2, ID: "7", Field: "task.id", Err: parser.ErrInvalidJSON}, nil, `"error":{"type":"syntax","message":`},
		{"syntax place", nil, &parser.DecodeError{Offset: 12, Seq: 2, ID: "7", Field: "task.id", Err: parser.ErrInvalidJSON}, nil, `"offset":12,"seq":2,"id":"7","field":"task.id"}`},
		{"not an event stream", nil, &reconstruct.NotEventStreamError{StatusCode: 200, ContentType: "text/html", Head: []byte("<html>\xff")}, nil, `"httpStatus":200,"contentType":"text/html","head":"<html>\ufffd"}`},
		{"other", nil, ioErr, nil, `"error":{"type":"other","message":"read: connection reset"}`},
		{"error type hook", nil, ioErr, &Options{ErrorType: func(error) string { return "io" }}, `"error":{"type":"io","message":"read: connection reset"}`},
		{"no result", nil, ioErr, nil, `{"state":"","taskId":"","contextId":"","answer":null,"thinking":[],"artifacts":[],"statusMessage":null,"message":null,"usage":null,"lastEventId":"","diagnostics":[],"error":`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(Append(nil, tt.res, tt.err, tt.opts))
			if !strings.Contains(got, tt.want) {
				t.Errorf("document\n%s\nlacks\n%s", got, tt.want)
			}
			if !json.Valid([]byte(got)) {
				t.Errorf("invalid JSON: %s", got)
			}
			// AppendError writes the same member, for the CLI's
			// --events lines.
			member := string(AppendError([]byte("x"), tt.err, tt.opts))
			require.True(t, strings.HasPrefix(member, "x"), "AppendError appends: %s", member)
			assert.True(t, strings.HasSuffix(got, `"error":`+member[1:]+"}\n"), "document\n%s\ndoes not end with the error member\n%s", got, member[1:])
		})
	}
	assert.Equal(t, "null", string(AppendError(nil, nil, nil)), "AppendError of no error")
}

func TestUnrepresentableCreditsGiveTheFallback(t *testing.T) {
	res := &reconstruct.Result{Usage: &reconstruct.Usage{Credits: math.Inf(1), Fields: parser.UsageCredits}}
	if got := string(Append([]byte("x"), res, nil, nil)); got != "x"+fallback+"\n" {
		t.Errorf("got %s", got)
	}
	var b bytes.Buffer
	if err := Write(&b, res, nil, nil); err != nil || b.String() != fallback+"\n" {
		t.Errorf("Write: %q, %v", b.String(), err)
	}
}

// bigResult is a run whose answer has texts, data and raw content of
// several Write chunks, with escapes, multibyte and invalid UTF-8, U+2028
// and whitespace in the data at every distance from a chunk's end.
func bigResult() *reconstruct.Result {
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
	a := &reconstruct.Artifact{ID: "art", Sealed: true, Parts: []reconstruct.Part{
		{Kind: parser.PartText, Text: text},
		{Kind: parser.PartData, Data: data},
		{Kind: parser.PartData, Data: append([]byte("not json "), text...)},
		{Kind: parser.PartRaw, Raw: raw},
		{Kind: parser.PartText, Text: text[:len(text)/3]},
	}}
	return &reconstruct.Result{State: parser.TaskStateCompleted, TaskID: "t", Answer: a, Artifacts: []*reconstruct.Artifact{a}}
}

// pieces records the size of each Write call.
type pieces struct {
	bytes.Buffer
	sizes []int
}

func (p *pieces) Write(b []byte) (int, error) {
	p.sizes = append(p.sizes, len(b))
	return p.Buffer.Write(b)
}

// Write writes, in pieces, the bytes Append appends.
func TestWriteMatchesAppend(t *testing.T) {
	results := streams(t)
	results["big"] = bigResult()
	for name, res := range results {
		for _, opts := range []*Options{nil, {Indent: true}} {
			t.Run(name+" indent "+strconv.FormatBool(opts != nil), func(t *testing.T) {
				want := Append(nil, res, res.Err, opts)
				var got pieces
				require.NoError(t, Write(&got, res, res.Err, opts))
				if !bytes.Equal(got.Bytes(), want) {
					i := 0
					for i < min(got.Len(), len(want)) && got.Bytes()[i] == want[i] {
						i++
					}
					t.Fatalf("Write differs from Append at byte %d of %d: %q, want %q", i, len(want),
						got.Bytes()[i:min(got.Len(), i+40)], want[i:min(len(want), i+40)])
				}
				if name == "big" {
					assert.Greater(t, len(got.sizes), 5, "Write made %d pieces of %d bytes", len(got.sizes), len(want))
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
		k := cut(s, n)
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
	err := Write(w, bigResult(), nil, nil)
	require.EqualError(t, err, "disk full")
	assert.Zero(t, w.after, "writes after the error")
}
