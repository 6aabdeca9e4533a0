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
		if err != nil {
			t.Fatalf("note %q: %v", m[0], err)
		}
		res.backoffs = append(res.backoffs, d)
	}
	return res
}

func sample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := samples.Streams.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sampleNames(t *testing.T) []string {
	t.Helper()
	names, err := fs.Glob(samples.Streams, "*.sse")
	if err != nil || len(names) == 0 {
		t.Fatalf("no sample streams embedded: %v", err)
	}
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
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/a2astream -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run with -update to accept):\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
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
	if err != nil || len(local) == 0 {
		t.Fatalf("no streams in testdata: %v", err)
	}
	for _, path := range local {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
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
			if res.code != tt.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", res.code, tt.code, res.stderr)
			}
			var doc resultDoc
			if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil {
				t.Fatalf("--json output is not one JSON document: %v\n%s", err, res.stdout)
			}
			if doc.State != tt.state {
				t.Errorf("state %q, want %q", doc.State, tt.state)
			}
			if tt.answer == "" {
				if doc.Answer != nil {
					t.Errorf("answer %q, want none", doc.Answer.Text)
				}
			} else if doc.Answer == nil || !strings.Contains(doc.Answer.Text, tt.answer) {
				t.Errorf("answer %+v, want one containing %q", doc.Answer, tt.answer)
			} else if len(doc.Answer.Citations) != tt.citations {
				t.Errorf("%d citations, want %d", len(doc.Answer.Citations), tt.citations)
			}
			if len(doc.Thinking) != tt.thinking {
				t.Errorf("%d thinking artifacts, want %d", len(doc.Thinking), tt.thinking)
			}
			if tt.message != "" && (doc.StatusMessage == nil || !strings.Contains(doc.StatusMessage.Text, tt.message)) {
				t.Errorf("status message %+v, want one containing %q", doc.StatusMessage, tt.message)
			}
			if doc.Error != nil {
				t.Errorf("error %+v, want none", doc.Error)
			}
		})
	}
}

// TestCitationOffsets checks that the --json citations carry their place in
// all three units, with the emoji that counts 4 bytes, 1 code point and 2
// UTF-16 units.
func TestCitationOffsets(t *testing.T) {
	res := runWith(t, []string{"--json", "-"}, bytes.NewReader(sample(t, "citations.sse")), nil)
	var doc resultDoc
	if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Answer == nil {
		t.Fatal("no answer")
	}
	text := doc.Answer.Text
	for _, c := range doc.Answer.Citations {
		prefix := text[:c.ByteOffset]
		if n := utf8.RuneCountInString(prefix); n != c.RuneIndex || c.RuneIndex != c.Offset {
			t.Errorf("citation %d: runeIndex %d, offset %d, want %d code points before byte %d", c.Number, c.RuneIndex, c.Offset, n, c.ByteOffset)
		}
		u16 := 0
		for _, r := range prefix {
			u16 += len(utf16Units(r))
		}
		if u16 != c.UTF16Index {
			t.Errorf("citation %d: utf16Index %d, want %d", c.Number, c.UTF16Index, u16)
		}
		if c.Error != nil || string(c.Target) == "null" {
			t.Errorf("citation %d did not resolve: %v %s", c.Number, c.Error, c.Target)
		}
	}
	last := doc.Answer.Citations[len(doc.Answer.Citations)-1]
	if last.UTF16Index-last.RuneIndex != 1 || last.TargetKind != "Text" || !strings.Contains(string(last.Target), "Thirsty") {
		t.Errorf("last citation %+v: want the emoji counted as 2 UTF-16 units and lines 2-3 of the transcript", last)
	}
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
				if !utf8.Valid(w) {
					t.Errorf("a write to stdout splits a character: %q", w)
				}
				all = append(all, w...)
			}
			whole := runWith(t, []string{"-"}, bytes.NewReader(sample(t, name)), nil)
			if string(all) != whole.stdout || errw.String() != whole.stderr || code != whole.code {
				t.Errorf("one byte at a time gives another output:\n%s\nwant:\n%s", all, whole.stdout)
			}
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
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
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
	if _, err := pw.Write(data[:ends[3]]); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the first deltas on stdout", func() bool { return strings.HasPrefix(out.String(), "Asthme intermittent") })
	if !strings.Contains(errw.String(), "TASK_STATE_WORKING") {
		t.Errorf("stderr %q: want the WORKING state shown", errw.String())
	}
	if strings.Contains(errw.String(), "COMPLETED") {
		t.Errorf("stderr %q: the run is not over yet", errw.String())
	}
	pw.Write(data[ends[3]:])
	pw.Close()
	if code := <-done; code != exitOK {
		t.Errorf("exit code %d, want 0", code)
	}
}
