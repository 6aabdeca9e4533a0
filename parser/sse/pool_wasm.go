//go:build wasm

package sse

import "weak"

// largeBuffers holds the large input buffer of an idle Lexer, as
// pool.go's sync.Pool does on other platforms, in one slot (the module runs
// one goroutine at a time, with no preemption between the slot's read and
// write), which keeps sync.Pool's 12 KB (gzipped) out of the module's size
// budget. The slot holds its buffer weakly, as a sync.Pool does: the
// garbage collector may take it back, so the slot never keeps memory alive.
var largeBuffers slot

// slot is a pool of at most one value, held weakly.
type slot struct{ p weak.Pointer[bufBox] }

// Get takes the value out of the slot; nil when it is empty or the
// collector took it.
func (s *slot) Get() any {
	box := s.p.Value()
	s.p = weak.Pointer[bufBox]{}
	if box == nil {
		return nil
	}
	return box
}

// Put puts v, a *bufBox, in the slot, dropping the value it held.
func (s *slot) Put(v any) { s.p = weak.Make(v.(*bufBox)) }
