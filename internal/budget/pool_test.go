//go:build !race

// (The race detector makes a sync.Pool drop values at random.)

package budget_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/internal/budget"
)

type box struct{ b []byte }

// TestPoolEmpty checks that the zero Pool gives nothing.
func TestPoolEmpty(t *testing.T) {
	var p budget.Pool[box]
	assert.Nil(t, p.Get())
}

// TestPoolGivesBack checks that a value put in the pool comes back out
// of it once, as the same pointer, on the goroutine that put it. (A
// sync.Pool may lose a value when the goroutine moves to another
// processor or a collection runs: most rounds, not every one, must get
// it back.)
func TestPoolGivesBack(t *testing.T) {
	var p budget.Pool[box]
	back := 0
	for range 100 {
		b := &box{b: make([]byte, 0, 1<<20)}
		p.Put(b)
		v := p.Get()
		if v == nil {
			continue
		}
		require.Same(t, b, v.(*box))
		back++
		assert.Nil(t, p.Get(), "taken once")
	}
	assert.Greater(t, back, 50, "rounds in which the value came back")
}

// TestPoolPutOtherType checks that Put refuses a value that is not a *T.
func TestPoolPutOtherType(t *testing.T) {
	var p budget.Pool[box]
	assert.Panics(t, func() { p.Put(box{}) })
}
