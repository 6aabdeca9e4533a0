package main

import (
	"context"
	"io"

	"github.com/a2astream/a2astream/internal/samples"
)

// demoSamples are the bundled streams the demo plays, in order: narration
// closed as thinking, a tool call and the answer; then an answer with
// citations, non-ASCII text and a delta split inside a character.
var demoSamples = []string{"thinking-tool-answer.sse", "citations.sse"}

// demo plays the bundled samples at the --speed pace, each as its own run,
// and keeps the outcome of the first one that did not complete.
func (r *runner) demo() (int, error) {
	code := exitOK
	for i, name := range demoSamples {
		data, err := samples.Streams.ReadFile(name)
		if err != nil {
			return 0, &ioError{err}
		}
		if i > 0 {
			r.reset()
		}
		if r.cfg.mode == modeHuman {
			io.WriteString(r.stderr, style(r.errColor(), ansiBold, "▶ a2astream demo: playing the bundled sample "+name)+"\n")
		}
		r.play(data)
		if r.ctx.Err() != nil {
			// A signal: the run is cut, and the demo ends.
			r.end(context.Cause(r.ctx))
			r.out.finish(r.res, r.runErr)
			return exitCode(r.res, r.runErr), nil
		}
		r.end(nil)
		r.out.finish(r.res, r.runErr)
		if c := exitCode(r.res, r.runErr); code == exitOK {
			code = c
		}
		if r.cfg.mode == modeHuman {
			io.WriteString(r.stderr, "\n")
		}
	}
	if r.cfg.mode == modeHuman {
		io.WriteString(r.stderr, "Read a stream with: a2astream FILE, curl -N … | a2astream -, or a2astream -m TEXT URL. See a2astream --help.\n")
	}
	return code, nil
}
