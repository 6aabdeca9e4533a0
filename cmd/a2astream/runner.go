package main

// This file is structured as: the runner that drives a reconstruct.Stream
// (and, for --frames and --events, a lexer and decoder of its own) with
// the bytes of the source; the local sources (file, stdin, demo) with
// their pacing; the exit code of a run.

import (
	"context"
	"errors"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
)

// output is one of the output modes.
type output interface {
	// update shows one update of the Stream.
	update(u *reconstruct.Update)
	// frame shows one SSE frame and its decoded event (nil with decErr
	// when it did not decode); called only in --frames and --events
	// modes, where the runner has a lexer of its own.
	frame(f *sse.Frame, ev *parser.Event, decErr error)
	// note tells the person something about the connection, on stderr.
	note(msg string)
	// finish shows the end: res is the run (nil when no stream was read),
	// err the run's error or the error that kept the stream from
	// starting.
	finish(res *reconstruct.Result, err error)
}

// runner reads one source into a Stream and an output.
type runner struct {
	cfg            *config
	stdin          io.Reader
	stdout, stderr io.Writer
	e              env
	// ctx ends the run early: a signal, --timeout.
	ctx context.Context

	stream *reconstruct.Stream
	out    output
	// lx and dec split and decode the same bytes again for --frames and
	// --events; lx counts offsets over every connection, as the Stream
	// does.
	lx  *sse.Lexer
	dec *parser.Decoder

	res      *reconstruct.Result // from the last UpdateDone
	runErr   error               // from the last UpdateDone
	attempts int                 // resubscriptions made (URL mode)
}

func newRunner(ctx context.Context, cfg *config, stdin io.Reader, stdout, stderr io.Writer, e env) *runner {
	r := &runner{ctx: ctx, cfg: cfg, stdin: stdin, stdout: stdout, stderr: stderr, e: e}
	r.reset()
	return r
}

// options returns the reconstruct options the flags ask for.
func (r *runner) options() *reconstruct.Options {
	opts := &reconstruct.Options{Strict: r.cfg.strict}
	switch r.cfg.unit {
	case "bytes":
		opts.Citations.Unit = citations.Bytes
	case "utf16":
		opts.Citations.Unit = citations.UTF16
	}
	return opts
}

// reset makes the runner ready for a new run: a new Stream and output.
func (r *runner) reset() {
	r.stream = reconstruct.NewStream(r.options())
	r.lx, r.dec, r.res, r.runErr, r.attempts = nil, nil, nil, nil, 0
	noColor := r.e.getenv("NO_COLOR") != ""
	outScreen, errScreen := r.cfg.controls.screen(r.e.stdoutTTY), r.cfg.controls.screen(r.e.stderrTTY)
	switch r.cfg.mode {
	case modeJSON:
		r.out = &jsonOutput{w: &jsonScreen{w: r.stdout, escape: outScreen.escape}, errw: r.stderr, errScreen: errScreen}
	case modeFrames, modeEvents:
		r.out = &lineOutput{w: &jsonScreen{w: r.stdout, escape: outScreen.escape}, errw: r.stderr, errScreen: errScreen, events: r.cfg.mode == modeEvents}
		r.lx = sse.NewLexer(nil)
		r.dec = parser.NewDecoder()
	default:
		shared := r.e.sameOutput || r.e.stdoutTTY && r.e.stderrTTY || sameWriter(r.stdout, r.stderr)
		r.out = newHuman(r.stdout, r.stderr, r.e.stdoutTTY && !noColor, r.errColor(), shared, outScreen, errScreen)
	}
}

// sameWriter reports whether a and b are the same writer; writers of a
// type that cannot be compared are taken as different.
func sameWriter(a, b io.Writer) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}

// errColor reports whether stderr gets colour.
func (r *runner) errColor() bool {
	return r.e.stderrTTY && r.e.getenv("NO_COLOR") == ""
}

// main reads the source and returns the exit code.
func (r *runner) main() int {
	if r.cfg.taskCall() {
		return r.task()
	}
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
	// A run that ended with an error takes no more input; the frame lexer
	// still shows the rest.
	if r.runErr == nil {
		if _, err := r.stream.Write(p); err != nil {
			r.out.note("the stream refused input: " + err.Error())
		}
		r.drain()
	}
	r.feedFrames(p)
}

// feedFrames pushes bytes of the stream to the frame lexer of --frames and
// --events, and shows the frames they completed.
func (r *runner) feedFrames(p []byte) {
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
		f := r.lx.Frame()
		ev, err := r.dec.Decode(f)
		r.out.frame(f, ev, err)
	}
	if err := r.lx.Err(); err != nil && errors.Is(err, sse.ErrEventTooLarge) {
		r.out.frame(nil, nil, err)
		r.drainFrames()
	}
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
	r.endFrames()
}

// endFrames closes the frame lexer of --frames and --events and shows the
// rest.
func (r *runner) endFrames() {
	if r.lx != nil {
		r.lx.Close()
		r.drainFrames()
		if err := r.lx.Err(); err != nil && !errors.Is(err, sse.ErrEventTooLarge) {
			r.out.frame(nil, nil, err)
		}
	}
}

// resumeFrames prepares the frame lexer for a new connection.
func (r *runner) resumeFrames() {
	if r.lx != nil {
		r.lx.Resume() // offsets continue the old connection's
		r.dec.Reset()
	}
}

// consume hands what src yields to each until it ends, and returns the
// read error (nil at EOF), or the cause of r.ctx when it ends first (a
// signal, --timeout). The reads are made by a goroutine of their own, so
// that a read blocked on a silent pipe does not keep the run from ending;
// that goroutine is left blocked then, and goes with the process.
func (r *runner) consume(src io.Reader, each func([]byte)) error {
	type result struct {
		n   int
		err error
	}
	buf := make([]byte, sse.ReadSize)
	got := make(chan result)
	next := make(chan struct{})
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			n, err := sse.ReadSome(src, buf) // io.ErrNoProgress for a reader stuck at (0, nil)
			select {
			case got <- result{n, err}:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
			select {
			case <-next:
			case <-stop:
				return
			}
		}
	}()
	for {
		var res result
		select {
		case res = <-got:
		case <-r.ctx.Done():
			return context.Cause(r.ctx)
		}
		if res.n > 0 {
			each(buf[:res.n])
		}
		if res.err == io.EOF {
			return nil
		}
		if res.err != nil {
			return res.err
		}
		next <- struct{}{}
	}
}

// ioError is an input that could not be read: a file that does not open,
// a directory, a failed read, a server that cannot be reached.
type ioError struct{ err error }

func (e *ioError) Error() string { return e.err.Error() }
func (e *ioError) Unwrap() error { return e.err }

// interruptError is the cause of a run that a signal ended.
type interruptError struct{ sig os.Signal }

func (e *interruptError) Error() string { return "interrupted (" + signalName(e.sig) + ")" }

// signalName names a signal as people know it: SIGINT, SIGTERM.
func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// errEmptyInput is the error of a FILE or stdin that holds no byte: no
// stream at all, rather than one cut before the run ended.
var errEmptyInput = errors.New("empty input")

// local reads a FILE or stdin. A read error ends the run as a cut one
// would, and the run's error is then an *ioError (exit 7) around it; an
// input with no byte is errEmptyInput (exit 6).
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
	var err error
	var n int64
	if r.cfg.speed > 0 {
		var data []byte
		err = r.consume(src, func(p []byte) { data = append(data, p...) })
		n = int64(len(data))
		r.play(data)
		if err == nil && r.ctx.Err() != nil {
			err = context.Cause(r.ctx)
		}
	} else {
		err = r.consume(src, func(p []byte) {
			n += int64(len(p))
			r.feed(p)
		})
	}
	if n == 0 && r.ctx.Err() == nil {
		// Nothing could be read (a directory), or there was nothing: no
		// stream to show.
		if err != nil {
			return &ioError{err}
		}
		return errEmptyInput
	}
	r.end(err)
	if err != nil && r.ctx.Err() == nil && errors.Is(r.runErr, err) {
		// The truncation's cause is the failed read.
		r.runErr = &ioError{r.runErr}
	}
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
		if r.ctx.Err() != nil {
			return
		}
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
	lx := sse.NewLexer(nil)
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
		var sig *interruptError
		switch {
		case errors.As(err, &sig):
			return exitTruncated
		case errors.As(err, &ioErr):
			return exitIO
		case errors.As(err, &trunc):
			return exitTruncated
		case errors.As(err, &api):
			return exitAPI
		case errors.As(err, &httpErr):
			if httpErr.StatusCode < 200 || httpErr.StatusCode > 299 {
				return exitAPI
			}
			return exitProtocol
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
	case res.Message != nil && len(res.TaskID) == 0:
		return exitOK
	}
	return exitTruncated
}
