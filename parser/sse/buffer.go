package sse

// This file is the Lexer's input buffer: its invariants, how it grows
// (reserve), how the room a read fills deep in a large one is prefetched
// (warm), how a large one goes back to the pool when idle (release), and
// how the indices into it move when its released bytes are dropped
// (shift).

import "github.com/a2astream/a2astream/internal/budget"

const (
	// minBufferSize is the smallest buffer a Lexer allocates.
	minBufferSize = 4 << 10
	// keepBufferSize is the largest joined-data or last-event-ID buffer
	// that Reset keeps.
	keepBufferSize = 256 << 10
	// idleBufferSize is the largest input buffer a Lexer keeps between
	// events: a larger one, grown for reads of ReadSize or a large event,
	// goes back to largeBuffers once every byte received is consumed.
	idleBufferSize = 16 << 10
	// slowGrowth is the buffer size past which the input buffer grows by
	// half, not by doubling, so that the buffer for one large event ends
	// at most 1.5 times its size.
	slowGrowth = 1 << 20
	// compactFrom is how many released bytes make it worth dropping them
	// before a read even when the buffer has room (see needsRoom).
	compactFrom = 16 << 10
	// coldFrom is the offset in buf from which warm prefetches the room a
	// read fills: past the level 2 cache of most processors (512 KiB to
	// 2 MiB a core), so that what lies there was written an event ago or
	// never, and comes from memory.
	coldFrom = 1 << 20
	// warmSize is how much of that room warm prefetches at a time: what
	// a network read, or a reader that gives little at a time, brings.
	warmSize = 4 << 10
)

// input holds the bytes written and not yet released. Invariants:
//
//	0 ≤ start ≤ cur ≤ len(buf)
//	buf[:start] is released (consumed; kept only until the next Write so
//	that the last Frame's views stay valid);
//	buf[start:cur] is the pending event's complete lines (or the line-end
//	byte of the previous line), retained for its views;
//	buf[cur:] is the line being scanned, not yet complete;
//	len(buf)-start ≤ max after a call to Next that returned false without
//	error, unless a single Write brought more.
//
// Only Write, Fill, FillLine (through reserve), release and Reset change
// buf; Next only moves start and cur.
type input struct {
	buf []byte
	// small is the Lexer's own buffer, at most idleBufferSize, kept aside
	// while buf is a large one; box carries a large buf to the pool.
	small []byte
	box   *budget.Box
	base  int64 // stream offset of buf[0]
	start int
	cur   int
	// warmTo is where warm's last prefetch of the room ended (see cold).
	warmTo int
}

// needsRoom reports whether a write of n bytes should go through
// reserve: when buf lacks room for them, and when at least compactFrom
// bytes are released and the retained ones are at most an eighth of them.
// Dropping the released bytes then, before the write, copies little (at
// most an eighth of the input in all) and keeps the writes within the same
// first bytes of buf, which stay in the processor's cache; left for when
// room runs out, the same drop would copy nearly a whole large event (0.8
// of the input with events of 256 KiB read in 4 KiB reads), and the writes
// would cycle through all of buf.
func (in *input) needsRoom(n int) bool {
	return cap(in.buf)-len(in.buf) < n ||
		in.start >= compactFrom && len(in.buf)-in.start <= in.start>>3
}

// cold reports whether warm should prefetch the room after len(buf)
// before a read: when it lies past coldFrom in buf (within one event of
// more than 1 MiB), and past the room warm prefetched last. It is the
// check, small enough to be inlined in the loop of reads.
func (in *input) cold() bool { return len(in.buf) >= coldFrom && len(in.buf) >= in.warmTo }

// warm prefetches the first warmSize bytes of room, the bytes after
// len(buf) that a read is about to fill, when cold: prefetched together,
// their cache lines come from memory at once, where the read's copy into
// them would fetch them one after another. One 10 MB event read 4 KiB at
// a time: about 20% less time (bench/RESULTS.md).
func (in *input) warm(room []byte) {
	prefetch(room[:min(len(room), warmSize)])
	in.warmTo = len(in.buf) + warmSize
}

// reserve makes room for n more bytes after len(buf), when needsRoom
// says so. It drops the released bytes when that copies no more than it
// frees (always the case of a call for few retained bytes), and otherwise
// moves the retained bytes to a larger buffer: doubled up to 1 MiB, then
// grown by half, never beyond the retained bytes plus n or max plus n,
// whichever is larger. A large buffer (past idleBufferSize) comes from the
// pool when it holds one that fits; the Lexer keeps its small one aside.
// The last event ID, and the last Frame's ID, are copied out first.
func (lx *Lexer) reserve(n int) {
	in := &lx.in
	if !in.needsRoom(n) {
		return
	}
	lx.id.copyOut(in.buf, &lx.frame)
	kept := len(in.buf) - in.start
	need := kept + n
	if size := cap(in.buf); need <= size && in.start >= kept {
		copy(in.buf, in.buf[in.start:])
		in.buf = in.buf[:kept]
	} else {
		if size < slowGrowth {
			size = max(2*size, minBufferSize)
		} else {
			size += size / 2
		}
		most := max(need, lx.max+n)
		size = min(max(size, need), most)
		old := in.buf
		if size <= idleBufferSize {
			in.buf = make([]byte, 0, size)
		} else {
			b, box := takeBuffer(need, size, most)
			if cap(old) <= idleBufferSize {
				in.small = old[:0]
			}
			if box == nil {
				box = in.box
			}
			in.buf, in.box = b, box
		}
		in.buf = append(in.buf, old[in.start:]...)
	}
	lx.shift(in.start)
}

// release hands a large input buffer to the pool, for a Lexer that holds
// no byte in it (every byte received was consumed, or Reset discards
// them), and goes back to the Lexer's small buffer. The last event ID,
// and the last Frame's ID, are copied out first; the Frame's other views
// into it, already invalid, are cleared.
func (lx *Lexer) release() {
	in := &lx.in
	if cap(in.buf) <= idleBufferSize {
		return
	}
	lx.id.copyOut(in.buf, &lx.frame)
	lx.shift(len(in.buf))
	largeBuffers.Put(in.box, in.buf[:0])
	in.buf, in.box, in.small = in.small, nil, nil
	// The views go, the frame's place stays: a caller may still ask how
	// many frames came (Frame().Seq) after the buffer went back.
	lx.frame = Frame{Offset: lx.frame.Offset, Seq: lx.frame.Seq, ID: lx.frame.ID}
}

// takeBuffer returns an empty large buffer with a capacity from need to
// most (size if it allocates one) and its box (nil if it allocated): one
// from the pool when it has one that fits. A pooled buffer too small is
// dropped; one too large, put back.
func takeBuffer(need, size, most int) ([]byte, *budget.Box) {
	if box, b := largeBuffers.Get(); box != nil {
		if c := cap(b); c >= need && c <= most {
			return b[:0], box
		} else if c > most {
			largeBuffers.Put(box, b)
		}
	}
	return make([]byte, 0, size), nil
}

// shift subtracts d from every index into buf after buf[:d] was dropped.
func (lx *Lexer) shift(d int) {
	if d == 0 {
		return
	}
	in := &lx.in
	in.base += int64(d)
	in.start -= d
	in.cur -= d
	in.warmTo -= d
	lx.search.lfNext -= d
	lx.search.crNext -= d
	if lx.ev.active {
		lx.ev.shift(d)
	}
}

// keep returns b emptied, or nil when it grew past keepBufferSize, for
// Reset.
func keep(b []byte) []byte {
	if cap(b) > keepBufferSize {
		return nil
	}
	return b[:0]
}
