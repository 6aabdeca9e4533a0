package budget_test

import (
	"fmt"

	"github.com/a2astream/a2astream/internal/budget"
)

// bufBox carries a buffer in the pool: a pointer, so that putting it
// there allocates nothing.
type bufBox struct{ b []byte }

var buffers budget.Pool[bufBox]

// take returns an empty buffer of at least n bytes: the pool's when it
// holds one that large, else a new one.
func take(n int) []byte {
	if v := buffers.Get(); v != nil {
		if box := v.(*bufBox); cap(box.b) >= n {
			return box.b[:0]
		}
	}
	return make([]byte, 0, n)
}

// A large buffer goes to the pool when its user is done with it, and the
// next user that needs one that large takes it (or makes one, when the
// pool is empty: a collection may have emptied it).
func ExamplePool() {
	b := take(1 << 20)
	b = append(b, "a large event"...)
	buffers.Put(&bufBox{b: b})
	next := take(1 << 20)
	fmt.Println(len(next), cap(next) >= 1<<20)
	// Output: 0 true
}
