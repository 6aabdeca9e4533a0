package citations_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
)

// diagParts is an answer "a😀é and more" (13 code points, 18 bytes, 14
// UTF-16 units) citing with the given metadata, plus cited parts of every
// kind.
func diagParts(meta string) []parser.Part {
	return []parser.Part{
		{Kind: parser.PartText, Text: []byte("a😀é and more"), Metadata: parser.Metadata{Raw: []byte(meta)}},
		{Kind: parser.PartData, Data: []byte(`{"a":{"b":[1,{"c":null}]},"s":"x","k~/":1}`), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"obj"}`)}},
		{Kind: parser.PartData, Data: []byte(`"l1\nl2\nl3\n"`), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"str"}`)}},
		{Kind: parser.PartURL, Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"file"}`)}},
		{Kind: parser.PartData, Data: []byte(`{"a":`), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"bad"}`)}},
		{Kind: parser.PartData, Data: []byte(`1`), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"dup"}`)}},
		{Kind: parser.PartData, Data: []byte(`2`), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"dup"}`)}},
		{Kind: parser.PartText, Text: []byte(""), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"txt"}`)}},
	}
}

func entry(id, offset, locator string) string {
	s := `{"citations":[{"data_part_id":` + id + `,"offset":` + offset
	if locator != "" {
		s += `,"locator":` + locator
	}
	return s + `}]}`
}

func TestDiagnostics(t *testing.T) {
	tests := []struct {
		name    string
		meta    string
		opts    citations.Options
		want    error
		part    int
		index   int
		token   int  // LocateError.Token; -2 when Err is a bare sentinel
		kept    bool // the citation stays in Resolution.Citations
		message string
	}{
		{"metadata not JSON", `{"citations":[`, citations.Options{}, citations.ErrBadMetadata, 0, -1, -2, false, "citations: part 0: metadata is not an object with a citations array"},
		{"metadata an array", `[1]`, citations.Options{}, citations.ErrBadMetadata, 0, -1, -2, false, ""},
		{"citations an object", `{"citations":{}}`, citations.Options{}, citations.ErrBadMetadata, 0, -1, -2, false, ""},
		{"entry not an object", `{"citations":[1]}`, citations.Options{}, citations.ErrBadEntry, 0, 0, -2, false, "citations: part 0 entry 0: entry is not an object"},
		{"no id", `{"citations":[{"offset":1}]}`, citations.Options{}, citations.ErrMissingID, 0, 0, -2, false, ""},
		{"empty id", entry(`""`, "1", ""), citations.Options{}, citations.ErrMissingID, 0, 0, -2, false, ""},
		{"id a number", entry(`7`, "1", ""), citations.Options{}, citations.ErrMissingID, 0, 0, -2, false, ""},
		{"no offset", `{"citations":[{"data_part_id":"obj"}]}`, citations.Options{}, citations.ErrMissingOffset, 0, 0, -2, false, ""},
		{"offset a string", entry(`"obj"`, `"3"`, ""), citations.Options{}, citations.ErrOffsetNotInteger, 0, 0, -2, false, ""},
		{"offset a fraction", entry(`"obj"`, `1.5`, ""), citations.Options{}, citations.ErrOffsetNotInteger, 0, 0, -2, false, ""},
		{"offset an exponent", entry(`"obj"`, `1e2`, ""), citations.Options{}, citations.ErrOffsetNotInteger, 0, 0, -2, false, ""},
		{"offset true", entry(`"obj"`, `true`, ""), citations.Options{}, citations.ErrOffsetNotInteger, 0, 0, -2, false, ""},
		{"offset negative", entry(`"obj"`, `-1`, ""), citations.Options{}, citations.ErrNegativeOffset, 0, 0, -2, false, ""},
		{"offset past end", entry(`"obj"`, `14`, ""), citations.Options{}, citations.ErrOffsetOutOfRange, 0, 0, -2, false, `citations: part 0 entry 0 id "obj" offset 14: offset is past the end of the text`},
		{"offset beyond int", entry(`"obj"`, `123456789012345678901234567890`, ""), citations.Options{}, citations.ErrOffsetOutOfRange, 0, 0, -2, false, ""},
		{"UTF-16 past end", entry(`"obj"`, `15`, ""), citations.Options{Unit: citations.UTF16}, citations.ErrOffsetOutOfRange, 0, 0, -2, false, ""},
		{"byte inside emoji", entry(`"obj"`, `3`, ""), citations.Options{Unit: citations.Bytes}, citations.ErrOffsetSplitsChar, 0, 0, -2, false, ""},
		{"UTF-16 between surrogates", entry(`"obj"`, `2`, ""), citations.Options{Unit: citations.UTF16}, citations.ErrOffsetSplitsChar, 0, 0, -2, false, ""},
		{"too many", `{"citations":[{"data_part_id":"obj","offset":0},{"data_part_id":"obj","offset":0}]}`, citations.Options{MaxCitations: 1}, citations.ErrTooManyCitations, 0, 1, -2, true, ""},
		{"scan limit", `{"citations":[{"data_part_id":"obj","offset":0,"locator":"/s"},{"data_part_id":"obj","offset":1,"locator":"/s"}]}`, citations.Options{MaxScan: 1}, citations.ErrScanLimit, 0, 1, -2, true, ""},
		{"unknown part", entry(`"nope"`, `1`, ""), citations.Options{}, citations.ErrUnknownPart, 0, 0, -2, false, `citations: part 0 entry 0 id "nope" offset 1: no part has this data part id`},
		{"url part", entry(`"file"`, `1`, ""), citations.Options{}, citations.ErrNotDataPart, 0, 0, -2, true, ""},
		{"text part with a pointer", entry(`"txt"`, `1`, `"/a"`), citations.Options{}, citations.ErrNotDataPart, 0, 0, -2, true, ""},
		{"invalid data", entry(`"bad"`, `1`, `"/a"`), citations.Options{}, citations.ErrInvalidData, 0, 0, -2, true, ""},
		{"locator neither pointer nor range", entry(`"obj"`, `1`, `"a/b"`), citations.Options{}, citations.ErrLocatorSyntax, 0, 0, -2, true, ""},
		{"locator unknown object", entry(`"obj"`, `1`, `{"xpath":"//a"}`), citations.Options{}, citations.ErrUnknownLocator, 0, 0, -2, true, ""},
		{"locator a number", entry(`"obj"`, `1`, `5`), citations.Options{}, citations.ErrUnknownLocator, 0, 0, -2, true, ""},
		{"locator start 0", entry(`"str"`, `1`, `{"start":0,"end":2}`), citations.Options{}, citations.ErrLineRange, 0, 0, 0, true, `citations: part 0 entry 0 id "str" offset 1: locator "L0-L2" token 0: line range out of range`},
		{"locator line 0 as a string", entry(`"str"`, `1`, `"0-1"`), citations.Options{}, citations.ErrLineRange, 0, 0, 0, true, `citations: part 0 entry 0 id "str" offset 1: locator "L0-L1" token 0: line range out of range`},
		{"locator line 0 in lines", entry(`"str"`, `1`, `{"lines":"L0"}`), citations.Options{}, citations.ErrLineRange, 0, 0, 0, true, `citations: part 0 entry 0 id "str" offset 1: locator "L0" token 0: line range out of range`},
		{"locator start not integer", entry(`"str"`, `1`, `{"start":"2"}`), citations.Options{}, citations.ErrLocatorSyntax, 0, 0, -2, true, ""},
		{"pointer bad tilde", entry(`"obj"`, `1`, `"/a/~2"`), citations.Options{}, citations.ErrLocatorSyntax, 0, 0, 1, true, `citations: part 0 entry 0 id "obj" offset 1: locator "/a/~2" token 1: malformed locator`},
		{"pointer bad percent", entry(`"obj"`, `1`, `"#/a/%g0"`), citations.Options{}, citations.ErrLocatorSyntax, 0, 0, 1, true, ""},
		{"pointer no member", entry(`"obj"`, `1`, `"/a/x"`), citations.Options{}, citations.ErrNoMember, 0, 0, 1, true, ""},
		{"pointer unescaped tilde key", entry(`"obj"`, `1`, `"/k~/"`), citations.Options{}, citations.ErrLocatorSyntax, 0, 0, 0, true, ""},
		{"pointer bad index", entry(`"obj"`, `1`, `"/a/b/01"`), citations.Options{}, citations.ErrBadIndex, 0, 0, 2, true, ""},
		{"pointer dash", entry(`"obj"`, `1`, `"/a/b/-"`), citations.Options{}, citations.ErrIndexRange, 0, 0, 2, true, ""},
		{"pointer index past end", entry(`"obj"`, `1`, `"/a/b/2"`), citations.Options{}, citations.ErrIndexRange, 0, 0, 2, true, ""},
		{"pointer into scalar", entry(`"obj"`, `1`, `"/a/b/1/c/d"`), citations.Options{}, citations.ErrNotContainer, 0, 0, 4, true, ""},
		{"pointer in object locator", entry(`"obj"`, `1`, `{"pointer":"/zz"}`), citations.Options{}, citations.ErrNoMember, 0, 0, 0, true, ""},
		{"lines on an object", entry(`"obj"`, `1`, `"L1"`), citations.Options{}, citations.ErrNotText, 0, 0, -1, true, ""},
		{"pointer then lines on a number", entry(`"obj"`, `1`, `{"pointer":"/a/b/0","start":1}`), citations.Options{}, citations.ErrNotText, 0, 0, -1, true, ""},
		{"start line past end", entry(`"str"`, `1`, `"L4"`), citations.Options{}, citations.ErrLineRange, 0, 0, 0, true, `citations: part 0 entry 0 id "str" offset 1: locator "L4" token 0: line range out of range`},
		{"end line past end", entry(`"str"`, `1`, `"L2-L4"`), citations.Options{}, citations.ErrLineRange, 0, 0, 1, true, ""},
		{"line 0", entry(`"str"`, `1`, `"L0"`), citations.Options{}, citations.ErrLineRange, 0, 0, 0, true, ""},
		{"reversed range", entry(`"str"`, `1`, `"3-2"`), citations.Options{}, citations.ErrLineRange, 0, 0, 1, true, ""},
		{"lines of an empty text part", entry(`"txt"`, `1`, `"L1"`), citations.Options{}, citations.ErrLineRange, 0, 0, 0, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := citations.Resolve(diagParts(tt.meta), &tt.opts)
			var ds []citations.Diagnostic
			for _, d := range res.Diagnostics {
				if !errors.Is(d, citations.ErrDuplicatePartID) {
					ds = append(ds, d)
				}
			}
			require.Len(t, ds, 1, "diagnostics, want one %v", tt.want)
			d := ds[0]
			require.ErrorIs(t, d, tt.want)
			require.Equal(t, tt.part, d.Part, "diagnostic %v: part", d)
			require.Equal(t, tt.index, d.Index, "diagnostic %v: index", d)
			var le *citations.LocateError
			isLocate := errors.As(d, &le)
			require.Equal(t, tt.token != -2, isLocate, "diagnostic %v: a *LocateError (want token %d)", d, tt.token)
			if isLocate {
				require.Equal(t, tt.token, le.Token, "diagnostic %v: token", d)
			}
			if tt.message != "" {
				require.Equal(t, tt.message, d.Error(), "message")
			}
			require.Equal(t, tt.kept, len(res.Citations) > 0, "citation kept (%d citations)", len(res.Citations))
			for _, c := range res.Citations {
				if tt.kept && tt.want != citations.ErrTooManyCitations && tt.want != citations.ErrScanLimit {
					require.ErrorIs(t, c.Err, tt.want, "the kept citation's Err")
					require.Nil(t, c.Target, "the kept citation's Target")
					require.Equal(t, citations.ValueNone, c.TargetKind, "the kept citation's TargetKind")
				}
			}
		})
	}
}

// Metadata that is absent, null, empty or without citations is not a
// problem.
func TestNoCitations(t *testing.T) {
	for _, meta := range []string{"", "null", " null ", "{}", `{"citations":null}`, `{"citations":[]}`, `{"other":[1]}`} {
		parts := diagParts(meta)
		parts = append(parts[:5], parts[7:]...) // no duplicate ids
		res := citations.Resolve(parts, nil)
		assert.Empty(t, res.Citations, "metadata %q: citations", meta)
		assert.Empty(t, res.Diagnostics, "metadata %q: diagnostics", meta)
	}
}

func TestDuplicatePartID(t *testing.T) {
	res := citations.Resolve(diagParts(entry(`"dup"`, "1", "")), nil)
	require.Len(t, res.Diagnostics, 1, "diagnostics")
	d := res.Diagnostics[0]
	require.ErrorIs(t, d, citations.ErrDuplicatePartID)
	require.Equal(t, 6, d.Part, "part")
	require.Equal(t, -1, d.Index, "index")
	require.Equal(t, "dup", string(d.ID), "id")
	require.Equal(t, `citations: part 6 id "dup": data part id is not unique`, d.Error(), "message")
	require.Len(t, res.Citations, 1, "citations")
	require.Equal(t, 5, res.Citations[0].DataPart, "the citation is joined to the first part with the id")
	require.Equal(t, "1", string(res.Citations[0].Target), "the citation's target")
}

func TestLocatorForms(t *testing.T) {
	tests := []struct {
		name, locator string
		kind          citations.LocatorKind
		target        string
		tk            citations.ValueKind
		text          string // Locator.AppendText
	}{
		{"absent", "", citations.LocatorNone, `"l1\nl2\nl3\n"`, citations.ValueString, ""},
		{"null", `null`, citations.LocatorNone, `"l1\nl2\nl3\n"`, citations.ValueString, ""},
		{"empty pointer", `""`, citations.LocatorPointer, `"l1\nl2\nl3\n"`, citations.ValueString, ""},
		{"fragment whole", `"#"`, citations.LocatorPointer, `"l1\nl2\nl3\n"`, citations.ValueString, "#"},
		{"L2", `"L2"`, citations.LocatorLines, "l2", citations.ValueText, "L2"},
		{"L1-L2", `"L1-L2"`, citations.LocatorLines, "l1\nl2", citations.ValueText, "L1-L2"},
		{"2-3", `"2-3"`, citations.LocatorLines, "l2\nl3", citations.ValueText, "L2-L3"},
		{"#L3-L3", `"#L3-L3"`, citations.LocatorLines, "l3", citations.ValueText, "L3"},
		{"escaped string locator", `"\u004c1"`, citations.LocatorLines, "l1", citations.ValueText, "L1"},
		{"start and end", `{"start":1,"end":3}`, citations.LocatorLines, "l1\nl2\nl3", citations.ValueText, "L1-L3"},
		{"startLine only", `{"startLine":3}`, citations.LocatorLines, "l3", citations.ValueText, "L3"},
		{"lines member", `{"lines":"L2-L3"}`, citations.LocatorLines, "l2\nl3", citations.ValueText, "L2-L3"},
		{"pointer member", `{"pointer":""}`, citations.LocatorPointer, `"l1\nl2\nl3\n"`, citations.ValueString, ""},
		{"pointer and lines", `{"pointer":"","start":2,"end":2}`, citations.LocatorPointer, "l2", citations.ValueText, " L2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := citations.Resolve(diagParts(entry(`"str"`, "0", tt.locator)), nil)
			require.Len(t, res.Citations, 1, "citations; diagnostics %v", res.Diagnostics)
			c := res.Citations[0]
			require.NoError(t, c.Err)
			require.Equal(t, tt.kind, c.Locator.Kind, "locator kind")
			require.Equal(t, tt.target, string(c.Target), "target")
			require.Equal(t, tt.tk, c.TargetKind, "target kind")
			require.Equal(t, tt.text, string(c.Locator.AppendText(nil)), "AppendText")
			if tt.locator != "" && tt.locator != "null" {
				require.Equal(t, tt.locator, string(c.Locator.Raw), "Raw")
			}
		})
	}
}

func TestSpellings(t *testing.T) {
	tests := []struct{ name, meta string }{
		{"data_part_id", `{"citations":[{"data_part_id":"obj","offset":2,"locator":"/s"}]}`},
		{"dataPartId", `{"citations":[{"dataPartId":"obj","offset":2,"locator":"/s"}]}`},
		{"dataPartID", `{"citations":[{"dataPartID":"obj","offset":2,"locator":"/s"}]}`},
		{"escaped id", `{"citations":[{"data_part_id":"\u006fbj","offset":2,"locator":"/s"}]}`},
		{"zero fraction", `{"citations":[{"data_part_id":"obj","offset":2.0,"locator":"/s"}]}`},
		{"whitespace", " {\n \"citations\" : [ { \"offset\" : 2 , \"data_part_id\" : \"obj\" , \"locator\" : \"/s\" } ] } "},
		{"fragment pointer", `{"citations":[{"data_part_id":"obj","offset":2,"locator":"#/%73"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := citations.Resolve(diagParts(tt.meta), nil)
			var ds []citations.Diagnostic
			for _, d := range res.Diagnostics {
				if !errors.Is(d, citations.ErrDuplicatePartID) {
					ds = append(ds, d)
				}
			}
			require.Empty(t, ds, "diagnostics")
			require.Len(t, res.Citations, 1, "citations")
			c := res.Citations[0]
			require.Equal(t, "obj", string(c.ID), "id")
			require.Equal(t, 2, c.RuneIndex, "RuneIndex")
			require.Equal(t, 5, c.ByteOffset, "ByteOffset")
			require.Equal(t, 3, c.UTF16Index, "UTF16Index")
			require.Equal(t, `"x"`, string(c.Target), "target")
		})
	}
}

func TestDiagnosticMessagesArePrefixed(t *testing.T) {
	for _, err := range []error{
		citations.ErrBadMetadata, citations.ErrBadEntry, citations.ErrMissingID, citations.ErrMissingOffset,
		citations.ErrOffsetNotInteger, citations.ErrNegativeOffset, citations.ErrOffsetOutOfRange,
		citations.ErrOffsetSplitsChar, citations.ErrTooManyCitations, citations.ErrUnknownPart,
		citations.ErrDuplicatePartID, citations.ErrNotDataPart, citations.ErrInvalidData,
		citations.ErrLocatorSyntax, citations.ErrUnknownLocator, citations.ErrNoMember, citations.ErrBadIndex,
		citations.ErrIndexRange, citations.ErrNotContainer, citations.ErrNotText, citations.ErrLineRange, citations.ErrScanLimit,
	} {
		assert.True(t, strings.HasPrefix(err.Error(), "citations: "), "%q lacks the package prefix", err)
	}
	le := &citations.LocateError{Pointer: "/a", Token: 0, Err: citations.ErrNoMember}
	assert.Equal(t, `citations: locator "/a" token 0: object has no such member`, le.Error(), "LocateError")
}

// scanParts cites a data part of 1 MiB, {"pad":"xxx…"}, n times with
// locator.
func scanParts(n int, locator string) []parser.Part {
	data := []byte(`{"pad":"` + strings.Repeat("x", 1<<20) + `"}`)
	var meta strings.Builder
	meta.WriteString(`{"citations":[`)
	for i := range n {
		if i > 0 {
			meta.WriteByte(',')
		}
		meta.WriteString(`{"data_part_id":"big","offset":0,"locator":` + locator + `}`)
	}
	meta.WriteString(`]}`)
	return []parser.Part{
		{Kind: parser.PartText, Text: []byte("x"), Metadata: parser.Metadata{Raw: []byte(meta.String())}},
		{Kind: parser.PartData, Data: data, Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"big"}`)}},
	}
}

// count counts the citations that failed with want and with ErrScanLimit.
func count(res citations.Resolution, want error) (evaluated, limited int) {
	for _, c := range res.Citations {
		switch {
		case errors.Is(c.Err, want):
			evaluated++
		case errors.Is(c.Err, citations.ErrScanLimit):
			limited++
		}
	}
	return evaluated, limited
}

// Many citations that each read a large string to its end stop being
// evaluated once MaxScan is spent, instead of reading it again each time;
// many pointers into the part read it once, and are all evaluated.
func TestScanLimitBoundsWork(t *testing.T) {
	const n = 2000
	// Each line range past the string's one line reads it all.
	evaluated, limited := count(citations.Resolve(scanParts(n, `{"pointer":"/pad","start":2}`), nil), citations.ErrLineRange)
	// The object is read once (1 MiB and 10 bytes), then each citation is
	// charged the string (1 MiB); evaluation stops once more than
	// DefaultMaxScan bytes were charged.
	want := citations.DefaultMaxScan/(1<<20) - 1
	assert.Equal(t, []int{want, n - want}, []int{evaluated, limited}, "line ranges: evaluated and limited")
	// Pointers and line ranges on the whole data read it once.
	evaluated, limited = count(citations.Resolve(scanParts(n, `"/missing"`), nil), citations.ErrNoMember)
	assert.Equal(t, []int{n, 0}, []int{evaluated, limited}, "pointers: evaluated and limited")
	evaluated, limited = count(citations.Resolve(scanParts(n, `"/missing"`), &citations.Options{MaxScan: 1 << 20}), citations.ErrNoMember)
	assert.Equal(t, []int{1, n - 1}, []int{evaluated, limited}, "pointers, MaxScan 1 MiB: evaluated and limited")
}

// Every ValueKind writes its name and reads back from it; others are
// *parser.NameErrors.
func TestValueKindText(t *testing.T) {
	for k := citations.ValueNone; k <= citations.ValueText; k++ {
		text, err := k.MarshalText()
		require.NoError(t, err)
		assert.Equal(t, k.String(), string(text))
		var back citations.ValueKind
		require.NoError(t, back.UnmarshalText(text))
		assert.Equal(t, k, back)
	}
	_, err := citations.ValueKind(9).MarshalText()
	assert.ErrorIs(t, err, parser.ErrUnknownName)
	var k citations.ValueKind
	assert.ErrorIs(t, k.UnmarshalText([]byte("object")), parser.ErrUnknownName)
}
