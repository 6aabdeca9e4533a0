//go:build !race

package jsonx

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAllocs proves that Valid allocates nothing and that a warm Parser
// allocates nothing per document.
func TestAllocs(t *testing.T) {
	docs := [][]byte{benchDelta, []byte(`{"a\u00e9":[1,-2.5e3,true,false,null,{"b":[]}],"c":"x\ny"}`)}
	for _, doc := range docs {
		assert.Zero(t, testing.AllocsPerRun(100, func() { Valid(doc) }), "Valid(%.20q…): allocations per run", doc)
		var p Parser
		var fs []Field
		// The measured function only records an error: a testify call
		// there would count its own allocations.
		var parseErr error
		n := testing.AllocsPerRun(100, func() {
			v, err := p.Parse(doc)
			if err != nil {
				parseErr = err
			}
			fs = p.AppendFields(fs[:0], v)
		})
		require.NoError(t, parseErr, "Parse(%.20q…)", doc)
		assert.Zero(t, n, "Parse(%.20q…): allocations per run", doc)
	}
}
