package bench

// This file measures the clients end to end over loopback HTTP: the
// library's httpstream.Client reading a run to its Result, a2a-go v2's
// client iterating the same run's events (no reduction: the floor of what
// an a2a-go user pays), and a bare http.Get reading the body to io.Discard
// (the transport's own cost). The server is this test binary run again as
// a child process (see TestMain), so that the process CPU time measured
// here is the client's alone; it serves pre-rendered streams of a2a-go's
// shape (UUID event ids, one flush per event, as a2a-go's server writes
// them) in both bindings, the same bytes to every client.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct/httpstream"
)

// e2eServerEnv, set in a child process, makes TestMain serve the streams
// instead of running the tests.
const e2eServerEnv = "A2ASTREAM_BENCH_E2E_SERVER"

// e2eSizes are the numbers of answer deltas of the served streams: a short
// answer and a long one.
var e2eSizes = []int{300, 3000}

// TestMain runs the tests, or, in the child process the end-to-end
// benchmarks start, serves the streams until its standard input closes.
func TestMain(m *testing.M) {
	if os.Getenv(e2eServerEnv) != "" {
		serveE2E()
		return
	}
	os.Exit(m.Run())
}

// e2eStream is one run rendered as both bindings' SSE bodies.
type e2eStream struct {
	// rest and rpc are the bodies, one event per element (id and data
	// lines and the blank line), for the HTTP+JSON and JSON-RPC bindings.
	rest, rpc [][]byte
	// answer is the answer's text; thinking the narration's.
	answer, thinking string
	// events is the number of events.
	events int
}

// uuid returns a random (version 4) UUID drawn from rng.
func uuid(rng *rand.Rand) string {
	var u [16]byte
	for i := range u {
		u[i] = byte(rng.Uint32())
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	h := fmt.Sprintf("%x", u[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// buildE2E renders a token-streaming run with a2a-go's types and
// encoding: the task, a working status, a narration artifact of a tenth of
// the deltas closed as intermediate thinking, a status with a message, the
// answer in deltas of one to three words, its consolidating close (the
// whole text, not appended), and COMPLETED. Every event has a UUID id; the
// JSON-RPC body wraps each response in {"jsonrpc","id","result"}.
func buildE2E(deltas int) *e2eStream {
	rng := rand.New(rand.NewPCG(uint64(deltas), 20))
	taskID, ctxID, rpcID := a2a.TaskID(uuid(rng)), uuid(rng), uuid(rng)
	ts := time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC)
	s := &e2eStream{}
	add := func(ev a2a.Event) {
		result, err := json.Marshal(a2a.StreamResponse{Event: ev})
		if err != nil {
			panic(err)
		}
		rpc, err := json.Marshal(struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      string          `json:"id"`
			Result  json.RawMessage `json:"result"`
		}{"2.0", rpcID, result})
		if err != nil {
			panic(err)
		}
		id := uuid(rng)
		s.rest = append(s.rest, []byte("id: "+id+"\ndata: "+string(result)+"\n\n"))
		s.rpc = append(s.rpc, []byte("id: "+id+"\ndata: "+string(rpc)+"\n\n"))
		s.events++
	}
	status := func(state a2a.TaskState, text string, meta map[string]any) {
		st := a2a.TaskStatus{State: state, Timestamp: &ts}
		if text != "" {
			st.Message = &a2a.Message{ID: uuid(rng), Role: a2a.MessageRoleAgent, Parts: a2a.ContentParts{a2a.NewTextPart(text)}}
		}
		add(&a2a.TaskStatusUpdateEvent{TaskID: taskID, ContextID: ctxID, Status: st, Metadata: meta})
	}
	delta := func(artID a2a.ArtifactID, first bool, meta map[string]any) string {
		var t strings.Builder
		for range 1 + rng.IntN(3) {
			t.WriteString(plainWords[rng.IntN(len(plainWords))])
			if rng.IntN(8) == 0 {
				t.WriteString(wideWords[rng.IntN(len(wideWords))])
			}
		}
		add(&a2a.TaskArtifactUpdateEvent{TaskID: taskID, ContextID: ctxID, Append: !first,
			Artifact: &a2a.Artifact{ID: artID, Parts: a2a.ContentParts{a2a.NewTextPart(t.String())}, Metadata: meta}})
		return t.String()
	}

	add(&a2a.Task{ID: taskID, ContextID: ctxID, Status: a2a.TaskStatus{State: a2a.TaskStateSubmitted, Timestamp: &ts}})
	status(a2a.TaskStateWorking, "", nil)
	think := a2a.ArtifactID(uuid(rng))
	var text strings.Builder
	for i := range max(deltas/10, 1) {
		text.WriteString(delta(think, i == 0, nil))
	}
	s.thinking = text.String()
	add(&a2a.TaskArtifactUpdateEvent{TaskID: taskID, ContextID: ctxID, Append: true, LastChunk: true,
		Artifact: &a2a.Artifact{ID: think, Parts: a2a.ContentParts{a2a.NewTextPart("")}, Metadata: map[string]any{"type": "intermediate-thinking"}}})
	status(a2a.TaskStateWorking, "Looking up the latest labs…", nil)
	answer := a2a.ArtifactID(uuid(rng))
	text.Reset()
	for i := range deltas {
		text.WriteString(delta(answer, i == 0, nil))
	}
	s.answer = text.String()
	add(&a2a.TaskArtifactUpdateEvent{TaskID: taskID, ContextID: ctxID, LastChunk: true,
		Artifact: &a2a.Artifact{ID: answer, Parts: a2a.ContentParts{a2a.NewTextPart(s.answer)}}})
	status(a2a.TaskStateCompleted, "", map[string]any{"$usage": map[string]any{"inputTokens": 3210, "outputTokens": deltas}})
	return s
}

// e2eStreams are the streams of e2eSizes, built once per process.
var e2eStreams = sync.OnceValue(func() map[int]*e2eStream {
	m := map[int]*e2eStream{}
	for _, n := range e2eSizes {
		m[n] = buildE2E(n)
	}
	return m
})

// e2eModes are the ways the server writes a body: "event" flushes after
// every event, as a2a-go's server does (a live run: about one event per
// read); "bulk" writes the body at once (a run read after it was made,
// or by a client that fell behind: reads full of events).
var e2eModes = []string{"event", "bulk"}

// e2eBody returns the body a request path names, one event per element:
// /{mode}/{deltas} the JSON-RPC body, /{mode}/{deltas}/message:stream the
// HTTP+JSON one; perEvent says whether the mode flushes every event.
func e2eBody(urlPath string) (body [][]byte, perEvent, ok bool) {
	path, rest := strings.CutSuffix(strings.TrimPrefix(urlPath, "/"), "/message:stream")
	mode, size, _ := strings.Cut(path, "/")
	n, err := strconv.Atoi(size)
	s := e2eStreams()[n]
	if err != nil || s == nil || (mode != "event" && mode != "bulk") {
		return nil, false, false
	}
	if rest {
		return s.rest, mode == "event", true
	}
	return s.rpc, mode == "event", true
}

// setE2EHeaders sets a2a-go's response headers of a stream.
func setE2EHeaders(h http.Header) {
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
}

// e2eHandler serves the bodies of e2eBody with a2a-go's response headers,
// flushing after every event in the "event" mode. It reads and drops the
// request body first.
func e2eHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		body, perEvent, ok := e2eBody(r.URL.Path)
		if !ok {
			http.NotFound(w, r)
			return
		}
		setE2EHeaders(w.Header())
		w.WriteHeader(http.StatusOK)
		if !perEvent {
			_, _ = w.Write(bytes.Join(body, nil))
			return
		}
		f := w.(http.Flusher)
		for _, ev := range body {
			if _, err := w.Write(ev); err != nil {
				return
			}
			f.Flush()
		}
	})
}

// memTransport answers the requests of e2eHandler from memory, with no
// network: the body is handed out one event per Read in the "event" mode
// (as a client reading a live run over the network gets it), and as much as
// a Read asks for in the "bulk" mode. A client read through it costs its
// own work alone, what it does beyond the transport.
type memTransport struct{}

func (memTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		req.Body.Close()
	}
	body, perEvent, ok := e2eBody(req.URL.Path)
	if !ok {
		return nil, fmt.Errorf("no stream at %s", req.URL.Path)
	}
	h := http.Header{}
	setE2EHeaders(h)
	return &http.Response{Status: "200 OK", StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: &eventsBody{events: body, perEvent: perEvent}, ContentLength: -1, Request: req}, nil
}

// eventsBody reads events in turn, ending each Read at an event's end when
// perEvent is set.
type eventsBody struct {
	events   [][]byte
	cur      []byte
	perEvent bool
}

func (b *eventsBody) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(b.cur) == 0 {
			if len(b.events) == 0 {
				break
			}
			b.cur, b.events = b.events[0], b.events[1:]
		}
		k := copy(p[n:], b.cur)
		b.cur, n = b.cur[k:], n+k
		if b.perEvent && len(b.cur) == 0 {
			break
		}
	}
	if n == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return n, nil
}

func (b *eventsBody) Close() error { return nil }

// serveE2E is the child process: it serves e2eHandler on 127.0.0.1,
// writes the server's URL as its first line of output, and exits when its
// standard input closes.
func serveE2E() {
	srv := httptest.NewServer(e2eHandler())
	fmt.Println(srv.URL)
	_, _ = io.Copy(io.Discard, os.Stdin)
	srv.Close()
}

// startE2EServer starts the child process that serves the streams and
// returns its URL; the process ends with the test.
func startE2EServer(tb testing.TB) string {
	exe, err := os.Executable()
	require.NoError(tb, err)
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), e2eServerEnv+"=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	require.NoError(tb, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(tb, err)
	require.NoError(tb, cmd.Start())
	tb.Cleanup(func() {
		stdin.Close()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(tb, err, "the server process wrote no URL")
	u := strings.TrimSpace(line)
	require.True(tb, strings.HasPrefix(u, "http://127.0.0.1:"), "server URL %q", u)
	return u
}

// e2eBindings are the bindings measured, with their URL paths below the
// size's.
var e2eBindings = []struct {
	name    string
	binding parser.Binding
	proto   a2a.TransportProtocol
	path    string
}{
	{"jsonrpc", parser.BindingJSONRPC, a2a.TransportProtocolJSONRPC, ""},
	{"rest", parser.BindingREST, a2a.TransportProtocolHTTPJSON, "/message:stream"},
}

// newE2EHTTP returns the HTTP client of one measurement: its own transport,
// so that every client starts with the same pool of kept-alive connections.
func newE2EHTTP() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
}

// e2eClient is one way to read a served run: new returns a function that
// reads the stream at base (the size's URL) in binding bi, and returns the
// number of events seen (a2a-go's client alone counts them).
type e2eClient struct {
	name string
	new  func(tb testing.TB, hc *http.Client, base string, bi int) func() (events int, err error)
}

var e2eClients = []e2eClient{
	{"a2astream", func(tb testing.TB, hc *http.Client, base string, bi int) func() (int, error) {
		c := &httpstream.Client{BaseURL: base, Binding: e2eBindings[bi].binding, HTTP: hc}
		return func() (int, error) {
			run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: "Summarise the labs."})
			if err != nil {
				return 0, err
			}
			defer run.Close()
			res, err := run.Wait()
			if err != nil {
				return 0, err
			}
			if res.State != parser.TaskStateCompleted || res.Answer == nil {
				return 0, fmt.Errorf("run ended in %v with answer %v", res.State, res.Answer)
			}
			return 0, nil
		}
	}},
	{"a2a-go", func(tb testing.TB, hc *http.Client, base string, bi int) func() (int, error) {
		b := e2eBindings[bi]
		opt := a2aclient.WithJSONRPCTransport(hc)
		if b.binding == parser.BindingREST {
			opt = a2aclient.WithRESTTransport(hc)
		}
		c, err := a2aclient.NewFromEndpoints(context.Background(), []*a2a.AgentInterface{a2a.NewAgentInterface(base, b.proto)}, opt)
		require.NoError(tb, err)
		return func() (int, error) {
			msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("Summarise the labs."))
			n := 0
			for _, err := range c.SendStreamingMessage(context.Background(), &a2a.SendMessageRequest{Message: msg}) {
				if err != nil {
					return 0, err
				}
				n++
			}
			return n, nil
		}
	}},
	{"http", func(tb testing.TB, hc *http.Client, base string, bi int) func() (int, error) {
		u := base + e2eBindings[bi].path
		return func() (int, error) {
			resp, err := hc.Get(u)
			if err != nil {
				return 0, err
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				return 0, fmt.Errorf("status %s", resp.Status)
			}
			_, err = io.Copy(io.Discard, resp.Body)
			return 0, err
		}
	}},
}

// TestE2EClients checks that the served streams are read whole by both
// clients in both bindings: every event by a2a-go's, with the answer's
// deltas joining to the answer and COMPLETED last; the answer, thinking
// and state by ours; and the bare body is the rendered bytes. Both clients
// read the runs through memTransport whole too.
func TestE2EClients(t *testing.T) {
	url := startE2EServer(t)
	hc := newE2EHTTP()
	for _, mode := range e2eModes {
		for _, n := range e2eSizes {
			want := e2eStreams()[n]
			for bi, b := range e2eBindings {
				base := url + "/" + mode + "/" + strconv.Itoa(n)
				t.Run(mode+"/"+strconv.Itoa(n)+"/"+b.name, func(t *testing.T) {
					c := &httpstream.Client{BaseURL: base, Binding: b.binding, HTTP: hc}
					run, err := c.SendStreamingMessage(t.Context(), &httpstream.UserMessage{Text: "hi"})
					require.NoError(t, err)
					res, err := run.Wait()
					require.NoError(t, err)
					require.Equal(t, parser.TaskStateCompleted, res.State)
					require.NotNil(t, res.Answer)
					require.Equal(t, want.answer, string(res.Answer.Text()))
					require.Len(t, res.Thinking(), 1)
					require.Equal(t, want.thinking, string(res.Thinking()[0].Text()))

					opt := a2aclient.WithJSONRPCTransport(hc)
					if b.binding == parser.BindingREST {
						opt = a2aclient.WithRESTTransport(hc)
					}
					ac, err := a2aclient.NewFromEndpoints(t.Context(), []*a2a.AgentInterface{a2a.NewAgentInterface(base, b.proto)}, opt)
					require.NoError(t, err)
					var events []a2a.Event
					msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("hi"))
					for ev, err := range ac.SendStreamingMessage(t.Context(), &a2a.SendMessageRequest{Message: msg}) {
						require.NoError(t, err)
						events = append(events, ev)
					}
					require.Len(t, events, want.events)
					var answer strings.Builder
					for _, ev := range events[len(events)-n-2 : len(events)-2] {
						au, ok := ev.(*a2a.TaskArtifactUpdateEvent)
						require.True(t, ok, "%T", ev)
						answer.WriteString(au.Artifact.Parts[0].Text())
					}
					require.Equal(t, want.answer, answer.String())
					last, ok := events[len(events)-1].(*a2a.TaskStatusUpdateEvent)
					require.True(t, ok)
					require.Equal(t, a2a.TaskStateCompleted, last.Status.State)

					resp, err := hc.Get(base + b.path)
					require.NoError(t, err)
					defer resp.Body.Close()
					body, err := io.ReadAll(resp.Body)
					require.NoError(t, err)
					wantBody := want.rpc
					if b.binding == parser.BindingREST {
						wantBody = want.rest
					}
					require.Equal(t, bytes.Join(wantBody, nil), body)

					mem := &http.Client{Transport: memTransport{}}
					for _, cl := range e2eClients {
						got, err := cl.new(t, hc, base, bi)()
						require.NoError(t, err, cl.name)
						if cl.name == "a2a-go" {
							require.Equal(t, want.events, got)
						}
					}
					// Through memTransport, as BenchmarkE2ERatio reads: a2a-go
					// every event, ours the answer.
					got, err := e2eClients[1].new(t, mem, base, bi)()
					require.NoError(t, err, "a2a-go in memory")
					require.Equal(t, want.events, got)
					mr, err := (&httpstream.Client{BaseURL: base, Binding: b.binding, HTTP: mem}).SendStreamingMessage(t.Context(), &httpstream.UserMessage{Text: "hi"})
					require.NoError(t, err)
					res, err = mr.Wait()
					require.NoError(t, err)
					require.Equal(t, want.answer, string(res.Answer.Text()))
				})
			}
		}
	}
}

// BenchmarkE2E reads each served run with each client in turn:
// E2E/<mode>/<deltas>/<binding>/<client>. It reports the process CPU time
// (the client's alone: the server is another process) and the allocations
// per event of the run, cpu-ns/event and allocs/event, beside the usual
// figures per run. With -short only the short run is read.
func BenchmarkE2E(b *testing.B) {
	url := startE2EServer(b)
	sizes := e2eSizes
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, mode := range e2eModes {
		for _, n := range sizes {
			s := e2eStreams()[n]
			for bi, bd := range e2eBindings {
				body := s.rpc
				if bd.binding == parser.BindingREST {
					body = s.rest
				}
				size := len(bytes.Join(body, nil))
				for _, cl := range e2eClients {
					b.Run(mode+"/"+strconv.Itoa(n)+"/"+bd.name+"/"+cl.name, func(b *testing.B) {
						hc := newE2EHTTP()
						defer hc.CloseIdleConnections()
						read := cl.new(b, hc, url+"/"+mode+"/"+strconv.Itoa(n), bi)
						// One run first, so that the connection is open.
						_, err := read()
						require.NoError(b, err)
						b.SetBytes(int64(size))
						b.ReportAllocs()
						var ms0, ms1 runtime.MemStats
						runtime.ReadMemStats(&ms0)
						cpu := cpuNow()
						for b.Loop() {
							if _, err := read(); err != nil {
								b.Fatal(err)
							}
						}
						d := cpuNow() - cpu
						runtime.ReadMemStats(&ms1)
						events := float64(s.events) * float64(b.N)
						b.ReportMetric(float64(d.Nanoseconds())/events, "cpu-ns/event")
						b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/events, "allocs/event")
						b.ReportMetric(float64(s.events), "events/op")
					})
				}
			}
		}
	}
}

// BenchmarkE2ERatio measures, for each served run, what the CPU time per
// event of the two clients comes to against each other, in one state of
// the machine: E2ERatio/<mode>/<deltas>/<binding>. Each iteration gives
// five readings in turn a slice of at least e2eSlice each, the order
// rotating: our client, a2a-go's and a bare http.Get over loopback HTTP,
// then both clients through memTransport (the same reads, no network).
// Within its slice a reading reads the run again and again, as a program
// making runs would, its buffers and pools warm, so that the garbage one
// leaves is mostly collected on its own time. It reports the medians over
// the iterations of each reading's process CPU time per event (ours,
// a2a-go, http, ours-mem, a2a-go-mem, in ns) and of two ratios: x, a2a-go's
// CPU over ours over loopback (the transport included, which both pay),
// and mem-x, the same in memory (each client's own work, beyond the
// transport).
//
//	go test -run '^$' -bench E2ERatio -benchtime 10x .
func BenchmarkE2ERatio(b *testing.B) {
	url := startE2EServer(b)
	sizes := e2eSizes
	if testing.Short() {
		sizes = sizes[:1]
	}
	mem := &http.Client{Transport: memTransport{}}
	for _, mode := range e2eModes {
		for _, n := range sizes {
			s := e2eStreams()[n]
			for bi, bd := range e2eBindings {
				b.Run(mode+"/"+strconv.Itoa(n)+"/"+bd.name, func(b *testing.B) {
					hc := newE2EHTTP()
					defer hc.CloseIdleConnections()
					base := url + "/" + mode + "/" + strconv.Itoa(n)
					readings := []struct {
						name string
						read func() (int, error)
					}{
						{"ours", e2eClients[0].new(b, hc, base, bi)},
						{"a2a-go", e2eClients[1].new(b, hc, base, bi)},
						{"http", e2eClients[2].new(b, hc, base, bi)},
						{"ours-mem", e2eClients[0].new(b, mem, base, bi)},
						{"a2a-go-mem", e2eClients[1].new(b, mem, base, bi)},
					}
					for _, r := range readings {
						// One run first, so that the connection is open.
						_, err := r.read()
						require.NoError(b, err, r.name)
					}
					cpu := make([][]float64, len(readings))
					var x, memX []float64
					i := 0
					for b.Loop() {
						got := make([]float64, len(readings))
						for k := range readings {
							j := (i + k) % len(readings)
							runs, c0, start := 0, cpuNow(), time.Now()
							for runs == 0 || time.Since(start) < e2eSlice {
								if _, err := readings[j].read(); err != nil {
									b.Fatal(readings[j].name, err)
								}
								runs++
							}
							got[j] = float64(cpuNow()-c0) / float64(runs*s.events)
						}
						i++
						for j, g := range got {
							cpu[j] = append(cpu[j], g)
						}
						if got[0] > 0 && got[3] > 0 {
							x = append(x, got[1]/got[0])
							memX = append(memX, got[4]/got[3])
						}
					}
					for j, r := range readings {
						b.ReportMetric(median(cpu[j]), r.name+"-ns/event")
					}
					b.ReportMetric(median(x), "x")
					b.ReportMetric(median(memX), "mem-x")
				})
			}
		}
	}
}

// e2eSlice is the least time BenchmarkE2ERatio gives a reading in turn.
const e2eSlice = 20 * time.Millisecond

// median returns the median of v, which it sorts; 0 for none.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	return v[len(v)/2]
}
