package fuzz

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

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
// seen), task id and answer text decode to the Result's, and it reads back
// (json.Unmarshal) to a Result whose document is the same.
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
		require.NoError(t, enc.Encode(string(s)))
		got := resultjson.AppendString(nil, s)
		if utf8.Valid(s) {
			require.Equal(t, strings.TrimSuffix(want.String(), "\n"), string(got), "AppendString(%q) and encoding/json", s)
		}
		var back string
		require.NoError(t, json.Unmarshal(got, &back), "AppendString(%q) = %s", s, got)
		require.Equal(t, whatwgString(s), back, "AppendString(%q) = %s decodes to what TextDecoder gives", s, got)

		res, err := reconstruct.Read(&eofReader{b: in}, nil)
		doc := resultjson.Append(nil, res, err, nil)
		require.True(t, json.Valid(doc), "invalid document %s", doc)
		ind := resultjson.Append(nil, res, err, &resultjson.Options{Indent: true})
		var compact bytes.Buffer
		require.NoError(t, json.Compact(&compact, ind), "invalid indented document")
		require.Equal(t, string(bytes.TrimSuffix(doc, []byte("\n"))), compact.String(), "the indented document compacted")
		// The document reads back to a Result whose document is the same
		// (but for ill-formed UTF-8, read back as U+FFFD, which moves
		// citations).
		var read reconstruct.Result
		require.NoError(t, json.Unmarshal(doc, &read), "reading back %s", doc)
		if !bytes.Contains(doc, []byte(`\ufffd`)) {
			require.Equal(t, string(doc), string(resultjson.Append(nil, &read, read.Err, nil)), "the document read back and written again")
		}
		var m struct {
			State  *string
			TaskID *string `json:"taskId"`
			Answer *struct{ Text string }
		}
		require.NoError(t, json.Unmarshal(doc, &m))
		if res == nil {
			return
		}
		if m.State != nil {
			want := res.State.String()
			if res.State == parser.TaskStateUnspecified {
				// No state seen: the document says "" (or the name).
				require.Contains(t, []string{"", want}, *m.State, "state, Result %v", res.State)
			} else {
				require.Equal(t, want, *m.State, "state")
			}
		}
		if m.TaskID != nil {
			require.Equal(t, whatwgString([]byte(res.TaskID)), *m.TaskID, "taskId, Result %q", res.TaskID)
		}
		require.Equal(t, res.Answer != nil, m.Answer != nil, "an answer in the document as in the Result")
		if m.Answer != nil {
			require.Equal(t, whatwgString(res.Answer.Text()), m.Answer.Text, "answer text, Result %q", res.Answer.Text())
		}
	})
}
