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
	"io"
	"net/http"
	"os"
	"time"
)

// env is what run takes from the process: the terminal facts, the
// environment, the clock and the network. Tests build their own.
type env struct {
	// getenv reads an environment variable.
	getenv func(string) string
	// stdinTTY, stdoutTTY and stderrTTY report which streams are
	// terminals.
	stdinTTY, stdoutTTY, stderrTTY bool
	// sleep waits; the demo's pacing and the resume backoff use it.
	sleep func(time.Duration)
	// client makes the HTTP requests of URL mode.
	client *http.Client
}

func main() {
	e := env{
		getenv:    os.Getenv,
		stdinTTY:  isTerminal(os.Stdin),
		stdoutTTY: isTerminal(os.Stdout),
		stderrTTY: isTerminal(os.Stderr),
		sleep:     time.Sleep,
		client:    &http.Client{},
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, e))
}

// isTerminal reports whether f is a character device, as a terminal is.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
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
	r := newRunner(cfg, stdin, stdout, stderr, e)
	return r.main()
}
