package httpstream_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"net"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/internal/samples"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/httpstream"
)

// faultKind is what the fault server does to one connection.
type faultKind int

const (
	faultNone    faultKind = iota // the rest of the stream, whole
	faultDrop                     // part of it, then the connection closed
	faultReset                    // part of it, then a TCP reset
	faultStall                    // part of it, then silence
	faultTrickle                  // the rest in small pieces, slowly
	faultStatus                   // a transient status (resubscriptions only)
	faultKinds
)

var faultNames = [...]string{"none", "drop", "reset", "stall", "trickle", "status"}

// transientAnswers are the answers faultStatus picks from.
var transientAnswers = []refusal{
	{status: 408, contentType: "text/plain", body: "timeout"},
	{status: 425, contentType: "text/plain", body: "too early"},
	{status: 429, contentType: "text/plain", header: map[string]string{"Retry-After": "0"}, body: "slow down"},
	{status: 500, contentType: "application/json", body: `{"error":{"code":500,"status":"INTERNAL","message":"oops"}}`},
	{status: 502, contentType: "text/html", body: "<h1>Bad gateway</h1>"},
	{status: 503, contentType: "text/plain", header: map[string]string{"Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"}, body: "busy"},
	{status: 504, contentType: "text/html", body: "<h1>Gateway timeout</h1>"},
	{status: 200, contentType: "text/html", body: "<!DOCTYPE html><p>maintenance</p>"},
}

// faultPlan is the fault of each connection of one run, and where a cut
// falls, as a fraction of what the connection has to send.
type faultPlan struct {
	kinds []faultKind
	cuts  []float64
	codes []int
	// replay is how a resubscription is answered: replayAfterID, the
	// events after Last-Event-ID; replayArtifact, as Corti's server does
	// today, from the start of the artifact in progress; replaySnapshot,
	// the task's snapshot first, then as replayArtifact.
	replay replayModel
}

// replayModel is how the fault server replays a stream to a
// resubscription.
type replayModel int

const (
	replayAfterID replayModel = iota
	replayArtifact
	replaySnapshot
	replayModels
)

func newFaultPlan(rng *rand.Rand, conns int) faultPlan {
	var p faultPlan
	for n := range conns {
		k := faultKind(rng.IntN(int(faultKinds)))
		if n == 0 && k == faultStatus {
			k = faultDrop // the first call's answer is the caller's, not retried
		}
		p.kinds = append(p.kinds, k)
		p.cuts = append(p.cuts, rng.Float64())
		p.codes = append(p.codes, rng.IntN(len(transientAnswers)))
	}
	p.replay = replayModel(rng.IntN(int(replayModels)))
	return p
}

// serveFault answers connection n of a run over data (the whole stream,
// replayed after the request's Last-Event-ID from the second connection
// on) with the plan's fault.
func serveFault(t *testing.T, a *agent, p faultPlan, n int, w http.ResponseWriter, r *http.Request, data []byte, frames []frame) {
	kind := faultNone
	if n < len(p.kinds) {
		kind = p.kinds[n]
	}
	if kind == faultStatus {
		transientAnswers[p.codes[n]].serve(w)
		return
	}
	rest := data
	if n > 0 {
		rest = replayed(p.replay, data, frames, r.Header.Get("Last-Event-ID"))
	}
	cut := int(p.cuts[min(n, len(p.cuts)-1)] * float64(len(rest)))
	switch kind {
	case faultNone:
		serveSSE(w, rest)
	case faultDrop:
		serveSSE(w, rest[:cut])
		drop(t, w)
	case faultReset:
		serveSSE(w, rest[:cut])
		conn, _, err := w.(http.Hijacker).Hijack()
		if !assert.NoError(t, err, "hijack") {
			return
		}
		conn.(*net.TCPConn).SetLinger(0)
		conn.Close()
	case faultStall:
		serveSSE(w, rest[:cut])
		a.stall(r)
	case faultTrickle:
		serveSSE(w, nil)
		for len(rest) > 0 {
			k := min(len(rest), 512)
			if _, err := w.Write(rest[:k]); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			rest = rest[k:]
			time.Sleep(time.Millisecond)
		}
	}
}

// replayed is what a server answers a resubscription with after the
// client received the event last: with replayAfterID the events after it;
// with replayArtifact, when last is a delta of an artifact still open,
// every event from that artifact's first (append false), as Corti's
// server does while it does not read Last-Event-ID; with replaySnapshot
// the stream's first event (the task, WORKING) before that, when no
// status came between them, as a snapshot of the task.
func replayed(model replayModel, data []byte, frames []frame, last string) []byte {
	i := -1
	for k, f := range frames {
		if f.id == last {
			i = k
		}
	}
	from := i + 1
	if model != replayAfterID {
		from = artifactStart(data, frames, i)
	}
	var rest []byte
	if from < len(frames) {
		rest = data[frames[from].off:]
	}
	if model != replaySnapshot || from == i+1 || !bytes.Contains(frame0(data, frames), []byte(`"task":`)) {
		return rest
	}
	for _, f := range frames[1:from] {
		if bytes.Contains(data[f.off:f.end], []byte(`"statusUpdate"`)) {
			return rest
		}
	}
	return append(append([]byte(nil), frame0(data, frames)...), rest...)
}

// artifactStart returns the index of the first event of the artifact that
// frame i updates, when i is a delta of an artifact not closed yet (the
// samples do not interleave artifacts); i+1 otherwise.
func artifactStart(data []byte, frames []frame, i int) int {
	for j := i; j >= 0; j-- {
		ev := data[frames[j].off:frames[j].end]
		if !bytes.Contains(ev, []byte(`"artifactUpdate"`)) || bytes.Contains(ev, []byte(`"lastChunk":true`)) {
			return i + 1
		}
		if !bytes.Contains(ev, []byte(`"append":true`)) {
			return j
		}
	}
	return i + 1
}

func frame0(data []byte, frames []frame) []byte { return data[frames[0].off:frames[0].end] }

// TestClientFaults runs every sample stream over both bindings a few
// hundred times against a server that breaks each connection in a way
// drawn at random (dropped, reset or stalled after a random cut, trickled,
// or a resubscription answered with a transient status): every run that
// completes has the Result and live text of the uncut stream, and every
// other ends with a typed *reconstruct.TruncatedError, cut before the
// first event named the task. The draws are seeded, so a failure repeats.
func TestClientFaults(t *testing.T) {
	const runs = 300
	names, err := fs.Glob(samples.Streams, "*.sse")
	require.NoError(t, err)
	type sample struct {
		name   string
		b      parser.Binding
		data   []byte
		frames []frame
		uncut  seen
	}
	var all []*sample
	for _, name := range names {
		for _, b := range []parser.Binding{parser.BindingREST, parser.BindingJSONRPC} {
			data, err := samples.Streams.ReadFile(name)
			require.NoError(t, err)
			if b == parser.BindingJSONRPC {
				data = toJSONRPC(data)
			}
			all = append(all, &sample{name: name, b: b, data: data, frames: framesOf(t, data)})
		}
	}

	var mu sync.Mutex
	var cur *sample
	var plan faultPlan
	a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		s, p := cur, plan
		mu.Unlock()
		serveFault(t, a, p, n, w, r, s.data, s.frames)
	})
	start := func(s *sample, p faultPlan) {
		a.mu.Lock()
		a.reqs = nil
		a.mu.Unlock()
		mu.Lock()
		cur, plan = s, p
		mu.Unlock()
	}
	client := func(b parser.Binding) *httpstream.Client {
		return &httpstream.Client{BaseURL: a.base(), Binding: b, IdleTimeout: 30 * time.Millisecond,
			Retries: 40, RetryDelay: time.Millisecond, MaxRetryDelay: 2 * time.Millisecond, Timeout: 20 * time.Second}
	}
	for _, s := range all {
		start(s, faultPlan{kinds: []faultKind{faultNone}, cuts: []float64{0}, codes: []int{0}})
		c := client(s.b)
		c.IdleTimeout = 0 // the default: no fault here
		run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "go"})
		require.NoError(t, err)
		s.uncut = readRun(t, run)
		run.Close()
	}

	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	baseline := settledGoroutines(0, 0)
	rng := rand.New(rand.NewPCG(31, 3))
	used := map[faultKind]int{}
	replays := map[replayModel]int{}
	completed := 0
	began := time.Now()
	for i := range runs {
		s := all[i%len(all)]
		p := newFaultPlan(rng, 6)
		var run *httpstream.Run
		for try := 0; ; try++ {
			// A loaded machine may answer the first call after the idle
			// timeout: that call's failure is the caller's to retry.
			start(s, p)
			run, err = client(s.b).SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "go"})
			if err == nil || try == 3 || !errors.Is(err, httpstream.ErrIdleTimeout) {
				break
			}
		}
		require.NoError(t, err, "run %d", i)
		got := readRun(t, run)
		run.Close()
		for n := range a.requests() {
			if n < len(p.kinds) {
				used[p.kinds[n]]++
			}
		}
		if got.res.Err != nil {
			// Only a cut before the first event named the task leaves
			// nothing to resubscribe to: the retries outnumber the
			// faulty connections.
			var trunc *reconstruct.TruncatedError
			require.ErrorAs(t, got.res.Err, &trunc, "run %d (%s/%s, plan %v)", i, s.name, s.b, p.kinds)
			require.Empty(t, trunc.TaskID, "run %d (%s/%s, plan %v): %v", i, s.name, s.b, p.kinds, trunc)
			require.Len(t, a.requests(), 1)
			continue
		}
		completed++
		require.Empty(t, cmp.Diff(s.uncut.res, got.res, cmpResult), "run %d (%s/%s, plan %v): Result differs (-uncut +faulted)", i, s.name, s.b, p.kinds)
		require.Empty(t, cmp.Diff(s.uncut.live, got.live), "run %d (%s/%s, plan %v): live text differs", i, s.name, s.b, p.kinds)
		require.Empty(t, cmp.Diff(s.uncut.typed, got.typed), "run %d (%s/%s, plan %v, replay %d): UpdateText alone differs", i, s.name, s.b, p.kinds, p.replay)
		require.Equal(t, s.uncut.replaced, got.replaced, "run %d (%s/%s, plan %v, replay %d): UpdateReplaced", i, s.name, s.b, p.kinds, p.replay)
		replays[p.replay]++
	}
	for k := faultNone; k < faultKinds; k++ {
		assert.Positive(t, used[k], "fault %s never met", faultNames[k])
	}
	for m := replayAfterID; m < replayModels; m++ {
		assert.Positive(t, replays[m], "replay model %d never met", m)
	}
	t.Logf("%d runs in %v: %d completed; connections by fault: %v; completed runs by replay model: %v", runs, time.Since(began).Round(time.Millisecond), completed, used, replays)
	assert.GreaterOrEqual(t, completed, runs*9/10)
	// Nothing of the runs is left running: their connections, watchdogs
	// and the reads that finish a body end with them.
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	assert.LessOrEqual(t, settledGoroutines(baseline, 5*time.Second), baseline, "goroutines left after the runs")
}

// settledGoroutines returns the number of goroutines once it is at most
// want, or when wait has passed (at once for a wait of 0).
func settledGoroutines(want int, wait time.Duration) int {
	deadline := time.Now().Add(wait)
	for {
		n := runtime.NumGoroutine()
		if n <= want || !time.Now().Before(deadline) {
			return n
		}
		time.Sleep(10 * time.Millisecond)
	}
}
