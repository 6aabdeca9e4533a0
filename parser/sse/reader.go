package sse

import (
	"io"
	"iter"
)

const (
	// ReadSize is the size of the reads of a Reader, and the size that
	// other readers of a stream into a Lexer should use with Fill.
	ReadSize = 32 << 10
	// MaxEmptyReads is how many reads in a row that return no data and no
	// error [ReadSome] (hence [Lexer.Fill] and a Reader) accepts before it
	// reports io.ErrNoProgress.
	MaxEmptyReads = 100
)

// ReadSome reads from r into p: once, unless the read returns no data and
// no error, in which case it reads again, up to MaxEmptyReads times in a
// row, and then returns io.ErrNoProgress. Otherwise it returns what the
// last read returned; as with any read, n > 0 bytes are to be processed
// before err is considered. It is the read rule of [Lexer.Fill] and
// [Reader], for a caller that reads a stream into a buffer of its own.
func ReadSome(r io.Reader, p []byte) (n int, err error) {
	for range MaxEmptyReads {
		if n, err = r.Read(p); n != 0 || err != nil || len(p) == 0 {
			return n, err
		}
	}
	return 0, io.ErrNoProgress
}

// Reader reads Server-Sent Events frames from an io.Reader. It is a thin
// pull adapter over a [Lexer]: it reads into the Lexer's buffer (no extra
// copy) and follows the same rules, limits and view lifetimes. It holds at
// most MaxEventSize bytes of one event plus one read buffer of [ReadSize].
//
// A Reader must not be used from multiple goroutines at once.
type Reader struct {
	lx  Lexer
	src io.Reader
	// rerr is the error src returned (io.EOF included); it is acted on
	// once the frames read before it have been returned.
	rerr error
	// err is the Reader's own sticky error: a read failure.
	err error
}

// NewReader returns a Reader that reads from r, configured by opts; nil
// opts selects the defaults.
func NewReader(r io.Reader, opts *Options) *Reader {
	rd := &Reader{src: r}
	rd.lx.init(opts)
	return rd
}

// Next advances to the next frame, which Frame then returns, reading from
// the underlying reader as needed, and reports whether there is one. When
// it returns false, Err says why: nil at the clean end of the stream.
//
// Like [Lexer.Next], Next stops on an event larger than MaxEventSize as
// soon as it passes the limit, with Err returning a *[SyntaxError] wrapping
// [ErrEventTooLarge], and may be called again to continue after it. Every other error is final: a stream
// cut inside an event (io.ErrUnexpectedEOF), a read error, or a reader that
// returned no data and no error 100 times in a row (io.ErrNoProgress), each
// wrapped in a *SyntaxError that says where.
func (r *Reader) Next() bool {
	if r.err != nil {
		return false
	}
	for {
		if r.lx.Next() {
			return true
		}
		if r.lx.err != nil || r.lx.closed {
			return false
		}
		if r.rerr != nil {
			if r.rerr == io.EOF {
				r.lx.Close()
				continue
			}
			off, ok := r.lx.unfinished()
			if !ok {
				off = r.lx.InputOffset()
			}
			r.err = &SyntaxError{
				Position: Position{Offset: off, Seq: r.lx.seq, ID: cloneID(r.lx.LastEventID())},
				Size:     r.lx.in.base + int64(len(r.lx.in.buf)) - off,
				Err:      r.rerr,
			}
			return false
		}
		r.fill()
	}
}

// fill reads from src into the Lexer's buffer until a line end comes
// (FillLine): Next can find no frame before one, so a source that gives a
// byte or a few at a time costs a run of the Lexer per line, not per read.
func (r *Reader) fill() {
	if _, err := r.lx.FillLine(r.src, ReadSize); err != nil {
		r.rerr = err
	}
}

// Frame returns the frame that the last call to Next that returned true
// advanced to. The Frame is the Reader's own and its slices alias the
// Reader's buffers: they are valid only until the next call to Next or
// Reset (its ID: until Next returns another frame, see [Frame].ID) and
// must not be modified. Use [Frame.Clone] to retain it.
func (r *Reader) Frame() *Frame { return &r.lx.frame }

// Err returns the error that stopped the last call to Next, or nil at the
// clean end of the stream (and while Next keeps returning frames).
func (r *Reader) Err() error {
	if r.err != nil {
		return r.err
	}
	return r.lx.err
}

// All returns an iterator over the remaining frames. Each frame is yielded
// with a nil error, as Frame returns it: it is valid only until the loop
// body returns; use [Frame.Clone] to keep it. If reading stops on an error,
// including an oversized event, the error is yielded once, last, with a nil
// Frame, and the iteration ends; call Next instead to continue after an
// oversized event. A clean end of the stream yields no error.
func (r *Reader) All() iter.Seq2[*Frame, error] {
	return func(yield func(*Frame, error) bool) {
		for r.Next() {
			if !yield(&r.lx.frame, nil) {
				return
			}
		}
		if err := r.Err(); err != nil {
			yield(nil, err)
		}
	}
}

// LastEventID returns the stream's last event ID, as [Lexer.LastEventID]
// does: the value to send as Last-Event-ID to resume. It may be called at
// any time; the slice is valid only until the next call to Next or Reset.
func (r *Reader) LastEventID() []byte { return r.lx.LastEventID() }

// Retry returns the stream's reconnection time in milliseconds, as
// [Lexer.Retry] does, and whether the stream set one.
func (r *Reader) Retry() (ms int64, ok bool) { return r.lx.Retry() }

// InputOffset returns the stream offset of the first byte read but not
// yet consumed, as [Lexer.InputOffset] does.
func (r *Reader) InputOffset() int64 { return r.lx.InputOffset() }

// Reset discards all state and makes the Reader read a new stream from
// src configured by opts, as if it were new from NewReader(src, opts) (nil
// opts selects the defaults), keeping its buffers unless they grew beyond
// 256 KiB.
func (r *Reader) Reset(src io.Reader, opts *Options) {
	r.lx.Reset(opts)
	r.src = src
	r.rerr = nil
	r.err = nil
}
