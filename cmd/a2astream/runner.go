package main

// This file is structured as: the runner that drives a reconstruct.Stream
// (and, for --frames and --events, a lexer and decoder of its own) with
// the bytes of the source; the local sources (file, stdin, demo) with
// their pacing; the exit code of a run.

import (
	"errors"
	"io"
	"os"
	"time"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
)

// output is one of the output modes.
type output interface {
	// update shows one update of the Stream.
	update(u *reconstruct.Update)
	// frame shows one SSE frame and its decoded event (nil with decErr
	// when it did not decode); called only when wantsFrames.
	frame(f *parser.Frame, ev *parser.Event, decErr error)
	// note tells the person something about the connection, on stderr.
	note(msg string)
	// finish shows the end: res is the run (nil when no stream was read),
	// err the run's error or the error that kept the stream from
	// starting.
	finish(res *reconstruct.Result, err error)
}

// wantsFrames reports whether the mode shows frames.
func wantsFrames(m mode) bool { return m == modeFrames || m == modeEvents }

// runner reads one source into a Stream and an output.
type runner struct {
	cfg            *config
	stdin          io.Reader
	stdout, stderr io.Writer
	e              env

	stream *reconstruct.Stream
	out    output
	// lx and dec split and decode the same bytes again for --frames and
	// --events; base is the stream offset of the current connection's
	// first byte, as the Stream counts it.
	lx   *parser.Lexer
	dec  *parser.Decoder
	base int64

	fed    int64               // bytes fed, over all connections
	res    *reconstruct.Result // from the last UpdateDone
	runErr error               // from the last UpdateDone
}

func newRunner(cfg *config, stdin io.Reader, stdout, stderr io.Writer, e env) *runner {
	r := &runner{cfg: cfg, stdin: stdin, stdout: stdout, stderr: stderr, e: e}
	r.reset()
	return r
}

// reset makes the runner ready for a new run: a new Stream and output.
func (r *runner) reset() {
	opts := &reconstruct.Options{Strict: r.cfg.strict}
	switch r.cfg.unit {
	case "bytes":
		opts.Citations.Unit = citations.Bytes
	case "utf16":
		opts.Citations.Unit = citations.UTF16
	}
	r.stream = reconstruct.NewStream(opts)
	r.lx, r.dec, r.base, r.fed, r.res, r.runErr = nil, nil, 0, 0, nil, nil
	noColor := r.e.getenv("NO_COLOR") != ""
	switch r.cfg.mode {
	case modeJSON:
		r.out = &jsonOutput{w: r.stdout, errw: r.stderr}
	case modeFrames, modeEvents:
		r.out = &lineOutput{w: r.stdout, errw: r.stderr, events: r.cfg.mode == modeEvents}
		r.lx = parser.NewLexer(nil)
		r.dec = parser.NewDecoder()
	default:
		r.out = newHuman(r.stdout, r.stderr, r.e.stdoutTTY && !noColor, r.errColor(), r.e.stdoutTTY && r.e.stderrTTY)
	}
}

// errColor reports whether stderr gets colour.
func (r *runner) errColor() bool {
	return r.e.stderrTTY && r.e.getenv("NO_COLOR") == ""
}

// main reads the source and returns the exit code.
func (r *runner) main() int {
	var err error
	switch {
	case r.cfg.demo:
		var code int
		if code, err = r.demo(); err == nil {
			return code
		}
	case r.cfg.isURL():
		err = r.fetch()
	default:
		err = r.local()
	}
	if err != nil {
		// The stream never started: no result to show.
		r.out.finish(nil, err)
		return exitCode(nil, err)
	}
	r.out.finish(r.res, r.runErr)
	return exitCode(r.res, r.runErr)
}

// feed pushes bytes of the stream to the Stream (and the frame lexer) and
// hands out what they produced.
func (r *runner) feed(p []byte) {
	r.fed += int64(len(p))
	// A run that ended with an error takes no more input; the frame lexer
	// still shows the rest.
	if r.runErr == nil {
		if _, err := r.stream.Write(p); err != nil {
			r.out.note("the stream refused input: " + err.Error())
		}
		r.drain()
	}
	if r.lx != nil {
		if _, err := r.lx.Write(p); err != nil {
			r.out.note("the frame lexer refused input: " + err.Error())
		}
		r.drainFrames()
	}
}

// drain hands the Stream's pending updates to the output.
func (r *runner) drain() {
	for r.stream.Next() {
		u := r.stream.Update()
		if u.Kind == reconstruct.UpdateDone {
			r.res, r.runErr = u.Result, u.Err
		}
		r.out.update(u)
	}
}

// drainFrames hands the frame lexer's frames to the output.
func (r *runner) drainFrames() {
	for r.lx.Next() {
		f := *r.lx.Frame()
		f.Offset += r.base
		ev, err := r.dec.Decode(&f)
		r.out.frame(&f, ev, err)
	}
	if err := r.lx.Err(); err != nil && errors.Is(err, parser.ErrEventTooLarge) {
		r.out.frame(nil, nil, r.shift(err))
		r.drainFrames()
	}
}

// shift moves a lexer error's offset by the current connection's base.
func (r *runner) shift(err error) error {
	var se *parser.SyntaxError
	if r.base != 0 && errors.As(err, &se) {
		c := *se
		c.Offset += r.base
		return &c
	}
	return err
}

// end reports the end of the input, which failed with readErr (nil for a
// clean end).
func (r *runner) end(readErr error) {
	if readErr != nil {
		r.stream.CloseWithError(readErr)
	} else {
		r.stream.Close()
	}
	r.drain()
	if r.lx != nil {
		r.lx.Close()
		r.drainFrames()
		if err := r.lx.Err(); err != nil && !errors.Is(err, parser.ErrEventTooLarge) {
			r.out.frame(nil, nil, r.shift(err))
		}
	}
}

// resume prepares the Stream and the frame lexer for a new connection.
func (r *runner) resume() error {
	if err := r.stream.Resume(); err != nil {
		return err
	}
	if r.lx != nil {
		r.base += r.lx.InputOffset() + int64(r.lx.Buffered())
		r.lx.Reset()
		r.dec.Reset()
	}
	return nil
}

// readSize is the size of the reads from the source.
const readSize = 32 << 10

// consume feeds what body yields until it ends, or until the run is done
// when stopWhenDone. It returns the read error, nil at EOF.
func (r *runner) consume(body io.Reader, stopWhenDone bool) error {
	buf := make([]byte, readSize)
	empty := 0
	for {
		n, err := body.Read(buf)
		if n > 0 {
			empty = 0
			r.feed(buf[:n])
			if stopWhenDone && r.stream.Done() {
				return nil
			}
		} else if err == nil {
			if empty++; empty >= 100 {
				return io.ErrNoProgress
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// ioError is an input that could not be read at all: a file that does not
// open, a server that cannot be reached.
type ioError struct{ err error }

func (e *ioError) Error() string { return e.err.Error() }
func (e *ioError) Unwrap() error { return e.err }

// local reads a FILE or stdin.
func (r *runner) local() error {
	var src io.Reader = r.stdin
	if r.cfg.source != "-" {
		f, err := os.Open(r.cfg.source)
		if err != nil {
			return &ioError{err}
		}
		defer f.Close()
		src = f
	}
	if r.cfg.speed > 0 {
		data, err := io.ReadAll(src)
		if err != nil && len(data) == 0 {
			return &ioError{err}
		}
		r.play(data)
		r.end(err)
		return nil
	}
	r.end(r.consume(src, false))
	return nil
}

// framePace is the delay between frames at --speed 1.
const framePace = 60 * time.Millisecond

// play feeds data one frame at a time, waiting between frames at the
// pace --speed sets.
func (r *runner) play(data []byte) {
	var delay time.Duration
	if r.cfg.speed > 0 {
		delay = time.Duration(float64(framePace) / r.cfg.speed)
	}
	prev := 0
	for _, end := range frameEnds(data) {
		r.feed(data[prev:end])
		prev = end
		if delay > 0 {
			r.e.sleep(delay)
		}
	}
	if prev < len(data) {
		r.feed(data[prev:])
	}
}

// frameEnds returns the offsets in data just past each SSE frame, found
// by the library's lexer, so that playback splits the stream where an
// agent's writes would.
func frameEnds(data []byte) []int {
	lx := parser.NewLexer(nil)
	var ends []int
	for off := 0; off < len(data); {
		n := min(len(data)-off, 64<<10)
		if _, err := lx.Write(data[off : off+n]); err != nil {
			break
		}
		off += n
		for lx.Next() {
			ends = append(ends, int(lx.InputOffset()))
		}
	}
	lx.Close()
	for lx.Next() {
		ends = append(ends, int(lx.InputOffset()))
	}
	return ends
}

// exitCode tells the outcome of a run: res is nil when the stream never
// started, err the run's error or the error that kept it from starting.
func exitCode(res *reconstruct.Result, err error) int {
	if err != nil {
		var api *parser.APIError
		var httpErr *reconstruct.HTTPError
		var trunc *reconstruct.TruncatedError
		var ioErr *ioError
		switch {
		case errors.As(err, &trunc):
			return exitTruncated
		case errors.As(err, &api):
			return exitAPI
		case errors.As(err, &httpErr):
			if httpErr.StatusCode < 200 || httpErr.StatusCode > 299 {
				return exitAPI
			}
			return exitProtocol
		case errors.As(err, &ioErr):
			return exitIO
		}
		return exitProtocol
	}
	if res == nil {
		return exitProtocol
	}
	switch {
	case res.State == parser.TaskStateCompleted:
		return exitOK
	case res.State.Interrupted():
		return exitInterrupted
	case res.State.Terminal():
		return exitFailed
	case res.Message != nil && res.TaskID == "":
		return exitOK
	}
	return exitTruncated
}
