package sse

// Test-only access to the Lexer's internals.

// HeldBytes returns the capacity of every buffer the Lexer holds.
func (lx *Lexer) HeldBytes() int { return cap(lx.buf) + cap(lx.data) + cap(lx.lastID) }

// Lexer returns the Reader's Lexer.
func (r *Reader) Lexer() *Lexer { return &r.lx }

// KeepBufferSize is the largest buffer that Reset keeps.
const KeepBufferSize = keepBufferSize
