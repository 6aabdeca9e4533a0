package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBadFlags checks that bad flags and arguments are usage errors (exit
// 2) that say what is wrong and read nothing.
func TestBadFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"--colour", "x.sse"}, "flag provided but not defined: -colour"},
		{"two sources", []string{"a.sse", "b.sse"}, "more than one source: a.sse, b.sse"},
		{"two sources around flags", []string{"a.sse", "--json", "-"}, "more than one source"},
		{"two modes", []string{"--json", "--frames", "x.sse"}, "exclude each other"},
		{"three modes", []string{"--events", "--json", "--frames"}, "exclude each other"},
		{"demo with a source", []string{"--demo", "x.sse"}, "--demo plays the bundled sample"},
		{"bad speed", []string{"--speed", "fast", "x.sse"}, "--speed wants a number"},
		{"negative speed", []string{"--speed=-1", "x.sse"}, "--speed wants a number"},
		{"header without colon", []string{"-H", "Authorization", "http://127.0.0.1:1/a2a"}, "header must be 'Name: value'"},
		{"header on a file", []string{"-H", "A: b", "x.sse"}, "need an http(s) URL source"},
		{"message on stdin", []string{"-m", "hi", "-"}, "need an http(s) URL source"},
		{"message and data", []string{"-m", "hi", "-d", "{}", "http://127.0.0.1:1/a2a"}, "exclude each other"},
		{"message and subscribe", []string{"-m", "hi", "--subscribe", "t", "http://127.0.0.1:1/a2a"}, "exclude each other"},
		{"jsonrpc alone", []string{"--jsonrpc", "http://127.0.0.1:1/a2a"}, "--jsonrpc needs"},
		{"task without message", []string{"--task", "t", "--subscribe", "t", "http://127.0.0.1:1/a2a"}, "--task and --context go with --message"},
		{"bad unit", []string{"--unit", "chars", "x.sse"}, "--unit must be"},
		{"negative retries", []string{"--retries", "-1", "x.sse"}, "--retries must be"},
		{"missing value", []string{"x.sse", "-H"}, "flag needs an argument: -H"},
		{"bad duration", []string{"--retry-delay", "soon", "x.sse"}, "invalid value"},
		{"negative idle timeout", []string{"--idle-timeout", "-1s", "http://127.0.0.1:1/a2a"}, "--idle-timeout must be ≥ 0"},
		{"negative timeout", []string{"--timeout=-5m", "x.sse"}, "--timeout must be ≥ 0"},
		{"bad timeout", []string{"--timeout", "an hour", "x.sse"}, "invalid value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runWith(t, tt.args, strings.NewReader("never read"), nil)
			assert.Equal(t, exitUsage, res.code, "exit code")
			assert.Contains(t, res.stderr, tt.want, "stderr")
			assert.Contains(t, res.stderr, "a2astream --help", "stderr: the pointer to --help")
			assert.Empty(t, res.stdout, "stdout")
		})
	}
}

// TestFlagPlacement checks that flags are read before and after the
// source, with one or two dashes, and that "--" ends them.
func TestFlagPlacement(t *testing.T) {
	tests := []struct {
		args []string
		want config
	}{
		{[]string{"x.sse", "--json"}, config{source: "x.sse", mode: modeJSON}},
		{[]string{"-json", "x.sse"}, config{source: "x.sse", mode: modeJSON}},
		{[]string{"--frames", "-", "--strict"}, config{source: "-", mode: modeFrames, strict: true}},
		{[]string{"-", "-events", "--unit=utf16"}, config{source: "-", mode: modeEvents, unit: "utf16"}},
		{[]string{"--", "--json"}, config{source: "--json"}},
		{[]string{"--json", "--", "-"}, config{source: "-", mode: modeJSON}},
		{[]string{"https://h/a2a", "-H", "A: 1", "-m", "hi", "--header", "B: 2"}, config{source: "https://h/a2a", headers: []string{"A: 1", "B: 2"}, message: "hi", hasMessage: true}},
		{[]string{"--speed", "2.5", "x.sse"}, config{source: "x.sse", speed: 2.5, speedSet: true}},
		{[]string{"--demo"}, config{demo: true}},
		{[]string{"https://h/a2a", "--subscribe", "t", "--idle-timeout", "5s", "--timeout=0"}, config{source: "https://h/a2a", subscribe: "t", idleTimeout: 5 * time.Second, timeout: -1}},
		{nil, config{}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			c, err := parseArgs(tt.args)
			require.NoError(t, err)
			w := tt.want
			if w.unit == "" {
				w.unit = "codepoints"
			}
			w.retries, w.retryDelay = 5, 500*time.Millisecond
			// The defaults of --idle-timeout and --timeout; -1 stands
			// for an explicit 0 (off).
			switch w.idleTimeout {
			case 0:
				w.idleTimeout = time.Minute
			case -1:
				w.idleTimeout = 0
			}
			switch w.timeout {
			case 0:
				w.timeout = time.Hour
			case -1:
				w.timeout = 0
			}
			// The fields the flags set; headers joined, so that none
			// and an empty list are alike.
			type view struct {
				source, unit, subscribe, message, headers string
				mode                                      mode
				strict, demo, speedSet, hasMessage        bool
				idleTimeout, timeout, retryDelay          time.Duration
				speed                                     float64
				retries                                   int
			}
			pick := func(c *config) view {
				return view{c.source, c.unit, c.subscribe, c.message, strings.Join(c.headers, "|"), c.mode,
					c.strict, c.demo, c.speedSet, c.hasMessage, c.idleTimeout, c.timeout, c.retryDelay, c.speed, c.retries}
			}
			assert.Equal(t, pick(&w), pick(c), "config")
		})
	}
}

// TestHelp checks that --help and -h print the usage with the exit codes
// and succeed.
func TestHelp(t *testing.T) {
	for _, arg := range []string{"--help", "-h", "-help"} {
		res := runWith(t, []string{"x.sse", arg}, nil, nil)
		assert.Equal(t, exitOK, res.code, "%s: exit code", arg)
		assert.Contains(t, res.stdout, "Exit status:", "%s: stdout", arg)
		assert.Contains(t, res.stdout, "6  protocol error", "%s: stdout", arg)
	}
}

// TestSources checks a FILE argument, stdin with and without "-", and a
// file that does not exist.
func TestSources(t *testing.T) {
	data := sample(t, "completed.sse")
	path := filepath.Join(t.TempDir(), "run.sse")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	want := runWith(t, []string{"--json", "-"}, bytes.NewReader(data), nil)
	got := runWith(t, []string{path, "--json"}, nil, nil)
	assert.Equal(t, exitOK, got.code, "FILE: exit code")
	assert.Equal(t, want.stdout, got.stdout, "FILE: the document of stdin")
	// No argument and stdin not a terminal: stdin is read.
	got = runWith(t, []string{"--json"}, bytes.NewReader(data), nil)
	assert.Equal(t, exitOK, got.code, "stdin without '-': exit code")
	assert.Equal(t, want.stdout, got.stdout, "stdin without '-': the document of stdin")
	got = runWith(t, []string{filepath.Join(t.TempDir(), "missing.sse")}, nil, nil)
	assert.Equal(t, exitIO, got.code, "missing file: exit code")
	assert.Contains(t, got.stderr, "no such file", "missing file: stderr")
}

// TestExitCodes checks the exit code of streams that end in each way
// beyond the samples' (see TestOutcomes): a cut file, bytes that are no A2A
// stream, a rule broken under --strict, a direct message reply, CANCELED
// and AUTH_REQUIRED.
func TestExitCodes(t *testing.T) {
	data := sample(t, "completed.sse")
	fs := frames(data)
	task := `data: {"task":{"id":"task.1","contextId":"ctx.1","status":{"state":"TASK_STATE_WORKING"}}}` + "\n\n"
	status := func(s string) string {
		return `data: {"statusUpdate":{"taskId":"task.1","contextId":"ctx.1","status":{"state":"` + s + `"}}}` + "\n\n"
	}
	tests := []struct {
		name    string
		args    []string
		stream  string
		code    int
		errType string
	}{
		{"cut between events", nil, string(join(fs[:6])), exitTruncated, "truncated"},
		{"cut inside an event", nil, string(join(fs[:6])) + string(fs[6][:30]), exitTruncated, "truncated"},
		{"not JSON", nil, task + "data: {oops\n\n", exitProtocol, "syntax"},
		{"A2A 0.3 shape", nil, `data: {"kind":"task","id":"t","status":{"state":"working"}}` + "\n\n", exitProtocol, "syntax"},
		{"strict rule", []string{"--strict"}, task + status("TASK_STATE_SUBMITTED"), exitProtocol, "rule"},
		{"lenient rule", nil, task + status("TASK_STATE_SUBMITTED") + status("TASK_STATE_WORKING") + status("TASK_STATE_CANCELED"), exitFailed, ""},
		{"direct reply", nil, `data: {"message":{"messageId":"m1","role":"ROLE_AGENT","parts":[{"text":"Hi"}]}}` + "\n\n", exitOK, ""},
		{"canceled", nil, task + status("TASK_STATE_CANCELED"), exitFailed, ""},
		{"rejected", nil, task + status("TASK_STATE_REJECTED"), exitFailed, ""},
		{"auth required", nil, task + status("TASK_STATE_AUTH_REQUIRED"), exitInterrupted, ""},
		{"empty", nil, "", exitProtocol, "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runWith(t, append([]string{"--json", "-"}, tt.args...), strings.NewReader(tt.stream), nil)
			assert.Equal(t, tt.code, got.code, "exit code\n%s", got.stdout)
			var doc resultDoc
			require.NoError(t, json.Unmarshal([]byte(got.stdout), &doc), got.stdout)
			if tt.errType == "" {
				assert.Nil(t, doc.Error, "error")
			} else if assert.NotNil(t, doc.Error, "error") {
				assert.Equal(t, tt.errType, doc.Error.Type, "error type")
			}
		})
	}
}

// TestDemo checks that no argument with a terminal on stdin plays the
// bundled samples, paced one frame at a time, and that --speed 0 removes
// the delays.
func TestDemo(t *testing.T) {
	tty := func(e *env) { e.stdinTTY = true }
	frameCount := len(frameEnds(sample(t, "thinking-tool-answer.sse"))) + len(frameEnds(sample(t, "citations.sse")))
	res := runWith(t, nil, strings.NewReader("must not be read"), tty)
	assert.Equal(t, exitOK, res.code, "exit code; stderr:\n%s", res.stderr)
	for _, want := range []string{"Let me check the latest lab results", "eGFR 78", "[^5]: dp.019e4040-0d00-7c23-94ea-f5a6b7c8d9e0 L2-L3"} {
		assert.Contains(t, res.stdout, want, "demo stdout")
	}
	for _, want := range []string{"playing the bundled sample thinking-tool-answer.sse", "[thinking] ^ the narration above", "playing the bundled sample citations.sse", "TASK_STATE_COMPLETED", "53.08 credits"} {
		assert.Contains(t, res.stderr, want, "demo stderr")
	}
	// One sleep of framePace per frame.
	require.Len(t, res.sleeps, frameCount, "sleeps")
	assert.Equal(t, framePace, res.sleeps[0], "the first sleep")
	fast := runWith(t, []string{"--demo", "--speed", "4"}, nil, nil)
	require.Len(t, fast.sleeps, frameCount, "--speed 4: sleeps")
	assert.Equal(t, framePace/4, fast.sleeps[0], "--speed 4: the first sleep")
	assert.Equal(t, res.stdout, fast.stdout, "--speed 4: the same output")
	still := runWith(t, []string{"--demo", "--speed", "0"}, nil, nil)
	assert.Empty(t, still.sleeps, "--speed 0: sleeps")
	assert.Equal(t, res.stdout, still.stdout, "--speed 0: the same output")
	// --speed also paces a recorded file.
	paced := runWith(t, []string{"--speed", "1", "-"}, bytes.NewReader(sample(t, "failed.sse")), nil)
	assert.Len(t, paced.sleeps, len(frameEnds(sample(t, "failed.sse"))), "paced file: sleeps")
}

// TestColor checks that colour is used only on a terminal and never with
// NO_COLOR, and that thinking is set apart on stderr either way.
func TestColor(t *testing.T) {
	data := sample(t, "failed.sse")
	tty := func(e *env) { e.stdoutTTY, e.stderrTTY = true, true }
	noColor := func(e *env) {
		tty(e)
		e.getenv = func(k string) string {
			if k == "NO_COLOR" {
				return "1"
			}
			return ""
		}
	}
	plain := runWith(t, []string{"-"}, bytes.NewReader(data), nil)
	colored := runWith(t, []string{"-"}, bytes.NewReader(data), tty)
	off := runWith(t, []string{"-"}, bytes.NewReader(data), noColor)
	assert.NotContains(t, plain.stdout+plain.stderr, "\x1b[", "escape codes without a terminal")
	assert.NotContains(t, off.stdout+off.stderr, "\x1b[", "escape codes with NO_COLOR")
	assert.Contains(t, colored.stderr, ansiRed, "colour on a terminal")
	assert.Contains(t, colored.stderr, ansiDim+"╰─ thinking", "colour on a terminal")
	assert.Contains(t, plain.stderr, thinkingPrefix, "plain output marks thinking")
	// An artifact that arrives already tagged as thinking is set apart
	// line by line as it is shown.
	whole := `data: {"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}` + "\n\n" +
		`data: {"artifactUpdate":{"taskId":"t1","lastChunk":true,"artifact":{"artifactId":"a1","parts":[{"text":"one\ntwo"}],"metadata":{"type":"intermediate-thinking"}}}}` + "\n\n" +
		`data: {"statusUpdate":{"taskId":"t1","status":{"state":"TASK_STATE_FAILED"}}}` + "\n\n"
	got := runWith(t, []string{"-"}, strings.NewReader(whole), nil)
	assert.Empty(t, got.stdout, "stdout")
	assert.Contains(t, got.stderr, "\n[thinking] one\n[thinking] two\n● TASK_STATE_FAILED", "each line prefixed on stderr")
	got = runWith(t, []string{"-"}, strings.NewReader(whole), tty)
	assert.Empty(t, got.stdout, "stdout on a terminal")
	assert.Contains(t, got.stderr, "\n"+ansiDim+"one"+ansiReset+"\n"+ansiDim+"two"+ansiReset+"\n", "each line dimmed on stderr")
}

// TestInputAfterError feeds more than sse.DefaultMaxEventSize bytes of
// events after a frame that does not decode: the run stays failed at that
// frame, nothing is refused, and --frames still shows every frame.
func TestInputAfterError(t *testing.T) {
	var b strings.Builder
	b.WriteString(`data: {"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}` + "\n\n")
	b.WriteString("data: {oops\n\n")
	delta := `data: {"artifactUpdate":{"taskId":"t1","append":true,"artifact":{"artifactId":"a1","parts":[{"text":"` + strings.Repeat("z", 4000) + `"}]}}}` + "\n\n"
	n := 0
	for b.Len() <= 17<<20 {
		b.WriteString(delta)
		n++
	}
	got := runWith(t, []string{"--json", "-"}, strings.NewReader(b.String()), nil)
	assert.Equal(t, exitProtocol, got.code, "exit code")
	assert.NotContains(t, got.stderr, "refused", "stderr")
	var doc resultDoc
	require.NoError(t, json.Unmarshal([]byte(got.stdout), &doc))
	if assert.NotNil(t, doc.Error, "the failure at frame 2") {
		assert.Equal(t, int64(2), doc.Error.Seq, "the failure at frame 2")
	}
	assert.Empty(t, doc.Artifacts, "nothing after the failure")
	fr := runWith(t, []string{"--frames", "-"}, strings.NewReader(b.String()), nil)
	assert.Equal(t, n+2, strings.Count(fr.stdout, "\n"), "--frames: lines")
	assert.NotContains(t, fr.stderr, "refused", "--frames: stderr")
}
