package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
)

// whatwgUnits splits text the way the WHATWG UTF-8 decoder reads it: each
// valid sequence is one code point (two UTF-16 units above U+FFFF), each
// maximal subpart of an ill-formed sequence, or single bad byte, one
// U+FFFD. It returns every boundary as a TextPosition, from 0 to len(text).
func whatwgUnits(text []byte) []citations.TextPosition {
	pos := []citations.TextPosition{{}}
	var p citations.TextPosition
	for i := 0; i < len(text); {
		c := text[i]
		need, lo, hi := 0, byte(0x80), byte(0xBF)
		switch {
		case c < 0x80:
		case c >= 0xC2 && c <= 0xDF:
			need = 1
		case c == 0xE0:
			need, lo = 2, 0xA0
		case c == 0xED:
			need, hi = 2, 0x9F
		case c >= 0xE1 && c <= 0xEF:
			need = 2
		case c == 0xF0:
			need, lo = 3, 0x90
		case c >= 0xF1 && c <= 0xF3:
			need = 3
		case c == 0xF4:
			need, hi = 3, 0x8F
		default:
			need = -1 // a byte that starts nothing
		}
		j, units := i+1, 1
		if need > 0 {
			got := 0
			for got < need && j < len(text) && text[j] >= lo && text[j] <= hi {
				j, got, lo, hi = j+1, got+1, 0x80, 0xBF
			}
			if got == need && need == 3 {
				units = 2
			}
		}
		p.ByteOffset, p.RuneIndex, p.UTF16Index = j, p.RuneIndex+1, p.UTF16Index+units
		pos = append(pos, p)
		i = j
	}
	return pos
}

var unitNames = []citations.Unit{citations.CodePoints, citations.Bytes, citations.UTF16}

func unitValue(p citations.TextPosition, u citations.Unit) int {
	switch u {
	case citations.Bytes:
		return p.ByteOffset
	case citations.UTF16:
		return p.UTF16Index
	}
	return p.RuneIndex
}

// FuzzOffsets checks citations.Convert against whatwgUnits for any text and
// offset in each unit: an offset at a character boundary converts to that
// boundary's TextPosition in all three units, one inside a character fails
// with ErrOffsetSplitsChar, one past the end with ErrOffsetOutOfRange, a
// negative one with ErrNegativeOffset; and every TextPosition converts back to
// itself from each of its three units.
func FuzzOffsets(f *testing.F) {
	for i, s := range []string{"", "abc", "café 血压 🩺", "\xED\xA0\xBD\xED\xB8\x80", "\xE2\x82a\xF0\x9F\x98", "\xC0\xAF\xFF\x80𝄞", "\xF4\x90\x80\x80"} {
		f.Add([]byte(s), i, uint8(i%3))
		f.Add([]byte(s), -1, uint8(0))
		f.Add([]byte(s), len(s)+1, uint8(1))
	}
	f.Fuzz(func(t *testing.T, text []byte, off int, unit uint8) {
		if len(text) > 1<<14 {
			return
		}
		u := unitNames[int(unit)%3]
		bounds := whatwgUnits(text)
		p, err := citations.Convert(text, off, u)
		var want *citations.TextPosition
		for i := range bounds {
			if unitValue(bounds[i], u) == off {
				want = &bounds[i]
				break
			}
		}
		end := unitValue(bounds[len(bounds)-1], u)
		switch {
		case off < 0:
			require.ErrorIs(t, err, citations.ErrNegativeOffset, "Convert(%d) = %v", off, p)
		case off > end:
			require.ErrorIs(t, err, citations.ErrOffsetOutOfRange, "Convert(%q, %d, %v) = %v (end %d)", text, off, u, p, end)
		case want == nil:
			require.ErrorIs(t, err, citations.ErrOffsetSplitsChar, "Convert(%q, %d, %v) = %v", text, off, u, p)
		default:
			require.NoError(t, err, "Convert(%q, %d, %v)", text, off, u)
			require.Equal(t, *want, p, "Convert(%q, %d, %v)", text, off, u)
		}
		// Round trips, at a boundary drawn from off.
		if len(bounds) > 0 {
			b := bounds[(off%len(bounds)+len(bounds))%len(bounds)]
			for _, v := range unitNames {
				q, err := citations.Convert(text, unitValue(b, v), v)
				require.NoError(t, err, "Convert(%q, %d, %v)", text, unitValue(b, v), v)
				require.Equal(t, b, q, "Convert(%q, %d, %v)", text, unitValue(b, v), v)
			}
		}
	})
}

// refPointer evaluates an RFC 6901 pointer on a value decoded by
// encoding/json; ok is false when it does not resolve.
func refPointer(v any, ptr string) (any, bool) {
	if ptr == "" {
		return v, true
	}
	if ptr[0] != '/' {
		return nil, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		// RFC 6901: "~" is only ever followed by "0" or "1".
		for i := 0; i < len(tok); i++ {
			if tok[i] == '~' {
				if i+1 == len(tok) || tok[i+1] != '0' && tok[i+1] != '1' {
					return nil, false
				}
				i++
			}
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := v.(type) {
		case map[string]any:
			x, ok := c[tok]
			if !ok {
				return nil, false
			}
			v = x
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) || strconv.Itoa(i) != tok {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// uniqueKeys reports whether data is one valid JSON value in which no
// object repeats a key (encoding/json keeps the last duplicate, the
// citations package the first).
func uniqueKeys(data []byte) bool {
	if !json.Valid(data) {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var walk func() bool
	walk = func() bool {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil || seen[k.(string)] {
					return false
				}
				seen[k.(string)] = true
				if !walk() {
					return false
				}
			}
			_, err = dec.Token()
			return err == nil
		case json.Delim('['):
			for dec.More() {
				if !walk() {
					return false
				}
			}
			_, err = dec.Token()
			return err == nil
		}
		return true
	}
	if !walk() {
		return false
	}
	_, err := dec.Token()
	return err == io.EOF
}

// FuzzCitationPointer resolves a citation with a JSON Pointer locator on arbitrary
// data. Properties: no panic; a resolved target is the subslice of the data
// at TargetOffset, and, for valid JSON without duplicate keys, equals what
// an encoding/json walk of the pointer finds (and fails where it fails);
// a failure is a *LocateError wrapping a documented sentinel, whose Token
// is a token of the pointer; the citation's position agrees with Convert.
func FuzzCitationPointer(f *testing.F) {
	f.Add([]byte(`{"a":[1,"x\ny",{"b~/c":null}],"s":"l1\nl2","":0}`), "/a/2/b~0~1c", 0)
	f.Add([]byte(`{"a":[1,2]}`), "/a/01", 1)
	f.Add([]byte(`{"a":[1,2]}`), "/a/-", 1)
	f.Add([]byte(`[true,false,"é"]`), "/2", 2)
	f.Add([]byte(`{"a":{"a":1},"a":2}`), "/a/a", 0)
	f.Add([]byte(`"text"`), "", 4)
	f.Add([]byte(`{"a":1`), "/a", 0)
	f.Fuzz(func(t *testing.T, data []byte, ptr string, off int) {
		if len(data) > 1<<14 || len(ptr) > 256 {
			return
		}
		text := []byte("Answer: café 血压 🩺 done")
		loc, _ := json.Marshal(ptr)
		meta := `{"citations":[{"data_part_id":"g","offset":` + strconv.Itoa(off) + `,"locator":{"pointer":` + string(loc) + `}}]}`
		parts := []parser.Part{
			{Kind: parser.PartText, Text: text, Metadata: parser.Metadata{Raw: []byte(meta)}},
			{Kind: parser.PartData, Data: data, Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"g"}`)}},
		}
		res := citations.Resolve(parts, nil)
		require.Equal(t, string(text), string(res.Text), "Text")
		for _, d := range res.Diagnostics {
			require.True(t, matchesAny(d, citations.ErrOffsetOutOfRange, citations.ErrOffsetSplitsChar, citations.ErrNegativeOffset,
				citations.ErrInvalidData, citations.ErrLocatorSyntax, citations.ErrNoMember, citations.ErrBadIndex,
				citations.ErrIndexRange, citations.ErrNotContainer, citations.ErrScanLimit, citations.ErrUnknownLocator), "undocumented diagnostic %v", d)
		}
		if len(res.Citations) == 0 {
			if off >= 0 && off <= 22 {
				require.NotEmpty(t, res.Diagnostics, "a citation at a valid offset vanished without a diagnostic")
			}
			return
		}
		c := res.Citations[0]
		p, err := citations.Convert(text, c.Offset, citations.CodePoints)
		require.NoError(t, err, "Convert of the citation's offset %d", c.Offset)
		require.Equal(t, p, c.TextPosition, "the citation's position, as Convert gives it")
		require.Equal(t, 1, c.DataPart, "DataPart")
		var ref any
		comparable := uniqueKeys(data) && (ptr == "" || ptr[0] == '/')
		if comparable {
			d := json.NewDecoder(bytes.NewReader(data))
			d.UseNumber()
			comparable = d.Decode(&ref) == nil
		}
		want, found := refPointer(ref, ptr)
		if c.Err != nil {
			var le *citations.LocateError
			if errors.As(c.Err, &le) {
				require.GreaterOrEqual(t, le.Token, -1, "LocateError token for pointer %q", ptr)
				require.Less(t, le.Token, max(1, strings.Count(ptr, "/")), "LocateError token for pointer %q", ptr)
			}
			if comparable {
				require.False(t, found, "pointer %q on %s failed (%v), encoding/json finds %v", ptr, data, c.Err, want)
			}
			return
		}
		end := c.TargetOffset + len(c.Target)
		require.GreaterOrEqual(t, c.TargetOffset, 0, "target %q at %d", c.Target, c.TargetOffset)
		require.LessOrEqual(t, end, len(data), "target %q at %d", c.Target, c.TargetOffset)
		require.Equal(t, string(data[c.TargetOffset:end]), string(c.Target), "the target is data[%d:%d]", c.TargetOffset, end)
		if comparable {
			require.True(t, found, "pointer %q on %s resolved to %s, encoding/json finds nothing", ptr, data, c.Target)
			d := json.NewDecoder(bytes.NewReader(c.Target))
			d.UseNumber()
			var got any
			require.NoError(t, d.Decode(&got), "target %s", c.Target)
			require.Equal(t, want, got, "pointer %q on %s: the target, decoded, and what encoding/json finds", ptr, data)
		}
	})
}
