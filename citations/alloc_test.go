//go:build !race

package citations_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
)

func TestResolveAllocs(t *testing.T) {
	tests := []struct {
		name  string
		parts []parser.Part
		unit  citations.Unit
	}{
		{"1000 citations over 100 KiB", benchParts(100<<10, 1000), citations.CodePoints},
		{"clinical answer, two text parts", mustClinical(citations.UTF16), citations.UTF16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := citations.NewResolver(&citations.Options{Unit: tt.unit})
			res := r.Resolve(tt.parts)
			require.Empty(t, res.Diagnostics, "diagnostics")
			require.NotEmpty(t, res.Citations, "citations")
			require.Zero(t, testing.AllocsPerRun(100, func() { r.Resolve(tt.parts) }), "allocations per warm Resolve")
			dst := citations.AppendRender(nil, res.Text, res.Citations, citations.HTML)
			require.Zero(t, testing.AllocsPerRun(100, func() {
				dst = citations.AppendRender(dst[:0], res.Text, res.Citations, citations.HTML)
			}), "allocations per AppendRender into a large enough buffer")
		})
	}
	text := []byte("a😀é\xE2\x82 and more")
	require.Zero(t, testing.AllocsPerRun(100, func() { _, _ = citations.Convert(text, 5, citations.UTF16) }), "allocations per Convert")
}

func mustClinical(u citations.Unit) []parser.Part {
	parts, _, _ := clinicalParts(u)
	return parts
}
