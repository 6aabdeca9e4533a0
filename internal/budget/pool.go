//go:build !wasm

package budget

import "sync"

// Pool holds values of type *T between their users, as a sync.Pool does
// and with its methods: natively it is one (see the package doc for the
// WebAssembly module's). Get returns nil when the pool is empty; Put
// takes a *T. The zero Pool is empty and ready to use.
type Pool[T any] struct{ p sync.Pool }

// Get takes a value out of the pool: a *T, or nil when there is none.
func (p *Pool[T]) Get() any { return p.p.Get() }

// Put puts v, a *T, in the pool.
func (p *Pool[T]) Put(v any) { p.p.Put(v.(*T)) }
