package sse

// This file is structured as: the options and the Lexer type with its
// invariants; the public methods (Write, Next, Frame, Close, Err, Reset and
// the accessors); then the scanning core: the one line loop of Next (line
// ends, then each line: blank, comment or field), the field classifier,
// dispatch (the one place a frame is built), the oversized-event skip; and
// buffer management. Cheap cases sit at the leaves of the loop, each
// falling back to the general case: a line's first word tells a data line,
// whose end bytes.IndexByte finds at once, from a short one, searched a word
// at a time for its end and its NULs (so that an id of any length needs no
// second pass); the same word recognises "data:" and "id:"; and a blank
// line after a field line is known by its first byte.

import (
	"bytes"
	"io"
	"math"
	"math/bits"
)

// DefaultMaxEventSize is the MaxEventSize used when Options leaves it at 0:
// 16 MiB, room for a consolidated answer with its cited data parts.
const DefaultMaxEventSize = 16 << 20

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
	// crWindow is how far ahead of a line the search for CR may look.
	crWindow = 16 << 10
	// bom is the UTF-8 encoding of U+FEFF BYTE ORDER MARK.
	bom = "\xEF\xBB\xBF"
)

// Options configures a [Lexer] or a [Reader]. The zero value, like a nil
// *Options, selects every default.
type Options struct {
	// MaxEventSize caps the bytes one event occupies in the stream: its
	// lines with their line ends, from the first line that is not a comment
	// to the blank line that ends it (excluded). A comment line outside an
	// event is capped at MaxEventSize bytes as well. A larger event is
	// reported with [ErrEventTooLarge] as soon as it passes the limit, and
	// skipped to its end; the next event is read normally. 0 or a negative value means [DefaultMaxEventSize], never
	// unlimited.
	MaxEventSize int
	// OnComment, when not nil, is called with the text of every comment
	// line (a line that starts with ':', such as a ": keep-alive"), after
	// the colon and with one leading space removed, in stream order and
	// during the call to Next that reaches the line. The slice is valid
	// only during the call; it must not be modified nor retained, and the
	// function must not call methods of the Lexer or Reader. Comments
	// inside an event skipped for its size are not reported. When nil,
	// comments cost nothing beyond finding their end.
	OnComment func(text []byte)
}

// skipMode says what an oversized line or event is being skipped to.
type skipMode uint8

const (
	skipNone  skipMode = iota
	skipEvent          // skip to the blank line that ends the event
	skipLine           // skip to the end of an oversized comment line
)

// Lexer splits a Server-Sent Events byte stream, pushed in chunks of any
// size with Write, into frames pulled with Next and Frame, following the
// WHATWG HTML standard's rules for parsing and interpreting an event stream.
// See the package documentation for the call order.
//
// The zero value is ready to use with the default options. A Lexer must not
// be used from multiple goroutines at once.
//
// A Lexer holds the input not yet consumed (the event in flight, at most
// MaxEventSize bytes, and the last Write) in one buffer, grown by doubling
// up to 1 MiB and then by half, so that the buffer for one large event
// ends at most 1.5 times its size. Between events, once Next has consumed
// every byte written, a buffer larger than 16 KiB goes back to a pool that
// all the Lexers of the process share, and the Lexer keeps at most 16 KiB
// of its own: an idle stream holds little, and the next event that needs
// a large buffer takes one from the pool, so that a Lexer reused with
// Reset, or one that reads large events one after another, does not
// allocate it again.
type Lexer struct {
	max       int // MaxEventSize; 0 until Write or init sets the default
	onComment func([]byte)

	// buf holds the input not yet released. Invariants:
	//	0 ≤ start ≤ cur ≤ len(buf)
	//	buf[:start] is released (consumed; kept only until the next Write
	//	so that the last Frame's views stay valid);
	//	buf[start:cur] is the pending event's complete lines (or the
	//	line-end byte of the previous line), retained for its views;
	//	buf[cur:] is the line being scanned, not yet complete.
	//	len(buf)-start ≤ max after a call to Next that returned false
	//	without error, unless a single Write brought more.
	buf []byte
	// small is the Lexer's own buffer, at most idleBufferSize, kept aside
	// while buf is a large one; box carries a large buf to the pool.
	small []byte
	box   *bufBox
	base  int64 // stream offset of buf[0]
	start int
	cur   int
	// lfNext and crNext remember how far the searches for the next LF and
	// the next CR got, so that no byte is searched twice whatever the
	// chunking: buf[cur:lfNext] holds no LF and buf[cur:crNext] no CR
	// (both are ≤ len(buf); a value below cur means "search from cur").
	lfNext int
	crNext int
	skipLF bool // the previous line ended with a CR at the end of the input seen so far
	bomOK  bool // the start of the stream has been checked for a BOM
	closed bool
	// drained reports that Next has run out of complete lines since the
	// last Write: what is buffered is one unfinished event within max.
	drained bool

	// The pending event: lines received since the last blank line.
	// Indices point into buf and are valid only while pending is true.
	pending  bool
	evStart  int // first byte of the event's first non-comment line
	nData    int // number of data lines
	dataFrom int // the first data line's value, buf[dataFrom:dataTo]
	dataTo   int
	data     []byte // the data lines joined with LF, when nData ≥ 2
	typeFrom int    // the last event line's value, buf[typeFrom:typeTo]
	typeTo   int
	idFrom   int // the last valid id line's value, buf[idFrom:idTo], when idSet
	idTo     int
	idSet    bool
	retry    int64
	hasRetry bool

	// The oversized line or event being skipped.
	skip    skipMode
	skipMid bool  // the current line's start was dropped: it is not blank
	skipOff int64 // stream offset where the skipped event or line began

	// Stream state that persists across events. The last event ID is
	// buf[lastFrom:lastTo] while lastInBuf (no copy per event); reserve
	// copies it into lastID before it moves or overwrites buf.
	lastID      []byte
	lastFrom    int
	lastTo      int
	lastInBuf   bool
	streamRetry int64
	hasStream   bool // streamRetry was set

	seq      int64
	frame    Frame
	message  [7]byte // backing array for the default event type
	err      error   // reported by Err; sticky when fatal
	fatal    bool
	closeErr error // the verdict of Close, nil for a clean end
	verdict  bool  // closeErr is settled
}

// NewLexer returns a Lexer configured by opts; nil opts selects the
// defaults. The options are copied.
func NewLexer(opts *Options) *Lexer {
	lx := new(Lexer)
	lx.init(opts)
	return lx
}

func (lx *Lexer) init(opts *Options) {
	lx.max = DefaultMaxEventSize
	if opts != nil {
		if opts.MaxEventSize > 0 {
			lx.max = opts.MaxEventSize
		}
		lx.onComment = opts.OnComment
	}
}

// Write appends p to the input. It copies p and never retains it; frames
// are then pulled with Next. It returns len(p) and a nil error, except
// [ErrWriteAfterClose] after Close and [ErrBufferFull] when more than
// MaxEventSize bytes are buffered and Next has not run out of complete
// lines since the last Write (call Next until it returns false with a nil
// Err, then write again); nothing is written then.
//
// Write invalidates the views of the last Frame.
func (lx *Lexer) Write(p []byte) (int, error) {
	if lx.closed {
		return 0, ErrWriteAfterClose
	}
	if lx.max == 0 {
		lx.max = DefaultMaxEventSize
	}
	if len(p) == 0 {
		return 0, nil
	}
	if !lx.drained && len(lx.buf)-lx.start > lx.max {
		return 0, ErrBufferFull
	}
	if cap(lx.buf)-len(lx.buf) < len(p) {
		lx.reserve(len(p))
	}
	lx.buf = append(lx.buf, p...)
	lx.drained = false
	return len(p), nil
}

// Fill reads from r, at most size bytes, straight into the input, as Write
// would append them but without a copy through the caller's buffer. It
// reads as [ReadSome] does: once, retrying a read that returns no data and
// no error up to MaxEmptyReads times before it returns io.ErrNoProgress.
// It returns what r.Read returned; [ErrInvalidRead] when r reports a count
// outside what it was given (nothing is then added); and, reading nothing,
// the errors of Write under the same conditions.
//
// Fill invalidates the views of the last Frame.
func (lx *Lexer) Fill(r io.Reader, size int) (int, error) {
	return lx.fill(r, size, false)
}

// FillLine reads from r as Fill does, but reads again, as long as the
// reads return no error, while the bytes read hold no line end (LF or CR):
// until then Next can return no frame, nor find a line to process, so a
// caller that runs Next after each fill runs it once per line rather than
// once per read, however few bytes each read yields. It stops after the
// read that brings a line end, once it has read size bytes in all, after a
// read that takes the unconsumed input past MaxEventSize (or any read while
// an oversized event is skipped), and on an error. It returns the number
// of bytes read in all and the last read's error; when a read reports a
// count outside what it was given it returns [ErrInvalidRead] with the
// bytes of the reads before it, which are kept. The bytes it searched for
// a line end are not searched again by Next.
//
// FillLine invalidates the views of the last Frame.
func (lx *Lexer) FillLine(r io.Reader, size int) (int, error) {
	return lx.fill(r, size, true)
}

// fill is Fill, and FillLine when line is set.
func (lx *Lexer) fill(r io.Reader, size int, line bool) (int, error) {
	if lx.closed {
		return 0, ErrWriteAfterClose
	}
	if lx.max == 0 {
		lx.max = DefaultMaxEventSize
	}
	if !lx.drained && len(lx.buf)-lx.start > lx.max {
		return 0, ErrBufferFull
	}
	size = max(size, 1)
	if cap(lx.buf)-len(lx.buf) < size {
		lx.reserve(size)
	}
	p := lx.buf[len(lx.buf):min(cap(lx.buf), len(lx.buf)+size)]
	total := 0
	for {
		n, err := ReadSome(r, p[total:])
		if n < 0 || n > len(p)-total {
			return total, ErrInvalidRead
		}
		if n > 0 {
			lx.buf = lx.buf[:len(lx.buf)+n]
			lx.drained = false
			total += n
		}
		if !line || err != nil || total == len(p) || lx.skip != skipNone ||
			len(lx.buf)-lx.start > lx.max || lx.lineEnd(len(lx.buf)-n) {
			return total, err
		}
	}
}

// lineEnd reports whether buf[from:] holds a line end, LF or CR. Where the
// searches of Next had got to from, it moves them on as far as it searched,
// so that Next does not search those bytes again: each to its line end, or
// to the first line end of the other kind in a short search or, with
// AVX2, in a line longer than the input before (which look for both at
// once), or to the end of buf when there is none.
func (lx *Lexer) lineEnd(from int) bool {
	b := lx.buf[from:]
	lf, cr := len(b), -1 // -1: CR not searched
	if len(b) < shortScan {
		for i, c := range b {
			if c == '\n' || c == '\r' {
				lf = i
				break
			}
		}
		cr = lf
	} else if hasAVX2 && max(lx.crNext, lx.cur) == from {
		// Searched for CR as far as this read: both at once
		// (indexLineEnd, as Next does), no LF and no CR before
		// the first of them.
		if i, _ := indexLineEnd(b); i >= 0 {
			lf = i
		}
		cr = lf
	} else if i := bytes.IndexByte(b, '\n'); i >= 0 {
		lf = i
	} else {
		cr = len(b)
		if i := bytes.IndexByte(b, '\r'); i >= 0 {
			cr = i
		}
	}
	if max(lx.lfNext, lx.cur) == from {
		lx.lfNext = from + lf
	}
	if cr >= 0 && max(lx.crNext, lx.cur) == from {
		lx.crNext = from + cr
	}
	return lf < len(b) || 0 <= cr && cr < len(b)
}

// Next advances to the next frame, which Frame then returns, and reports
// whether there is one. It returns false when the buffered input holds no
// complete event: Err is then nil if more input is needed (or, after Close,
// at the clean end of the stream), or an error.
//
// An event larger than MaxEventSize stops Next with Err returning a
// *[SyntaxError] wrapping [ErrEventTooLarge], once, as soon as the bytes
// written pass the limit (the event need not have ended); calling Next
// again skips the rest of it and continues with the events after it. After
// Close, the error for a stream cut inside an event is returned once every
// complete frame has been, and it is sticky.
func (lx *Lexer) Next() bool {
	if lx.err != nil {
		if lx.fatal {
			return false
		}
		lx.err = nil
	}
	if !lx.bomOK && !lx.stripBOM() {
		return lx.end()
	}
	if lx.skipLF {
		// The last line ended with a CR at the end of the input then
		// buffered: an LF that follows it belongs to that line end.
		if lx.cur == len(lx.buf) {
			lx.partial()
			return lx.end()
		}
		lx.skipLF = false
		if lx.buf[lx.cur] == '\n' {
			lx.cur++
			if !lx.pending {
				lx.start = lx.cur
			}
		}
	}
	// The loop keeps buf, cur and the search state in locals: only Write,
	// Fill and Reset change buf, and cur is stored back where the loop
	// stops. lf starts at lfNext, where an earlier call's search for the
	// LF of the first line stopped; later lines start fresh past it.
	b := lx.buf
	cur := lx.cur
	lf := lx.lfNext
	limit := lx.lineLimit()
	for {
		// Find the line end. Each byte is searched at most once for LF
		// and once for CR, whatever the chunking: buf[cur:lfNext] holds no
		// LF and buf[cur:crNext] no CR (a value below cur means "search
		// from cur"). With AVX2 one search looks for both; otherwise, in
		// a stream without CRs, the CR search runs once per crWindow
		// bytes, not once per line.
		ls := cur
		lf = max(lf, ls)
		// w is the line's first word, when 8 bytes are buffered from its
		// start: it starts the search and classifies the line. 0 means
		// not read yet.
		var w uint64
		// clean reports that the search went over the whole line (a word
		// at a time, or with AVX2) and saw no NUL in it, which spares an
		// id the check.
		clean := false
		// e is the line's end (its LF or CR, or len(buf) when it is not
		// complete), next the start of the line after it.
		var e, next int
		if lf < len(b) && b[lf] != '\n' {
			// The leaf fast path. Where the processor has AVX2 and the
			// search for CR has got as far as the one for LF (always, in
			// a stream without CR; once the CR is behind, in one with
			// CRLF), the line is searched for LF and CR at once
			// (indexLineEnd): one pass over its bytes, whatever its
			// length, unless only a few bytes are left to search (as
			// when the input comes a byte at a time). Otherwise a line
			// that starts with "data:" is searched with bytes.IndexByte
			// at once (data lines carry the payloads, usually long); any
			// other line (blank lines are found above: an id, event or
			// retry line, a comment) is usually short, so its first
			// shortWords words are tested for LF (and NUL) a word at a
			// time before bytes.IndexByte searches the rest; the search
			// for CR follows below, once per crWindow bytes in a stream
			// without CR.
			if hasAVX2 && max(lx.crNext, ls) == lf && len(b)-lf >= shortScan {
				i, nul := indexLineEnd(b[lf:])
				clean = lf == ls && !nul
				if i < 0 {
					lf = len(b)
				} else {
					lf += i
				}
				// The line ends at lf (or is not complete): no LF and no
				// CR before it. A CR ends it, and with the LF that
				// follows it one line end; the search for the next line
				// starts past them.
				lx.crNext = lf
				e, next = lf, lf+1
				if lf < len(b) && b[lf] == '\r' {
					if next == len(b) {
						lx.skipLF = true
					} else if b[next] == '\n' {
						next++
					}
				}
				goto ended
			}
			if lf == ls && lf+8 <= len(b) {
				if w = word(b[lf:]); w&(1<<40-1) == dataPrefix {
					lf += 5
				} else {
					var nul uint64
					for n, x := shortWords, w; ; {
						if m := zeroBytes(x ^ lfs); m != 0 {
							// The line ends in x: its bytes are those
							// below the LF.
							m &= -m
							clean = nul|zeroBytes(x)&(m-1) == 0
							lf += bits.TrailingZeros64(m) >> 3
							goto found
						}
						nul |= zeroBytes(x)
						lf += 8
						if n--; n == 0 || lf+8 > len(b) {
							break
						}
						x = word(b[lf:])
					}
				}
			}
			if len(b)-lf < shortScan {
				// A few bytes, as when the input comes a byte or a
				// few at a time: tested one by one, without a call.
				for lf < len(b) && b[lf] != '\n' {
					lf++
				}
			} else if i := bytes.IndexByte(b[lf:], '\n'); i >= 0 {
				lf += i
			} else {
				lf = len(b)
			}
		found:
		}
		e, next = lf, lf+1
		if lx.crNext < lf && ls < lf {
			lx.lfNext = lf // the line may end at a CR before it
			if cr := max(lx.crNext, ls); lf-cr < shortScan {
				// A short line (an id or a blank line of a CRLF stream),
				// or a few bytes that came a byte at a time: tested one
				// by one without a call, to the LF only.
				for cr < lf && b[cr] != '\r' {
					cr++
				}
				lx.crNext = cr
				e = cr
			} else {
				e = lx.indexCR(ls, lf)
			}
			if e < lf {
				// A CR ends the line, and with the LF that follows it
				// one line end.
				if next = e + 1; next == len(b) {
					lx.skipLF = true
				} else if next == lf {
					next++
				}
			}
		}
	ended:
		if e == len(b) {
			// Out of complete lines. The cheap case, inline: within
			// bounds and not closed, with bytes held.
			lx.cur, lx.lfNext = cur, lf
			if len(b) > limit {
				lx.partial()
			}
			if !lx.closed && lx.start < len(b) {
				lx.drained = true
				return false
			}
			return lx.end()
		}
		cur = next
		switch {
		case e > limit:
			// Skipping, or the line takes the event past max.
			if lx.skip != skipNone {
				lx.skipped(e == ls, next)
				limit = lx.lineLimit()
				continue
			}
			lx.cur = cur
			lx.oversized(ls, e, next)
			return false
		case e == ls:
			lx.cur = cur
			if lx.pending && lx.nData > 0 {
				// A frame: the loop ends with it, so that nothing of
				// the loop outlives the call.
				return lx.dispatch(next)
			}
			lx.dispatch(next)
			limit = lx.lineLimit()
		case b[ls] == ':':
			lx.comment(ls, e, next)
			limit = lx.lineLimit()
		default:
			if !lx.pending {
				lx.pending = true
				lx.evStart = ls
			}
			// The cheap case first: the lines every A2A event has,
			// known by their first word.
			f, v := fieldUnknown, 0
			if ls+8 <= len(b) {
				if w == 0 {
					w = word(b[ls:])
				}
				f, v = knownField(w)
			}
			if f == fieldUnknown {
				line := b[ls:e]
				f, v = fieldOf(line)
				v = valueAt(line, v)
			}
			v += ls
			switch f {
			case fieldData:
				lx.addData(v, e)
			case fieldID:
				// An id with a NUL is ignored.
				if clean || bytes.IndexByte(b[v:e], 0) < 0 {
					lx.idFrom, lx.idTo, lx.idSet = v, e, true
				}
			case fieldEvent:
				lx.typeFrom, lx.typeTo = v, e
			case fieldRetry:
				if n, ok := parseRetry(b[v:e]); ok {
					lx.retry, lx.hasRetry = n, true
				}
			}
			// A blank line that follows, as one does the last line of
			// most events, is known by its first bytes: the event is
			// dispatched here rather than after a turn of the loop.
			if cur < len(b) && cur <= limit && lx.nData > 0 {
				next := 0
				switch {
				case b[cur] == '\n':
					next = cur + 1
				case b[cur] == '\r' && cur+1 < len(b):
					// (A CR last in the buffer may be followed by an
					// LF still to come: the loop handles it.)
					next = cur + 1
					if b[next] == '\n' {
						next++
					}
				}
				if next > 0 {
					lx.cur = next
					return lx.dispatch(next)
				}
			}
		}
	}
}

// lineLimit returns the index in buf past which a line end takes the
// event (or comment line) that holds it past max, given start: a line
// ending at e is within bounds when e ≤ lineLimit(). While an oversized
// event or line is skipped it is -1, so that every line takes the slow
// case. It is capped at start+len(buf), which no line end passes, so that
// start+max cannot overflow.
func (lx *Lexer) lineLimit() int {
	if lx.skip != skipNone {
		return -1
	}
	return lx.start + min(lx.max, len(lx.buf))
}

// indexCR returns the end of the line that starts at ls and holds no LF
// before lf: the index of its first CR, or lf when it has none. The search
// for CR looks a window ahead, at least to lf, so that the two searches
// stay within the same cached bytes; crNext remembers where it stopped.
func (lx *Lexer) indexCR(ls, lf int) int {
	b := lx.buf
	cr := max(lx.crNext, ls)
	if b[cr] != '\r' {
		end := max(lf, min(len(b), cr+crWindow))
		i := bytes.IndexByte(b[cr:end], '\r')
		if i < 0 {
			i = end - cr
		}
		cr += i
	}
	lx.crNext = cr
	return min(lf, cr)
}

// shortWords is how many words of a line that is not a data line Next
// tests itself before it calls bytes.IndexByte: 64 bytes, more than an id
// line with a UUID or a prefixed one, an event line or a keep-alive
// comment takes.
const shortWords = 8

// shortScan is the length under which a search tests the bytes one by
// one rather than call bytes.IndexByte.
const shortScan = 16

// dataPrefix and idPrefix are "data:" and "id:" as the low bytes of a
// little-endian word.
const (
	dataPrefix = 'd' | 'a'<<8 | 't'<<16 | 'a'<<24 | ':'<<32
	idPrefix   = 'i' | 'd'<<8 | ':'<<16
)

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
	lfs   = '\n' * ones
)

// zeroBytes returns a word whose lowest set bit is the high bit of the
// first zero byte of w in little-endian order, or 0 when w has none. Bits
// above that one may be set wrongly.
func zeroBytes(w uint64) uint64 { return (w - ones) &^ w & highs }

// word reads the first 8 bytes of b as a little-endian word, which the
// compiler makes one load (encoding/binary would link reflect into the
// WebAssembly module).
func word(b []byte) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// Frame returns the frame that the last call to Next that returned true
// advanced to. The Frame is the Lexer's own and its slices alias the
// Lexer's buffers: they are valid only until the next call to Write, Next,
// Close or Reset and must not be modified. Use [Frame.Clone] to retain it.
// It is a pointer because copying the frame just written took about a
// tenth of the time of lexing and decoding a token delta.
func (lx *Lexer) Frame() *Frame { return &lx.frame }

// Close reports the end of the input. It returns a *[SyntaxError] wrapping
// io.ErrUnexpectedEOF when the input ends inside an event (after a line of
// the event that no blank line closed, or inside a line that is not a
// comment outside an event), with the offset where the unfinished event
// began and the number of bytes dropped in Size; that event is not
// dispatched. A comment line cut outside an event (": keep-al") is no cut:
// it belongs to no event. Frames completed before it are still
// returned by Next, and Err returns the same error after them. Close does
// not invalidate the last Frame. Calling Close again returns the same
// result.
func (lx *Lexer) Close() error {
	if lx.closed {
		return lx.closeErr
	}
	if lx.max == 0 {
		lx.max = DefaultMaxEventSize
	}
	lx.closed = true
	if lx.cur == len(lx.buf) && lx.bomOK {
		lx.closeErr, lx.verdict = lx.cutError(), true
		return lx.closeErr
	}
	// Complete lines are still buffered: run the scanner to the end on a
	// copy of the state, then restore it so that Next delivers the frames.
	// Next never writes into buf nor lastID, only into data.
	saved := *lx
	savedData := bytes.Clone(lx.data)
	lx.onComment = nil
	for lx.Next() || !lx.fatal {
	}
	verdict := lx.closeErr
	*lx = saved
	lx.data = append(lx.data[:0], savedData...)
	lx.closeErr, lx.verdict = verdict, true
	return verdict
}

// Err returns the error that stopped the last call to Next, or nil. It is
// nil when Next needs more input and at the clean end of a closed stream.
func (lx *Lexer) Err() error { return lx.err }

// Reset discards all input and state, as if the Lexer were new with the
// same options, so that it can read another stream. Its input buffer goes
// back to the package's pool, as when it is idle (see [Lexer]), for this
// Lexer or another to take when it reads again: a reused Lexer does not
// allocate it again, nor does a Lexer kept for reuse pin it. Its other
// buffers are kept unless they grew beyond 256 KiB.
func (lx *Lexer) Reset() {
	lx.release()
	*lx = Lexer{
		max:       lx.max,
		onComment: lx.onComment,
		buf:       lx.buf[:0],
		data:      keep(lx.data),
		lastID:    keep(lx.lastID),
	}
}

// Resume discards all input and state, as Reset does, for the rest of a
// stream that continues on a new connection (after a drop, resubscribed
// with Last-Event-ID), but keeps counting stream offsets: the next byte
// written has offset InputOffset()+Buffered() as they were, so that the
// Offsets of frames and errors count every byte received over all the
// connections. Seq counts from 1 again and the last event ID is empty, as
// on a new stream; the bytes of an event that the drop cut are dropped.
func (lx *Lexer) Resume() {
	off := lx.base + int64(len(lx.buf))
	lx.Reset()
	lx.base = off
}

func keep(b []byte) []byte {
	if cap(b) > keepBufferSize {
		return nil
	}
	return b[:0]
}

// LastEventID returns the stream's last event ID: the value of the last
// "id" field of the last event that a blank line ended (dispatched or not),
// which is what a client sends as Last-Event-ID when it reconnects. It is
// empty when no id was set or an empty id reset it, and it ignores an event
// the stream cut before its blank line. It may be called at any time. The
// slice aliases the Lexer's buffer and is valid only until the next call to
// Write, Next, Close or Reset; it must not be modified.
func (lx *Lexer) LastEventID() []byte {
	if lx.lastInBuf {
		return lx.buf[lx.lastFrom:lx.lastTo:lx.lastTo]
	}
	return lx.lastID
}

// Retry returns the stream's reconnection time in milliseconds from the
// most recent valid "retry" field of an event that a blank line ended,
// dispatched or not, and whether there was one. A value too large for an
// int64 saturates at math.MaxInt64.
func (lx *Lexer) Retry() (ms int64, ok bool) { return lx.streamRetry, lx.hasStream }

// InputOffset returns the stream offset of the first byte not yet consumed:
// every byte before it belongs to a frame returned by Next, a comment, an
// event that was not dispatched, or a line end. InputOffset() + Buffered()
// is the number of bytes written.
func (lx *Lexer) InputOffset() int64 { return lx.base + int64(lx.start) }

// Buffered returns the number of bytes written but not yet consumed.
func (lx *Lexer) Buffered() int { return len(lx.buf) - lx.start }

// stripBOM skips a UTF-8 byte order mark at the very start of the stream.
// It returns false when the bytes so far are a proper prefix of one and
// more input is needed to decide.
func (lx *Lexer) stripBOM() bool {
	b := lx.buf[lx.cur:]
	n := min(len(b), len(bom))
	if string(b[:n]) != bom[:n] {
		lx.bomOK = true
		return true
	}
	if n < len(bom) {
		if lx.closed {
			lx.bomOK = true // the bytes are an unterminated line
			return true
		}
		return false
	}
	lx.cur += len(bom)
	lx.start = lx.cur
	lx.bomOK = true
	return true
}

// partial is called when the buffered input ends inside a line. It bounds
// the memory held: an event or comment line that already exceeds max is
// reported and switched to skipping, and while skipping the line's bytes
// are dropped (after Close, end drops them).
func (lx *Lexer) partial() {
	if lx.skip == skipNone {
		if len(lx.buf)-lx.start <= lx.max {
			return
		}
		lx.startSkip(lx.cur)
	}
	if lx.closed {
		return
	}
	if lx.cur < len(lx.buf) {
		lx.skipMid = true
	}
	lx.cur = len(lx.buf)
	lx.start = lx.cur
}

// end is called when Next runs out of complete lines. After Close it
// settles the verdict and drops the unfinished tail.
func (lx *Lexer) end() bool {
	if !lx.closed {
		lx.drained = true
		if lx.start == len(lx.buf) {
			// Between events, with no byte held: a large buffer is no
			// longer needed.
			lx.release()
		}
		return false
	}
	if lx.err != nil {
		// partial has just reported an oversized event: the verdict
		// comes with the next call.
		return false
	}
	if !lx.verdict {
		lx.closeErr, lx.verdict = lx.cutError(), true
	}
	lx.err = lx.closeErr
	lx.fatal = true
	lx.cur = len(lx.buf)
	lx.start = lx.cur
	lx.skip = skipNone
	lx.clearPending()
	return false
}

// cutError returns the error for input that ends at the end of the buffer,
// or nil when it ends between events.
func (lx *Lexer) cutError() error {
	off, ok := lx.unfinished()
	if !ok {
		return nil
	}
	return &SyntaxError{
		Position: Position{Offset: off, Seq: lx.seq, ID: cloneID(lx.LastEventID())},
		Size:     lx.base + int64(len(lx.buf)) - off,
		Err:      io.ErrUnexpectedEOF,
	}
}

// unfinished returns the stream offset where the unfinished event (or
// line) at the end of the buffered input began, and whether there is one.
// A comment line outside an event, unfinished or oversized, is none: it
// belongs to no event, so no event was cut.
func (lx *Lexer) unfinished() (int64, bool) {
	switch {
	case lx.skip == skipLine:
		return 0, false
	case lx.skip != skipNone:
		return lx.skipOff, true
	case lx.pending:
		return lx.base + int64(lx.evStart), true
	case lx.cur < len(lx.buf) && lx.buf[lx.cur] != ':':
		return lx.base + int64(lx.cur), true
	}
	return 0, false
}

// skipped processes a line of the oversized event or comment line being
// skipped, which ends before next.
func (lx *Lexer) skipped(blank bool, next int) {
	blank = blank && !lx.skipMid
	lx.skipMid = false
	lx.start = next
	if lx.skip == skipLine || blank {
		lx.skip = skipNone
	}
}

// oversized reports the event or comment line that the line buf[ls:e],
// ending before next, takes past max, and skips that line.
func (lx *Lexer) oversized(ls, e, next int) {
	lx.startSkip(ls)
	lx.start = next
	if e == ls || lx.skip == skipLine {
		// A blank line ends the event; a comment line is all there is.
		lx.skip = skipNone
	}
}

// comment processes the comment line buf[ls:e], ending before next.
func (lx *Lexer) comment(ls, e, next int) {
	if lx.onComment != nil {
		v := lx.buf[ls+1 : e : e]
		if len(v) > 0 && v[0] == ' ' {
			v = v[1:]
		}
		lx.onComment(v)
	}
	if !lx.pending {
		lx.start = next
	}
}

// fieldKind is the field a line sets.
type fieldKind uint8

const (
	fieldUnknown fieldKind = iota // not classified yet (knownField)
	fieldOther                    // a field the standard ignores
	fieldData
	fieldID
	fieldEvent
	fieldRetry
)

// fieldOf classifies a field line (neither blank nor a comment): it
// returns the field the line sets, named by what comes before its first
// colon, and the index in line just past that colon, where the value
// starts (see valueAt). A line without a colon is a field name with an
// empty value, at len(line).
func fieldOf(line []byte) (fieldKind, int) {
	name, v := line, len(line)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, v = line[:i], i+1
	}
	switch string(name) {
	case "data":
		return fieldData, v
	case "id":
		return fieldID, v
	case "event":
		return fieldEvent, v
	case "retry":
		return fieldRetry, v
	}
	return fieldOther, v
}

// knownField is fieldOf's cheap case, small enough to be inlined: it
// recognises "data:" and "id:", which every A2A event has, by the first
// word w of a line (its first 8 bytes, which may run past its end), and
// returns the index in the line where the value starts, after the one
// space that may follow the colon; fieldUnknown for any other line. The
// bytes compared hold no line end, so they are the line's.
func knownField(w uint64) (fieldKind, int) {
	if w&(1<<40-1) == dataPrefix {
		return fieldData, 5 + spaceAt(w, 5)
	}
	if w&(1<<24-1) == idPrefix {
		return fieldID, 3 + spaceAt(w, 3)
	}
	return fieldUnknown, 0
}

// spaceAt returns 1 if byte i of w is a space, 0 otherwise.
func spaceAt(w uint64, i uint) int {
	if byte(w>>(8*i)) == ' ' {
		return 1
	}
	return 0
}

// valueAt returns the start of the field value that follows the colon
// before line[v]: v, or v+1 when line[v] is the one space that may follow
// the colon.
func valueAt(line []byte, v int) int {
	if v < len(line) && line[v] == ' ' {
		v++
	}
	return v
}

// parseRetry reads a retry value: one or more ASCII digits, base ten,
// saturating at math.MaxInt64.
func parseRetry(v []byte) (int64, bool) {
	if len(v) == 0 {
		return 0, false
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if n > (math.MaxInt64-d)/10 {
			n = math.MaxInt64
		} else {
			n = n*10 + d
		}
	}
	return n, true
}

// addData appends the data line value buf[v:e] to the data buffer. One line
// stays a view into buf; the second one starts the joined copy.
func (lx *Lexer) addData(v, e int) {
	if lx.nData == 0 {
		lx.dataFrom, lx.dataTo, lx.nData = v, e, 1
		return
	}
	lx.joinData(v, e)
}

// joinData appends a second or later data line to the joined copy.
func (lx *Lexer) joinData(v, e int) {
	if lx.nData == 1 {
		lx.data = append(lx.data[:0], lx.buf[lx.dataFrom:lx.dataTo]...)
	}
	lx.data = append(lx.data, '\n')
	lx.data = append(lx.data, lx.buf[v:e]...)
	lx.nData++
}

// dispatch handles a blank line that ends the pending event (if any): it
// sets the last event ID and the reconnection time, then builds the frame
// if the data buffer is not empty. It reports whether it built one.
func (lx *Lexer) dispatch(next int) bool {
	lx.start = next
	if !lx.pending {
		return false
	}
	if lx.idSet {
		lx.lastFrom, lx.lastTo, lx.lastInBuf = lx.idFrom, lx.idTo, true
	}
	if lx.hasRetry {
		lx.streamRetry, lx.hasStream = lx.retry, true
	}
	ok := lx.nData > 0
	if ok {
		b := lx.buf
		lx.seq++
		f := &lx.frame
		f.Offset = lx.base + int64(lx.evStart)
		f.Seq = lx.seq
		if lx.typeTo > lx.typeFrom {
			f.Event = b[lx.typeFrom:lx.typeTo:lx.typeTo]
		} else {
			lx.message = [7]byte{'m', 'e', 's', 's', 'a', 'g', 'e'}
			f.Event = lx.message[:]
		}
		if lx.nData == 1 {
			f.Data = b[lx.dataFrom:lx.dataTo:lx.dataTo]
		} else {
			f.Data = lx.data[:len(lx.data):len(lx.data)]
		}
		if lx.lastInBuf {
			f.ID = b[lx.lastFrom:lx.lastTo:lx.lastTo]
		} else {
			f.ID = lx.lastID
		}
		f.Retry, f.HasRetry = lx.retry, lx.hasRetry
	}
	lx.clearPending()
	return ok
}

func (lx *Lexer) clearPending() {
	lx.pending = false
	lx.nData = 0
	lx.typeFrom, lx.typeTo = 0, 0
	lx.idSet = false
	lx.retry, lx.hasRetry = 0, false
}

// startSkip reports the oversized event, or comment line, that includes
// the line starting at ls, as soon as it has passed max, and starts
// skipping it to its end. None of the event's fields take effect.
func (lx *Lexer) startSkip(ls int) {
	if lx.pending {
		lx.skip = skipEvent
		lx.skipOff = lx.base + int64(lx.evStart)
	} else {
		lx.skip = skipEvent
		if lx.buf[ls] == ':' {
			lx.skip = skipLine
		}
		lx.skipOff = lx.base + int64(ls)
	}
	lx.clearPending()
	lx.err = &SyntaxError{
		Position: Position{Offset: lx.skipOff, Seq: lx.seq, ID: cloneID(lx.LastEventID())},
		Size:     int64(lx.max) + 1,
		Err:      ErrEventTooLarge,
	}
}

// reserve makes room for n more bytes after len(buf). It drops the
// released bytes when that copies no more than it frees, and otherwise
// moves the retained bytes to a larger buffer: doubled up to 1 MiB, then
// grown by half, never beyond the retained bytes plus n or max plus n,
// whichever is larger. A large buffer (past idleBufferSize) comes from the
// pool when it holds one that fits; the Lexer keeps its small one aside.
func (lx *Lexer) reserve(n int) {
	if cap(lx.buf)-len(lx.buf) >= n {
		return
	}
	if lx.lastInBuf {
		lx.lastID = append(lx.lastID[:0], lx.buf[lx.lastFrom:lx.lastTo]...)
		lx.lastInBuf = false
	}
	kept := len(lx.buf) - lx.start
	need := kept + n
	if size := cap(lx.buf); need <= size && lx.start >= kept {
		copy(lx.buf, lx.buf[lx.start:])
		lx.buf = lx.buf[:kept]
	} else {
		if size < slowGrowth {
			size = max(2*size, minBufferSize)
		} else {
			size += size / 2
		}
		most := max(need, lx.max+n)
		size = min(max(size, need), most)
		old := lx.buf
		if size <= idleBufferSize {
			lx.buf = make([]byte, 0, size)
		} else {
			b, box := takeBuffer(need, size, most)
			if cap(old) <= idleBufferSize {
				lx.small = old[:0]
			}
			if box == nil {
				box = lx.box
			}
			lx.buf, lx.box = b, box
		}
		lx.buf = append(lx.buf, old[lx.start:]...)
	}
	lx.shift(lx.start)
}

// release hands a large input buffer to the pool, for a Lexer that holds
// no byte in it (every byte received was consumed, or Reset discards
// them), and goes back to the Lexer's small buffer. The last event ID is
// copied out first, and the last Frame's views, already invalid, are
// cleared.
func (lx *Lexer) release() {
	if cap(lx.buf) <= idleBufferSize {
		return
	}
	if lx.lastInBuf {
		lx.lastID = append(lx.lastID[:0], lx.buf[lx.lastFrom:lx.lastTo]...)
		lx.lastInBuf = false
	}
	lx.shift(len(lx.buf))
	box := lx.box
	if box == nil {
		box = new(bufBox)
	}
	box.b = lx.buf[:0]
	largeBuffers.Put(box)
	lx.buf, lx.box, lx.small = lx.small, nil, nil
	// The views go, the frame's place stays: a caller may still ask how
	// many frames came (Frame().Seq) after the buffer went back.
	lx.frame = Frame{Offset: lx.frame.Offset, Seq: lx.frame.Seq}
}

// bufBox carries a large buffer in the pool (a pointer, so that putting it
// there allocates nothing); it travels with the buffer, in Lexer.box.
type bufBox struct{ b []byte }

// takeBuffer returns an empty large buffer with a capacity from need to
// most (size if it allocates one) and its box (nil if it allocated): one
// from the pool when it has one that fits. A pooled buffer too small is
// dropped; one too large, put back.
func takeBuffer(need, size, most int) ([]byte, *bufBox) {
	if v := largeBuffers.Get(); v != nil {
		box := v.(*bufBox)
		if c := cap(box.b); c >= need && c <= most {
			b := box.b[:0]
			box.b = nil
			return b, box
		} else if c > most {
			largeBuffers.Put(box)
		}
	}
	return make([]byte, 0, size), nil
}

// shift subtracts d from every index into buf after buf[:d] was dropped.
func (lx *Lexer) shift(d int) {
	if d == 0 {
		return
	}
	lx.base += int64(d)
	lx.start -= d
	lx.cur -= d
	lx.lfNext -= d
	lx.crNext -= d
	if lx.pending {
		lx.evStart -= d
		lx.dataFrom -= d
		lx.dataTo -= d
		lx.typeFrom -= d
		lx.typeTo -= d
		lx.idFrom -= d
		lx.idTo -= d
	}
}
