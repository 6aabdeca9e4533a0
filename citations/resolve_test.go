package citations_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
)

// marked strips every '§' from s and returns the text and the position of
// each marker, computed with the standard library (valid UTF-8 only).
func marked(s string) (string, []citations.TextPosition) {
	var b strings.Builder
	var pos []citations.TextPosition
	for _, r := range s {
		if r == '§' {
			prefix := b.String()
			pos = append(pos, citations.TextPosition{
				ByteOffset: len(prefix),
				RuneIndex:  utf8.RuneCountInString(prefix),
				UTF16Index: len(utf16.Encode([]rune(prefix))),
			})
			continue
		}
		b.WriteRune(r)
	}
	return b.String(), pos
}

func offsetIn(p citations.TextPosition, u citations.Unit) int {
	switch u {
	case citations.Bytes:
		return p.ByteOffset
	case citations.UTF16:
		return p.UTF16Index
	}
	return p.RuneIndex
}

// The clinical answer: two text parts (accents, CJK, an emoji and a ZWJ
// family before the offsets, so the three units differ), citations in
// both parts' metadata, and three data parts: coded conditions, lab values
// and a transcript quoted as a JSON string with escapes.
const (
	clinicalText1 = "Assessment for Zoë Müller (患者 4711, 👨‍👩‍👧‍👦 family history):§ asthma, ICD-10 J45.909§.\n"
	clinicalText2 = "HbA1c 7.2 %§ (↑) and LDL 4.1 mmol/L§. She said «I wake up coughing, every night»§ 😷.§"

	conditionsData = `{"conditions":[{"code":{"system":"http://hl7.org/fhir/sid/icd-10","code":"J45.909",` +
		`"display":"Unspecified asthma, uncomplicated"},"onset":"2019"}]}`
	labsData = `{"results":[` +
		`{"loinc":"4548-4","name":"HbA1c","valueQuantity":{"value":7.2,"unit":"%"},"flag":"H"},` +
		`{"loinc":"13457-7","name":"LDL","valueQuantity":{"value":4.1,"unit":"mmol/L"}}]}`
	transcriptData = `"Dr. Okafor: How are you sleeping?\nPatient: Badly.\r\nPatient: I wake up coughing,\n` +
		`Patient: every night, since the \u00e9t\u00e9.\nDr. Okafor: Any wheezing?\n"`
)

func clinicalParts(u citations.Unit) ([]parser.Part, string, []citations.TextPosition) {
	text, pos := marked(clinicalText1 + clinicalText2)
	off := func(i int) int { return offsetIn(pos[i], u) }
	meta1 := fmt.Sprintf(`{"citations":[
		{"data_part_id":"dp.conditions","offset":%d,"locator":"/conditions/0/code"},
		{"dataPartId":"dp.conditions","offset":%d,"locator":"#/conditions/0/code/code"}]}`, off(0), off(1))
	meta2 := fmt.Sprintf(`{"source":"orchestrator","citations":[
		{"data_part_id":"dp.labs","offset":%d,"locator":"/results/0/valueQuantity/value"},
		{"data_part_id":"dp.labs","offset":%d,"locator":{"pointer":"/results/1"}},
		{"data_part_id":"dp.transcript","offset":%d,"locator":"L3-L4"},
		{"data_part_id":"dp.transcript","offset":%d,"locator":{"start":2}}]}`, off(2), off(3), off(4), off(5))
	split := len(strings.ReplaceAll(clinicalText1, "§", ""))
	return []parser.Part{
		{Kind: parser.PartText, Text: []byte(text[:split]), Metadata: parser.Metadata{Raw: []byte(meta1)}},
		{Kind: parser.PartData, Data: []byte(conditionsData), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"dp.conditions"}`)}},
		{Kind: parser.PartText, Text: []byte(text[split:]), Metadata: parser.Metadata{Raw: []byte(meta2)}},
		{Kind: parser.PartData, Data: []byte(labsData), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId": "dp.labs", "source":"lab"}`)}},
		{Kind: parser.PartData, Data: []byte(transcriptData), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"dp.transcript"}`)}},
	}, text, pos
}

func TestClinicalAnswer(t *testing.T) {
	type want struct {
		id, target   string
		kind         citations.ValueKind
		part, index  int
		dataPart     int
		number       int
		targetOffset int // -1: check that Target sits at TargetOffset in Data
	}
	wants := []want{
		{"dp.conditions", `{"system":"http://hl7.org/fhir/sid/icd-10","code":"J45.909","display":"Unspecified asthma, uncomplicated"}`, citations.ValueObject, 0, 0, 1, 1, -1},
		{"dp.conditions", `"J45.909"`, citations.ValueString, 0, 1, 1, 2, -1},
		{"dp.labs", `7.2`, citations.ValueNumber, 2, 0, 3, 3, -1},
		{"dp.labs", `{"loinc":"13457-7","name":"LDL","valueQuantity":{"value":4.1,"unit":"mmol/L"}}`, citations.ValueObject, 2, 1, 3, 4, -1},
		{"dp.transcript", "Patient: I wake up coughing,\nPatient: every night, since the été.", citations.ValueText, 2, 2, 4, 5, 51},
		{"dp.transcript", "Patient: Badly.", citations.ValueText, 2, 3, 4, 6, 34},
	}
	for _, u := range []citations.Unit{citations.CodePoints, citations.Bytes, citations.UTF16} {
		t.Run(u.String(), func(t *testing.T) {
			parts, text, pos := clinicalParts(u)
			require.NotEqual(t, pos[0].ByteOffset, pos[0].RuneIndex, "the three units must differ before the first marker: %+v", pos[0])
			require.NotEqual(t, pos[0].RuneIndex, pos[0].UTF16Index, "the three units must differ before the first marker: %+v", pos[0])
			res := citations.Resolve(parts, &citations.Options{Unit: u})
			require.Empty(t, res.Diagnostics, "diagnostics")
			require.Equal(t, text, string(res.Text), "joined text")
			require.Len(t, res.Citations, len(wants), "citations")
			for i, c := range res.Citations {
				w := wants[i]
				assert.Equal(t, pos[i], c.TextPosition, "citation %d: position", i)
				assert.Equal(t, offsetIn(pos[i], u), c.Offset, "citation %d: offset", i)
				assert.NoError(t, c.Err, "citation %d", i)
				got := want{id: string(c.ID), target: string(c.Target), kind: c.TargetKind, part: c.Part, index: c.Index, dataPart: c.DataPart, number: c.Number, targetOffset: w.targetOffset}
				assert.Equal(t, w, got, "citation %d", i)
				data := parts[c.DataPart].Data
				if w.targetOffset < 0 {
					end := c.TargetOffset + len(c.Target)
					if assert.LessOrEqual(t, end, len(data), "citation %d: Target past the end of Data", i) {
						assert.Equal(t, string(c.Target), string(data[c.TargetOffset:end]), "citation %d: Target is at TargetOffset %d of Data", i, c.TargetOffset)
					}
				} else {
					assert.Equal(t, w.targetOffset, c.TargetOffset, "citation %d: TargetOffset", i)
				}
			}
		})
	}
}

func TestRenderClinical(t *testing.T) {
	parts, _, _ := clinicalParts(citations.CodePoints)
	res := citations.Resolve(parts, nil)
	got := string(citations.AppendRender(nil, res.Text, res.Citations, citations.Footnotes))
	want := "Assessment for Zoë Müller (患者 4711, 👨‍👩‍👧‍👦 family history):[^1] asthma, ICD-10 J45.909[^2].\n" +
		"HbA1c 7.2 %[^3] (↑) and LDL 4.1 mmol/L[^4]. She said «I wake up coughing, every night»[^5] 😷.[^6]" +
		"\n\n[^1]: dp.conditions /conditions/0/code\n[^2]: dp.conditions #/conditions/0/code/code\n" +
		"[^3]: dp.labs /results/0/valueQuantity/value\n[^4]: dp.labs /results/1\n[^5]: dp.transcript L3-L4\n[^6]: dp.transcript L2\n"
	require.Equal(t, want, got, "rendered")
}

// A Resolver reused across artifacts gives the same result as a fresh one.
func TestResolverReuse(t *testing.T) {
	parts, _, pos := clinicalParts(citations.UTF16)
	r := citations.NewResolver(&citations.Options{Unit: citations.UTF16})
	for range 3 {
		res := r.Resolve(parts)
		require.Len(t, res.Citations, len(pos), "citations")
		require.Empty(t, res.Diagnostics, "diagnostics")
		for i, c := range res.Citations {
			require.Equal(t, pos[i], c.TextPosition, "citation %d: position", i)
		}
		r.Reset(&citations.Options{Unit: citations.UTF16})
	}
	var zero citations.Resolver
	require.NotEmpty(t, zero.Resolve(parts).Diagnostics, "a zero Resolver counts code points, so UTF-16 offsets past the end must be reported")
}

// NewResolver, Reset and Resolve take opts alike: nil selects the
// defaults, as a zero Resolver has them, and the Resolver keeps a copy
// of *opts, so that changing it afterwards changes nothing.
func TestResolverOptions(t *testing.T) {
	parts, _, pos := clinicalParts(citations.UTF16)
	var zero citations.Resolver
	defaults := zero.Resolve(parts)
	require.NotEmpty(t, defaults.Diagnostics, "UTF-16 offsets counted as code points")
	utf16 := func(res citations.Resolution) {
		t.Helper()
		require.Empty(t, res.Diagnostics)
		require.Len(t, res.Citations, len(pos))
	}

	opts := &citations.Options{Unit: citations.UTF16}
	r := citations.NewResolver(opts)
	opts.Unit = citations.Bytes
	utf16(r.Resolve(parts))
	r.Reset(nil)
	assert.Equal(t, defaults.Diagnostics, r.Resolve(parts).Diagnostics, "Reset(nil): the defaults")
	r.Reset(&citations.Options{Unit: citations.UTF16})
	utf16(r.Resolve(parts))
	assert.Equal(t, defaults.Diagnostics, citations.NewResolver(nil).Resolve(parts).Diagnostics, "NewResolver(nil): the defaults")
	assert.Equal(t, defaults.Diagnostics, citations.Resolve(parts, nil).Diagnostics, "Resolve(parts, nil): the defaults")
	utf16(citations.Resolve(parts, &citations.Options{Unit: citations.UTF16}))
}

// Citations at one offset keep entry order (text part, then index), and
// parts are numbered by first appearance in the text, not entry order.
func TestOrderAndNumbers(t *testing.T) {
	parts := []parser.Part{
		{Kind: parser.PartText, Text: []byte("ab"), Metadata: parser.Metadata{Raw: []byte(`{"citations":[
			{"data_part_id":"y","offset":2},{"data_part_id":"x","offset":1},{"data_part_id":"y","offset":1}]}`)}},
		{Kind: parser.PartText, Text: []byte("cd"), Metadata: parser.Metadata{Raw: []byte(`{"citations":[{"data_part_id":"x","offset":1}]}`)}},
		{Kind: parser.PartData, Data: []byte(`1`), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"x"}`)}},
		{Kind: parser.PartData, Data: []byte(`2`), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"y"}`)}},
	}
	res := citations.Resolve(parts, nil)
	var got []string
	for _, c := range res.Citations {
		got = append(got, fmt.Sprintf("%s@%d#%d(%d.%d)", c.ID, c.ByteOffset, c.Number, c.Part, c.Index))
	}
	require.Equal(t, "x@1#1(0.1) y@1#2(0.2) x@1#1(1.0) y@2#2(0.0)", strings.Join(got, " "))
	require.Equal(t, "a[1][2][1]b[2]cd", string(citations.AppendRender(nil, res.Text, res.Citations, citations.Numbered)), "rendered")
}

func TestInvalidUTF8Counting(t *testing.T) {
	// Each maximal ill-formed subpart counts as one U+FFFD, as the WHATWG
	// decoder (JavaScript's TextDecoder) replaces it.
	tests := []struct {
		name  string
		text  string
		runes int // code points (= UTF-16 units here) of the whole text
	}{
		{"truncated 3-byte sequence", "\xE2\x82", 1},
		{"truncated 4-byte sequence then ASCII", "\xF0\x9F\x98A", 2},
		{"overlong lead C0", "\xC0\x80", 2},
		{"surrogate ED A0 80", "\xED\xA0\x80", 3},
		{"above U+10FFFF", "\xF4\x90\x80\x80", 4},
		{"lone continuation", "\x80\x80", 2},
		{"F5 lead", "\xF5", 1},
		{"E0 then low second byte", "\xE0\x80\x80", 3},
		{"valid between invalid", "\xFFé\xFF", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			end, err := citations.Convert([]byte(tt.text), len(tt.text), citations.Bytes)
			require.NoError(t, err)
			require.Equal(t, tt.runes, end.RuneIndex, "code points to the end")
			require.Equal(t, tt.runes, end.UTF16Index, "UTF-16 units to the end")
			back, err := citations.Convert([]byte(tt.text), tt.runes, citations.CodePoints)
			require.NoError(t, err, "Convert back")
			require.Equal(t, end, back, "Convert back")
		})
	}
}

func TestConvertErrors(t *testing.T) {
	text := []byte("a😀é\xE2\x82")
	tests := []struct {
		name string
		off  int
		unit citations.Unit
		want error
	}{
		{"negative", -1, citations.CodePoints, citations.ErrNegativeOffset},
		{"byte inside emoji", 2, citations.Bytes, citations.ErrOffsetSplitsChar},
		{"byte inside é", 6, citations.Bytes, citations.ErrOffsetSplitsChar},
		{"byte inside an invalid subpart", 8, citations.Bytes, citations.ErrOffsetSplitsChar},
		{"UTF-16 between surrogates", 2, citations.UTF16, citations.ErrOffsetSplitsChar},
		{"code points past end", 5, citations.CodePoints, citations.ErrOffsetOutOfRange},
		{"bytes past end", 10, citations.Bytes, citations.ErrOffsetOutOfRange},
		{"UTF-16 past end", 6, citations.UTF16, citations.ErrOffsetOutOfRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := citations.Convert(text, tt.off, tt.unit)
			require.ErrorIs(t, err, tt.want, "Convert(%d, %v)", tt.off, tt.unit)
		})
	}
	for _, u := range []citations.Unit{citations.CodePoints, citations.Bytes, citations.UTF16} {
		end, err := citations.Convert(text, map[citations.Unit]int{citations.CodePoints: 4, citations.Bytes: 9, citations.UTF16: 5}[u], u)
		require.NoError(t, err, "%v: end of text", u)
		require.Equal(t, citations.TextPosition{ByteOffset: 9, RuneIndex: 4, UTF16Index: 5}, end, "%v: end of text", u)
	}
}

// Property: for random text and every character boundary, converting the
// offset from any unit gives the same position, which the standard library
// confirms for valid UTF-8.
func TestConvertRoundTrip(t *testing.T) {
	pieces := []string{"a", " ", "\n", "é", "ß", "中", "文", "😀", "👨‍👩‍👧‍👦", "\u200d", "\U0010FFFF", "\xE2\x82", "\xFF", "\xED\xA0\x80", "\xF0\x9F\x98"}
	seed := uint64(1)
	rnd := func(n int) int { // xorshift, deterministic
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return int(seed % uint64(n))
	}
	for iter := range 500 {
		var b []byte
		for range rnd(40) {
			b = append(b, pieces[rnd(len(pieces))]...)
		}
		// Walk every boundary in byte units and check the other units map back.
		var boundaries []citations.TextPosition
		for off := 0; off <= len(b); off++ {
			p, err := citations.Convert(b, off, citations.Bytes)
			if errors.Is(err, citations.ErrOffsetSplitsChar) {
				continue
			}
			require.NoError(t, err, "iteration %d: Convert(%q, %d bytes)", iter, b, off)
			boundaries = append(boundaries, p)
		}
		for i, p := range boundaries {
			require.Equal(t, i, p.RuneIndex, "iteration %d: boundary %d: RuneIndex", iter, i)
			for _, u := range []citations.Unit{citations.CodePoints, citations.UTF16} {
				q, err := citations.Convert(b, offsetIn(p, u), u)
				require.NoError(t, err, "iteration %d: %v offset %d", iter, u, offsetIn(p, u))
				require.Equal(t, p, q, "iteration %d: %v offset %d", iter, u, offsetIn(p, u))
			}
			if utf8.Valid(b) {
				prefix := string(b[:p.ByteOffset])
				require.Equal(t, utf8.RuneCountInString(prefix), p.RuneIndex, "iteration %d: %+v: code points by the standard library", iter, p)
				require.Equal(t, len(utf16.Encode([]rune(prefix))), p.UTF16Index, "iteration %d: %+v: UTF-16 units by the standard library", iter, p)
			}
		}
		last := boundaries[len(boundaries)-1]
		require.Equal(t, len(b), last.ByteOffset, "iteration %d: the last boundary is the end of the text", iter)
		_, err := citations.Convert(b, last.UTF16Index+1, citations.UTF16)
		require.ErrorIs(t, err, citations.ErrOffsetOutOfRange, "iteration %d: one past the end", iter)
	}
}

// A cloned result survives the reuse of the Resolver and the overwriting
// of the parts it was resolved from.
func TestResolutionClone(t *testing.T) {
	parts, _, _ := clinicalParts(citations.CodePoints)
	parts[0].Metadata.Raw = append(parts[0].Metadata.Raw[:len(parts[0].Metadata.Raw)-2], `,{"data_part_id":"nope","offset":0}]}`...)
	var r citations.Resolver
	res := r.Resolve(parts)
	want := fmt.Sprintf("%q %v", res.Text, res.Citations) + fmt.Sprint(res.Diagnostics)
	clone := res.Clone()
	require.Len(t, clone.Diagnostics, 1, "the clone's diagnostics")
	require.Len(t, clone.Citations, 6, "the clone's citations")
	r.Resolve(diagParts(entry(`"obj"`, "1", `"/a"`)))
	for i := range parts {
		for _, b := range [][]byte{parts[i].Text, parts[i].Data, parts[i].Metadata.Raw} {
			for j := range b {
				b[j] = '#'
			}
		}
	}
	require.Equal(t, want, fmt.Sprintf("%q %v", clone.Text, clone.Citations)+fmt.Sprint(clone.Diagnostics), "the clone changed")
}

// TestSurrogatePairSplitBetweenParts checks that a pair split between two
// text parts (each half in its WTF-8 form) joins into one character before
// offsets are counted, as reconstruct's Artifact.Text joins it.
func TestSurrogatePairSplitBetweenParts(t *testing.T) {
	parts := []parser.Part{
		{Kind: parser.PartText, Text: []byte("a\xED\xA0\xBD")},
		{Kind: parser.PartText, Text: []byte("\xED\xB8\x80b"), Metadata: parser.Metadata{Raw: []byte(`{"citations":[{"data_part_id":"d","offset":2}]}`)}},
		{Kind: parser.PartData, Data: []byte(`{"x":1}`), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"d"}`)}},
	}
	res := citations.Resolve(parts, nil)
	require.Equal(t, "a😀b", string(res.Text), "Text")
	require.Len(t, res.Citations, 1, "citations")
	require.Empty(t, res.Diagnostics, "diagnostics")
	assert.Equal(t, citations.TextPosition{ByteOffset: 5, RuneIndex: 2, UTF16Index: 3}, res.Citations[0].TextPosition, "TextPosition")
}

// manyPointerParts builds an answer citing one data part n times, each
// citation a pointer to another of its entries, the data part of about
// size bytes; it returns the number of entries too. The citation at
// offset i cites the code of entry i*7919 % entries.
func manyPointerParts(n, size int) ([]parser.Part, int) {
	var data strings.Builder
	data.WriteString(`{"entries":[`)
	entry := 0
	for data.Len() < size || entry < n {
		if entry > 0 {
			data.WriteByte(',')
		}
		fmt.Fprintf(&data, `{"id":"e%d","code":{"system":"http://loinc.org","code":"%d-4"},"note":"%s"}`, entry, entry, strings.Repeat("n", 40))
		entry++
	}
	data.WriteString(`]}`)
	text := strings.Repeat("x", n)
	var meta strings.Builder
	meta.WriteString(`{"citations":[`)
	for i := range n {
		if i > 0 {
			meta.WriteByte(',')
		}
		// Spread over the whole part, so that each citation would
		// have read half of it on average.
		fmt.Fprintf(&meta, `{"data_part_id":"dp","offset":%d,"locator":"/entries/%d/code/code"}`, i, (i*7919)%entry)
	}
	meta.WriteString(`]}`)
	return []parser.Part{
		{Kind: parser.PartText, Text: []byte(text), Metadata: parser.Metadata{Raw: []byte(meta.String())}},
		{Kind: parser.PartData, Data: []byte(data.String()), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"dp"}`)}},
	}, entry
}

// Many pointers into one large data part all resolve within the default
// MaxScan: the part is read once, not from its start for each citation
// (60,000 citations into 7 MB resolved 10,572 before MaxScan ran out).
func TestManyPointersIntoOneDataPart(t *testing.T) {
	parts, entries := manyPointerParts(60000, 7<<20)
	res := citations.Resolve(parts, nil)
	require.Empty(t, res.Diagnostics[:min(3, len(res.Diagnostics))], "%d diagnostics", len(res.Diagnostics))
	require.Len(t, res.Citations, 60000)
	for _, c := range res.Citations {
		require.Equal(t, `"`+strconv.Itoa(c.Offset*7919%entries)+`-4"`, string(c.Target), "citation at %d", c.Offset)
		require.Equal(t, string(parts[1].Data[c.TargetOffset:c.TargetOffset+len(c.Target)]), string(c.Target))
	}
}

// The parts of a decoded artifact update go to Resolve as they are: the
// decoder's parser.Part is the one part type, so no glue maps them.
func TestResolveDecodedParts(t *testing.T) {
	data := `{"artifactUpdate":{"taskId":"t","artifact":{"artifactId":"a","parts":[` +
		`{"text":"HbA1c is 6.8%.","metadata":{"citations":[{"dataPartId":"dp.labs","offset":14,"locator":"/hba1c"}]}},` +
		`{"data":{"hba1c":6.8},"metadata":{"dataPartId":"dp.labs"}},` +
		`{"url":"https://example.com/x","metadata":{"dataPartId":"dp.url"}}]},"lastChunk":true}}`
	ev, err := parser.NewDecoder().Decode(&sse.Frame{Seq: 1, Data: []byte(data)})
	require.NoError(t, err)
	parts := ev.ArtifactUpdate.Artifact.Parts
	require.Len(t, parts, 3)
	res := citations.Resolve(parts, nil)
	require.Empty(t, res.Diagnostics)
	require.Len(t, res.Citations, 1)
	c := res.Citations[0]
	assert.Equal(t, "HbA1c is 6.8%.", string(res.Text))
	assert.Equal(t, 14, c.ByteOffset)
	assert.Equal(t, 1, c.DataPart, "the data part")
	assert.Equal(t, "6.8", string(c.Target))

	// A url part can be cited by id, but has no content to locate in.
	parts[0].Metadata.Raw = []byte(`{"citations":[{"dataPartId":"dp.url","offset":0}]}`)
	res = citations.Resolve(parts, nil)
	require.Len(t, res.Diagnostics, 1)
	assert.ErrorIs(t, res.Diagnostics[0], citations.ErrNotDataPart)
	require.Len(t, res.Citations, 1, "a citation whose locator failed still has its place")
	assert.Equal(t, 2, res.Citations[0].DataPart, "the url part")
}
