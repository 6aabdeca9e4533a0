//go:build wasm

package sse

// largeBuffers holds the large input buffer of an idle Lexer, as
// pool.go's sync.Pool does on other platforms. On WebAssembly a module's
// linear memory never shrinks, so a buffer the garbage collector could take
// back stays resident anyway, and one slot (the module runs one goroutine
// at a time, with no preemption between the slot's read and write) keeps
// sync.Pool's 12 KB (gzipped) out of the module's size budget.
var largeBuffers slot

// slot is a pool of at most one value.
type slot struct{ v any }

// Get takes the value out of the slot; nil when it is empty.
func (s *slot) Get() any {
	v := s.v
	s.v = nil
	return v
}

// Put puts v in the slot, dropping the value it held.
func (s *slot) Put(v any) { s.v = v }
