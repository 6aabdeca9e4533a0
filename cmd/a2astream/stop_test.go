package main

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestMain runs the command itself when A2ASTREAM_TEST_MAIN is set, so
// that a test can start it as a process and send it a real signal.
func TestMain(m *testing.M) {
	if os.Getenv("A2ASTREAM_TEST_MAIN") == "1" {
		os.Args = append([]string{"a2astream"}, strings.Split(os.Getenv("A2ASTREAM_TEST_ARGS"), "\x1f")...)
		main()
		return
	}
	os.Exit(m.Run())
}

// stallingAgent is a server on 127.0.0.1 that answers every request with
// an event stream: the first one with head, the others with nothing; then
// it sends nothing more until the client goes away.
func stallingAgent(t *testing.T, head []byte) *httptest.Server {
	srv, _ := stallingAgentN(t, head, false)
	return srv
}

// stallingAgentN is stallingAgent that counts the requests and, with
// endFirst, ends the first response after head instead of stalling.
func stallingAgentN(t *testing.T, head []byte, endFirst bool) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	release := make(chan struct{})
	n := new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		first := n.Add(1) == 1
		if first {
			w.Write(head)
		}
		w.(http.Flusher).Flush()
		if first && endFirst {
			return
		}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("server on %s", srv.URL)
	}
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	return srv, n
}

// jsonDoc parses the --json document.
func jsonDoc(t *testing.T, out string) resultDoc {
	t.Helper()
	var doc resultDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("--json output is not one JSON document: %v\n%s", err, out)
	}
	return doc
}

// TestStalledServer is issue 16's hang: a server that sends the headers of
// an event stream, maybe a few events, then nothing. The idle timeout ends
// each connection; the run is reported as truncated (exit 4) with the idle
// timeout as its cause, instead of never returning.
func TestStalledServer(t *testing.T) {
	fs := frames(sample(t, "completed.sse"))
	taskID := "task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62"
	tests := []struct {
		name   string
		head   []byte
		args   []string
		taskID string
		note   string
	}{
		{"nothing after the headers", nil, nil, "", "before any event named the task"},
		{"two events, then silence", join(fs[:2]), []string{"--retries", "1", "--retry-delay", "1ms"}, taskID, "giving up after 1 resubscription"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := stallingAgent(t, tt.head)
			args := append([]string{"--json", "--idle-timeout", "150ms", "-m", "hi", srv.URL + "/a2a"}, tt.args...)
			got := runWith(t, args, nil, nil)
			if got.code != exitTruncated {
				t.Errorf("exit %d, want %d; stderr:\n%s", got.code, exitTruncated, got.stderr)
			}
			doc := jsonDoc(t, got.stdout)
			if doc.Error == nil || doc.Error.Type != "truncated" || doc.Error.TaskID != tt.taskID || !strings.Contains(doc.Error.Cause, "idle timeout") {
				t.Errorf("error %+v: want truncated, task %q, cause the idle timeout", doc.Error, tt.taskID)
			}
			if !strings.Contains(got.stderr, tt.note) {
				t.Errorf("stderr %q: want %q", got.stderr, tt.note)
			}
		})
	}
}

// TestSilentServer checks a server that never answers the request: with
// no stream, the idle timeout makes it a server that could not be reached
// (exit 7).
func TestSilentServer(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	got := runWith(t, []string{"--idle-timeout", "100ms", "--subscribe", "task.1", srv.URL}, nil, nil)
	if got.code != exitIO || !strings.Contains(got.stderr, "idle timeout") {
		t.Errorf("exit %d, stderr %q: want %d and the idle timeout", got.code, got.stderr, exitIO)
	}
}

// TestOverallTimeout checks --timeout on a run whose connection stays
// open and silent, with the idle timeout off: the run is cut (exit 4) and
// says so, with what to resume with.
func TestOverallTimeout(t *testing.T) {
	fs := frames(sample(t, "completed.sse"))
	srv := stallingAgent(t, join(fs[:3]))
	got := runWith(t, []string{"--timeout", "200ms", "--idle-timeout", "0", "-m", "hi", srv.URL + "/a2a"}, nil, nil)
	if got.code != exitTruncated {
		t.Errorf("exit %d, want %d; stderr:\n%s", got.code, exitTruncated, got.stderr)
	}
	for _, want := range []string{"the run took longer than --timeout 200ms", "resume with: a2astream --subscribe task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62 --last-event-id 3"} {
		if !strings.Contains(got.stderr, want) {
			t.Errorf("stderr %q: want %q", got.stderr, want)
		}
	}
	if !strings.HasPrefix(got.stdout, "Asthme") {
		t.Errorf("stdout %q: want the text received", got.stdout)
	}
}

// interruptRun runs the command with args and stdin, waits until stdout or
// stderr holds ready, sends it SIGINT through its signal channel, and
// returns what it did.
func interruptRun(t *testing.T, args []string, stdin io.Reader, ready func(stdout, stderr string) bool) result {
	t.Helper()
	var out, errw syncBuffer
	var sleeps []time.Duration
	sigs := make(chan os.Signal, 1)
	e := testEnv(&sleeps)
	e.signals = sigs
	done := make(chan int, 1)
	go func() { done <- run(args, stdin, &out, &errw, e) }()
	waitFor(t, "the run to get going", func() bool { return ready(out.String(), errw.String()) })
	sigs <- os.Interrupt
	select {
	case code := <-done:
		return result{code: code, stdout: out.String(), stderr: errw.String()}
	case <-time.After(10 * time.Second):
		t.Fatal("the run did not stop on SIGINT")
	}
	return result{}
}

// TestInterrupt sends SIGINT to runs blocked on a silent server and on a
// silent stdin: each stops reading, shows what it received (the partial
// result, or in --json the document with the truncation), tells how to
// resume, and exits 4.
func TestInterrupt(t *testing.T) {
	fs := frames(sample(t, "completed.sse"))
	taskID := "task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62"
	t.Run("URL", func(t *testing.T) {
		srv := stallingAgent(t, join(fs[:3]))
		got := interruptRun(t, []string{"-m", "hi", srv.URL + "/a2a"}, nil, func(out, _ string) bool { return strings.HasPrefix(out, "Asthme intermittent") })
		if got.code != exitTruncated {
			t.Errorf("exit %d, want %d", got.code, exitTruncated)
		}
		for _, want := range []string{"interrupted by interrupt", "resume with: a2astream --subscribe " + taskID + " --last-event-id 3 URL"} {
			if !strings.Contains(got.stderr, want) {
				t.Errorf("stderr %q: want %q", got.stderr, want)
			}
		}
	})
	t.Run("URL --json", func(t *testing.T) {
		// The first response ends after three events; the
		// resubscription that follows, made once they were read,
		// stalls.
		srv, n := stallingAgentN(t, join(fs[:3]), true)
		got := interruptRun(t, []string{"--json", "--retry-delay", "0s", "-m", "hi", srv.URL + "/a2a"}, nil, func(_, _ string) bool { return n.Load() >= 2 })
		if got.code != exitTruncated {
			t.Errorf("exit %d, want %d", got.code, exitTruncated)
		}
		doc := jsonDoc(t, got.stdout)
		if doc.Error == nil || doc.Error.Type != "truncated" || doc.Error.Cause != "interrupted by interrupt" || doc.Error.TaskID != taskID || doc.Error.LastEventID != "3" {
			t.Errorf("error %+v: want the truncation by the signal after event 3", doc.Error)
		}
	})
	t.Run("before the answer", func(t *testing.T) {
		release := make(chan struct{})
		var asked atomic.Bool
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			asked.Store(true)
			select {
			case <-r.Context().Done():
			case <-release:
			}
		}))
		t.Cleanup(srv.Close)
		t.Cleanup(func() { close(release) })
		got := interruptRun(t, []string{"--json", "-m", "hi", srv.URL + "/a2a"}, nil, func(_, _ string) bool { return asked.Load() })
		if got.code != exitTruncated {
			t.Errorf("exit %d, want %d", got.code, exitTruncated)
		}
		doc := jsonDoc(t, got.stdout)
		if doc.Error == nil || doc.Error.Type != "interrupted" || doc.Error.Message != "interrupted by interrupt" {
			t.Errorf("error %+v: want the interruption", doc.Error)
		}
	})
	t.Run("stdin", func(t *testing.T) {
		pr, pw := io.Pipe()
		t.Cleanup(func() { pw.Close() })
		go pw.Write(join(fs[:3]))
		got := interruptRun(t, []string{"-"}, pr, func(out, _ string) bool { return strings.HasPrefix(out, "Asthme intermittent") })
		if got.code != exitTruncated {
			t.Errorf("exit %d, want %d", got.code, exitTruncated)
		}
		if !strings.Contains(got.stderr, "resume with: a2astream --subscribe "+taskID+" --last-event-id 3") || !strings.Contains(got.stderr, "interrupted by interrupt") {
			t.Errorf("stderr %q: want the cause and the resume hint", got.stderr)
		}
	})
}

// TestInterruptProcess starts the command as a process against a silent
// server and sends it a real SIGINT once the text received is on its
// stdout: it stops, tells how to resume, and exits 4.
func TestInterruptProcess(t *testing.T) {
	fs := frames(sample(t, "completed.sse"))
	srv := stallingAgent(t, join(fs[:3]))
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "A2ASTREAM_TEST_MAIN=1",
		"A2ASTREAM_TEST_ARGS="+strings.Join([]string{"-m", "hi", srv.URL + "/a2a"}, "\x1f"))
	var out, errw syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &errw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	waitFor(t, "the process to show the text", func() bool { return strings.HasPrefix(out.String(), "Asthme intermittent") })
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitTruncated {
		t.Fatalf("wait: %v, want exit %d; stderr:\n%s", err, exitTruncated, errw.String())
	}
	for _, want := range []string{"interrupted by interrupt", "resume with: a2astream --subscribe task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62 --last-event-id 3 URL"} {
		if !strings.Contains(errw.String(), want) {
			t.Errorf("stderr %q: want %q", errw.String(), want)
		}
	}
}
