//go:build !wasm

package budget

import (
	"sync"
	"weak"
)

// Pool holds large buffers between their users, each in a *Box; natively
// a sync.Pool of boxes that also shows any goroutine the box put last (see
// the package doc for the WebAssembly module's). A sync.Pool keeps what it
// holds through one garbage collection, never longer, but its Get does not
// see the value another processor put last (that processor's private
// slot): a buffer released by one stream was taken by the next in about
// half the runs on two processors (issue 33: reconstruct.Read grew a 12 MB
// buffer afresh for each 10 MB event). last is weak, so the sync.Pool
// alone decides how long a box lives. A box may then be in the sync.Pool
// while its buffer is in use: its b is nil from Get to Put, and Get skips
// such a box. A large buffer is taken or put back once per large event at
// most, so one lock serves. The zero Pool is empty and ready to use.
type Pool struct {
	mu   sync.Mutex
	last weak.Pointer[Box]
	all  sync.Pool
}

// Get takes a buffer out of the pool with its box; nil, nil when the pool
// holds none. The box goes back with the buffer (Put).
func (p *Pool) Get() (*Box, []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	box := p.last.Value()
	p.last = weak.Pointer[Box]{}
	for box == nil || box.b == nil {
		v := p.all.Get()
		if v == nil {
			return nil, nil
		}
		box = v.(*Box)
	}
	return box, box.take()
}

// Put puts b in the pool, in box: the one Get gave with a buffer, or nil
// for a new one.
func (p *Pool) Put(box *Box, b []byte) {
	if box == nil {
		box = new(Box)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	box.b = b
	p.all.Put(box)
	p.last = weak.Make(box)
}
