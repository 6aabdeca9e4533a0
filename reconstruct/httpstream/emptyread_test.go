package httpstream_test

import (
	"io"
	"net/http"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct/httpstream"
)

// stallBody is a response body that returns no data and no error stalls
// times before each event it hands out, and counts its reads.
type stallBody struct {
	events [][]byte
	stalls int
	left   int // empty reads still to make before the next event
	reads  int
}

func (b *stallBody) Read(p []byte) (int, error) {
	b.reads++
	if len(b.events) == 0 {
		return 0, io.EOF
	}
	if b.left > 0 {
		b.left--
		return 0, nil
	}
	n := copy(p, b.events[0])
	if b.events[0] = b.events[0][n:]; len(b.events[0]) == 0 {
		b.events = b.events[1:]
		b.left = b.stalls
	}
	return n, nil
}

func (b *stallBody) Close() error { return nil }

// stallTransport answers the first request with body and refuses others.
type stallTransport struct{ body *stallBody }

func (t stallTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close()
	}
	return &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": {"text/event-stream"}},
		Body:       t.body,
		Request:    req,
	}, nil
}

// TestClientEmptyReads checks that a run reads its body by the empty-read
// rule of sse.ReadSome: up to sse.MaxEmptyReads-1 reads in a row with no
// data and no error are read past, and sse.MaxEmptyReads of them end the
// connection with io.ErrNoProgress, after exactly that many reads.
func TestClientEmptyReads(t *testing.T) {
	tests := []struct {
		name    string
		stalls  int
		wantErr error
	}{
		{"read past", sse.MaxEmptyReads - 1, nil},
		{"no progress", sse.MaxEmptyReads, io.ErrNoProgress},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events, answer := tokenStream(3)
			body := &stallBody{events: slices.Clone(events), stalls: tt.stalls}
			c := &httpstream.Client{BaseURL: "http://agent.test/a2a", Retries: -1, HTTP: &http.Client{Transport: stallTransport{body}}}
			run, err := c.SendStreamingMessage(t.Context(), &httpstream.UserMessage{Text: "hi"})
			require.NoError(t, err)
			res, err := run.Wait()
			if tt.wantErr == nil {
				require.NoError(t, err)
				assert.Equal(t, answer, string(res.Answer.Text()))
				return
			}
			require.ErrorIs(t, err, tt.wantErr)
			// The first event is read, then MaxEmptyReads empty reads.
			assert.Equal(t, 1+sse.MaxEmptyReads, body.reads, "reads of the body")
		})
	}
}
