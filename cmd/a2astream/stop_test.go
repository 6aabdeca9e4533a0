package main

import (
	"encoding/json"
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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	require.True(t, strings.HasPrefix(srv.URL, "http://127.0.0.1:"), "server on %s", srv.URL)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	return srv, n
}

// jsonDoc parses the --json document.
func jsonDoc(t *testing.T, out string) resultDoc {
	t.Helper()
	var doc resultDoc
	require.NoError(t, json.Unmarshal([]byte(out), &doc), "--json output is not one JSON document:\n%s", out)
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
			// 1s, not less: the events must arrive before the timer
			// runs out, also on a loaded CI machine under -race.
			args := append([]string{"--json", "--idle-timeout", "1s", "-m", "hi", srv.URL + "/a2a"}, tt.args...)
			got := runWith(t, args, nil, nil)
			assert.Equal(t, exitTruncated, got.code, "exit code; stderr:\n%s", got.stderr)
			doc := jsonDoc(t, got.stdout)
			if assert.NotNil(t, doc.Error, "error") {
				assert.Equal(t, "truncated", doc.Error.Type, "error type")
				assert.Equal(t, tt.taskID, doc.Error.TaskID, "error taskId")
				assert.Contains(t, doc.Error.Cause, "idle timeout", "error cause")
			}
			assert.Contains(t, got.stderr, tt.note, "stderr")
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
	assert.Equal(t, exitIO, got.code, "exit code")
	assert.Contains(t, got.stderr, "idle timeout", "stderr")
}

// TestOverallTimeout checks --timeout on a run whose connection stays
// open and silent, with the idle timeout off: the run is cut (exit 4) and
// says so, with what to resume with.
func TestOverallTimeout(t *testing.T) {
	fs := frames(sample(t, "completed.sse"))
	srv := stallingAgent(t, join(fs[:3]))
	// 1s, not less: the three events must arrive before the deadline, also
	// on a loaded CI machine under -race (at 200ms the request sometimes
	// had no answer yet, and the run ended as an unreachable server).
	got := runWith(t, []string{"--timeout", "1s", "--idle-timeout", "0", "-m", "hi", srv.URL + "/a2a"}, nil, nil)
	assert.Equal(t, exitTruncated, got.code, "exit code; stderr:\n%s", got.stderr)
	for _, want := range []string{"the run took longer than --timeout 1s", "resume with: a2astream --subscribe task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62 --last-event-id 3"} {
		assert.Contains(t, got.stderr, want, "stderr")
	}
	assert.True(t, strings.HasPrefix(got.stdout, "Asthme"), "stdout %q: want the text received", got.stdout)
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
		require.Fail(t, "the run did not stop on SIGINT")
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
		assert.Equal(t, exitTruncated, got.code, "exit code")
		for _, want := range []string{"interrupted (SIGINT)", "resume with: a2astream --subscribe " + taskID + " --last-event-id 3 URL"} {
			assert.Contains(t, got.stderr, want, "stderr")
		}
	})
	t.Run("URL --json", func(t *testing.T) {
		// The first response ends after three events; the
		// resubscription that follows, made once they were read,
		// stalls.
		srv, n := stallingAgentN(t, join(fs[:3]), true)
		got := interruptRun(t, []string{"--json", "--retry-delay", "0s", "-m", "hi", srv.URL + "/a2a"}, nil, func(_, _ string) bool { return n.Load() >= 2 })
		assert.Equal(t, exitTruncated, got.code, "exit code")
		doc := jsonDoc(t, got.stdout)
		if assert.NotNil(t, doc.Error, "the truncation by the signal after event 3") {
			assert.Equal(t, errorDoc{Type: "truncated", Cause: "interrupted (SIGINT)", TaskID: taskID, LastEventID: "3"},
				errorDoc{Type: doc.Error.Type, Cause: doc.Error.Cause, TaskID: doc.Error.TaskID, LastEventID: doc.Error.LastEventID},
				"the truncation by the signal after event 3")
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
		assert.Equal(t, exitTruncated, got.code, "exit code")
		doc := jsonDoc(t, got.stdout)
		if assert.NotNil(t, doc.Error, "the interruption") {
			assert.Equal(t, "interrupted", doc.Error.Type, "error type")
			assert.Equal(t, "interrupted (SIGINT)", doc.Error.Message, "error message")
		}
	})
	t.Run("stdin", func(t *testing.T) {
		pr, pw := io.Pipe()
		t.Cleanup(func() { pw.Close() })
		go pw.Write(join(fs[:3]))
		got := interruptRun(t, []string{"-"}, pr, func(out, _ string) bool { return strings.HasPrefix(out, "Asthme intermittent") })
		assert.Equal(t, exitTruncated, got.code, "exit code")
		assert.Contains(t, got.stderr, "resume with: a2astream --subscribe "+taskID+" --last-event-id 3", "stderr: the resume hint")
		assert.Contains(t, got.stderr, "interrupted (SIGINT)", "stderr: the cause")
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
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill() })
	waitFor(t, "the process to show the text", func() bool { return strings.HasPrefix(out.String(), "Asthme intermittent") })
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	err := cmd.Wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "wait; stderr:\n%s", errw.String())
	require.Equal(t, exitTruncated, exit.ExitCode(), "exit code; stderr:\n%s", errw.String())
	for _, want := range []string{"interrupted (SIGINT)", "resume with: a2astream --subscribe task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62 --last-event-id 3 URL"} {
		assert.Contains(t, errw.String(), want, "stderr")
	}
}
