package fuzz

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/resultjson"
)

// whatwgString is what JavaScript's TextDecoder makes of s, and what a
// JSON reader decodes from the document's string for s: each character of
// whatwgUnits that is not one valid UTF-8 sequence is one U+FFFD.
func whatwgString(s []byte) string {
	var b strings.Builder
	pos := whatwgUnits(s)
	for k := 1; k < len(pos); k++ {
		seg := s[pos[k-1].ByteOffset:pos[k].ByteOffset]
		if utf8.Valid(seg) {
			b.Write(seg)
		} else {
			b.WriteString("\uFFFD")
		}
	}
	return b.String()
}

// FuzzResultJSON checks the JSON document of a run, which the command-line
// tool prints with --json and the WebAssembly module returns from
// a2a_result (its Go core is package main, so this is the part of that
// entry that Go tests can reach from here). Properties: a valid UTF-8
// string is written byte for byte as encoding/json's Encoder writes it
// (SetEscapeHTML(false)), and any string decodes to what TextDecoder makes
// of its bytes (one U+FFFD per maximal subpart of an ill-formed sequence);
// for any stream, the document of its run is valid JSON, the indented
// document compacts to the compact one, and its state (empty when none was
// seen), task id and answer text decode to the Result's.
func FuzzResultJSON(f *testing.F) {
	for _, s := range testdataStreams(f) {
		f.Add(s, []byte("café \u2028 <&> \x00\x1f \xed\xa0\xbd \xff"))
	}
	f.Fuzz(func(t *testing.T, in, s []byte) {
		if len(in) > 1<<16 || len(s) > 1<<12 {
			return
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(string(s)); err != nil {
			t.Fatal(err)
		}
		got := resultjson.AppendString(nil, s)
		if utf8.Valid(s) && !bytes.Equal(got, bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
			t.Fatalf("AppendString(%q) = %s, encoding/json writes %s", s, got, want.Bytes())
		}
		var back string
		if err := json.Unmarshal(got, &back); err != nil || back != whatwgString(s) {
			t.Fatalf("AppendString(%q) = %s decodes to %q (%v), TextDecoder gives %q", s, got, back, err, whatwgString(s))
		}

		res, err := reconstruct.Read(&eofReader{b: in}, nil)
		doc := resultjson.Append(nil, res, err, nil)
		if !json.Valid(doc) {
			t.Fatalf("invalid document %s", doc)
		}
		ind := resultjson.Append(nil, res, err, &resultjson.Options{Indent: true})
		var compact bytes.Buffer
		if err := json.Compact(&compact, ind); err != nil {
			t.Fatalf("invalid indented document: %v", err)
		}
		if !bytes.Equal(compact.Bytes(), bytes.TrimSuffix(doc, []byte("\n"))) {
			t.Fatalf("the indented document compacts to\n%s\nnot\n%s", compact.Bytes(), doc)
		}
		var m struct {
			State  *string
			TaskID *string `json:"taskId"`
			Answer *struct{ Text string }
		}
		if err := json.Unmarshal(doc, &m); err != nil {
			t.Fatal(err)
		}
		if res == nil {
			return
		}
		if m.State != nil && *m.State != res.State.String() && !(*m.State == "" && res.State == parser.TaskStateUnspecified) {
			t.Fatalf("state %q, Result %v", *m.State, res.State)
		}
		if m.TaskID != nil && *m.TaskID != whatwgString([]byte(res.TaskID)) {
			t.Fatalf("taskId %q, Result %q", *m.TaskID, res.TaskID)
		}
		if (m.Answer == nil) != (res.Answer == nil) {
			t.Fatalf("answer in the document: %v, in the Result: %v", m.Answer != nil, res.Answer != nil)
		}
		if m.Answer != nil && m.Answer.Text != whatwgString(res.Answer.Text()) {
			t.Fatalf("answer text %q, Result %q", m.Answer.Text, res.Answer.Text())
		}
	})
}
