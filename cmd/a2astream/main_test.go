package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/internal/samples"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// result is what one run of the command produced.
type result struct {
	code           int
	stdout, stderr string
	sleeps         []time.Duration
	// backoffs are the waits before resubscriptions, as the notes on
	// stderr tell them.
	backoffs []time.Duration
}

// backoffNote finds the wait in a note of a resubscription.
var backoffNote = regexp.MustCompile(`resubscribing to task \S+(?: after event \S+)? in (\S+) \(attempt`)

// testEnv is an environment with no terminal, no NO_COLOR, a clock that
// records the sleeps instead of sleeping, and backoffs without jitter.
func testEnv(sleeps *[]time.Duration) env {
	return env{
		getenv: func(string) string { return "" },
		sleep:  func(d time.Duration) { *sleeps = append(*sleeps, d) },
		jitter: -1,
	}
}

// runWith runs the command with args, stdin and the environment that
// adjust changes.
func runWith(t *testing.T, args []string, stdin io.Reader, adjust func(*env)) result {
	t.Helper()
	var res result
	e := testEnv(&res.sleeps)
	if adjust != nil {
		adjust(&e)
	}
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var out, errw bytes.Buffer
	res.code = run(args, stdin, &out, &errw, e)
	res.stdout, res.stderr = out.String(), errw.String()
	for _, m := range backoffNote.FindAllStringSubmatch(res.stderr, -1) {
		d, err := time.ParseDuration(m[1])
		require.NoError(t, err, "note %q", m[0])
		res.backoffs = append(res.backoffs, d)
	}
	return res
}

func sample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := samples.Streams.ReadFile(name)
	require.NoError(t, err)
	return b
}

func sampleNames(t *testing.T) []string {
	t.Helper()
	names, err := fs.Glob(samples.Streams, "*.sse")
	require.NoError(t, err)
	require.NotEmpty(t, names, "no sample streams embedded")
	return names
}

// goldenModes are the output modes that have golden files, with their
// flags.
var goldenModes = []struct {
	name string
	args []string
}{
	{"human", nil},
	{"json", []string{"--json"}},
	{"frames", []string{"--frames"}},
	{"events", []string{"--events"}},
}

// checkGolden compares got with the golden file, or rewrites it under
// -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./cmd/a2astream -update to create it")
	assert.Equal(t, string(want), got, "output differs from %s (run with -update to accept)", path)
}

func (r result) golden() string {
	return "-- stdout --\n" + r.stdout + "-- stderr --\n" + r.stderr + "-- exit --\n" + strconv.Itoa(r.code) + "\n"
}

// TestGolden runs every sample stream, and the odd streams of this
// package's testdata (every kind of event, both bindings, a decoding error,
// a cut), through every output mode, read from stdin, and compares stdout,
// stderr and the exit code with the golden files.
func TestGolden(t *testing.T) {
	streams := map[string][]byte{}
	for _, name := range sampleNames(t) {
		streams[name] = sample(t, name)
	}
	local, err := filepath.Glob(filepath.Join("testdata", "*.sse"))
	require.NoError(t, err)
	require.NotEmpty(t, local, "no streams in testdata")
	for _, path := range local {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		streams[filepath.Base(path)] = b
	}
	for name, data := range streams {
		for _, m := range goldenModes {
			t.Run(name+"/"+m.name, func(t *testing.T) {
				args := append(append([]string(nil), m.args...), "-")
				res := runWith(t, args, bytes.NewReader(data), nil)
				checkGolden(t, strings.TrimSuffix(name, ".sse")+"."+m.name+".golden", res.golden())
			})
		}
	}
}

// TestOutcomes checks the facts each sample is recorded for, independently
// of the golden files: the exit code, the final state, the answer and the
// thinking artifacts of the --json result.
func TestOutcomes(t *testing.T) {
	tests := []struct {
		sample    string
		code      int
		state     string
		answer    string // a substring of the answer; "" for no answer
		thinking  int
		citations int
		message   string // a substring of the status message
	}{
		{"completed.sse", exitOK, "TASK_STATE_COMPLETED", "患者说明夜间咳嗽 🫁", 0, 0, ""},
		{"thinking-tool-answer.sse", exitOK, "TASK_STATE_COMPLETED", "eGFR 78 mL/min/1.73 m²", 1, 0, ""},
		{"citations.sse", exitOK, "TASK_STATE_COMPLETED", "both feet 🦶.", 0, 5, ""},
		{"input-required.sse", exitInterrupted, "TASK_STATE_INPUT_REQUIRED", "", 1, 0, "Which cardiology clinic"},
		{"failed.sse", exitFailed, "TASK_STATE_FAILED", "", 1, 0, "did not respond"},
	}
	for _, tt := range tests {
		t.Run(tt.sample, func(t *testing.T) {
			res := runWith(t, []string{"--json", "-"}, bytes.NewReader(sample(t, tt.sample)), nil)
			assert.Equal(t, tt.code, res.code, "exit code; stderr:\n%s", res.stderr)
			var doc resultDoc
			require.NoError(t, json.Unmarshal([]byte(res.stdout), &doc), "--json output is not one JSON document:\n%s", res.stdout)
			assert.Equal(t, tt.state, doc.State, "state")
			if tt.answer == "" {
				assert.Nil(t, doc.Answer, "answer")
			} else if assert.NotNil(t, doc.Answer, "answer") && assert.Contains(t, doc.Answer.Text, tt.answer, "answer") {
				assert.Len(t, doc.Answer.Citations, tt.citations, "citations")
			}
			assert.Len(t, doc.Thinking, tt.thinking, "thinking artifacts")
			if tt.message != "" && assert.NotNil(t, doc.StatusMessage, "status message") {
				assert.Contains(t, doc.StatusMessage.Text, tt.message, "status message")
			}
			assert.Nil(t, doc.Error, "error")
		})
	}
}

// TestCitationOffsets checks that the --json citations carry their place in
// all three units, with the emoji that counts 4 bytes, 1 code point and 2
// UTF-16 units.
func TestCitationOffsets(t *testing.T) {
	res := runWith(t, []string{"--json", "-"}, bytes.NewReader(sample(t, "citations.sse")), nil)
	var doc resultDoc
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &doc))
	require.NotNil(t, doc.Answer, "no answer")
	text := doc.Answer.Text
	for _, c := range doc.Answer.Citations {
		prefix := text[:c.ByteOffset]
		assert.Equal(t, utf8.RuneCountInString(prefix), c.RuneIndex, "citation %d: runeIndex, the code points before byte %d", c.Number, c.ByteOffset)
		assert.Equal(t, c.RuneIndex, c.Offset, "citation %d: offset (code points) and runeIndex", c.Number)
		u16 := 0
		for _, r := range prefix {
			u16 += len(utf16Units(r))
		}
		assert.Equal(t, u16, c.UTF16Index, "citation %d: utf16Index", c.Number)
		assert.Nil(t, c.Error, "citation %d did not resolve", c.Number)
		assert.NotEqual(t, "null", string(c.Target), "citation %d did not resolve", c.Number)
	}
	last := doc.Answer.Citations[len(doc.Answer.Citations)-1]
	assert.Equal(t, 1, last.UTF16Index-last.RuneIndex, "last citation %+v: the emoji counted as 2 UTF-16 units", last)
	assert.Equal(t, "Text", last.TargetKind, "last citation: lines 2-3 of the transcript")
	assert.Contains(t, string(last.Target), "Thirsty", "last citation: lines 2-3 of the transcript")
}

func utf16Units(r rune) []uint16 {
	if r >= 0x10000 {
		return []uint16{0, 0}
	}
	return []uint16{0}
}

// writeRecorder records every write, to check what each one held.
type writeRecorder struct{ writes [][]byte }

func (w *writeRecorder) Write(p []byte) (int, error) {
	w.writes = append(w.writes, bytes.Clone(p))
	return len(p), nil
}

// TestWholeCharacters feeds each sample one byte at a time and checks that
// every write of answer text to stdout holds whole characters, and that the
// output is the same as with the stream read at once.
func TestWholeCharacters(t *testing.T) {
	for _, name := range sampleNames(t) {
		t.Run(name, func(t *testing.T) {
			var sleeps []time.Duration
			var rec writeRecorder
			var errw bytes.Buffer
			code := run([]string{"-"}, iotest.OneByteReader(bytes.NewReader(sample(t, name))), &rec, &errw, testEnv(&sleeps))
			var all []byte
			for _, w := range rec.writes {
				assert.True(t, utf8.Valid(w), "a write to stdout splits a character: %q", w)
				all = append(all, w...)
			}
			whole := runWith(t, []string{"-"}, bytes.NewReader(sample(t, name)), nil)
			assert.Equal(t, whole.stdout, string(all), "stdout, one byte at a time and whole")
			assert.Equal(t, whole.stderr, errw.String(), "stderr, one byte at a time and whole")
			assert.Equal(t, whole.code, code, "exit code, one byte at a time and whole")
		})
	}
}

// syncBuffer is a buffer that a test reads while run writes to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor polls until cond holds, failing after a few seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		require.False(t, time.Now().After(deadline), "timed out waiting for %s", what)
		time.Sleep(2 * time.Millisecond)
	}
}

// TestLiveText checks that the answer streams to stdout while the stream
// is still open: the text of the first deltas is shown before the rest of
// the stream is even written, and the state change is on stderr by then.
func TestLiveText(t *testing.T) {
	data := sample(t, "completed.sse")
	ends := frameEnds(data)
	pr, pw := io.Pipe()
	var out, errw syncBuffer
	var sleeps []time.Duration
	done := make(chan int, 1)
	go func() { done <- run([]string{"-"}, pr, &out, &errw, testEnv(&sleeps)) }()
	// Frames 1-4: the task, then three deltas.
	_, err := pw.Write(data[:ends[3]])
	require.NoError(t, err)
	waitFor(t, "the first deltas on stdout", func() bool { return strings.HasPrefix(out.String(), "Asthme intermittent") })
	assert.Contains(t, errw.String(), "TASK_STATE_WORKING", "stderr: the WORKING state shown")
	assert.NotContains(t, errw.String(), "COMPLETED", "stderr: the run is not over yet")
	pw.Write(data[ends[3]:])
	pw.Close()
	assert.Equal(t, exitOK, <-done, "exit code")
}
