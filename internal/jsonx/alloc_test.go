//go:build !race

package jsonx

import "testing"

// TestAllocs proves that Valid allocates nothing and that a warm Parser
// allocates nothing per document.
func TestAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation allocates")
	}
	docs := [][]byte{benchDelta, []byte(`{"a\u00e9":[1,-2.5e3,true,false,null,{"b":[]}],"c":"x\ny"}`)}
	for _, doc := range docs {
		if n := testing.AllocsPerRun(100, func() { Valid(doc) }); n != 0 {
			t.Errorf("Valid(%.20q…) allocates %v times", doc, n)
		}
		var p Parser
		var fs []Field
		if n := testing.AllocsPerRun(100, func() {
			v, err := p.Parse(doc)
			if err != nil {
				t.Fatal(err)
			}
			fs = p.AppendFields(fs[:0], v)
		}); n != 0 {
			t.Errorf("Parse(%.20q…) allocates %v times", doc, n)
		}
	}
}
