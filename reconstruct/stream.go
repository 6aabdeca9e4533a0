package reconstruct

import (
	"bytes"
	"errors"
	"io"
	"iter"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
)

// Stream runs the whole pipeline on bytes pushed to it: the SSE lexer, the
// A2A event decoder and the Reducer. It is what a network loop or a
// JavaScript ReadableStream drives:
//
//	s := reconstruct.NewStream(nil)
//	for chunk := range chunks {
//		s.Write(chunk)
//		for s.Next() {
//			show(s.Update())
//		}
//	}
//	s.Close()
//	for s.Next() {
//		show(s.Update()) // the last updates, then UpdateDone
//	}
//
// The call order is { Write { Next Update } } Close { Next Update }, with
// Resume allowed in place of Close when the connection dropped. A Stream
// must not be used from multiple goroutines at once.
type Stream struct {
	lx      sse.Lexer
	dec     *parser.Decoder // allocated apart: the Decoder is 6 KB
	red     Reducer         // called through streamReducer only (seam.go)
	batch   []Update        // the updates of the last event applied
	next    int             // batch[next:] are still to be handed out
	cur     *Update
	readErr error // the input's failure, given to CloseWithError
	// sn keeps the input's start, to tell input that is not an event
	// stream; seen (below) tells that an earlier connection had a frame.
	sn sniffer
	sr sniffReader
	// maxEvent is the MaxEventSize lx applies (the default for 0 or less).
	maxEvent int
	// The flags, together: a Stream of 1,016 bytes, in the allocator's
	// class of 1,024 (1,032 bytes apart, in that of 1,152).
	closed bool
	seen   bool
	// repeatable reports that the last event took the Reducer's delta
	// route: the next one, when the decoder reports it in the same
	// envelope (Decoder.SameEnvelope), can take Reducer.repeat.
	repeatable bool
	// lines reports that the lexer may have a line to process: a line
	// end (LF or CR) was written since its Next last ran out of input, or
	// a write was too long to look through (see mayEndLine). Until one
	// is, no event can be complete and Next leaves the lexer alone
	// (waiting), unless the bytes buffered pass MaxEventSize (lx.Next then
	// reports the oversized event) or the input was closed.
	lines bool
	// idInFrame reports that the last event id is the ID of the lexer's
	// Frame, not yet handed to the Reducer: the last event took
	// Reducer.repeat, which copies none (see streamReducer). syncID hands
	// it over.
	idInFrame bool
}

// NewStream returns a Stream configured by opts; nil opts selects the
// defaults.
func NewStream(opts *Options) *Stream {
	s := new(Stream)
	s.Reset(opts)
	return s
}

// Reset makes s ready for a new run with the given options (nil for the
// defaults). It keeps the lexer's and decoder's buffers for the next run,
// as [sse.Lexer.Reset] and [parser.Decoder.Reset] keep them, so that a
// Stream reused for runs alike allocates only what their Results hold;
// the last run's Result is left as it was.
func (s *Stream) Reset(opts *Options) {
	var lo sse.Options
	if opts != nil {
		lo.MaxEventSize = opts.MaxEventSize
	}
	s.lx.Reset(&lo)
	s.maxEvent = lo.MaxEventSize
	if s.maxEvent <= 0 {
		s.maxEvent = sse.DefaultMaxEventSize
	}
	if s.dec == nil {
		s.dec = new(parser.Decoder)
	}
	s.dec.Reset()
	s.red.Reset(opts)
	s.batch, s.next, s.cur, s.closed, s.readErr = nil, 0, nil, false, nil
	s.repeatable, s.lines, s.idInFrame = false, false, false
	s.sn, s.seen = sniffer{}, false
}

// Write pushes the next bytes of the stream. Errors in the input end the
// run and reach the caller as an UpdateDone, not from Write: once the run
// has ended with an error, Write discards its input. Write fails with
// ErrClosed after Close, and with sse.ErrBufferFull when more than
// MaxEventSize bytes are buffered unread: call Next until it returns false
// between writes.
func (s *Stream) Write(p []byte) (int, error) {
	if s.closed {
		return 0, ErrClosed
	}
	if s.red.Err() != nil {
		return len(p), nil
	}
	if s.sn.watching() {
		s.sn.observe(p)
	}
	s.lines = s.lines || mayEndLine(p)
	return s.lx.Write(p)
}

// shortWrite is the longest write that Stream.Write looks through for a
// line end; a longer one is taken as holding one (the lexer's Next finds
// out). A network read of a token stream holds a line end nearly always,
// and looking through a long write would search its bytes once more.
const shortWrite = 16

// mayEndLine reports whether p may hold a line end: a write of up to
// shortWrite bytes that holds no LF and no CR completes no line, and so
// no event (the rule of sse.Lexer.FillLine).
func mayEndLine(p []byte) bool {
	if len(p) > shortWrite {
		return true
	}
	for _, c := range p {
		if c == '\n' || c == '\r' {
			return true
		}
	}
	return false
}

// Next advances to the next update and reports whether there is one; it
// returns false when the input written so far is used up (write more, or
// Close) and after the UpdateDone.
func (s *Stream) Next() bool {
	if s.next < len(s.batch) {
		s.cur = &s.batch[s.next]
		s.next++
		return true
	}
	if !s.waiting() {
		for !s.red.closed() && s.red.Err() == nil {
			if !s.read() && !s.end() {
				break
			}
			if s.batch = s.red.Pending(); len(s.batch) > 0 {
				s.cur, s.next = &s.batch[0], 1
				return true
			}
		}
		if !s.red.closed() && s.red.Err() != nil && s.closed {
			// The run ended with an error and its UpdateDone was
			// handed out: the rest of the input is not read.
			s.syncID()
			s.red.Finish(0, nil)
		}
	}
	s.batch, s.next, s.cur = s.batch[:0], 0, nil
	return false
}

// read lexes, decodes and applies events until one is applied other than
// by Reducer.repeat, or repeat applies one with an update, and reports
// whether one was: false when the input written so far is used up. An
// event that the decoder reports in the same envelope as the last one
// (Decoder.SameEnvelope), which took the Reducer's delta route, is another
// delta for the same artifact: repeat applies it without the checks of its
// envelope.
func (s *Stream) read() bool {
	for {
		// The last frame's ID, the last event id while idInFrame: the
		// call to Next that returns the next frame moves no byte.
		last := s.lx.Frame().ID
		if !s.lx.Next() {
			break
		}
		f := s.lx.Frame()
		// The frame's data is the lexer's, which nothing reads after
		// the event is applied: its texts are unescaped in place.
		ev, err := s.dec.DecodeInPlace(f)
		if err == nil && s.repeatable && s.dec.SameEnvelope() && s.red.repeat(f, ev) {
			s.idInFrame = true
			// Its one update, if any, is handed out at once.
			if len(s.red.Pending()) > 0 {
				return true
			}
			continue
		}
		if err != nil {
			// The frame is not applied: the last event id stays the
			// one before it.
			if s.idInFrame {
				s.red.setID(last)
				s.idInFrame = false
			}
			s.red.Fail(err)
			s.repeatable = false
			return true
		}
		s.idInFrame = false // Apply copies f's id
		s.red.Apply(f, ev)
		s.repeatable = s.red.extended()
		return true
	}
	s.lines = false
	return false
}

// syncID hands the Reducer the last event id when it is the ID of the
// lexer's Frame (idInFrame), before the Reducer reads its own or the lexer
// drops the Frame's (Resume, Reset).
func (s *Stream) syncID() {
	if s.idInFrame {
		s.red.setID(s.lx.Frame().ID)
		s.idInFrame = false
	}
}

// waiting reports that Next has nothing to hand out until more input is
// written: no line end was written since the lexer last ran out of input
// (s.lines), the bytes buffered are within MaxEventSize, and the input is
// not closed. The lexer and the Reducer are then left alone: an error of
// either was handled when the lexer last ran out (read, then end).
func (s *Stream) waiting() bool {
	return !s.lines && !s.closed && s.lx.Buffered() <= s.maxEvent
}

// end handles the lexer's stop short of a frame, and reports whether it
// ended the run: false when it needs more input.
func (s *Stream) end() bool {
	err := s.lx.Err()
	if err == nil && !s.closed {
		return false
	}
	s.syncID()
	if err != nil && !isCut(err) {
		// An oversized event: the run cannot be rebuilt without it.
		s.red.Fail(err)
		return true
	}
	if !s.seen && s.lx.Frame().Seq == 0 && !s.red.Done() {
		// No frame: the input may be no event stream at all.
		if err := s.sn.verdict(); err != nil {
			s.red.Fail(err)
			return true
		}
	}
	// The end of the input, between events or cut inside one, plain or
	// on a read error.
	cut := s.readErr
	if err != nil {
		cut = err
		if s.readErr != nil {
			cut = errors.Join(cut, s.readErr)
		}
	}
	s.red.Finish(s.lx.InputOffset()+int64(s.lx.Buffered()), cut)
	return true
}

// Update returns the update that the last call to Next advanced to. It and
// its views are valid only until the next call to Next, Write, Close,
// Resume or Reset.
func (s *Stream) Update() *Update { return s.cur }

// Close reports the end of the input. The updates still pending, then an
// UpdateDone, are handed out by Next. Close returns the run's error: nil
// when it reached a terminal or interrupted state, a *TruncatedError when
// the input ended first, a *NotEventStreamError when the input held no
// frame and its first line that is neither blank nor a comment is no SSE
// field (data, id, event, retry), or the error that ended it earlier.
func (s *Stream) Close() error {
	return s.CloseWithError(nil)
}

// CloseWithError is Close for an input that failed with err, such as a
// connection reset, a deadline or an idle timeout: a run that had not ended
// is truncated, and the *TruncatedError carries err as its Cause (errors.Is
// and errors.As reach it). A nil err or io.EOF is a plain end, as Close.
func (s *Stream) CloseWithError(err error) error {
	if s.closed {
		return s.red.Err()
	}
	s.closed = true
	s.readErr = err
	s.lx.Close()
	// Run the remaining frames through the reducer so that the verdict is
	// known now; the updates stay queued for Next, with their text copied
	// since later events may reuse the buffers it points into.
	var pending []Update
	for s.Next() {
		u := *s.cur
		u.Text = bytes.Clone(u.Text)
		pending = append(pending, u)
	}
	s.batch, s.next, s.cur = pending, 0, nil
	// The run is over and the lexer is not read again until Reset: its
	// buffers go back to the pool now, for the next Stream (Read makes
	// one for each stream) to take, rather than to the garbage with s.
	s.syncID()
	s.lx.Reset(nil)
	return s.red.Err()
}

// Resume prepares s for the rest of the run on a new connection (a
// tasks/{id}:subscribe request, with Last-Event-ID set to LastEventID) after
// the previous one dropped before the run ended: the bytes of an event cut
// by the drop are discarded, and the events of the new connection are
// applied to the same run. The new connection may send the events after
// Last-Event-ID, or, as Corti's server does, a task snapshot and the events
// from the start of the artifact in progress: either way the updates that
// follow are those the uncut stream would have given, each character of
// live text handed out once. It fails when the run has already ended.
//
// Call Next until it returns false before Resume: the updates not handed
// out yet and the bytes of an event the drop cut are dropped by it.
func (s *Stream) Resume() error {
	if s.red.closed() || s.red.Err() != nil || s.closed {
		return ErrClosed
	}
	s.seen = s.seen || s.lx.Frame().Seq > 0
	s.syncID()
	s.lx.Resume() // offsets continue the old connection's
	s.dec.Reset()
	s.batch, s.next, s.cur, s.repeatable = nil, 0, nil, false
	s.lines = true
	return nil
}

// TaskID returns the run's task id, for a resubscription; "" when none has
// been seen. It is the Result's TaskID.
func (s *Stream) TaskID() string { return s.red.taskID() }

// LastEventID returns the SSE id of the last event applied, for a
// resubscription's Last-Event-ID header. The slice is valid until the next
// call on s.
func (s *Stream) LastEventID() []byte {
	s.syncID()
	return s.red.LastEventID()
}

// Done reports whether the run has ended (see [Reducer.Done]).
func (s *Stream) Done() bool { return s.red.Done() }

// Result returns the run as rebuilt so far (see [Reducer.Result]). Once the
// run is over (Close has returned, or Next has handed out the UpdateDone)
// the Result is detached from s: it holds its own texts and parts and
// nothing of the lexer's or decoder's buffers, so that keeping it while
// dropping s frees them. Reset starts a new Result and leaves this one as
// it was.
func (s *Stream) Result() *Result {
	if s.cur == nil && s.next >= len(s.batch) {
		// No update is valid (Next returned false) and none is waiting
		// (Close queues some): the views of those handed out, which may
		// be the only hold on the pieces of a text that Result joins, go.
		clear(s.batch[:cap(s.batch)])
	}
	s.syncID()
	return s.red.Result()
}

// Updates returns an iterator over the updates of the stream read from r,
// ending with the UpdateDone. When the run ended with an error, the
// iterator yields it once more, last, with a zero Update, as the error of
// the sequence. The updates' views are valid only until the iteration
// continues.
func Updates(r io.Reader, opts *Options) iter.Seq2[Update, error] {
	return func(yield func(Update, error) bool) {
		s := NewStream(opts)
		if !s.readFrom(r, func(u *Update) bool { return yield(*u, nil) }) {
			return
		}
		if err := s.red.Err(); err != nil {
			yield(Update{}, err)
		}
	}
}

// readFrom runs the whole stream read from r through s, handing each
// update to each (nil: the updates are dropped), and reports whether it
// went to the end: false when each returned false.
func (s *Stream) readFrom(r io.Reader, each func(*Update) bool) bool {
	for !s.closed {
		// Read straight into the lexer's buffer: Write would copy every
		// byte once more. Next has run out before each read, so the
		// buffer is never full. FillLine reads until a line end comes,
		// as no update can come before one: a reader that gives a byte
		// or a few at a time costs a run of Next per line, not per read.
		// It retries reads that return nothing, and reports a reader
		// that never gives data nor an error with io.ErrNoProgress.
		var n int
		var err error
		if s.sn.watching() {
			s.sr = sniffReader{&s.sn, r}
			n, err = s.lx.FillLine(&s.sr, sse.ReadSize)
			s.sr.r = nil
		} else {
			n, err = s.lx.FillLine(r, sse.ReadSize)
		}
		s.lines = s.lines || n > 0
		if n > 0 && !s.drain(each) {
			return false
		}
		switch {
		case err == io.EOF:
			s.Close()
		case err != nil:
			s.CloseWithError(err)
		case s.red.Err() != nil:
			// The run ended with an error: nothing more it reads can
			// change it, so stop reading.
			s.Close()
		}
	}
	return s.drain(each)
}

// drain hands the pending updates to each, or drops them when each is
// nil, and reports whether each accepted them all.
func (s *Stream) drain(each func(*Update) bool) bool {
	for s.Next() {
		if each != nil && !each(s.cur) {
			return false
		}
	}
	return true
}

// Read reads a whole stream from r and returns the run. The error is
// Result.Err: nil when the run reached a terminal or interrupted state; a
// *NotEventStreamError when r held no frame and is no event stream at all
// (an HTML page, a binary file, a JSON document such as an error body piped
// from curl, whose *parser.APIError it holds). The Result holds only what
// it owns, its texts, parts, metadata and diagnostics: keeping it keeps
// none of the buffers the stream was read with.
func Read(r io.Reader, opts *Options) (*Result, error) {
	s := newReadStream(opts)
	s.readFrom(r, nil)
	return s.Result(), s.red.Err()
}

// newReadStream returns the Stream that Read runs: its Reducer builds no
// text updates.
func newReadStream(opts *Options) *Stream {
	s := NewStream(opts)
	s.red.muteText()
	return s
}
