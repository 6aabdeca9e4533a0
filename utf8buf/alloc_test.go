//go:build !race

package utf8buf_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/a2astream/a2astream/utf8buf"
)

// TestZeroAllocs proves that, once warm, Write, AppendWrite within
// capacity, Flush, Append within capacity, CompletePrefix and AppendDisplay
// within capacity allocate nothing, on text that splits characters and
// surrogate pairs at chunk boundaries.
func TestZeroAllocs(t *testing.T) {
	in := []byte(mixedText + highD83D + lowDE00 + "x" + highD83D)
	in = append(in, in...)
	chunks := chunk(in, 7)
	var b utf8buf.Buffer
	dst := make([]byte, 0, 2*len(in))
	text := make([]byte, 0, 2*len(in))
	display := make([]byte, 0, 4*len(in))
	cases := []struct {
		name string
		f    func()
	}{
		{"Write", func() {
			for _, c := range chunks {
				b.Write(c)
			}
			b.Flush()
		}},
		{"Write whole", func() {
			b.Write(in)
			b.Flush()
		}},
		{"AppendWrite", func() {
			dst = dst[:0]
			for _, c := range chunks {
				dst = b.AppendWrite(dst, c)
			}
			dst = append(dst, b.Flush()...)
		}},
		{"Append and CompletePrefix", func() {
			text = text[:0]
			n := 0
			for _, c := range chunks {
				text = utf8buf.Append(text, c)
				n += utf8buf.CompletePrefix(text)
			}
		}},
		{"AppendDisplay", func() {
			display = utf8buf.AppendDisplay(display[:0], in)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.f() // warm up: grow the scratch buffer
			assert.Zero(t, testing.AllocsPerRun(100, tc.f), "%s: allocations per run", tc.name)
		})
	}
}
