//go:build wasm

package budget

import "weak"

// Pool holds values of type *T between their users, with sync.Pool's
// methods, in one slot: the module runs one goroutine at a time, with no
// preemption between the slot's read and write. The slot holds its value
// weakly, as a sync.Pool does: the garbage collector may take it back, so
// the pool never keeps memory alive. The zero Pool is empty and ready to
// use.
type Pool[T any] struct{ slot weak.Pointer[T] }

// Get takes the value out of the slot: a *T, or nil when the slot is empty
// or the collector took its value.
func (p *Pool[T]) Get() any {
	v := p.slot.Value()
	p.slot = weak.Pointer[T]{}
	if v == nil {
		return nil
	}
	return v
}

// Put puts v, a *T, in the slot, dropping the value it held.
func (p *Pool[T]) Put(v any) { p.slot = weak.Make(v.(*T)) }
