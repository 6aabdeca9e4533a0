package fuzz

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
)

// refLines splits text into lines as the citations package documents:
// lines end at LF, a CR before the LF is not part of the line, and a final
// LF starts no extra line. NOTE: the package also drops a CR that ends the
// text (the end of the last line), which its doc does not say; the
// reference follows it. It returns each line's start and end offsets.
func refLines(text []byte) (starts, ends []int) {
	for i := 0; i < len(text); {
		j := bytes.IndexByte(text[i:], '\n')
		next := i + j + 1
		if j < 0 {
			j, next = len(text)-i, len(text)
		}
		end := i + j
		if end > i && text[end-1] == '\r' {
			end--
		}
		starts, ends = append(starts, i), append(ends, end)
		i = next
	}
	return starts, ends
}

// lineLocator writes the line range s–e in one of the forms the citations
// package reads, and the form it reports in a LocateError.
func lineLocator(form uint8, s, e int) string {
	a, b := strconv.Itoa(s), strconv.Itoa(e)
	switch form % 6 {
	case 0:
		return `"L` + a + `-L` + b + `"`
	case 1:
		return `"` + a + `-` + b + `"`
	case 2:
		return `"#L` + a + `-L` + b + `"`
	case 3:
		return `{"start":` + a + `,"end":` + b + `}`
	case 4:
		return `{"lines":"` + a + `-` + b + `"}`
	}
	return `"L` + a + `"` // a single line: e is s
}

// FuzzLineRange cites lines s to e of a text part, or of a data part whose
// data is the JSON string of the text, with every locator form. Properties:
// a range of existing lines (1 ≤ s ≤ e ≤ the number of lines) resolves to
// exactly those lines of the text, at their offset, as refLines cuts them;
// any other range fails with ErrLineRange in a *LocateError that names the
// locator; the answer text and the citation's place are untouched.
func FuzzLineRange(f *testing.F) {
	f.Add([]byte("l1\r\nl2\nl3\r\n\nl5\n"), uint16(2), uint16(4), uint8(0), false)
	f.Add([]byte("a\nb\nc"), uint16(0), uint16(1), uint8(1), true)
	f.Add([]byte("a\nb\nc"), uint16(3), uint16(2), uint8(3), false)
	f.Add([]byte("only"), uint16(1), uint16(1), uint8(5), true)
	f.Fuzz(func(t *testing.T, text []byte, s16, e16 uint16, form uint8, data bool) {
		if len(text) > 1<<14 || len(text) == 0 {
			return
		}
		s, e := int(s16)%64, int(e16)%64
		if form%6 == 5 {
			e = s
		}
		cited := parser.Part{Kind: parser.PartText, Text: text, Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"g"}`)}}
		content := text
		if data {
			enc, _ := json.Marshal(string(text))
			var back string
			require.NoError(t, json.Unmarshal(enc, &back))
			content = []byte(back) // invalid UTF-8 came back as U+FFFD
			cited = parser.Part{Kind: parser.PartData, Data: enc, Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"g"}`)}}
		}
		meta := `{"citations":[{"data_part_id":"g","offset":2,"locator":` + lineLocator(form, s, e) + `}]}`
		parts := []parser.Part{{Kind: parser.PartText, Text: []byte("answer"), Metadata: parser.Metadata{Raw: []byte(meta)}}, cited}
		res := citations.Resolve(parts, nil)
		wantText := "answer"
		if !data {
			wantText += string(text) // a cited text part is text of the artifact too
		}
		// The text parts are joined as Artifact.Text joins them: WTF-8
		// surrogate halves that meet become the character they encode.
		wantText = string(joinSurrogates([]byte(wantText)))
		require.Equal(t, wantText, string(res.Text), "text")
		require.Len(t, res.Citations, 1, "citations %+v", res.Citations)
		c := res.Citations[0]
		require.Equal(t, 2, c.ByteOffset, "the citation's ByteOffset")
		starts, ends := refLines(content)
		if s >= 1 && s <= e && e <= len(starts) {
			want := content[starts[s-1]:ends[e-1]]
			require.NoError(t, c.Err, "lines %d-%d of %q", s, e, content)
			require.Equal(t, string(want), string(c.Target), "lines %d-%d of %q: target", s, e, content)
			require.Equal(t, starts[s-1], c.TargetOffset, "lines %d-%d of %q: TargetOffset", s, e, content)
			require.Equal(t, citations.ValueText, c.TargetKind, "lines %d-%d of %q: TargetKind", s, e, content)
			return
		}
		var le *citations.LocateError
		where := []any{"lines %d-%d of %d (locator %s)", s, e, len(starts), lineLocator(form, s, e)}
		require.ErrorIs(t, c.Err, citations.ErrLineRange, where...)
		require.ErrorAs(t, c.Err, &le, where...)
		require.NotEmpty(t, le.Pointer, "the *LocateError names the locator")
		require.Nil(t, c.Target, "a failed citation's target")
	})
}
