package citations_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
)

var sentinels = []error{
	citations.ErrBadMetadata, citations.ErrBadEntry, citations.ErrMissingID, citations.ErrMissingOffset,
	citations.ErrOffsetNotInteger, citations.ErrNegativeOffset, citations.ErrOffsetOutOfRange,
	citations.ErrOffsetSplitsChar, citations.ErrTooManyCitations, citations.ErrUnknownPart,
	citations.ErrDuplicatePartID, citations.ErrNotDataPart, citations.ErrInvalidData,
	citations.ErrLocatorSyntax, citations.ErrUnknownLocator, citations.ErrNoMember, citations.ErrBadIndex,
	citations.ErrIndexRange, citations.ErrNotContainer, citations.ErrNotText, citations.ErrLineRange, citations.ErrScanLimit,
}

// fuzzParts builds an artifact from fuzz input: the text split in two text
// parts at split, meta on the first, extra on the second (which should
// give it the id "t"), and three other cited parts: data "d", data "s" and
// a url part "f". This is the entry point the
// cross-package fuzz targets reuse.
func fuzzParts(text, meta, data []byte, split int, extra []byte) []parser.Part {
	if split < 0 {
		split = -split
	}
	if len(text) > 0 {
		split %= len(text) + 1
	} else {
		split = 0
	}
	return []parser.Part{
		{Kind: parser.PartText, Text: text[:split], Metadata: parser.Metadata{Raw: meta}},
		{Kind: parser.PartData, Data: data, Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"d"}`)}},
		{Kind: parser.PartText, Text: text[split:], Metadata: parser.Metadata{Raw: extra}},
		{Kind: parser.PartData, Data: []byte(`"one\ntwo\nthree"`), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"s"}`)}},
		{Kind: parser.PartURL, Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"f"}`)}},
	}
}

// FuzzResolve checks that no input panics, that every resolved position is
// in bounds and agrees with Convert, that targets are where they say, that
// every diagnostic matches a sentinel, and that rendering keeps the text.
func FuzzResolve(f *testing.F) {
	for _, u := range []citations.Unit{citations.CodePoints, citations.Bytes, citations.UTF16} {
		parts, _, _ := clinicalParts(u)
		f.Add(append(append([]byte{}, parts[0].Text...), parts[2].Text...), parts[0].Metadata.Raw, []byte(conditionsData), uint8(u), 40, 12, "/conditions/0")
	}
	f.Add([]byte("a😀é and more"), []byte(entry(`"d"`, "2", `"/a/b/1"`)), []byte(`{"a":{"b":[1,{"c":null}]}}`), uint8(0), 3, 3, "/a/b/0")
	f.Add([]byte("a😀é\xE2\x82"), []byte(entry(`"s"`, "2", `"L2-L3"`)), []byte(`[]`), uint8(2), 1, 4, "L1")
	f.Add([]byte("xyz"), []byte(entry(`"t"`, "1", `{"start":1}`)), []byte(`"\ud83d"`), uint8(1), 2, 2, "#")
	f.Add([]byte("xyz"), []byte(`{"citations":[{"dataPartId":"d","offset":1.0,"locator":"#/%7e0"},{"data_part_id":"f","offset":3},1]}`), []byte(`{"~":2}`), uint8(0), 0, 0, "/~0")
	f.Fuzz(func(t *testing.T, text, meta, data []byte, unit uint8, split, offset int, locator string) {
		if len(text)+len(meta)+len(data)+len(locator) > 1<<16 {
			return
		}
		u := citations.Unit(unit % 3)
		loc, err := json.Marshal(locator)
		if err != nil {
			return
		}
		extra := []byte(`{"dataPartId":"t","citations":[{"data_part_id":"d","offset":` + strconv.Itoa(offset) + `,"locator":` + string(loc) + `}]}`)
		parts := fuzzParts(text, meta, data, split, extra)
		var r citations.Resolver
		r.Reset(&citations.Options{Unit: u, MaxCitations: 64})
		res := r.Resolve(parts)
		require.Equal(t, string(text), string(res.Text), "joined text")
		prev := 0
		numbers := map[string]int{} // target (part, locator as written) → number
		for i, c := range res.Citations {
			target := fmt.Sprintf("%d %d %q %d-%d %q", c.DataPart, c.Locator.Kind, c.Locator.Pointer, c.Locator.StartLine, c.Locator.EndLine, c.Locator.Raw)
			if c.Locator.Kind != citations.LocatorUnknown {
				target = fmt.Sprintf("%d %d %q %d-%d", c.DataPart, c.Locator.Kind, c.Locator.Pointer, c.Locator.StartLine, c.Locator.EndLine)
			}
			wantNumber, seen := numbers[target]
			if !seen {
				wantNumber = len(numbers) + 1
			}
			require.Equal(t, wantNumber, c.Number, "citation %d (target %s): number; numbers so far %v", i, target, numbers)
			numbers[target] = c.Number
			require.GreaterOrEqual(t, c.ByteOffset, prev, "citation %d: ByteOffset out of order", i)
			require.LessOrEqual(t, c.ByteOffset, len(text), "citation %d: ByteOffset out of bounds", i)
			prev = c.ByteOffset
			p, err := citations.Convert(text, c.Offset, u)
			require.NoError(t, err, "citation %d at %+v: Convert", i, c.TextPosition)
			require.Equal(t, p, c.TextPosition, "citation %d: the position Convert gives", i)
			require.GreaterOrEqual(t, c.DataPart, 0, "citation %d: data part", i)
			require.Less(t, c.DataPart, len(parts), "citation %d: data part", i)
			require.GreaterOrEqual(t, c.Number, 1, "citation %d: number", i)
			if c.Err != nil {
				require.Nil(t, c.Target, "citation %d: Err %v with a target", i, c.Err)
				require.True(t, matchesSentinel(c.Err), "citation %d: Err %v matches no sentinel", i, c.Err)
				continue
			}
			cited := parts[c.DataPart]
			src := cited.Data
			if cited.Kind == parser.PartText {
				src = cited.Text
			}
			if c.TargetKind != citations.ValueText || cited.Kind == parser.PartText {
				end := c.TargetOffset + len(c.Target)
				require.GreaterOrEqual(t, c.TargetOffset, 0, "citation %d: TargetOffset", i)
				require.LessOrEqual(t, end, len(src), "citation %d: target %q at %d past the cited part", i, c.Target, c.TargetOffset)
				require.Equal(t, string(src[c.TargetOffset:end]), string(c.Target), "citation %d: the target is at %d in the cited part", i, c.TargetOffset)
			}
		}
		for _, d := range res.Diagnostics {
			require.True(t, matchesSentinel(d), "diagnostic %v matches no sentinel", d)
			require.GreaterOrEqual(t, d.Part, 0, "diagnostic %v names no part", d)
			require.Less(t, d.Part, len(parts), "diagnostic %v names no part", d)
			require.NotEmpty(t, d.Error(), "diagnostic message")
		}
		plain := citations.AppendRenderFunc(nil, res.Text, res.Citations, func(dst []byte, _ *citations.Resolved) []byte { return dst })
		require.Equal(t, string(text), string(plain), "rendering with empty markers changed the text")
		for _, s := range []citations.Style{citations.Numbered, citations.Footnotes, citations.HTML} {
			citations.AppendRender(nil, res.Text, res.Citations, s)
		}
		again := citations.Resolve(parts, &citations.Options{Unit: u, MaxCitations: 64})
		require.Len(t, again.Citations, len(res.Citations), "citations of a fresh Resolve and of a reset Resolver")
		require.Len(t, again.Diagnostics, len(res.Diagnostics), "diagnostics of a fresh Resolve and of a reset Resolver")
	})
}

func matchesSentinel(err error) bool {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}
