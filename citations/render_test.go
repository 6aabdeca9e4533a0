package citations_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
)

func renderParts() []parser.Part {
	return []parser.Part{
		{Kind: parser.PartText, Text: []byte(`Café "A&B" <ok>.`), Metadata: parser.Metadata{Raw: []byte(`{"citations":[
			{"data_part_id":"p'1","offset":4,"locator":"/x"},
			{"data_part_id":"p2","offset":4,"locator":"L1-L2"},
			{"data_part_id":"p'1","offset":16}]}`)}},
		{Kind: parser.PartData, Data: []byte(`{"x":1}`), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"p'1"}`)}},
		{Kind: parser.PartData, Data: []byte(`"a\nb"`), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"p2"}`)}},
	}
}

func TestAppendRender(t *testing.T) {
	res := citations.Resolve(renderParts(), nil)
	require.Empty(t, res.Diagnostics, "diagnostics")
	require.Len(t, res.Citations, 3, "citations")
	tests := []struct {
		name  string
		style citations.Style
		want  string
	}{
		{"numbered", citations.Numbered, `>>Café[1][2] "A&B" <ok>.[3]`},
		{"footnotes", citations.Footnotes, ">>Café[^1][^2] \"A&B\" <ok>.[^3]\n\n[^1]: p'1 /x\n[^2]: p2 L1-L2\n[^3]: p'1\n"},
		{"html", citations.HTML, `>>Café<sup><a href="#cite-1">1</a></sup><sup><a href="#cite-2">2</a></sup> &#34;A&amp;B&#34; &lt;ok&gt;.<sup><a href="#cite-3">3</a></sup>` +
			"\n<ol class=\"citations\">\n<li id=\"cite-1\" value=\"1\">p&#39;1 /x</li>\n<li id=\"cite-2\" value=\"2\">p2 L1-L2</li>\n<li id=\"cite-3\" value=\"3\">p&#39;1</li>\n</ol>\n"},
		{"unknown style renders numbered", citations.Style(9), `>>Café[1][2] "A&B" <ok>.[3]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := citations.AppendRender([]byte(">>"), res.Text, res.Citations, tt.style)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

func TestAppendRenderFunc(t *testing.T) {
	res := citations.Resolve(renderParts(), nil)
	got := citations.AppendRenderFunc(nil, res.Text, res.Citations, func(dst []byte, c *citations.Resolved) []byte {
		dst = append(dst, "{"...)
		dst = append(dst, c.ID...)
		dst = append(dst, '@')
		dst = strconv.AppendInt(dst, int64(c.UTF16Index), 10)
		return append(dst, '}')
	})
	assert.Equal(t, `Café{p'1@4}{p2@4} "A&B" <ok>.{p'1@16}`, string(got))
}

func TestAppendRenderEdges(t *testing.T) {
	text := []byte("abc")
	tests := []struct {
		name  string
		cites []citations.Resolved
		want  string
	}{
		{"no citations", nil, "abc"},
		{"at start and end", []citations.Resolved{{Number: 1}, {TextPosition: citations.TextPosition{ByteOffset: 3}, Number: 2}}, "[1]abc[2]"},
		{"behind the previous one goes with it", []citations.Resolved{{TextPosition: citations.TextPosition{ByteOffset: 2}, Number: 1}, {TextPosition: citations.TextPosition{ByteOffset: 1}, Number: 2}}, "ab[1][2]c"},
		{"past the end goes to the end", []citations.Resolved{{TextPosition: citations.TextPosition{ByteOffset: 99}, Number: 1}}, "abc[1]"},
		{"negative goes to the start", []citations.Resolved{{TextPosition: citations.TextPosition{ByteOffset: -5}, Number: 1}}, "[1]abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(citations.AppendRender(nil, text, tt.cites, citations.Numbered)))
		})
	}
	assert.Equal(t, "abc", string(citations.AppendRender(nil, text, nil, citations.Footnotes)), "footnotes without citations")
	assert.Equal(t, "abc", string(citations.AppendRender(nil, text, nil, citations.HTML)), "HTML without citations")
}

func TestStrings(t *testing.T) {
	tests := []struct{ got, want string }{
		{citations.CodePoints.String(), "CodePoints"},
		{citations.UTF16.String(), "UTF16"},
		{citations.Unit(7).String(), "Invalid(7)"},
		{citations.LocatorLines.String(), "Lines"},
		{citations.LocatorKind(9).String(), "Invalid(9)"},
		{citations.ValueNull.String(), "Null"},
		{citations.ValueKind(99).String(), "Invalid(99)"},
		{citations.HTML.String(), "HTML"},
		{citations.Style(5).String(), "Invalid(5)"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.got, "String()")
		})
	}
}

// Each distinct target, a cited part with one locator, gets its own
// number, so that a footnote names what its markers point at: two
// locators into one data part are two footnotes, and a repeated
// (part, locator) pair repeats its number. The three styles agree.
func TestNumbersPerTarget(t *testing.T) {
	parts := []parser.Part{
		{Kind: parser.PartText, Text: []byte("diabetes, hypertension, diabetes again, labs."), Metadata: parser.Metadata{Raw: []byte(`{"citations":[
			{"data_part_id":"dp.c","offset":8,"locator":"/conditions/0"},
			{"data_part_id":"dp.c","offset":22,"locator":"/conditions/1"},
			{"data_part_id":"dp.c","offset":38,"locator":"/conditions/0"},
			{"data_part_id":"dp.l","offset":44,"locator":"/0"},
			{"data_part_id":"dp.c","offset":44}]}`)}},
		{Kind: parser.PartData, Data: []byte(`{"conditions":["E11.65","I10"]}`), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"dp.c"}`)}},
		{Kind: parser.PartData, Data: []byte(`[8.2]`), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"dp.l"}`)}},
	}
	res := citations.Resolve(parts, nil)
	require.Empty(t, res.Diagnostics)
	var numbers []int
	for _, c := range res.Citations {
		numbers = append(numbers, c.Number)
	}
	assert.Equal(t, []int{1, 2, 1, 3, 4}, numbers)
	tests := []struct {
		name  string
		style citations.Style
		want  string
	}{
		{"numbered", citations.Numbered, "diabetes[1], hypertension[2], diabetes again[1], labs[3][4]."},
		{"footnotes", citations.Footnotes, "diabetes[^1], hypertension[^2], diabetes again[^1], labs[^3][^4].\n\n" +
			"[^1]: dp.c /conditions/0\n[^2]: dp.c /conditions/1\n[^3]: dp.l /0\n[^4]: dp.c\n"},
		{"html", citations.HTML, `diabetes<sup><a href="#cite-1">1</a></sup>, hypertension<sup><a href="#cite-2">2</a></sup>, ` +
			`diabetes again<sup><a href="#cite-1">1</a></sup>, labs<sup><a href="#cite-3">3</a></sup><sup><a href="#cite-4">4</a></sup>.` +
			"\n<ol class=\"citations\">\n" +
			`<li id="cite-1" value="1">dp.c /conditions/0</li>` + "\n" +
			`<li id="cite-2" value="2">dp.c /conditions/1</li>` + "\n" +
			`<li id="cite-3" value="3">dp.l /0</li>` + "\n" +
			`<li id="cite-4" value="4">dp.c</li>` + "\n</ol>\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(citations.AppendRender(nil, res.Text, res.Citations, tt.style)))
		})
	}
}
