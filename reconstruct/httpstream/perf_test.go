package httpstream_test

// The costs of a run that do not show in its Result: the connections it
// leaves for the next run and the allocations per event.

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/reconstruct/httpstream"
)

// tokenStream returns a token-streaming run as a2a-go's server writes it,
// one element per event: the task, n one-word deltas of the answer with a
// UUID-like id each, the consolidating close and COMPLETED; and the
// answer's text.
func tokenStream(n int) (events [][]byte, answer string) {
	const ids = `"taskId":"0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62","contextId":"0192f4c8-3d6b-7c4f-a02b-4d9e7f3c8b51"`
	const art = "0192f4c8-7bb0-7a83-b46f-81d2bd7acf95"
	add := func(data string) {
		id := fmt.Sprintf("%08x-4e7c-4d50-b13c-5eaf8a4d9c62", len(events))
		events = append(events, []byte("id: "+id+"\ndata: "+data+"\n\n"))
	}
	words := []string{"The ", "patient ", "reports ", "mild ", "dyspnea ", "on ", "exertion, ", "café ", "血压 ", "8.2 % "}
	add(`{"task":{"id":"0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62","contextId":"0192f4c8-3d6b-7c4f-a02b-4d9e7f3c8b51","status":{"state":"TASK_STATE_WORKING"}}}`)
	var text strings.Builder
	for i := range n {
		w := words[i%len(words)]
		text.WriteString(w)
		ap := `"append":true,`
		if i == 0 {
			ap = ""
		}
		add(`{"artifactUpdate":{` + ids + `,` + ap + `"artifact":{"artifactId":"` + art + `","parts":[{"text":"` + w + `"}]}}}`)
	}
	add(`{"artifactUpdate":{` + ids + `,"lastChunk":true,"artifact":{"artifactId":"` + art + `","parts":[{"text":"` + text.String() + `"}]}}}`)
	add(`{"statusUpdate":{` + ids + `,"status":{"state":"TASK_STATE_COMPLETED","timestamp":"2026-12-02T04:00:00Z"}}}`)
	return events, text.String()
}

// watchedBody records whether its body was read to its end before it was
// closed.
type watchedBody struct {
	io.ReadCloser
	eof    atomic.Bool
	closed chan bool // receives eof once, at the first Close
	once   sync.Once
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.eof.Store(true)
	}
	return n, err
}

func (b *watchedBody) Close() error {
	b.once.Do(func() { b.closed <- b.eof.Load() })
	return b.ReadCloser.Close()
}

// watchingTransport wraps each response's body in a watchedBody and sends
// it on bodies.
type watchingTransport struct {
	http.RoundTripper
	bodies chan *watchedBody
}

func (t *watchingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.RoundTripper.RoundTrip(req)
	if err == nil {
		b := &watchedBody{ReadCloser: resp.Body, closed: make(chan bool, 1)}
		resp.Body = b
		t.bodies <- b
	}
	return resp, err
}

// TestClientReadsBodyToEnd ends a run at its terminal event and reads the
// rest of the body before closing it, so that the transport can keep the
// connection for the next request; a body that never ends is closed after
// a short wait. The run ends at once either way.
func TestClientReadsBodyToEnd(t *testing.T) {
	events, answer := tokenStream(20)
	for _, tc := range []struct {
		name    string
		close   bool // the caller closes the run after Wait, as with defer run.Close()
		endless bool // the server keeps the response open after the terminal event
		wantEOF bool // the body was read to its end before it was closed
	}{
		{name: "run left open", wantEOF: true},
		{name: "run closed", close: true, wantEOF: true},
		{name: "body never ends", endless: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			release := make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write(bytes.Join(events, nil))
				w.(http.Flusher).Flush()
				if tc.endless {
					<-r.Context().Done()
					return
				}
				<-release
			}))
			defer srv.Close()
			tr := &watchingTransport{RoundTripper: &http.Transport{}, bodies: make(chan *watchedBody, 1)}
			c := &httpstream.Client{BaseURL: srv.URL, HTTP: &http.Client{Transport: tr}}
			run, err := c.SendStreamingMessage(t.Context(), &httpstream.UserMessage{Text: "hi"})
			require.NoError(t, err)
			res, err := run.Wait()
			require.NoError(t, err)
			require.Equal(t, answer, string(res.Answer.Text()))
			if tc.close {
				run.Close()
			}
			close(release)
			select {
			case eof := <-(<-tr.bodies).closed:
				assert.Equal(t, tc.wantEOF, eof, "whether the body was read to its end before it was closed")
			case <-time.After(10 * time.Second):
				t.Fatal("the body was never closed")
			}
		})
	}
}

// eventBody is a response body that hands out one event per Read, as a
// live stream arrives, and io.EOF with the last.
type eventBody struct {
	events [][]byte
	i      int
}

func (b *eventBody) Read(p []byte) (int, error) {
	if b.i == len(b.events) {
		return 0, io.EOF
	}
	n := copy(p, b.events[b.i])
	if n < len(b.events[b.i]) {
		b.events[b.i] = b.events[b.i][n:]
		return n, nil
	}
	b.i++
	if b.i == len(b.events) {
		return n, io.EOF
	}
	return n, nil
}

func (b *eventBody) Close() error { return nil }

// streamTransport answers every request with the events of a run, one
// per Read.
type streamTransport struct{ events [][]byte }

func (t streamTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close()
	}
	return &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": {"text/event-stream"}},
		Body:       &eventBody{events: slices.Clone(t.events)},
		Request:    req,
	}, nil
}

// TestClientAllocsPerEvent reads runs of token deltas, one event per read,
// through a Client: the allocations of a run, the request's included,
// stay under one per event, and an event more costs no allocation (the
// allocations of a run of twice the deltas grow only by those of its
// longer texts, a few doublings).
func TestClientAllocsPerEvent(t *testing.T) {
	allocs := func(n int) (float64, int) {
		events, answer := tokenStream(n)
		c := &httpstream.Client{BaseURL: "http://agent.test/a2a", HTTP: &http.Client{Transport: streamTransport{events}}}
		read := func() {
			run, err := c.SendStreamingMessage(t.Context(), &httpstream.UserMessage{Text: "hi"})
			require.NoError(t, err)
			res, err := run.Wait()
			require.NoError(t, err)
			require.Equal(t, len(answer), len(res.Answer.Text()))
		}
		read()
		return testing.AllocsPerRun(10, read), len(events)
	}
	short, nShort := allocs(5000)
	long, nLong := allocs(10000)
	t.Logf("%.0f allocations for %d events, %.0f for %d", short, nShort, long, nLong)
	assert.Less(t, short/float64(nShort), 1.0, "allocations per event, %d events", nShort)
	assert.Less(t, long/float64(nLong), 1.0, "allocations per event, %d events", nLong)
	assert.LessOrEqual(t, long-short, 10.0, "allocations of %d events more", nLong-nShort)
}

// chunkBody is a response body that hands out data in reads of at most
// size bytes.
type chunkBody struct {
	data []byte
	size int
}

func (b *chunkBody) Read(p []byte) (int, error) {
	if len(b.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), b.size)], b.data)
	b.data = b.data[n:]
	if len(b.data) == 0 {
		return n, io.EOF
	}
	return n, nil
}

func (b *chunkBody) Close() error { return nil }

// chunkTransport answers every request with data in reads of at most size
// bytes.
type chunkTransport struct {
	data []byte
	size int
}

func (t chunkTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close()
	}
	return &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": {"text/event-stream"}},
		Body:       &chunkBody{data: t.data, size: t.size},
		Request:    req,
	}, nil
}

// TestClientReadSizeKeepsBuffersSmall reads a run of small events in
// reads of 512 bytes and in reads of 32 KiB (a body that arrived at
// once): the run allocates no more bytes with the large reads than with
// the small ones, 16 KiB aside, so that its buffers are sized by its
// events and not by what the transport hands out at once.
func TestClientReadSizeKeepsBuffersSmall(t *testing.T) {
	events, answer := tokenStream(300)
	data := bytes.Join(events, nil)
	allocated := func(size int) uint64 {
		c := &httpstream.Client{BaseURL: "http://agent.test/a2a", HTTP: &http.Client{Transport: chunkTransport{data, size}}}
		read := func() {
			run, err := c.SendStreamingMessage(t.Context(), &httpstream.UserMessage{Text: "hi"})
			require.NoError(t, err)
			res, err := run.Wait()
			require.NoError(t, err)
			require.Equal(t, answer, string(res.Answer.Text()))
		}
		read()
		const runs = 20
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range runs {
			read()
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / runs
	}
	small, large := allocated(512), allocated(32<<10)
	t.Logf("bytes allocated per run of %d bytes: %d with 512-byte reads, %d with 32 KiB reads", len(data), small, large)
	assert.LessOrEqual(t, large, small+16<<10)
}
