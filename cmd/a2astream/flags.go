package main

import (
	"errors"
	"flag"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/a2astream/a2astream/reconstruct/httpstream"
)

// The exit codes. They are listed in the usage text; keep both in step.
const (
	exitOK          = 0 // the run completed (or the agent replied directly)
	exitFailed      = 1 // the run ended FAILED, CANCELED or REJECTED
	exitUsage       = 2 // bad flags or arguments
	exitInterrupted = 3 // the run paused in INPUT_REQUIRED or AUTH_REQUIRED
	exitTruncated   = 4 // the stream ended before the run did (after any resume), a timeout or a signal cut it
	exitAPI         = 5 // the server answered with an error
	exitProtocol    = 6 // the bytes are not a valid A2A stream, or there are none
	exitIO          = 7 // the input could not be read or the server reached
	exitWorking     = 8 // --get, --cancel: the task is still working
)

const shortUsage = "Run 'a2astream --help' for usage.\n"

const usage = `a2astream shows the Server-Sent-Events stream of an A2A 1.0 agent.

Usage:
  a2astream [flags] [FILE | URL | -]

The source is a recorded stream (FILE), standard input (-, or no argument
when stdin is not a terminal), or an agent's A2A base URL (http:// or
https://). Flags may come before or after the source, as with curl; both
-flag and --flag work. With no argument and a terminal on stdin, or with
--demo, a bundled sample stream is played.

Output (one of; the default is for people):
      --json          print the final result as one JSON document
      --frames        print each SSE frame as one JSON line
      --events        print each decoded A2A event as one JSON line
By default the text of the artifacts streams to stdout as it arrives, and
the end adds the answer with its citations as footnotes: stdout holds only
what you would paste. Everything else goes to stderr: state changes and
status messages, the line that marks narration as thinking, notes, the
final state and the usage. Colour is used on a terminal unless NO_COLOR is
set. On a terminal, every control character the agent sent, except
newline and tab, is shown visibly (ESC as ␛, BEL as ␇, CSI as \u009b,
invalid UTF-8 as U+FFFD), and so is every bidirectional formatting
character, which could make the text read in another order than it was
sent (RLO as \u202e, RLM as \u200f: U+061C, U+200E, U+200F, U+202A to
U+202E, U+2066 to U+2069); --json, --frames and --events write them as
JSON escapes (\u001b, \u009b, \u202e). A file or pipe gets the agent's
bytes exactly. Each of stdout and stderr follows this rule on its own.
      --raw           pass the control characters the agent sent to a
                      terminal as they are (escape sequences included)
      --visible       show them visibly in a file or pipe too

Playback:
      --demo          play the bundled samples: narration closed as thinking,
                      a tool call and the answer; then an answer with citations
      --speed X       pace of playback: X times the default pace of about
                      16 frames a second; 0 means no delay (default 1 for
                      --demo, 0 otherwise)

URL mode (the URL is the agent's A2A base, such as https://host/…/a2a):
  -H, --header 'Name: value'
                      add a request header (repeatable; 'Name:' removes it)
  -m, --message TEXT  POST a user message with this text to message:stream
  -d, --data BODY     POST BODY as is (@FILE reads it from FILE, @- from stdin)
      --task ID       with --message: continue this task (after INPUT_REQUIRED)
      --context ID    with --message: use this context id
      --subscribe ID  POST tasks/{ID}:subscribe to follow a running task
      --last-event-id ID
                      send this Last-Event-ID header
      --get ID        read the task ID (GET tasks/{ID}) and show it as the end
                      of a run is shown
      --cancel ID     cancel the task ID (POST tasks/{ID}:cancel) and show it
      --jsonrpc       use the JSON-RPC binding (POST to the base URL itself,
                      methods SendStreamingMessage, SubscribeToTask, GetTask
                      and CancelTask)
      --no-resume     do not resubscribe when the connection drops
      --retries N     resubscriptions allowed after drops (default 5)
      --retry-delay D first backoff before resubscribing, doubled each time
                      up to 30s, with up to half of it random (default 500ms)
      --idle-timeout D
                      give up a connection that sends nothing for D, and
                      resubscribe (default 1m0s; 0 turns it off)
      --timeout D     the longest the whole run may take, resubscriptions
                      included; also bounds reading a FILE or stdin (default
                      1h0m0s; 0 turns it off)
REST requests go to {URL}/message:stream and {URL}/tasks/{id}:subscribe.
Without -m, -d or --subscribe the URL is fetched with GET as a stream.
On SIGINT or SIGTERM, or past --timeout, the run stops: what was received
is shown, with the task id and last event id to resume with (exit 4).

Reading:
      --strict        treat every protocol rule broken as an error
      --unit U        unit of citation offsets: codepoints (default), bytes
                      or utf16

Exit status:
  0  the run completed (or the agent replied with a message); --cancel: the
     task is canceled
  1  the run ended FAILED, CANCELED or REJECTED
  2  usage error
  3  the run needs input or authorization (INPUT_REQUIRED, AUTH_REQUIRED)
  4  the stream ended before the run did (truncated, resume failed or off,
     --timeout, SIGINT or SIGTERM)
  5  the server answered with an error (HTTP or JSON-RPC, before or in the
     stream; --cancel of a task that had ended: 409)
  6  protocol error: the bytes are not a valid A2A 1.0 stream (or not an
     event stream at all, or no bytes: an empty FILE or stdin), a rule
     broken under --strict, or a limit passed
     (an event over 16 MiB, an artifact over 64 MiB, a run's artifacts
     over 256 MiB together)
  7  the input could not be read (a directory, a read error) or the server
     could not be reached
  8  --get or --cancel: the task is still working (SUBMITTED, WORKING)
`

// errHelp asks for the usage text.
var errHelp = errors.New("help requested")

// mode is the output mode.
type mode int

const (
	modeHuman mode = iota
	modeJSON
	modeFrames
	modeEvents
)

// config is what the flags and arguments asked for.
type config struct {
	source     string // FILE, "-" or a URL; "" for the demo
	demo       bool
	mode       mode
	speed      float64 // playback pace; 0 = no delay
	speedSet   bool    // --speed was given
	headers    []string
	message    string
	hasMessage bool
	data       string
	hasData    bool
	taskID     string
	contextID  string
	subscribe  string
	get        string // --get: the task to read
	cancel     string // --cancel: the task to cancel
	lastID     string
	jsonrpc    bool
	noResume   bool
	retries    int
	retryDelay time.Duration
	// idleTimeout and timeout are --idle-timeout and --timeout; 0 is off.
	idleTimeout time.Duration
	timeout     time.Duration
	strict      bool
	unit        string
	// controls is --raw or --visible: how the control characters the
	// agent sent are shown.
	controls controls
}

// isURL reports whether the source is an HTTP(S) URL.
func (c *config) isURL() bool {
	return strings.HasPrefix(c.source, "http://") || strings.HasPrefix(c.source, "https://")
}

// headerList collects repeated -H flags.
type headerList struct{ h *[]string }

func (l headerList) String() string { return "" }

func (l headerList) Set(v string) error {
	if i := strings.IndexByte(v, ':'); i <= 0 || strings.TrimSpace(v[:i]) == "" {
		return errors.New("header must be 'Name: value'")
	}
	*l.h = append(*l.h, v)
	return nil
}

// parseArgs parses the command line. Flags may come before and after the
// source; "--" ends the flags.
func parseArgs(args []string) (*config, error) {
	c := &config{retries: httpstream.DefaultRetries, retryDelay: httpstream.DefaultRetryDelay,
		idleTimeout: httpstream.DefaultIdleTimeout, timeout: httpstream.DefaultTimeout}
	var f outputFlags
	sources, err := parseFlags(c.flagSet(&f), args)
	if err != nil {
		return nil, err
	}
	if f.help {
		return nil, errHelp
	}
	if len(sources) > 1 {
		return nil, errors.New("more than one source: " + strings.Join(sources, ", "))
	}
	if len(sources) == 1 {
		c.source = sources[0]
	}
	for _, check := range []func() error{
		func() error { return c.setOutput(&f) },
		c.checkNumbers,
		c.checkRequests,
		c.checkTaskCall,
	} {
		if err := check(); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// outputFlags are the flags that parseArgs settles after parsing, into
// the config's mode, controls and speed (setOutput), and -h.
type outputFlags struct {
	jsonOut, frames, events, help, raw, visible bool
	speed                                       string
}

// flagSet returns the command's flags, which set c's fields and f's.
func (c *config) flagSet(f *outputFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("a2astream", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.speed, "speed", "", "")
	fs.BoolVar(&f.jsonOut, "json", false, "")
	fs.BoolVar(&f.frames, "frames", false, "")
	fs.BoolVar(&f.events, "events", false, "")
	fs.BoolVar(&c.demo, "demo", false, "")
	fs.BoolVar(&f.raw, "raw", false, "")
	fs.BoolVar(&f.visible, "visible", false, "")
	fs.BoolVar(&f.help, "help", false, "")
	fs.BoolVar(&f.help, "h", false, "")
	fs.Var(headerList{&c.headers}, "H", "")
	fs.Var(headerList{&c.headers}, "header", "")
	fs.Func("m", "", func(v string) error { c.message, c.hasMessage = v, true; return nil })
	fs.Func("message", "", func(v string) error { c.message, c.hasMessage = v, true; return nil })
	fs.Func("d", "", func(v string) error { c.data, c.hasData = v, true; return nil })
	fs.Func("data", "", func(v string) error { c.data, c.hasData = v, true; return nil })
	fs.StringVar(&c.taskID, "task", "", "")
	fs.StringVar(&c.contextID, "context", "", "")
	fs.StringVar(&c.subscribe, "subscribe", "", "")
	fs.StringVar(&c.get, "get", "", "")
	fs.StringVar(&c.cancel, "cancel", "", "")
	fs.StringVar(&c.lastID, "last-event-id", "", "")
	fs.BoolVar(&c.jsonrpc, "jsonrpc", false, "")
	fs.BoolVar(&c.noResume, "no-resume", false, "")
	fs.IntVar(&c.retries, "retries", c.retries, "")
	fs.DurationVar(&c.retryDelay, "retry-delay", c.retryDelay, "")
	fs.DurationVar(&c.idleTimeout, "idle-timeout", c.idleTimeout, "")
	fs.DurationVar(&c.timeout, "timeout", c.timeout, "")
	fs.BoolVar(&c.strict, "strict", false, "")
	fs.StringVar(&c.unit, "unit", "codepoints", "")
	return fs
}

// parseFlags parses args with fs, flags and sources in any order (flags
// may follow the source; after "--" every argument is a source), and
// returns the sources.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var sources []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return nil, errHelp
			}
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return sources, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(sources, rest...), nil
		}
		sources = append(sources, rest[0])
		args = rest[1:]
	}
}

// setOutput settles the output mode, the treatment of control characters
// and the replay speed from f.
func (c *config) setOutput(f *outputFlags) error {
	n := 0
	for _, on := range []bool{f.jsonOut, f.frames, f.events} {
		if on {
			n++
		}
	}
	switch {
	case n > 1:
		return errors.New("--json, --frames and --events exclude each other")
	case f.jsonOut:
		c.mode = modeJSON
	case f.frames:
		c.mode = modeFrames
	case f.events:
		c.mode = modeEvents
	}
	switch {
	case f.raw && f.visible:
		return errors.New("--raw and --visible exclude each other")
	case f.raw:
		c.controls = controlsRaw
	case f.visible:
		c.controls = controlsVisible
	}
	if c.demo && c.source != "" {
		return errors.New("--demo plays the bundled sample and takes no source")
	}
	if f.speed != "" {
		v, err := strconv.ParseFloat(f.speed, 64)
		if err != nil || v < 0 || v != v {
			return errors.New("--speed wants a number ≥ 0, such as 2 or 0.5")
		}
		c.speed, c.speedSet = v, true
	}
	return nil
}

// checkNumbers checks the unit and the client's limits.
func (c *config) checkNumbers() error {
	switch c.unit {
	case "codepoints", "bytes", "utf16":
	default:
		return errors.New("--unit must be codepoints, bytes or utf16")
	}
	switch {
	case c.retries < 0:
		return errors.New("--retries must be ≥ 0")
	case c.retryDelay < 0:
		return errors.New("--retry-delay must be ≥ 0")
	case c.idleTimeout < 0:
		return errors.New("--idle-timeout must be ≥ 0")
	case c.timeout < 0:
		return errors.New("--timeout must be ≥ 0")
	}
	return nil
}

// checkRequests checks that at most one request is asked for, and that
// the flags of a request go with a URL source and the request they need.
func (c *config) checkRequests() error {
	requests := 0
	for _, on := range []bool{c.hasMessage, c.hasData, c.subscribe != "", c.get != "", c.cancel != ""} {
		if on {
			requests++
		}
	}
	if requests > 1 {
		return errors.New("--message, --data, --subscribe, --get and --cancel exclude each other")
	}
	urlOnly := requests > 0 || len(c.headers) > 0 || c.jsonrpc || c.lastID != "" || c.taskID != "" || c.contextID != ""
	if urlOnly && !c.isURL() {
		return errors.New("-H, -m, -d, --subscribe, --get, --cancel, --jsonrpc, --task, --context and --last-event-id need an http(s) URL source")
	}
	if (c.taskID != "" || c.contextID != "") && !c.hasMessage {
		return errors.New("--task and --context go with --message")
	}
	if c.jsonrpc && requests == 0 {
		return errors.New("--jsonrpc needs --message, --data, --subscribe, --get or --cancel")
	}
	return nil
}
