package sse

// Test-only access to the Lexer's internals.

// Lexer returns the Reader's Lexer.
func (r *Reader) Lexer() *Lexer { return &r.lx }

// KeepBufferSize is the largest buffer that Reset keeps.
const KeepBufferSize = keepBufferSize

// DrainBufferPools empties the pool of idle Lexers' large buffers, so
// that a test sees a Lexer grow its own.
func DrainBufferPools() {
	for largeBuffers.Get() != nil {
	}
}

// HeldBytes returns the capacity of every buffer the Lexer holds.
func (lx *Lexer) HeldBytes() int {
	return cap(lx.buf) + cap(lx.small) + cap(lx.data) + cap(lx.lastID)
}
