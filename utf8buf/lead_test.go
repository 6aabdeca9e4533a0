package utf8buf

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestIndexLead checks the word checks of indexLead against a byte loop:
// every length up to 40, a 0xED at every position (or none), among bytes
// that differ from 0xED in one bit or by one, which a wrong mask or borrow
// would take for it.
func TestIndexLead(t *testing.T) {
	fillers := []byte{0x00, 'a', 0x6D, 0xEC, 0xEE, 0xE5, 0xFD, 0xFF, 0x80}
	for n := 0; n <= 40; n++ {
		for _, fill := range fillers {
			for at := -1; at < n; at++ {
				p := make([]byte, n)
				for i := range p {
					p[i] = fill + byte(i%3)
					if p[i] == surrogateLead {
						p[i] = fill
					}
				}
				if at >= 0 {
					p[at] = surrogateLead
					if at+1 < n {
						p[at+1] = surrogateLead // a later one must not matter
					}
				}
				want := -1
				for i, c := range p {
					if c == surrogateLead {
						want = i
						break
					}
				}
				require.Equal(t, want, indexLead(p), "indexLead(% x)", p)
			}
		}
	}
}
