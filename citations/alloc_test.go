//go:build !race

package citations_test

import (
	"testing"

	"github.com/a2astream/a2astream/citations"
)

func TestResolveAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation allocates")
	}
	tests := []struct {
		name  string
		parts []citations.Part
		unit  citations.Unit
	}{
		{"1000 citations over 100 KiB", benchParts(100<<10, 1000), citations.CodePoints},
		{"clinical answer, two text parts", mustClinical(citations.UTF16), citations.UTF16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := citations.NewResolver(citations.Options{Unit: tt.unit})
			res := r.Resolve(tt.parts)
			if len(res.Diagnostics) != 0 || len(res.Citations) == 0 {
				t.Fatalf("%d citations, diagnostics %v", len(res.Citations), res.Diagnostics)
			}
			if n := testing.AllocsPerRun(100, func() { r.Resolve(tt.parts) }); n != 0 {
				t.Fatalf("warm Resolve allocates %v times per run", n)
			}
			dst := citations.AppendRender(nil, res.Text, res.Citations, citations.HTML)
			if n := testing.AllocsPerRun(100, func() {
				dst = citations.AppendRender(dst[:0], res.Text, res.Citations, citations.HTML)
			}); n != 0 {
				t.Fatalf("AppendRender into a large enough buffer allocates %v times per run", n)
			}
		})
	}
	text := []byte("a😀é\xE2\x82 and more")
	if n := testing.AllocsPerRun(100, func() { _, _ = citations.Convert(text, 5, citations.UTF16) }); n != 0 {
		t.Fatalf("Convert allocates %v times per run", n)
	}
}

func mustClinical(u citations.Unit) []citations.Part {
	parts, _, _ := clinicalParts(u)
	return parts
}
