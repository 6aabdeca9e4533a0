package main

// This file holds --get and --cancel: one call of the same httpstream.Client
// answered with a task, shown as the end of a run is shown.

import (
	"errors"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/httpstream"
)

// taskCall reports whether the flags ask for --get or --cancel.
func (c *config) taskCall() bool { return c.get != "" || c.cancel != "" }

// checkTaskCall refuses the flags that --get and --cancel leave no room
// for: they read no stream.
func (c *config) checkTaskCall() error {
	if !c.taskCall() {
		return nil
	}
	if c.mode == modeFrames || c.mode == modeEvents {
		return errors.New("--get and --cancel read no stream: use --json or the default output")
	}
	if c.lastID != "" {
		return errors.New("--last-event-id goes with a stream, not --get or --cancel")
	}
	return nil
}

// task runs --get or --cancel and returns the exit code: the task's state
// is told as a run's would be (its artifacts' text on stdout, the state,
// status message and answer at the end), except that a task still working
// exits exitWorking, and a task --cancel canceled exits exitOK.
func (r *runner) task() int {
	c := r.client()
	c.BaseURL = r.cfg.source // client() clears it for a URL that cannot be subscribed to
	var t *httpstream.Task
	var err error
	if r.cfg.cancel != "" {
		t, err = c.CancelTask(r.ctx, r.cfg.cancel)
	} else {
		t, err = c.GetTask(r.ctx, r.cfg.get, nil)
	}
	if err != nil && t == nil {
		err = startError(r.ctx, err)
		r.out.finish(nil, err)
		return exitCode(nil, err)
	}
	res := t.Result
	r.show(res)
	r.out.finish(res, err)
	switch {
	case err != nil:
		return exitCode(res, err)
	case r.cfg.cancel != "" && res.State == parser.TaskStateCanceled:
		return exitOK
	case res.State == parser.TaskStateSubmitted || res.State == parser.TaskStateWorking:
		return exitWorking
	}
	return exitCode(res, nil)
}

// show hands the output the updates a stream of the task would have
// ended with: each artifact's text, its seal, then the state.
func (r *runner) show(res *reconstruct.Result) {
	for _, a := range res.Artifacts {
		if text := a.Text(); len(text) > 0 {
			r.out.update(&reconstruct.Update{Kind: reconstruct.UpdateText, Artifact: a, Text: text})
		}
		if a.Sealed {
			r.out.update(&reconstruct.Update{Kind: reconstruct.UpdateSealed, Artifact: a})
		}
	}
	r.out.update(&reconstruct.Update{Kind: reconstruct.UpdateState, State: res.State, Message: res.StatusMessage})
}
