package sse

// Test-only access to the Lexer's internals.

// Lexer returns the Reader's Lexer.
func (r *Reader) Lexer() *Lexer { return &r.lx }

// KeepBufferSize is the largest buffer that Reset keeps.
const KeepBufferSize = keepBufferSize

// DrainBufferPools empties the pool of idle Lexers' large buffers, so
// that a test sees a Lexer grow its own.
func DrainBufferPools() {
	for box, _ := largeBuffers.Get(); box != nil; box, _ = largeBuffers.Get() {
	}
}

// PooledBuffer returns the capacity of the buffer the pool would hand out
// next, and leaves it there; 0 when it holds none.
func PooledBuffer() int {
	box, b := largeBuffers.Get()
	if box == nil {
		return 0
	}
	largeBuffers.Put(box, b)
	return cap(b)
}

// HeldBytes returns the capacity of every buffer the Lexer holds.
func (lx *Lexer) HeldBytes() int {
	return cap(lx.in.buf) + cap(lx.in.small) + cap(lx.ev.data) + cap(lx.id.own) + cap(lx.id.kept)
}

// Searched returns, as stream offsets, the start of the line being
// scanned and where the Lexer's next searches for LF and for CR resume:
// the bytes from line to lf hold no LF, those from line to cr no CR, and
// Next does not search them for that line end again.
func (lx *Lexer) Searched() (line, lf, cr int64) {
	in, s := &lx.in, &lx.search
	return in.base + int64(in.cur), in.base + int64(max(s.lfNext, in.cur)), in.base + int64(max(s.crNext, in.cur))
}

// Plant overwrites the buffered byte at stream offset off with c.
func (lx *Lexer) Plant(off int64, c byte) { lx.in.buf[off-lx.in.base] = c }

// BufferAt returns where the input buffer is: the stream offset of its
// first byte and its capacity. A change in either means that the bytes
// retained moved: dropped released bytes, or a new buffer.
func (lx *Lexer) BufferAt() (base int64, size int) { return lx.in.base, cap(lx.in.buf) }
