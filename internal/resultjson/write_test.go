package resultjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
		if got, want := string(w.b), encode(t, f); got != want || w.bad {
			t.Errorf("float(%v) = %s (bad %v), encoding/json %s", f, got, w.bad, want)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		w := writer{opts: &Options{}}
		if w.float(f); !w.bad {
			t.Errorf("float(%v) was accepted; encoding/json refuses it", f)
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
		if got := appendCompact(nil, []byte(raw)); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("appendCompact(%q) = %s, json.Compact %s", raw, got, want.Bytes())
		}
	}
}

// streams returns the results of the recorded streams of testdata/.
func streams(t *testing.T) map[string]*reconstruct.Result {
	t.Helper()
	paths, err := filepath.Glob("../../testdata/*.sse")
	if err != nil || len(paths) == 0 {
		t.Fatal("no testdata streams", err)
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
		{"syntax", nil, &parser.SyntaxError{Offset: 12, Seq: 2, ID: "7", Field: "task.id", Err: parser.ErrInvalidJSON}, nil, `"error":{"type":"syntax","message":`},
		{"syntax place", nil, &parser.SyntaxError{Offset: 12, Seq: 2, ID: "7", Field: "task.id", Err: parser.ErrInvalidJSON}, nil, `"offset":12,"seq":2,"id":"7","field":"task.id"}`},
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
		})
	}
}

func TestUnrepresentableCreditsGiveTheFallback(t *testing.T) {
	res := &reconstruct.Result{Usage: &reconstruct.Usage{Credits: math.Inf(1), Fields: parser.UsageCredits}}
	if got := string(Append([]byte("x"), res, nil, nil)); got != "x"+fallback+"\n" {
		t.Errorf("got %s", got)
	}
}
