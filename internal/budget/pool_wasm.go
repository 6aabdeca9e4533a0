//go:build wasm

package budget

import "weak"

// Pool holds a large buffer between its users, in a *Box, in one slot: the
// module runs one goroutine at a time, with no preemption between the
// slot's read and write. The slot holds its box weakly: the garbage
// collector may take it back, so the pool never keeps memory alive. The
// zero Pool is empty and ready to use.
type Pool struct{ slot weak.Pointer[Box] }

// Get takes the buffer out of the slot with its box; nil, nil when the
// slot is empty or the collector took its box.
func (p *Pool) Get() (*Box, []byte) {
	box := p.slot.Value()
	p.slot = weak.Pointer[Box]{}
	if box == nil {
		return nil, nil
	}
	return box, box.take()
}

// Put puts b in the slot, in box (nil for a new one), dropping the box it
// held.
func (p *Pool) Put(box *Box, b []byte) {
	if box == nil {
		box = new(Box)
	}
	box.b = b
	p.slot = weak.Make(box)
}
