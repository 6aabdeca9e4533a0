package jsonx

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEscapeIndex checks the index of the escapes that Parse keeps for
// AppendText: each string with escapes points
// at its first one, the positions are those of its backslashes, and past
// the room of len/32 positions the strings point at none.
func TestEscapeIndex(t *testing.T) {
	long := strings.Repeat("x", 100) + `\n` + strings.Repeat("y", 100) + `\"z\u00e9`
	data := []byte(`{"k\ney":"a\tb","text":"` + long + `","dense":"` + strings.Repeat(`\n`, 20) + `","last":"q\r"}`)
	var p Parser
	root, err := p.Parse(data)
	require.NoError(t, err, "Parse")
	fs := p.AppendFields(nil, root)
	require.Len(t, fs, 4, "members")
	var got [][]int
	for _, f := range fs {
		nd := &p.nodes[f.Value.i]
		var at []int
		if nd.escAt >= 0 {
			for _, e := range p.escs[nd.escAt:] {
				if int(e) >= nd.end {
					break
				}
				at = append(at, int(e)-nd.start-1)
			}
		}
		got = append(got, at)
	}
	// The key's escape is indexed too, before its value's. The room is
	// len(data)/32 = 9 positions: "dense" overflows it, and "last" comes
	// after.
	require.Equal(t, 9, p.escMax, "room")
	require.Equal(t, [][]int{{1}, {100, 202, 205}, nil, nil}, got, "indexed escapes, relative to each string")
}
