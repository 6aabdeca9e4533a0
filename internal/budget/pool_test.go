//go:build !race

// (The race detector makes a sync.Pool drop values at random.)

package budget_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/internal/budget"
)

// TestPoolEmpty checks that the zero Pool gives nothing.
func TestPoolEmpty(t *testing.T) {
	var p budget.Pool
	box, b := p.Get()
	assert.Nil(t, box)
	assert.Nil(t, b)
}

// TestPoolGivesBack checks that a buffer put in the pool comes back out
// of it once, with the same box, on the goroutine that put it. (A
// collection may empty the pool between two calls: most rounds, not every
// one, must get it back.)
func TestPoolGivesBack(t *testing.T) {
	var p budget.Pool
	back := 0
	var box *budget.Box
	for range 100 {
		buf := make([]byte, 0, 1<<20)
		p.Put(box, buf)
		got, b := p.Get()
		if got == nil {
			box = nil
			continue
		}
		require.Equal(t, cap(buf), cap(b))
		require.Same(t, &buf[:1][0], &b[:1][0], "the same buffer")
		if box != nil {
			require.Same(t, box, got, "the box put")
		}
		box = got
		back++
		again, _ := p.Get()
		assert.Nil(t, again, "taken once")
	}
	assert.Greater(t, back, 50, "rounds in which the buffer came back")
}
