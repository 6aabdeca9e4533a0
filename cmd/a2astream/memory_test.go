//go:build !race

// These tests run 100 and 256 MiB through the command and measure its heap;
// like the zero-allocation tests they run without the race detector, under
// which they take 25 and 45 seconds: the code they run is run under it by
// the other tests of the package and of reconstruct/resultjson.

package main

import (
	"bytes"
	"cmp"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/reconstruct"
)

// bigRun is an io.Reader of a generated SSE stream: a task that streams
// artifacts of size bytes each as text deltas of delta bytes (deltaSize
// when 0), each sealed by its last chunk, then completes. It makes the
// bytes as they are read, so that the stream itself takes no memory.
type bigRun struct {
	artifacts, size int
	delta           int
	buf             bytes.Buffer
	art, sent       int // the artifact being streamed and its bytes sent
	seq             int
	done            bool
	read            int64 // bytes handed out
}

const deltaSize = 32 << 10

// deltaText is the text of the deltas: printable ASCII with no character
// that JSON escapes, so that input and output sizes are easy to tell.
var deltaText = strings.Repeat("The patient reports a dry cough for three days; no fever. ", (1<<20)/58+1)[:1<<20]

func (g *bigRun) event(data string) {
	g.seq++
	g.buf.WriteString("id: " + strconv.Itoa(g.seq) + "\ndata: " + data + "\n\n")
}

func (g *bigRun) fill() {
	switch {
	case g.seq == 0:
		g.event(`{"task":{"id":"task.big","contextId":"ctx.big","status":{"state":"TASK_STATE_WORKING"}}}`)
	case g.art < g.artifacts:
		n := min(cmp.Or(g.delta, deltaSize), g.size-g.sent)
		last := g.sent+n == g.size
		g.event(`{"artifactUpdate":{"taskId":"task.big","contextId":"ctx.big","append":` + strconv.FormatBool(g.sent > 0) +
			`,"lastChunk":` + strconv.FormatBool(last) + `,"artifact":{"artifactId":"art.` + strconv.Itoa(g.art) +
			`","parts":[{"text":"` + deltaText[:n] + `"}]}}}`)
		if g.sent += n; last {
			g.art, g.sent = g.art+1, 0
		}
	default:
		g.event(`{"statusUpdate":{"taskId":"task.big","contextId":"ctx.big","status":{"state":"TASK_STATE_COMPLETED"}}}`)
		g.done = true
	}
}

func (g *bigRun) Read(p []byte) (int, error) {
	for g.buf.Len() == 0 {
		if g.done {
			return 0, io.EOF
		}
		g.fill()
	}
	n, _ := g.buf.Read(p)
	g.read += int64(n)
	return n, nil
}

// countWriter counts the bytes written to it and keeps the first 64 and
// the last 512.
type countWriter struct {
	n          int64
	head, tail []byte
}

func (w *countWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	if len(w.head) < 64 {
		w.head = append(w.head, p[:min(len(p), 64-len(w.head))]...)
	}
	w.tail = append(w.tail, p[max(0, len(p)-512):]...)
	w.tail = w.tail[max(0, len(w.tail)-512):]
	return len(p), nil
}

// peakHeap runs f while a goroutine samples runtime.MemStats, and returns
// the largest HeapInuse seen above the in-use heap before f, and the
// largest heap held from the OS (HeapSys - HeapReleased) above its value
// before f.
func peakHeap(f func()) (inuse, held uint64) {
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peakInuse, peakHeld atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	sample := func() {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		if m.HeapInuse > peakInuse.Load() {
			peakInuse.Store(m.HeapInuse)
		}
		if h := m.HeapSys - m.HeapReleased; h > peakHeld.Load() {
			peakHeld.Store(h)
		}
	}
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			sample()
			time.Sleep(200 * time.Microsecond)
		}
	}()
	f()
	close(stop)
	wg.Wait()
	sample()
	baseHeld := base.HeapSys - base.HeapReleased
	return peakInuse.Load() - min(peakInuse.Load(), base.HeapInuse), peakHeld.Load() - min(peakHeld.Load(), baseHeld)
}

// The --json document of a 100 MiB run is written to its writer as it is
// made, not built in memory: the CLI's heap peaks under three times the
// input (a text growing past its buffer is copied into one twice as large,
// and gives back its spare room when its artifact is sealed; measured 2.4
// times alone on 2026-12-02, more with other packages' tests running at
// once, when the collector lags behind). Building the document in memory,
// it peaked at 16 times the input.
func TestJSONMemoryBound(t *testing.T) {
	in := &bigRun{artifacts: 2, size: 50 << 20}
	out := &countWriter{}
	var errw bytes.Buffer
	var code int
	inuse, _ := peakHeap(func() {
		var sleeps []time.Duration
		code = run([]string{"--json", "-"}, in, out, &errw, testEnv(&sleeps))
	})
	require.Equal(t, exitOK, code, "stderr: %s", errw.String())
	t.Logf("input %d MiB, --json %d MiB, peak heap in use %d MiB (%.2fx)", in.read>>20, out.n>>20, inuse>>20, float64(inuse)/float64(in.read))
	// The document holds each artifact's text twice (text and
	// parts[].text), and the answer's again.
	assert.Greater(t, out.n, 6*int64(in.size))
	assert.True(t, bytes.HasPrefix(out.head, []byte("{\n  \"state\": \"TASK_STATE_COMPLETED\",")), "%q", out.head)
	assert.True(t, bytes.HasSuffix(out.tail, []byte("\n  \"error\": null\n}\n")), "%q", out.tail)
	assert.Less(t, inuse, uint64(3*in.read), "peak heap in use")
}

// A run whose artifacts together pass reconstruct.DefaultMaxRunSize
// (256 MiB; five of 60 MiB, as in issue 16) stops with ErrRunTooLarge: a
// limit, exit 6, with the error in the --json document, where it was an
// out-of-memory crash (exit 2) with 20 of them.
func TestRunOverMaxRunSize(t *testing.T) {
	in := &bigRun{artifacts: 5, size: 60 << 20, delta: 1 << 20}
	out := &countWriter{}
	var errw bytes.Buffer
	var sleeps []time.Duration
	code := run([]string{"--json", "-"}, in, out, &errw, testEnv(&sleeps))
	assert.Equal(t, exitProtocol, code, "stderr: %s", errw.String())
	assert.Greater(t, out.n, 2*int64(reconstruct.DefaultMaxRunSize)-int64(in.size), "what came before is kept in the document")
	assert.Contains(t, string(out.tail), `"error": {
    "type": "limit",
    "message": "reconstruct: frame 258 (id \"258\") at byte 268477949: artifacts exceed MaxRunSize",`)
}
