package budget_test

import (
	"fmt"

	"github.com/a2astream/a2astream/internal/budget"
)

var buffers budget.Pool

// take returns an empty buffer of at least n bytes, with the box that
// carries it back to the pool: the pool's when it holds one that large,
// else a new one.
func take(n int) (*budget.Box, []byte) {
	box, b := buffers.Get()
	if cap(b) >= n {
		return box, b[:0]
	}
	if box != nil {
		buffers.Put(box, b) // too small for this user; another may take it
	}
	return nil, make([]byte, 0, n)
}

// A large buffer goes to the pool when its user is done with it, and the
// next user that needs one that large takes it (or makes one, when the
// pool is empty: a collection may have emptied it).
func ExamplePool() {
	box, b := take(1 << 20)
	b = append(b, "a large event"...)
	buffers.Put(box, b)
	_, next := take(1 << 20)
	fmt.Println(len(next), cap(next) >= 1<<20)
	// Output: 0 true
}
