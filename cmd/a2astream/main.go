// Command a2astream shows the Server-Sent-Events stream of an A2A 1.0 agent
// as a person wants to see it, or as JSON for a machine.
//
// Usage:
//
//	a2astream [flags] [FILE | URL | -]
//
// Run "a2astream --help" for the flags, the output modes and the exit
// codes. With no argument and a terminal on stdin, it plays a bundled
// sample stream.
package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/a2astream/a2astream/reconstruct/httpstream"
)

// env is what run takes from the process: the terminal facts, the
// environment, the clock and the network. Tests build their own.
type env struct {
	// getenv reads an environment variable.
	getenv func(string) string
	// stdinTTY, stdoutTTY and stderrTTY report which streams are
	// terminals.
	stdinTTY, stdoutTTY, stderrTTY bool
	// sleep waits; the playback's pacing uses it.
	sleep func(time.Duration)
	// client makes the HTTP requests of URL mode.
	client *http.Client
	// jitter is the httpstream.Client's Jitter: 0 for its default, and
	// negative for none (tests, for exact backoffs).
	jitter float64
	// signals delivers the signal that stops the run (SIGINT, SIGTERM);
	// nil for none.
	signals <-chan os.Signal
	// sameOutput reports that stdout and stderr are the same file or
	// pipe, so that a line on stderr must not run into the text on stdout.
	sameOutput bool
}

func main() {
	e := fileEnv(os.Stdin, os.Stdout, os.Stderr)
	e.signals = notifySignals()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, e))
}

// fileEnv is the environment of a process whose standard streams are
// stdin, stdout and stderr, with no signals.
func fileEnv(stdin, stdout, stderr *os.File) env {
	return env{
		getenv:     os.Getenv,
		stdinTTY:   isTerminal(stdin),
		stdoutTTY:  isTerminal(stdout),
		stderrTTY:  isTerminal(stderr),
		sleep:      time.Sleep,
		client:     &http.Client{},
		sameOutput: sameFile(stdout, stderr),
	}
}

// notifySignals returns a channel that delivers the first SIGINT or
// SIGTERM; the next one kills the process as usual.
func notifySignals() <-chan os.Signal {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	first := make(chan os.Signal, 1)
	go func() {
		s := <-sigs
		signal.Stop(sigs)
		first <- s
	}()
	return first
}

// sameFile reports whether a and b are the same file, pipe or terminal.
func sameFile(a, b *os.File) bool {
	ai, err := a.Stat()
	if err != nil {
		return false
	}
	bi, err := b.Stat()
	return err == nil && os.SameFile(ai, bi)
}

// run is the whole command: it parses args, reads the stream and writes
// the chosen output, and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, e env) int {
	cfg, err := parseArgs(args)
	if err == errHelp {
		io.WriteString(stdout, usage)
		return exitOK
	}
	if err != nil {
		io.WriteString(stderr, "a2astream: "+err.Error()+"\n"+shortUsage)
		return exitUsage
	}
	if e.sleep == nil {
		e.sleep = time.Sleep
	}
	if e.client == nil {
		e.client = &http.Client{}
	}
	if e.getenv == nil {
		e.getenv = func(string) string { return "" }
	}
	tuneGC(e.getenv)
	if cfg.source == "" && !cfg.demo {
		if !e.stdinTTY {
			cfg.source = "-"
		} else {
			cfg.demo = true
		}
	}
	if !cfg.speedSet && cfg.demo {
		cfg.speed = 1
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	if cfg.timeout > 0 && !cfg.isURL() {
		// URL mode hands --timeout to the client.
		var stop context.CancelFunc
		ctx, stop = context.WithTimeoutCause(ctx, cfg.timeout, httpstream.ErrTimeout)
		defer stop()
	}
	if e.signals != nil {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case sig := <-e.signals:
				cancel(&interruptError{sig})
			case <-done:
			}
		}()
	}
	r := newRunner(ctx, cfg, stdin, stdout, stderr, e)
	return r.main()
}
