package sse

// This file is structured as: the options and the Lexer type with its
// state sub-structs; the public methods (Write, Fill, FillLine, Next,
// Frame, Close, Err, Reset and the accessors); then Next's steps: begin,
// scanLine (scanline.go: the line search), then each line as WHATWG reads
// it (a blank line dispatches, a comment, a field), the end of the input,
// the oversized-event skip. The pending event and the last event ID are in
// event.go, buffer management in buffer.go.

import (
	"bytes"
	"io"
)

// DefaultMaxEventSize is the MaxEventSize used when Options leaves it at 0:
// 16 MiB, room for a consolidated answer with its cited data parts.
const DefaultMaxEventSize = 16 << 20

// bom is the UTF-8 encoding of U+FEFF BYTE ORDER MARK.
const bom = "\xEF\xBB\xBF"

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
// every byte written, and at the end of the stream, once Next has returned
// false after Close, a buffer larger than 16 KiB goes back to a pool that
// all the Lexers of the process share, and the Lexer keeps at most 16 KiB
// of its own: an idle stream holds little, and the next event that needs
// a large buffer takes one from the pool, so that a Lexer reused with
// Reset, or one that reads large events one after another, does not
// allocate it again.
type Lexer struct {
	max       int // MaxEventSize; 0 until Write or init sets the default
	onComment func([]byte)

	in     input      // the bytes written and not yet released
	search lineSearch // how far the search for the current line's end got
	ev     event      // the pending event: its lines since the last blank line
	skip   skipping   // the oversized event or comment line being skipped
	id     lastID     // the last event ID, and where the Frame's ID lives
	retry  retry      // the stream's reconnection time

	seq     int64   // frames dispatched since the start or Reset
	frame   Frame   // the last frame Next advanced to
	message [7]byte // backing array for the default event type

	bomOK bool // the start of the stream has been checked for a BOM
	// drained reports that Next has run out of complete lines since the
	// last Write: what is buffered is one unfinished event within max.
	drained  bool
	closed   bool
	err      error // reported by Err; sticky when fatal
	fatal    bool
	closeErr error // the verdict of Close, nil for a clean end
	verdict  bool  // closeErr is settled
}

// retry is the stream's reconnection time: ms from the most recent valid
// retry field of an event that a blank line ended, when ok.
type retry struct {
	ms int64
	ok bool
}

// skipMode says what an oversized line or event is being skipped to.
type skipMode uint8

const (
	skipNone  skipMode = iota
	skipEvent          // skip to the blank line that ends the event
	skipLine           // skip to the end of an oversized comment line
)

// skipping is the oversized event or comment line being skipped to its
// end, when mode is not skipNone; none of its fields take effect.
type skipping struct {
	mode skipMode
	mid  bool  // the current line's start was dropped: it is not blank
	off  int64 // stream offset where the skipped event or line began
}

// NewLexer returns a Lexer configured by opts; nil opts selects the
// defaults. The options are copied.
func NewLexer(opts *Options) *Lexer {
	lx := new(Lexer)
	lx.init(opts)
	return lx
}

// init applies opts (nil: the defaults) to a Lexer with no options yet,
// new or cleared by discard.
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
// Write invalidates the views of the last Frame, but not the ID the Frame
// holds (see [Frame].ID).
func (lx *Lexer) Write(p []byte) (int, error) {
	in := &lx.in
	if n := len(in.buf); len(p) == 1 && n < cap(in.buf) && n-in.start < lx.max && !lx.closed {
		// The cheap case, a byte at a time (a reader that gives no more)
		// into the buffer's room: no call to copy it, and of writable's
		// checks only those that can fail (max is set once buffered
		// bytes are within it).
		in.buf = append(in.buf, p[0])
		lx.drained = false
		return 1, nil
	}
	if err := lx.writable(); err != nil {
		return 0, err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if lx.in.needsRoom(len(p)) {
		lx.reserve(len(p))
	}
	lx.in.buf = append(lx.in.buf, p...)
	lx.drained = false
	return len(p), nil
}

// writable returns the error of a Write, Fill or FillLine that may not add
// input: after Close, or with more than max bytes buffered and not drained.
func (lx *Lexer) writable() error {
	if lx.closed {
		return ErrWriteAfterClose
	}
	if lx.max == 0 {
		lx.max = DefaultMaxEventSize
	}
	if !lx.drained && lx.Buffered() > lx.max {
		return ErrBufferFull
	}
	return nil
}

// Fill reads from r, at most size bytes, straight into the input, as Write
// would append them but without a copy through the caller's buffer. It
// reads as [ReadSome] does: once, retrying a read that returns no data and
// no error up to MaxEmptyReads times before it returns io.ErrNoProgress.
// It returns what r.Read returned; [ErrInvalidRead] when r reports a count
// outside what it was given (nothing is then added); and, reading nothing,
// the errors of Write under the same conditions.
//
// Fill invalidates the views of the last Frame, as Write does.
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
// FillLine invalidates the views of the last Frame, as Write does.
func (lx *Lexer) FillLine(r io.Reader, size int) (int, error) {
	return lx.fill(r, size, true)
}

// fill is Fill, and FillLine when line is set.
func (lx *Lexer) fill(r io.Reader, size int, line bool) (int, error) {
	if err := lx.writable(); err != nil {
		return 0, err
	}
	size = max(size, 1)
	if lx.in.needsRoom(size) {
		lx.reserve(size)
	}
	in := &lx.in
	p := in.buf[len(in.buf):min(cap(in.buf), len(in.buf)+size)]
	total := 0
	for {
		if in.cold() {
			in.warm(p[total:])
		}
		n, err := ReadSome(r, p[total:])
		if n < 0 || n > len(p)-total {
			return total, ErrInvalidRead
		}
		if n > 0 {
			in.buf = in.buf[:len(in.buf)+n]
			lx.drained = false
			total += n
		}
		if !line || err != nil || total == len(p) || lx.skip.mode != skipNone ||
			lx.Buffered() > lx.max || lx.lineEnd(len(in.buf)-n) {
			return total, err
		}
	}
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
	if (lx.err != nil || !lx.bomOK || lx.search.skipLF) && !lx.begin() {
		return false
	}
	// A line ending past limit takes the event past max (see lineLimit);
	// only a blank line, a comment or a skipped line moves it.
	limit := lx.lineLimit()
	for {
		ls, e, clean, ok := lx.scanLine()
		switch {
		case !ok:
			return lx.outOfLines(limit)
		case e > limit:
			if lx.skip.mode == skipNone {
				lx.oversized(ls, e)
				return false
			}
			lx.skipped(e == ls)
		case e == ls:
			if lx.dispatch() {
				return true
			}
		case lx.in.buf[ls] == ':':
			lx.comment(ls, e)
		default:
			// A field line. The cheap case inline: "data:" and "id:",
			// which every A2A event has, known by their first word.
			b, ev := lx.in.buf, &lx.ev
			if !ev.active {
				ev.active, ev.start = true, ls
			}
			f, v := fieldUnknown, 0
			if ls+8 <= len(b) {
				f, v = knownField(word(b[ls:]))
			}
			switch f {
			case fieldData:
				ev.addData(b, ls+v, e)
			case fieldID:
				ev.idField(b, ls+v, e, clean)
			default:
				lx.field(ls, e, clean)
			}
			// The blank line that ends most events, known by its first
			// byte (blankLine, scanLine's cheap case).
			if !lx.blankLine(limit) {
				continue
			}
			if lx.dispatch() {
				return true
			}
		}
		limit = lx.lineLimit()
	}
}

// begin prepares a call to Next: it clears an error that was not fatal,
// skips a byte order mark at the start of the stream, and takes an LF that
// follows a CR last in the input of the previous call as part of that line
// end. It reports whether Next may look for lines; when not, Next returns
// false.
func (lx *Lexer) begin() bool {
	if lx.err != nil {
		if lx.fatal {
			return false
		}
		lx.err = nil
	}
	if !lx.bomOK && !lx.stripBOM() {
		return lx.end()
	}
	in := &lx.in
	if lx.search.skipLF {
		if in.cur == len(in.buf) {
			lx.partial()
			return lx.end()
		}
		lx.search.skipLF = false
		if in.buf[in.cur] == '\n' {
			in.cur++
			if !lx.ev.active {
				in.start = in.cur
			}
		}
	}
	return true
}

// lineLimit returns the index in buf past which a line end takes the
// event (or comment line) that holds it past max, given start: a line
// ending at e is within bounds when e ≤ lineLimit(). While an oversized
// event or line is skipped it is -1, so that every line takes the slow
// case. It is capped at start+len(buf), which no line end passes, so that
// start+max cannot overflow.
func (lx *Lexer) lineLimit() int {
	if lx.skip.mode != skipNone {
		return -1
	}
	return lx.in.start + min(lx.max, len(lx.in.buf))
}

// comment processes the comment line buf[ls:e].
func (lx *Lexer) comment(ls, e int) {
	if lx.onComment != nil {
		v := lx.in.buf[ls+1 : e : e]
		if len(v) > 0 && v[0] == ' ' {
			v = v[1:]
		}
		lx.onComment(v)
	}
	if !lx.ev.active {
		lx.in.start = lx.in.cur
	}
}

// field processes a field line of the pending event, buf[ls:e], that
// knownField did not recognise: its name is what comes before its first
// colon (fieldOf); clean reports that the line is known to hold no NUL.
func (lx *Lexer) field(ls, e int, clean bool) {
	b, ev := lx.in.buf, &lx.ev
	line := b[ls:e]
	f, v := fieldOf(line)
	v = ls + valueAt(line, v)
	switch f {
	case fieldData:
		ev.addData(b, v, e)
	case fieldID:
		ev.idField(b, v, e, clean)
	case fieldEvent:
		ev.typeFrom, ev.typeTo = v, e
	case fieldRetry:
		if n, ok := parseRetry(b[v:e]); ok {
			ev.retry = retry{n, true}
		}
	}
}

// dispatch processes a blank line, which ends the pending event (if any):
// the event's id and retry take effect, and the event becomes the frame if
// its data buffer is not empty. It reports whether it built a frame.
func (lx *Lexer) dispatch() bool {
	lx.in.start = lx.in.cur
	ev := &lx.ev
	if !ev.active {
		return false
	}
	if ev.idSet {
		lx.id.set(ev.idFrom, ev.idTo)
	}
	if ev.retry.ok {
		lx.retry = ev.retry
	}
	if ev.nData == 0 {
		ev.clear()
		return false
	}
	lx.seq++
	b, f := lx.in.buf, &lx.frame
	f.Offset = lx.in.base + int64(ev.start)
	f.Seq = lx.seq
	if ev.typeTo > ev.typeFrom {
		f.Event = b[ev.typeFrom:ev.typeTo:ev.typeTo]
	} else {
		lx.message = [7]byte{'m', 'e', 's', 's', 'a', 'g', 'e'}
		f.Event = lx.message[:]
	}
	f.Data = ev.dataView(b)
	f.ID = lx.id.show(b)
	f.Retry, f.HasRetry = ev.retry.ms, ev.retry.ok
	ev.clear()
	return true
}

// outOfLines ends a call to Next that found no complete line: it bounds
// what is held (partial), and after Close settles the end of the stream.
func (lx *Lexer) outOfLines(limit int) bool {
	b := lx.in.buf
	if len(b) > limit {
		lx.partial()
	}
	if !lx.closed && lx.in.start < len(b) {
		lx.drained = true
		return false
	}
	return lx.end()
}

// Frame returns the frame that the last call to Next that returned true
// advanced to. The Frame is the Lexer's own and its slices alias the
// Lexer's buffers: they are valid only until the next call to Write, Next,
// Close or Reset and must not be modified; the Lexer keeps the Frame's ID
// valid until the next frame (see [Frame].ID). Use [Frame.Clone] to retain
// it.
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
	if lx.in.cur == len(lx.in.buf) && lx.bomOK {
		lx.closeErr, lx.verdict = lx.cutError(), true
		return lx.closeErr
	}
	// Complete lines are still buffered: run the scanner to the end on a
	// copy of the state, then restore it so that Next delivers the frames.
	// Next never writes into buf, nor copies the last event ID out (that
	// is reserve's and release's, which a closed Lexer does not call); it
	// writes into the joined data, which the run gets a copy of.
	saved := *lx
	lx.ev.data = bytes.Clone(lx.ev.data)
	lx.onComment = nil
	for lx.Next() || !lx.fatal {
	}
	verdict := lx.closeErr
	*lx = saved
	lx.closeErr, lx.verdict = verdict, true
	return verdict
}

// Err returns the error that stopped the last call to Next, or nil. It is
// nil when Next needs more input and at the clean end of a closed stream.
func (lx *Lexer) Err() error { return lx.err }

// Reset discards all input and state, as if the Lexer were new from
// NewLexer(opts), so that it can read another stream configured by opts
// (nil selects the defaults; the options are copied). Its input buffer goes
// back to the package's pool, as when it is idle (see [Lexer]), for this
// Lexer or another to take when it reads again: a reused Lexer does not
// allocate it again, nor does a Lexer kept for reuse pin it. Its other
// buffers are kept unless they grew beyond 256 KiB.
func (lx *Lexer) Reset(opts *Options) {
	lx.discard()
	lx.init(opts)
}

// discard discards all input, state and options, as Reset says, and
// leaves the Lexer with no options (as new, before init).
func (lx *Lexer) discard() {
	lx.release()
	lx.id.reset()
	*lx = Lexer{
		id: lx.id,
		in: input{buf: lx.in.buf[:0]},
		ev: event{data: keep(lx.ev.data)},
	}
}

// Resume discards all input and state, as Reset does, for the rest of a
// stream that continues on a new connection (after a drop, resubscribed
// with Last-Event-ID), but keeps the options and keeps counting stream
// offsets: the next byte
// written has offset InputOffset()+Buffered() as they were, so that the
// Offsets of frames and errors count every byte received over all the
// connections. Seq counts from 1 again and the last event ID is empty, as
// on a new stream; the bytes of an event that the drop cut are dropped.
func (lx *Lexer) Resume() {
	off := lx.in.base + int64(len(lx.in.buf))
	limit, onComment := lx.max, lx.onComment
	lx.discard()
	lx.max, lx.onComment = limit, onComment
	lx.in.base = off
}

// LastEventID returns the stream's last event ID: the value of the last
// "id" field of the last event that a blank line ended (dispatched or not),
// which is what a client sends as Last-Event-ID when it reconnects. It is
// empty when no id was set or an empty id reset it, and it ignores an event
// the stream cut before its blank line. It may be called at any time. The
// slice aliases the Lexer's buffers and is valid only until the next call
// to Write, Fill, FillLine, Next, Close or Reset; it must not be modified.
// The Lexer keeps the ID itself across those calls (call LastEventID
// again), and the ID of the last Frame (see [Frame].ID).
func (lx *Lexer) LastEventID() []byte { return lx.id.get(lx.in.buf) }

// Retry returns the stream's reconnection time in milliseconds from the
// most recent valid "retry" field of an event that a blank line ended,
// dispatched or not, and whether there was one. A value too large for an
// int64 saturates at math.MaxInt64.
func (lx *Lexer) Retry() (ms int64, ok bool) { return lx.retry.ms, lx.retry.ok }

// InputOffset returns the stream offset of the first byte not yet consumed:
// every byte before it belongs to a frame returned by Next, a comment, an
// event that was not dispatched, or a line end. InputOffset() + Buffered()
// is the number of bytes written.
func (lx *Lexer) InputOffset() int64 { return lx.in.base + int64(lx.in.start) }

// Buffered returns the number of bytes written but not yet consumed.
func (lx *Lexer) Buffered() int { return len(lx.in.buf) - lx.in.start }

// stripBOM skips a UTF-8 byte order mark at the very start of the stream.
// It returns false when the bytes so far are a proper prefix of one and
// more input is needed to decide.
func (lx *Lexer) stripBOM() bool {
	in := &lx.in
	b := in.buf[in.cur:]
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
	in.cur += len(bom)
	in.start = in.cur
	lx.bomOK = true
	return true
}

// partial is called when the buffered input ends inside a line. It bounds
// the memory held: an event or comment line that already exceeds max is
// reported and switched to skipping, and while skipping the line's bytes
// are dropped (after Close, end drops them).
func (lx *Lexer) partial() {
	in := &lx.in
	if lx.skip.mode == skipNone {
		if lx.Buffered() <= lx.max {
			return
		}
		lx.startSkip(in.cur)
	}
	if lx.closed {
		return
	}
	if in.cur < len(in.buf) {
		lx.skip.mid = true
	}
	in.cur = len(in.buf)
	in.start = in.cur
}

// end is called when Next runs out of complete lines; it returns false,
// Next's result. After Close it settles the verdict, drops the unfinished
// tail and, the stream being over, lets a large buffer go to the pool, for
// the next Lexer to take (a Lexer made anew for each stream, as
// reconstruct.Read makes one, then grows none again).
func (lx *Lexer) end() bool {
	in := &lx.in
	if !lx.closed {
		lx.drained = true
		if in.start == len(in.buf) {
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
	// Close settles the verdict before it returns; until then this is
	// its run on a copy of the Lexer, whose buffer the Lexer keeps.
	settled := lx.verdict
	if !settled {
		lx.closeErr, lx.verdict = lx.cutError(), true
	}
	lx.err = lx.closeErr
	lx.fatal = true
	in.cur = len(in.buf)
	in.start = in.cur
	lx.skip.mode = skipNone
	lx.ev.clear()
	if settled {
		lx.release()
	}
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
		Size:     lx.in.base + int64(len(lx.in.buf)) - off,
		Err:      io.ErrUnexpectedEOF,
	}
}

// unfinished returns the stream offset where the unfinished event (or
// line) at the end of the buffered input began, and whether there is one.
// A comment line outside an event, unfinished or oversized, is none: it
// belongs to no event, so no event was cut.
func (lx *Lexer) unfinished() (int64, bool) {
	in := &lx.in
	switch {
	case lx.skip.mode == skipLine:
		return 0, false
	case lx.skip.mode != skipNone:
		return lx.skip.off, true
	case lx.ev.active:
		return in.base + int64(lx.ev.start), true
	case in.cur < len(in.buf) && in.buf[in.cur] != ':':
		return in.base + int64(in.cur), true
	}
	return 0, false
}

// skipped processes a line of the oversized event or comment line being
// skipped, which ended before cur; blank reports a blank line.
func (lx *Lexer) skipped(blank bool) {
	blank = blank && !lx.skip.mid
	lx.skip.mid = false
	lx.in.start = lx.in.cur
	if lx.skip.mode == skipLine || blank {
		lx.skip.mode = skipNone
	}
}

// oversized reports the event or comment line that the line buf[ls:e],
// which ended before cur, takes past max, and skips that line.
func (lx *Lexer) oversized(ls, e int) {
	lx.startSkip(ls)
	lx.in.start = lx.in.cur
	if e == ls || lx.skip.mode == skipLine {
		// A blank line ends the event; a comment line is all there is.
		lx.skip.mode = skipNone
	}
}

// startSkip reports the oversized event, or comment line, that includes
// the line starting at ls, as soon as it has passed max, and starts
// skipping it to its end. None of the event's fields take effect.
func (lx *Lexer) startSkip(ls int) {
	s := &lx.skip
	s.mode = skipEvent
	if lx.ev.active {
		s.off = lx.in.base + int64(lx.ev.start)
	} else {
		if lx.in.buf[ls] == ':' {
			s.mode = skipLine
		}
		s.off = lx.in.base + int64(ls)
	}
	lx.ev.clear()
	lx.err = &SyntaxError{
		Position: Position{Offset: s.off, Seq: lx.seq, ID: cloneID(lx.LastEventID())},
		Size:     int64(lx.max) + 1,
		Err:      ErrEventTooLarge,
	}
}
