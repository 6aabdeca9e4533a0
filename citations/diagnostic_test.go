package citations_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/a2astream/a2astream/citations"
)

// diagParts is an answer "a😀é and more" (13 code points, 18 bytes, 14
// UTF-16 units) citing with the given metadata, plus cited parts of every
// kind.
func diagParts(meta string) []citations.Part {
	return []citations.Part{
		{Kind: citations.PartText, Text: []byte("a😀é and more"), Metadata: []byte(meta)},
		{Kind: citations.PartData, Data: []byte(`{"a":{"b":[1,{"c":null}]},"s":"x","k~/":1}`), Metadata: []byte(`{"dataPartId":"obj"}`)},
		{Kind: citations.PartData, Data: []byte(`"l1\nl2\nl3\n"`), Metadata: []byte(`{"dataPartId":"str"}`)},
		{Kind: citations.PartFile, Metadata: []byte(`{"dataPartId":"file"}`)},
		{Kind: citations.PartData, Data: []byte(`{"a":`), Metadata: []byte(`{"dataPartId":"bad"}`)},
		{Kind: citations.PartData, Data: []byte(`1`), Metadata: []byte(`{"dataPartId":"dup"}`)},
		{Kind: citations.PartData, Data: []byte(`2`), Metadata: []byte(`{"dataPartId":"dup"}`)},
		{Kind: citations.PartText, Text: []byte(""), Metadata: []byte(`{"dataPartId":"txt"}`)},
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
		kept    bool // the citation stays in Result.Citations
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
		{"file part", entry(`"file"`, `1`, ""), citations.Options{}, citations.ErrNotDataPart, 0, 0, -2, true, ""},
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
			res := citations.Resolve(diagParts(tt.meta), tt.opts)
			var ds []citations.Diagnostic
			for _, d := range res.Diagnostics {
				if !errors.Is(d, citations.ErrDuplicatePartID) {
					ds = append(ds, d)
				}
			}
			if len(ds) != 1 {
				t.Fatalf("diagnostics %v, want one %v", ds, tt.want)
			}
			d := ds[0]
			if !errors.Is(d, tt.want) || d.Part != tt.part || d.Index != tt.index {
				t.Fatalf("diagnostic %v (part %d, index %d), want %v at part %d index %d", d, d.Part, d.Index, tt.want, tt.part, tt.index)
			}
			var le *citations.LocateError
			if isLocate := errors.As(d, &le); isLocate != (tt.token != -2) {
				t.Fatalf("diagnostic %v: LocateError %v, want token %d", d, isLocate, tt.token)
			} else if isLocate && le.Token != tt.token {
				t.Fatalf("diagnostic %v: token %d, want %d", d, le.Token, tt.token)
			}
			if tt.message != "" && d.Error() != tt.message {
				t.Fatalf("message %q, want %q", d.Error(), tt.message)
			}
			if kept := len(res.Citations) > 0; kept != tt.kept {
				t.Fatalf("citations %d, want kept=%v", len(res.Citations), tt.kept)
			}
			for _, c := range res.Citations {
				if tt.kept && tt.want != citations.ErrTooManyCitations && tt.want != citations.ErrScanLimit && (!errors.Is(c.Err, tt.want) || c.Target != nil || c.TargetKind != citations.ValueNone) {
					t.Fatalf("kept citation has Err %v, Target %q, kind %v", c.Err, c.Target, c.TargetKind)
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
		res := citations.Resolve(parts, citations.Options{})
		if len(res.Citations) != 0 || len(res.Diagnostics) != 0 {
			t.Errorf("metadata %q: citations %v, diagnostics %v", meta, res.Citations, res.Diagnostics)
		}
	}
}

func TestDuplicatePartID(t *testing.T) {
	res := citations.Resolve(diagParts(entry(`"dup"`, "1", "")), citations.Options{})
	if len(res.Diagnostics) != 1 {
		t.Fatalf("diagnostics %v", res.Diagnostics)
	}
	d := res.Diagnostics[0]
	if !errors.Is(d, citations.ErrDuplicatePartID) || d.Part != 6 || d.Index != -1 || string(d.ID) != "dup" {
		t.Fatalf("diagnostic %v part %d index %d", d, d.Part, d.Index)
	}
	if want := `citations: part 6 id "dup": data part id is not unique`; d.Error() != want {
		t.Fatalf("message %q, want %q", d.Error(), want)
	}
	if len(res.Citations) != 1 || res.Citations[0].DataPart != 5 || string(res.Citations[0].Target) != "1" {
		t.Fatalf("citation %+v, want joined to the first part with the id", res.Citations)
	}
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
			res := citations.Resolve(diagParts(entry(`"str"`, "0", tt.locator)), citations.Options{})
			if len(res.Citations) != 1 {
				t.Fatalf("citations %v, diagnostics %v", res.Citations, res.Diagnostics)
			}
			c := res.Citations[0]
			if c.Err != nil || c.Locator.Kind != tt.kind || string(c.Target) != tt.target || c.TargetKind != tt.tk {
				t.Fatalf("locator %v target %q kind %v err %v", c.Locator.Kind, c.Target, c.TargetKind, c.Err)
			}
			if got := string(c.Locator.AppendText(nil)); got != tt.text {
				t.Fatalf("AppendText %q, want %q", got, tt.text)
			}
			if tt.locator != "" && tt.locator != "null" && string(c.Locator.Raw) != tt.locator {
				t.Fatalf("Raw %q, want %q", c.Locator.Raw, tt.locator)
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
			res := citations.Resolve(diagParts(tt.meta), citations.Options{})
			var ds []citations.Diagnostic
			for _, d := range res.Diagnostics {
				if !errors.Is(d, citations.ErrDuplicatePartID) {
					ds = append(ds, d)
				}
			}
			if len(ds) != 0 || len(res.Citations) != 1 {
				t.Fatalf("diagnostics %v, citations %d", ds, len(res.Citations))
			}
			c := res.Citations[0]
			if string(c.ID) != "obj" || c.RuneIndex != 2 || c.ByteOffset != 5 || c.UTF16Index != 3 || string(c.Target) != `"x"` {
				t.Fatalf("citation %+v", c)
			}
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
		if !strings.HasPrefix(err.Error(), "citations: ") {
			t.Errorf("%q lacks the package prefix", err)
		}
	}
	le := &citations.LocateError{Pointer: "/a", Token: 0, Err: citations.ErrNoMember}
	if got, want := le.Error(), `citations: locator "/a" token 0: object has no such member`; got != want {
		t.Fatalf("LocateError %q, want %q", got, want)
	}
}

// scanParts cites a data part of 1 MiB, {"pad":"xxx…"}, n times with
// locator.
func scanParts(n int, locator string) []citations.Part {
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
	return []citations.Part{
		{Kind: citations.PartText, Text: []byte("x"), Metadata: []byte(meta.String())},
		{Kind: citations.PartData, Data: data, Metadata: []byte(`{"dataPartId":"big"}`)},
	}
}

// count counts the citations that failed with want and with ErrScanLimit.
func count(res citations.Result, want error) (evaluated, limited int) {
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
	evaluated, limited := count(citations.Resolve(scanParts(n, `{"pointer":"/pad","start":2}`), citations.Options{}), citations.ErrLineRange)
	// The object is read once (1 MiB and 10 bytes), then each citation is
	// charged the string (1 MiB); evaluation stops once more than
	// DefaultMaxScan bytes were charged.
	want := citations.DefaultMaxScan/(1<<20) - 1
	if evaluated != want || limited != n-want {
		t.Fatalf("line ranges: %d evaluated, %d limited; want %d and %d", evaluated, limited, want, n-want)
	}
	// Pointers and line ranges on the whole data read it once.
	evaluated, limited = count(citations.Resolve(scanParts(n, `"/missing"`), citations.Options{}), citations.ErrNoMember)
	if evaluated != n || limited != 0 {
		t.Fatalf("pointers: %d evaluated, %d limited; want %d and 0", evaluated, limited, n)
	}
	evaluated, limited = count(citations.Resolve(scanParts(n, `"/missing"`), citations.Options{MaxScan: 1 << 20}), citations.ErrNoMember)
	if evaluated != 1 || limited != n-1 {
		t.Fatalf("pointers, MaxScan 1 MiB: %d evaluated, %d limited; want 1 and %d", evaluated, limited, n-1)
	}
}
