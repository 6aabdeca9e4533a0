package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// svgCounts decodes an SVG document with encoding/xml, so that it fails on
// anything that is not well-formed XML, and counts its elements by name
// and class, and the texts of the title elements.
func svgCounts(t *testing.T, doc []byte) (root string, byClass map[string]int, titles []string) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	byClass = map[string]int{}
	depth := 0
	inTitle := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, "well-formed XML")
		switch el := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				root = el.Name.Local
			}
			depth++
			for _, a := range el.Attr {
				if a.Name.Local == "class" {
					byClass[el.Name.Local+"."+a.Value]++
				}
			}
			inTitle = el.Name.Local == "title"
		case xml.EndElement:
			depth--
			inTitle = false
		case xml.CharData:
			if inTitle {
				titles = append(titles, string(el))
			}
		}
	}
	require.Zero(t, depth, "every element closed")
	return root, byClass, titles
}

// TestWriteSVG checks the chart: well-formed XML with an svg root, one bar
// per measured implementation and corpus, one limit marker per corpus
// whose limit was measured, names with XML's special characters escaped.
func TestWriteSVG(t *testing.T) {
	tests := []struct {
		name         string
		groups       []chartGroup
		bars, limits int
		wantInTitles []string
	}{
		{
			name: "two corpora",
			groups: []chartGroup{
				{Corpus: "a2a", Limit: 9475, Bars: []chartBar{
					{Impl: "a2astream lexer", MBs: 5438, Ours: true},
					{Impl: "go-sse", MBs: 458},
					{Impl: "go-sse + encoding/json", MBs: 49.4},
				}},
				{Corpus: "answer10m", Limit: 17000, Bars: []chartBar{
					{Impl: "a2astream lexer+decoder", MBs: 803, Ours: true},
					{Impl: "go-sse", MBs: 0.07, Capped: true},
				}},
			},
			bars: 5, limits: 2,
			wantInTitles: []string{"go-sse on answer10m: 0.07 MB/s", "limit on a2a: 9475 MB/s"},
		},
		{
			name: "no limit measured, names to escape",
			groups: []chartGroup{
				{Corpus: `<a&b>`, Bars: []chartBar{{Impl: `"x" & <y>`, MBs: 1}}},
			},
			bars: 1, limits: 0,
			wantInTitles: []string{`"x" & <y> on <a&b>: 1.00 MB/s`},
		},
		{name: "empty", bars: 0, limits: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, writeSVG(&buf, tc.groups))
			root, byClass, titles := svgCounts(t, buf.Bytes())
			assert.Equal(t, "svg", root)
			assert.Equal(t, tc.bars, byClass["rect.bar"], "one bar per measured pair")
			assert.Equal(t, tc.limits, byClass["line.limit"], "one limit marker per corpus with a limit")
			assert.Equal(t, len(tc.groups), byClass["g.corpus"], "one group per corpus")
			assert.Positive(t, byClass["line.tick"], "a scale")
			all := strings.Join(titles, "\n")
			for _, w := range tc.wantInTitles {
				assert.Contains(t, all, w)
			}
		})
	}
}

// TestChartGroups checks that the chart takes the 4 KiB rows of a run: a
// bar per implementation measured, the limit of each corpus, and a capped
// peer marked.
func TestChartGroups(t *testing.T) {
	st := map[string]stats{
		"Read/ours-lexer/a2a/4KiB":          {present: true, mbs: 5000},
		"Read/gosse/a2a/4KiB":               {present: true, mbs: 450},
		"Read/fastjson-alone/a2a/whole":     {present: true, mbs: 600},
		"Read/limit-indexbyte/a2a/4KiB":     {present: true, mbs: 9000},
		"Read/ours-lexer/a2a/whole":         {present: true, mbs: 7000},
		"Read/ours-decoder/answer10m/4KiB":  {present: true, mbs: 800},
		"Read/gosse/answer10m/4KiB":         {present: true, mbs: 5},
		"Read/limit-indexbyte/answer10m/1B": {present: true, mbs: 100},
		"Read/launchdarkly/a2a/4KiB":        {present: true, mbs: 140},
		"Read/limit-indexbyte/uuid/4KiB":    {present: true, mbs: 9000},
	}
	gs := chartGroups(st)
	require.Len(t, gs, 2, "a2a and answer10m have bars; uuid only a limit")
	assert.Equal(t, "a2a", gs[0].Corpus)
	assert.Equal(t, 9000.0, gs[0].Limit)
	assert.Equal(t, []chartBar{
		{Impl: "a2astream lexer", MBs: 5000, Ours: true},
		{Impl: "fastjson payloads alone", MBs: 600},
		{Impl: "go-sse", MBs: 450},
	}, gs[0].Bars)
	assert.Equal(t, "answer10m", gs[1].Corpus)
	assert.Zero(t, gs[1].Limit, "no 4 KiB limit measured")
	assert.Equal(t, []chartBar{
		{Impl: "a2astream lexer+decoder", MBs: 800, Ours: true},
		{Impl: "go-sse", MBs: 5, Capped: true},
	}, gs[1].Bars)
}
