package httpstream_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/internal/samples"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/httpstream"
)

// request is what the test agent received.
type request struct {
	method, path string
	header       http.Header
	host         string
	body         []byte
}

// agent is an httptest server on 127.0.0.1 whose handle answers the n-th
// (0-based) request.
type agent struct {
	srv    *httptest.Server
	mu     sync.Mutex
	reqs   []request
	handle func(a *agent, n int, w http.ResponseWriter, r *http.Request)
	// release unblocks handlers that stall.
	release chan struct{}
}

func newAgent(t *testing.T, handle func(a *agent, n int, w http.ResponseWriter, r *http.Request)) *agent {
	t.Helper()
	a := &agent{handle: handle, release: make(chan struct{})}
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		a.mu.Lock()
		n := len(a.reqs)
		a.reqs = append(a.reqs, request{r.Method, r.URL.Path, r.Header.Clone(), r.Host, body})
		a.mu.Unlock()
		a.handle(a, n, w, r)
	}))
	require.True(t, strings.HasPrefix(a.srv.URL, "http://127.0.0.1:"))
	t.Cleanup(a.srv.Close)
	t.Cleanup(func() { close(a.release) })
	return a
}

func (a *agent) requests() []request {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]request(nil), a.reqs...)
}

// base is the agent's A2A base URL.
func (a *agent) base() string { return a.srv.URL + "/a2a" }

// stall blocks until the client goes away or the test ends.
func (a *agent) stall(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-a.release:
	}
}

// serveSSE answers with an event stream and writes b, flushed.
func serveSSE(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	w.Write(b)
	w.(http.Flusher).Flush()
}

// drop closes the connection without ending the response, as a dropped
// connection does.
func drop(t *testing.T, w http.ResponseWriter) {
	conn, _, err := w.(http.Hijacker).Hijack()
	// assert, not require: this runs on the server's goroutine.
	if !assert.NoError(t, err, "hijack") {
		return
	}
	conn.Close()
}

// frame is one frame of a stream: its bytes and SSE id.
type frame struct {
	off, end int
	id       string
}

// framesOf splits a stream into its frames with the library's lexer.
func framesOf(t *testing.T, data []byte) []frame {
	t.Helper()
	lx := sse.NewLexer(nil)
	_, err := lx.Write(data)
	require.NoError(t, err)
	require.NoError(t, lx.Close())
	var fs []frame
	prev := 0
	for lx.Next() {
		end := int(lx.InputOffset())
		fs = append(fs, frame{prev, end, string(lx.Frame().ID)})
		prev = end
	}
	require.NoError(t, lx.Err())
	return fs
}

// toJSONRPC rewrites a REST stream into the JSON-RPC binding: each data
// line becomes the result of a response envelope.
func toJSONRPC(data []byte) []byte {
	var b bytes.Buffer
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "data: "); ok {
			b.WriteString(`data: {"jsonrpc":"2.0","id":"req-1","result":` + strings.TrimSuffix(rest, "\n") + "}\n")
			continue
		}
		b.WriteString(line)
	}
	return b.Bytes()
}

// replay answers a subscription with the frames after the one whose id is
// the request's Last-Event-ID, as the A2A design for resumption has it.
func replay(t *testing.T, w http.ResponseWriter, r *http.Request, data []byte, fs []frame) {
	last := r.Header.Get("Last-Event-ID")
	from := -1
	for i, f := range fs {
		if f.id == last {
			from = i + 1
		}
	}
	// assert, not require: this runs on the server's goroutine.
	if !assert.GreaterOrEqual(t, from, 0, "Last-Event-ID %q names no frame", last) {
		return
	}
	start := len(data)
	if from < len(fs) {
		start = fs[from].off
	}
	serveSSE(w, data[start:])
}

// seen is what a caller saw of a run: the live text of each artifact as
// the updates tell it, the kinds of the updates, and the Result.
type seen struct {
	live map[string]string
	// typed is what a typing UI that appends UpdateText alone shows, and
	// replaced counts the UpdateReplaced it would miss.
	typed    map[string]string
	replaced int
	kinds    []reconstruct.UpdateKind
	res      *reconstruct.Result
	err      error
}

func readRun(t *testing.T, run *httpstream.Run) seen {
	t.Helper()
	s := seen{live: map[string]string{}, typed: map[string]string{}}
	dones := 0
	for u, err := range run.Updates() {
		if err != nil {
			s.err = err
			break
		}
		s.kinds = append(s.kinds, u.Kind)
		switch u.Kind {
		case reconstruct.UpdateText:
			s.live[string(u.Artifact.ArtifactID)] += string(u.Text)
			s.typed[string(u.Artifact.ArtifactID)] += string(u.Text)
		case reconstruct.UpdateReplaced:
			s.live[string(u.Artifact.ArtifactID)] = string(u.Text)
			s.replaced++
		case reconstruct.UpdateDone:
			dones++
		}
	}
	require.Equal(t, 1, dones, "one UpdateDone")
	s.res = run.Result()
	return s
}

// cmpResult compares Results field by field, unexported fields aside, and
// errors by their messages.
var cmpResult = cmp.Options{
	cmpopts.IgnoreUnexported(reconstruct.Artifact{}),
	cmpopts.IgnoreFields(reconstruct.Diagnostic{}, "Position"),
	cmp.Comparer(func(a, b error) bool {
		if a == nil || b == nil {
			return a == nil && b == nil
		}
		return a.Error() == b.Error()
	}),
	cmp.Comparer(func(a, b []byte) bool { return bytes.Equal(a, b) }),
}

// TestClientDrops drops the first connection of every sample stream at
// every event boundary and in the middle of every event, over both
// bindings: the Client resubscribes with the task id and Last-Event-ID,
// and the Result and the live text equal those of the uncut stream, never
// a character more or less.
func TestClientDrops(t *testing.T) {
	names, err := fs.Glob(samples.Streams, "*.sse")
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for _, name := range names {
		for _, b := range []parser.Binding{parser.BindingREST, parser.BindingJSONRPC} {
			t.Run(name+"/"+b.String(), func(t *testing.T) {
				data, err := samples.Streams.ReadFile(name)
				require.NoError(t, err)
				if b == parser.BindingJSONRPC {
					data = toJSONRPC(data)
				}
				fs := framesOf(t, data)
				cut := -1 // the byte offset of the first connection's cut; -1 for none
				var teed bytes.Buffer
				a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
					if n > 0 {
						replay(t, w, r, data, fs)
						return
					}
					if cut < 0 {
						serveSSE(w, data)
						return
					}
					serveSSE(w, data[:cut])
					drop(t, w)
				})
				c := &httpstream.Client{BaseURL: a.base(), Binding: b, RetryDelay: -1, Tee: &teed}
				uncut := func() seen {
					run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "go"})
					require.NoError(t, err)
					defer run.Close()
					return readRun(t, run)
				}()
				require.Equal(t, string(data), teed.String())
				cuts := 0
				// From the end of the first frame, which names the task:
				// before it there is nothing to resubscribe to.
				for k := 1; k < len(fs); k++ {
					for _, at := range []int{fs[k].off, (fs[k].off + fs[k].end) / 2} {
						a.mu.Lock()
						a.reqs = nil
						a.mu.Unlock()
						cut = at
						teed.Reset()
						run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "go"})
						require.NoError(t, err)
						got := readRun(t, run)
						run.Close()
						cuts++
						require.Empty(t, cmp.Diff(uncut.res, got.res, cmpResult),
							"cut at byte %d (frame %d): Result differs (-uncut +resumed)", at, k+1)
						require.Empty(t, cmp.Diff(uncut.live, got.live),
							"cut at byte %d (frame %d): live text differs (-uncut +resumed)", at, k+1)
						require.Equal(t, uncut.err, got.err)
						reqs := a.requests()
						require.Len(t, reqs, 2, "cut at byte %d: one resubscription", at)
						assert.Equal(t, fs[k-1].id, reqs[1].header.Get("Last-Event-ID"))
						// The Tee saw the first connection up to the cut,
						// then the replay.
						assert.Equal(t, string(data[:at])+string(data[fs[k].off:]), teed.String())
					}
				}
				require.Positive(t, cuts)
			})
		}
	}
}

// TestClientRequests checks the requests of both bindings: method, path,
// body, the A2A headers, Last-Event-ID and the caller's headers.
func TestClientRequests(t *testing.T) {
	completed, err := samples.Streams.ReadFile("completed.sse")
	require.NoError(t, err)
	tests := []struct {
		name    string
		binding parser.Binding
		call    func(c *httpstream.Client) (*httpstream.Run, error)
		check   func(t *testing.T, r request)
	}{
		{"message REST", 0, func(c *httpstream.Client) (*httpstream.Run, error) {
			return c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "Résumé 🫁", TaskID: "task.1", ContextID: "ctx.1"})
		}, func(t *testing.T, r request) {
			assert.Equal(t, "POST /a2a/message:stream", r.method+" "+r.path)
			assert.Equal(t, "application/json", r.header.Get("Content-Type"))
			assert.Empty(t, r.header.Values("Last-Event-ID"))
			var b struct {
				Message struct {
					Role      string                  `json:"role"`
					Parts     []struct{ Text string } `json:"parts"`
					MessageID string                  `json:"messageId"`
					TaskID    string                  `json:"taskId"`
					ContextID string                  `json:"contextId"`
				} `json:"message"`
			}
			require.NoError(t, json.Unmarshal(r.body, &b))
			m := b.Message
			assert.Equal(t, "ROLE_USER", m.Role)
			require.Len(t, m.Parts, 1)
			assert.Equal(t, "Résumé 🫁", m.Parts[0].Text)
			assert.Equal(t, "task.1", m.TaskID)
			assert.Equal(t, "ctx.1", m.ContextID)
			_, err := parser.ParseID(parser.IDMessage, m.MessageID)
			assert.NoError(t, err, "messageId %q is a UUIDv7", m.MessageID)
		}},
		{"message JSON-RPC", parser.BindingJSONRPC, func(c *httpstream.Client) (*httpstream.Run, error) {
			return c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "hi", MessageID: "m-1"})
		}, func(t *testing.T, r request) {
			assert.Equal(t, "POST /a2a", r.method+" "+r.path)
			assert.JSONEq(t, `{"message":{"role":"ROLE_USER","parts":[{"text":"hi"}],"messageId":"m-1"}}`, string(rpcParams(t, r.body, "SendStreamingMessage")))
		}},
		{"subscribe REST", 0, func(c *httpstream.Client) (*httpstream.Run, error) {
			return c.SubscribeToTask(context.Background(), "task.7", "41")
		}, func(t *testing.T, r request) {
			assert.Equal(t, "POST /a2a/tasks/task.7:subscribe", r.method+" "+r.path)
			assert.Equal(t, "41", r.header.Get("Last-Event-ID"))
			assert.Empty(t, r.body)
		}},
		{"subscribe JSON-RPC", parser.BindingJSONRPC, func(c *httpstream.Client) (*httpstream.Run, error) {
			return c.SubscribeToTask(context.Background(), "task.7", "")
		}, func(t *testing.T, r request) {
			assert.Equal(t, "POST /a2a", r.method+" "+r.path)
			assert.Empty(t, r.header.Values("Last-Event-ID"))
			assert.JSONEq(t, `{"id":"task.7"}`, string(rpcParams(t, r.body, "SubscribeToTask")))
		}},
		{"open", 0, func(c *httpstream.Client) (*httpstream.Run, error) {
			req, err := http.NewRequest(http.MethodGet, strings.TrimSuffix(c.BaseURL, "/")+"/stream", nil)
			require.NoError(t, err)
			req.Header.Set("X-Own", "kept")
			return c.Open(context.Background(), req)
		}, func(t *testing.T, r request) {
			assert.Equal(t, "GET /a2a/stream", r.method+" "+r.path)
			assert.Equal(t, "kept", r.header.Get("X-Own"))
			assert.Empty(t, r.header.Values("Content-Type"))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
				if tt.binding == parser.BindingJSONRPC {
					serveSSE(w, toJSONRPC(completed))
				} else {
					serveSSE(w, completed)
				}
			})
			c := &httpstream.Client{BaseURL: a.base() + "/", Binding: tt.binding,
				Header: http.Header{"Authorization": {"Bearer t0k"}, "tenant-name": {"acme"}}}
			run, err := tt.call(c)
			require.NoError(t, err)
			res, err := run.Wait()
			require.NoError(t, err)
			assert.Equal(t, parser.TaskStateCompleted, res.State)
			require.NoError(t, run.Close())
			reqs := a.requests()
			require.Len(t, reqs, 1)
			r := reqs[0]
			assert.Equal(t, "1.0", r.header.Get("A2A-Version"))
			assert.Equal(t, "text/event-stream", r.header.Get("Accept"))
			assert.Equal(t, "Bearer t0k", r.header.Get("Authorization"))
			assert.Equal(t, "acme", r.header.Get("Tenant-Name"))
			tt.check(t, r)
		})
	}
}

// rpcParams checks a JSON-RPC request's envelope and method and returns
// its params.
func rpcParams(t *testing.T, body []byte, method string) json.RawMessage {
	t.Helper()
	var env struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      string          `json:"id"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params"`
	}
	require.NoError(t, json.Unmarshal(body, &env), "%s", body)
	assert.Equal(t, "2.0", env.JSONRPC)
	assert.NotEmpty(t, env.ID)
	assert.Equal(t, method, env.Method)
	return env.Params
}

// TestClientHeaderOverrides checks that the caller's headers replace the
// Client's, that a name with no values removes one, and that Host sets the
// request's host.
func TestClientHeaderOverrides(t *testing.T) {
	completed, err := samples.Streams.ReadFile("completed.sse")
	require.NoError(t, err)
	a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) { serveSSE(w, completed) })
	c := &httpstream.Client{BaseURL: a.base(), Header: http.Header{
		"A2A-Version": {"1.1"}, "Accept": nil, "Host": {"agents.example"},
	}}
	run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
	require.NoError(t, err)
	_, err = run.Wait()
	require.NoError(t, err)
	r := a.requests()[0]
	assert.Equal(t, "1.1", r.header.Get("A2A-Version"))
	assert.NotEqual(t, "text/event-stream", r.header.Get("Accept"))
	assert.Equal(t, "agents.example", r.host)
}

// firstFrames returns the bytes of the first n frames of completed.sse.
func firstFrames(t *testing.T, n int) (data []byte, lastID string) {
	t.Helper()
	all, err := samples.Streams.ReadFile("completed.sse")
	require.NoError(t, err)
	fs := framesOf(t, all)
	return all[:fs[n-1].end], fs[n-1].id
}

// wait fails the test if done is not closed within a generous bound: a
// guard against a hang, not a measure of speed.
func wait(t *testing.T, done <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		require.Failf(t, "still blocked", "%s: not done within 10s", what)
	}
}

// TestClientIdleTimeout checks a stalled server: one that sends the
// response's headers and two events, then nothing. Each connection ends
// with ErrIdleTimeout; the run resubscribes once, and ends truncated with
// ErrIdleTimeout as the cause, the task id and last event id kept.
func TestClientIdleTimeout(t *testing.T) {
	head, lastID := firstFrames(t, 2)
	a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
		if n == 0 {
			serveSSE(w, head)
		} else {
			serveSSE(w, nil)
		}
		a.stall(r) // until the client gives up
	})
	var resubs []httpstream.Resubscription
	// 1s, not less: the first events must arrive before the timer runs out,
	// also on a loaded CI machine under -race.
	c := &httpstream.Client{BaseURL: a.base(), IdleTimeout: time.Second, Retries: 1, RetryDelay: -1,
		OnResubscribe: func(r *httpstream.Resubscription) { resubs = append(resubs, *r) }}
	run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
	require.NoError(t, err)
	defer run.Close()
	res, err := run.Wait()
	require.ErrorIs(t, err, httpstream.ErrIdleTimeout)
	var trunc *reconstruct.TruncatedError
	require.ErrorAs(t, err, &trunc)
	assert.Equal(t, "task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62", string(trunc.TaskID))
	assert.Equal(t, lastID, string(trunc.LastEventID))
	assert.Equal(t, err, res.Err)
	require.Len(t, resubs, 1)
	assert.ErrorIs(t, resubs[0].Err, httpstream.ErrIdleTimeout)
	assert.Len(t, a.requests(), 2)
}

// TestClientIdleTimeoutBounds checks what the idle timeout measures: a
// server that sends a keep-alive comment every quarter of the timeout for
// two and a half times the timeout, then the rest of the run, is read
// whole without a resubscription; one that stalls after two events is cut
// no sooner than the timeout after its last byte.
func TestClientIdleTimeoutBounds(t *testing.T) {
	// 1s, not less: a keep-alive may come late on a loaded CI machine
	// under -race, and the trickle must not look like silence.
	const idle = time.Second
	all, err := samples.Streams.ReadFile("completed.sse")
	require.NoError(t, err)
	head, _ := firstFrames(t, 2)

	t.Run("trickle", func(t *testing.T) {
		a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
			serveSSE(w, head)
			for range 10 {
				time.Sleep(idle / 4)
				w.Write([]byte(": keep-alive\n\n"))
				w.(http.Flusher).Flush()
			}
			w.Write(all[len(head):])
		})
		c := &httpstream.Client{BaseURL: a.base(), IdleTimeout: idle, Retries: 1, RetryDelay: -1}
		run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
		require.NoError(t, err)
		defer run.Close()
		res, err := run.Wait()
		require.NoError(t, err)
		assert.Equal(t, parser.TaskStateCompleted, res.State)
		assert.Len(t, a.requests(), 1)
	})

	t.Run("stall", func(t *testing.T) {
		var last atomic.Int64 // UnixNano after the last byte was flushed
		a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
			serveSSE(w, head)
			last.Store(time.Now().UnixNano())
			a.stall(r)
		})
		c := &httpstream.Client{BaseURL: a.base(), IdleTimeout: idle, Retries: -1}
		run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
		require.NoError(t, err)
		defer run.Close()
		_, err = run.Wait()
		silent := time.Since(time.Unix(0, last.Load()))
		require.ErrorIs(t, err, httpstream.ErrIdleTimeout)
		assert.GreaterOrEqual(t, silent, idle, "cut after %v of silence", silent)
	})
}

// TestClientIdleTimeoutUpperBound measures the bound IdleTimeout's doc
// gives: a connection that stalls after its first bytes is cut after
// between the timeout and an eighth more of silence, give or take the
// lateness of two timer ticks. The bytes come right after the request, so
// each run meets the worst case (a read just after a tick). The median of
// seven runs is taken, with a margin for the lateness of two ticks
// measured on this machine as it is loaded now (the median lateness of a
// tick-long sleep, twice, plus 3 ms); every run is held to the lower
// bound. Ticks re-armed one after the other added their lateness up:
// 63.8-64.1 ms here for 50 ms, against 56.25 ms documented.
func TestClientIdleTimeoutUpperBound(t *testing.T) {
	const idle = 50 * time.Millisecond
	const runs = 7
	late := make([]time.Duration, runs)
	for i := range late {
		start := time.Now()
		time.Sleep(idle / 8)
		late[i] = time.Since(start) - idle/8
	}
	slices.Sort(late)
	margin := 2*late[runs/2] + 3*time.Millisecond
	head, _ := firstFrames(t, 2)
	silences := make([]time.Duration, 0, runs)
	for range runs {
		var last atomic.Int64 // UnixNano after the last byte was flushed
		a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
			serveSSE(w, head)
			last.Store(time.Now().UnixNano())
			a.stall(r)
		})
		c := &httpstream.Client{BaseURL: a.base(), IdleTimeout: idle, Retries: -1}
		run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
		require.NoError(t, err)
		_, err = run.Wait()
		silent := time.Since(time.Unix(0, last.Load()))
		run.Close()
		require.ErrorIs(t, err, httpstream.ErrIdleTimeout)
		require.GreaterOrEqual(t, silent, idle, "cut after %v of silence", silent)
		silences = append(silences, silent)
	}
	slices.Sort(silences)
	median := silences[runs/2]
	assert.LessOrEqual(t, median, idle+idle/8+margin, "silences %v, margin %v", silences, margin)
}

// TestClientIdleBeforeHeaders checks a server that never answers: the call
// fails with ErrIdleTimeout instead of hanging.
func TestClientIdleBeforeHeaders(t *testing.T) {
	a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) { a.stall(r) })
	c := &httpstream.Client{BaseURL: a.base(), IdleTimeout: 100 * time.Millisecond}
	run, err := c.SubscribeToTask(context.Background(), "task.1", "")
	require.ErrorIs(t, err, httpstream.ErrIdleTimeout)
	assert.Nil(t, run)
}

// TestClientTimeout checks the overall deadline on a stalled server with
// the idle timeout off: the run ends with ErrTimeout, and does not
// resubscribe after it.
func TestClientTimeout(t *testing.T) {
	head, _ := firstFrames(t, 2)
	a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
		serveSSE(w, head)
		a.stall(r)
	})
	// 1s, not less: the headers must arrive before the deadline, also on a
	// loaded CI machine under -race.
	c := &httpstream.Client{BaseURL: a.base(), IdleTimeout: -1, Timeout: time.Second}
	run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
	require.NoError(t, err)
	defer run.Close()
	_, err = run.Wait()
	require.ErrorIs(t, err, httpstream.ErrTimeout)
	require.ErrorIs(t, err, reconstruct.ErrTruncated)
	assert.Len(t, a.requests(), 1)
}

// stalledRun starts a run on a server that sends two events and stalls,
// with the idle timeout off, and returns it once the first update is in.
func stalledRun(t *testing.T, ctx context.Context) (run *httpstream.Run, updates <-chan reconstruct.UpdateKind, done <-chan error) {
	t.Helper()
	head, _ := firstFrames(t, 2)
	a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
		serveSSE(w, head)
		a.stall(r)
	})
	c := &httpstream.Client{BaseURL: a.base(), IdleTimeout: -1}
	run, err := c.SendStreamingMessage(ctx, &httpstream.UserMessage{Text: "x"})
	require.NoError(t, err)
	kinds := make(chan reconstruct.UpdateKind, 100)
	end := make(chan error, 1)
	go func() {
		var last error
		for u, err := range run.Updates() {
			if err != nil {
				last = err
				break
			}
			kinds <- u.Kind
		}
		end <- last
	}()
	return run, kinds, end
}

// TestClientContextCancel checks that cancelling the context unblocks a
// read blocked on a silent server: the run ends truncated with the
// context's cause.
func TestClientContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run, kinds, end := stalledRun(t, ctx)
	defer run.Close()
	<-kinds
	cancel()
	done := make(chan struct{})
	var err error
	go func() { err = <-end; close(done) }()
	wait(t, done, "cancelled run")
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorIs(t, err, reconstruct.ErrTruncated)
	assert.Equal(t, "task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62", string(run.Result().TaskID))
}

// TestRunCloseWhileBlocked closes a run from other goroutines, twice at
// once, while its read is blocked: the read returns, the run ends with
// ErrClosed as its cause, and Close stays harmless afterwards.
func TestRunCloseWhileBlocked(t *testing.T) {
	run, kinds, end := stalledRun(t, context.Background())
	<-kinds
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			assert.NoError(t, run.Close())
		}()
	}
	done := make(chan struct{})
	var err error
	go func() { err = <-end; close(done) }()
	wait(t, done, "closed run")
	wg.Wait()
	require.ErrorIs(t, err, httpstream.ErrClosed)
	require.NoError(t, run.Close())
	require.ErrorIs(t, run.Result().Err, httpstream.ErrClosed)
}

// TestRunCloseBeforeRead closes a run before its updates are read: they
// end at once with ErrClosed.
func TestRunCloseBeforeRead(t *testing.T) {
	head, _ := firstFrames(t, 2)
	a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
		serveSSE(w, head)
		a.stall(r)
	})
	run, err := (&httpstream.Client{BaseURL: a.base()}).SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
	require.NoError(t, err)
	require.NoError(t, run.Close())
	_, err = run.Wait()
	require.ErrorIs(t, err, httpstream.ErrClosed)
	assert.Len(t, a.requests(), 1)
}

// TestRunLeaveLoop leaves the loop after the first update of a run whose
// server then stalls: the run is closed, and its updates cannot be read
// again.
func TestRunLeaveLoop(t *testing.T) {
	head, _ := firstFrames(t, 2)
	a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
		serveSSE(w, head)
		a.stall(r)
	})
	run, err := (&httpstream.Client{BaseURL: a.base()}).SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
	require.NoError(t, err)
	for range run.Updates() {
		break
	}
	require.ErrorIs(t, run.Result().Err, httpstream.ErrClosed)
	n := 0
	for _, err := range run.Updates() {
		n++
		require.ErrorIs(t, err, httpstream.ErrUpdatesUsed)
	}
	assert.Equal(t, 1, n)
}

// TestClientRetries makes every resubscription fail: the run makes
// exactly Retries of them (none with a negative Retries), with the backoff
// doubling up to MaxRetryDelay when Jitter is off, and ends truncated.
func TestClientRetries(t *testing.T) {
	head, lastID := firstFrames(t, 3)
	tests := []struct {
		name    string
		retries int
		want    []time.Duration
	}{
		{"three", 3, []time.Duration{2 * time.Millisecond, 4 * time.Millisecond, 5 * time.Millisecond}},
		{"default", 0, []time.Duration{2 * time.Millisecond, 4 * time.Millisecond, 5 * time.Millisecond, 5 * time.Millisecond, 5 * time.Millisecond}},
		{"off", -1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
				if n == 0 {
					serveSSE(w, head)
				} else {
					serveSSE(w, nil)
				}
				drop(t, w)
			})
			var got []time.Duration
			c := &httpstream.Client{BaseURL: a.base(), Retries: tt.retries, RetryDelay: 2 * time.Millisecond, MaxRetryDelay: 5 * time.Millisecond, Jitter: -1,
				OnResubscribe: func(r *httpstream.Resubscription) {
					assert.Equal(t, len(got)+1, r.Attempt)
					assert.Equal(t, lastID, r.LastEventID)
					assert.Equal(t, "task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62", r.TaskID)
					got = append(got, r.Delay)
				}}
			run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
			require.NoError(t, err)
			_, err = run.Wait()
			var trunc *reconstruct.TruncatedError
			require.ErrorAs(t, err, &trunc)
			assert.Equal(t, lastID, string(trunc.LastEventID))
			assert.Equal(t, tt.want, got)
			assert.Len(t, a.requests(), 1+len(tt.want))
			for _, r := range a.requests()[1:] {
				assert.Equal(t, lastID, r.header.Get("Last-Event-ID"))
			}
		})
	}
}

// TestClientJitter checks that the backoff waited lies between
// d*(1-Jitter) and d.
func TestClientJitter(t *testing.T) {
	head, _ := firstFrames(t, 3)
	for _, j := range []float64{0, 0.25, 1} {
		t.Run(strconv.FormatFloat(j, 'f', -1, 64), func(t *testing.T) {
			a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
				if n == 0 {
					serveSSE(w, head)
				}
				drop(t, w)
			})
			var got []time.Duration
			c := &httpstream.Client{BaseURL: a.base(), Retries: 4, RetryDelay: time.Millisecond, Jitter: j,
				OnResubscribe: func(r *httpstream.Resubscription) { got = append(got, r.Delay) }}
			run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
			require.NoError(t, err)
			_, err = run.Wait()
			require.ErrorIs(t, err, reconstruct.ErrTruncated)
			require.Len(t, got, 4)
			if j == 0 {
				j = httpstream.DefaultJitter
			}
			d := time.Millisecond
			for i, g := range got {
				lo := time.Duration(float64(d) * (1 - j))
				assert.True(t, lo <= g && g <= d, "delay %d: %v not in [%v, %v]", i, g, lo, d)
				d *= 2
			}
		})
	}
}

// TestClientRefused checks a resubscription the server refuses: the run
// stays cut, with the server's error as the cause.
func TestClientRefused(t *testing.T) {
	head, _ := firstFrames(t, 3)
	a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
		if n == 0 {
			serveSSE(w, head)
			drop(t, w)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"error":{"code":404,"status":"NOT_FOUND","message":"Task not found."}}`)
	})
	run, err := (&httpstream.Client{BaseURL: a.base(), RetryDelay: -1}).SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
	require.NoError(t, err)
	_, err = run.Wait()
	require.ErrorIs(t, err, reconstruct.ErrTruncated)
	var api *parser.APIError
	require.ErrorAs(t, err, &api)
	assert.Equal(t, int64(404), api.Code)
	assert.Len(t, a.requests(), 2)
}

// TestClientNoTask checks a stream cut before any event named the task:
// there is nothing to resubscribe to.
func TestClientNoTask(t *testing.T) {
	a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
		serveSSE(w, []byte(": keep-alive\n\n"))
		drop(t, w)
	})
	run, err := (&httpstream.Client{BaseURL: a.base()}).SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
	require.NoError(t, err)
	_, err = run.Wait()
	require.ErrorIs(t, err, reconstruct.ErrTruncated)
	assert.Len(t, a.requests(), 1)
}

// TestClientErrors checks the answers that are no stream: the call fails
// with the typed error and no run.
func TestClientErrors(t *testing.T) {
	tests := []struct {
		name        string
		status      int
		contentType string
		body        string
		check       func(t *testing.T, err error)
	}{
		{"REST error document", 401, "application/json", `{"error":{"code":401,"status":"UNAUTHENTICATED","message":"bad token"}}`, func(t *testing.T, err error) {
			var api *parser.APIError
			require.ErrorAs(t, err, &api)
			assert.Equal(t, int64(401), api.Code)
		}},
		{"HTML page with 200", 200, "text/html; charset=utf-8", "<!DOCTYPE html><html><body>Sign in</body></html>", func(t *testing.T, err error) {
			var ne *reconstruct.NotEventStreamError
			require.ErrorAs(t, err, &ne)
			require.ErrorIs(t, err, reconstruct.ErrNotEventStream)
			assert.Equal(t, "text/html; charset=utf-8", ne.ContentType)
			assert.Equal(t, "<!DOCTYPE html><html><body>Sign in</body></html>", string(ne.Head))
			assert.Contains(t, err.Error(), `"text/html; charset=utf-8"`)
			assert.Contains(t, err.Error(), `"<!DOCTYPE html>`)
		}},
		{"HTML 502", 502, "text/html", "<h1>Bad gateway</h1>", func(t *testing.T, err error) {
			var he *reconstruct.HTTPError
			require.ErrorAs(t, err, &he)
			assert.Equal(t, 502, he.StatusCode)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.contentType)
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.body)
			})
			run, err := (&httpstream.Client{BaseURL: a.base()}).SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
			assert.Nil(t, run)
			tt.check(t, err)
		})
	}
	t.Run("unreachable", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		u := srv.URL
		srv.Close()
		run, err := (&httpstream.Client{BaseURL: u}).SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
		assert.Nil(t, run)
		require.Error(t, err)
		assert.False(t, errors.Is(err, reconstruct.ErrTruncated))
	})
}

// failWriter fails every write.
type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

// TestClientTeeFails checks that a Tee that fails ends the run with its
// error as the cause, without a resubscription.
func TestClientTeeFails(t *testing.T) {
	head, _ := firstFrames(t, 3)
	a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
		serveSSE(w, head)
		a.stall(r)
	})
	disk := errors.New("disk full")
	run, err := (&httpstream.Client{BaseURL: a.base(), Tee: failWriter{disk}}).SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "x"})
	require.NoError(t, err)
	_, err = run.Wait()
	require.ErrorIs(t, err, disk)
	require.ErrorIs(t, err, reconstruct.ErrTruncated)
	assert.Len(t, a.requests(), 1)
}

// TestClientSubscribeDropBeforeEvents drops a subscription before its
// first event: the run resubscribes with the task id and Last-Event-ID it
// was given, and completes.
func TestClientSubscribeDropBeforeEvents(t *testing.T) {
	completed, err := samples.Streams.ReadFile("completed.sse")
	require.NoError(t, err)
	a := newAgent(t, func(a *agent, n int, w http.ResponseWriter, r *http.Request) {
		if n == 0 {
			serveSSE(w, []byte(": keep-alive\n\n"))
			drop(t, w)
			return
		}
		serveSSE(w, completed)
	})
	run, err := (&httpstream.Client{BaseURL: a.base(), RetryDelay: -1}).SubscribeToTask(context.Background(), "task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62", "7")
	require.NoError(t, err)
	res, err := run.Wait()
	require.NoError(t, err)
	assert.Equal(t, parser.TaskStateCompleted, res.State)
	reqs := a.requests()
	require.Len(t, reqs, 2)
	for _, r := range reqs {
		assert.Equal(t, "/a2a/tasks/task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62:subscribe", r.path)
		assert.Equal(t, "7", r.header.Get("Last-Event-ID"))
	}
}
