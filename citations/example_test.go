package citations_test

import (
	"fmt"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
)

// An answer whose text part cites a lab value and two lines of a quoted
// transcript. The offsets count code points: "é" is one character.
func ExampleResolve() {
	parts := []parser.Part{
		{
			Kind: parser.PartText,
			Text: []byte("Fièvre 38.9 °C; the patient reports a cough."),
			Metadata: parser.Metadata{Raw: []byte(`{"citations":[
				{"data_part_id":"dp.labs","offset":14,"locator":"/results/0/value"},
				{"dataPartId":"dp.transcript","offset":44,"locator":"L2-L3"}]}`)},
		},
		{
			Kind:     parser.PartData,
			Data:     []byte(`{"results":[{"code":"8310-5","value":38.9,"unit":"Cel"}]}`),
			Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"dp.labs"}`)},
		},
		{
			Kind:     parser.PartData,
			Data:     []byte(`"Doctor: Any symptoms?\nPatient: A cough,\nsince Monday.\n"`),
			Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"dp.transcript"}`)},
		},
	}
	res := citations.Resolve(parts, nil)
	for _, c := range res.Citations {
		fmt.Printf("[%d] %s bytes=%d runes=%d utf16=%d %s %q\n",
			c.Number, c.ID, c.ByteOffset, c.RuneIndex, c.UTF16Index, c.TargetKind, c.Target)
	}
	fmt.Println(len(res.Diagnostics), "diagnostics")
	// Output:
	// [1] dp.labs bytes=16 runes=14 utf16=14 Number "38.9"
	// [2] dp.transcript bytes=46 runes=44 utf16=44 Text "Patient: A cough,\nsince Monday."
	// 0 diagnostics
}

// Markers in three styles, over text that needs escaping in HTML. Each
// target has its number: /hba1c of dp.a is 1 wherever the text cites it,
// and the whole of dp.a is another target, 3.
func ExampleAppendRender() {
	parts := []parser.Part{
		{
			Kind: parser.PartText,
			Text: []byte("HbA1c <7%. LDL high. Well above HbA1c."),
			Metadata: parser.Metadata{Raw: []byte(`{"citations":[
				{"data_part_id":"dp.a","offset":10,"locator":"/hba1c"},
				{"data_part_id":"dp.b","offset":20,"locator":"/ldl"},
				{"data_part_id":"dp.a","offset":20},
				{"data_part_id":"dp.a","offset":38,"locator":"/hba1c"}]}`)},
		},
		{Kind: parser.PartData, Data: []byte(`{"hba1c":6.8}`), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"dp.a"}`)}},
		{Kind: parser.PartData, Data: []byte(`{"ldl":4.1}`), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"dp.b"}`)}},
	}
	res := citations.Resolve(parts, nil)
	fmt.Printf("%s\n", citations.AppendRender(nil, res.Text, res.Citations, citations.Numbered))
	fmt.Printf("%s", citations.AppendRender(nil, res.Text, res.Citations, citations.Footnotes))
	fmt.Printf("%s", citations.AppendRender(nil, res.Text, res.Citations, citations.HTML))
	// Output:
	// HbA1c <7%.[1] LDL high.[2][3] Well above HbA1c.[1]
	// HbA1c <7%.[^1] LDL high.[^2][^3] Well above HbA1c.[^1]
	//
	// [^1]: dp.a /hba1c
	// [^2]: dp.b /ldl
	// [^3]: dp.a
	// HbA1c &lt;7%.<sup><a href="#cite-1">1</a></sup> LDL high.<sup><a href="#cite-2">2</a></sup><sup><a href="#cite-3">3</a></sup> Well above HbA1c.<sup><a href="#cite-1">1</a></sup>
	// <ol class="citations">
	// <li id="cite-1" value="1">dp.a /hba1c</li>
	// <li id="cite-2" value="2">dp.b /ldl</li>
	// <li id="cite-3" value="3">dp.a</li>
	// </ol>
}

// ExampleResolve_units resolves one citation into a French text: its
// offset, given in UTF-16 units as a JavaScript host counts them, is
// reported in all three units, with the value its JSON Pointer selects.
func ExampleResolve_units() {
	parts := []parser.Part{
		{Kind: parser.PartText, Text: []byte("Fièvre 38.9 °C."),
			Metadata: parser.Metadata{Raw: []byte(`{"citations":[{"data_part_id":"dp.labs","offset":14,"locator":"/temp"}]}`)}},
		{Kind: parser.PartData, Data: []byte(`{"temp":38.9}`), Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"dp.labs"}`)}},
	}
	res := citations.Resolve(parts, &citations.Options{Unit: citations.UTF16})
	for _, c := range res.Citations {
		fmt.Println(c.Number, c.ByteOffset, c.RuneIndex, c.UTF16Index, string(c.Target))
	}
	// Output:
	// 1 16 14 14 38.9
}
