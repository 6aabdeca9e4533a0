package a2ago_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/a2ago"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serve returns a2a-go's client of the binding protocol for a server that
// answers every request with the SSE stream body.
func serve(t *testing.T, protocol a2a.TransportProtocol, body string) *a2aclient.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	c, err := a2aclient.NewFromEndpoints(context.Background(), []*a2a.AgentInterface{a2a.NewAgentInterface(srv.URL, protocol)})
	require.NoError(t, err)
	return c
}

// legacyQuestion is an A2A 0.3 REST stream: its INPUT_REQUIRED question
// has its parts under "content", which a2a-go v2.4.0 skips as an unknown
// member.
const legacyQuestion = "data: {\"task\":{\"id\":\"t1\",\"contextId\":\"c1\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}\n\n" +
	"data: {\"statusUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c1\",\"status\":{\"state\":\"TASK_STATE_INPUT_REQUIRED\",\"message\":{\"messageId\":\"m1\",\"role\":\"ROLE_AGENT\",\"content\":[{\"text\":\"Which patient?\"}]}}}}\n\n"

// legacyArtifact is the same kind of stream whose artifact has its parts
// under "content".
const legacyArtifact = "data: {\"task\":{\"id\":\"t1\",\"contextId\":\"c1\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}\n\n" +
	"data: {\"artifactUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c1\",\"lastChunk\":true,\"artifact\":{\"artifactId\":\"a1\",\"content\":[{\"text\":\"The answer.\"}]}}}\n\n" +
	"data: {\"statusUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c1\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}}\n\n"

// The byte path refuses a stream whose message or artifact carries its
// parts in a shape it does not read (parser.ErrLegacyShape); a2a-go
// hands the message or artifact on without parts. The adapter says so with
// an a2ago.ErrNoParts diagnostic naming the member, which ends the run
// under Strict.
func TestNoPartsDiagnostic(t *testing.T) {
	tests := []struct {
		name, in, pointer string
		artifact          bool
	}{
		{"status message", legacyQuestion, "/statusUpdate/status/message/parts", false},
		{"artifact", legacyArtifact, "/artifactUpdate/artifact/parts", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wire, err := reconstruct.Read(strings.NewReader(tt.in), nil)
			if tt.artifact {
				// NOTE: the byte path skips an artifact's "content" as
				// an unknown member too, silently.
				require.NoError(t, err, "the byte path")
				assert.Empty(t, wire.Answer.Text(), "the byte path")
			} else {
				require.ErrorIs(t, err, parser.ErrLegacyShape, "the byte path")
			}

			c := serve(t, a2a.TransportProtocolHTTPJSON, tt.in)
			res, err := a2ago.Reduce(c.SendStreamingMessage(context.Background(), request("hi")), nil)
			require.NoError(t, err)
			require.Len(t, res.Diagnostics, 1, "diagnostics: %v", res.Diagnostics)
			d := &res.Diagnostics[0]
			assert.ErrorIs(t, d, a2ago.ErrNoParts)
			assert.Equal(t, tt.pointer, d.JSONPointer)
			assert.Equal(t, int64(2), d.Seq, "the event's ordinal")
			if tt.artifact {
				assert.Equal(t, "a1", string(d.ArtifactID))
			} else {
				require.NotNil(t, res.StatusMessage)
				assert.Empty(t, res.StatusMessage.Parts, "a2a-go dropped the question")
			}

			c = serve(t, a2a.TransportProtocolHTTPJSON, tt.in)
			res, err = a2ago.Reduce(c.SendStreamingMessage(context.Background(), request("hi")), &reconstruct.Options{Strict: true})
			require.ErrorIs(t, err, a2ago.ErrNoParts, "under Strict")
			assert.Equal(t, parser.TaskStateWorking, res.State, "the event was not applied")
		})
	}
}

// splitBytes is a JSON-RPC stream whose agent splits the UTF-8 bytes of ø
// (C3 B8) between two deltas, as raw bytes in the JSON strings.
const splitBytes = "data: {\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{\"task\":{\"id\":\"t1\",\"contextId\":\"c1\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}}\n\n" +
	"data: {\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{\"artifactUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c1\",\"artifact\":{\"artifactId\":\"a1\",\"parts\":[{\"text\":\"J\xc3\"}]}}}}\n\n" +
	"data: {\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{\"artifactUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c1\",\"append\":true,\"lastChunk\":true,\"artifact\":{\"artifactId\":\"a1\",\"parts\":[{\"text\":\"\xb8rgensen\"}]}}}}\n\n" +
	"data: {\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{\"statusUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c1\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}}}\n\n"

// A character split between deltas, as raw bytes or as the escapes of a
// surrogate pair, reaches the adapter as U+FFFD at the end of one delta
// and the start of the next (a2a-go's JSON decoding replaced the halves);
// the byte path joins them. The adapter reports it once per run with an
// a2ago.ErrReplacedText diagnostic naming the first delta's artifact.
func TestReplacedTextDiagnostic(t *testing.T) {
	tests := []struct{ name, in, want, wire string }{
		{"raw bytes", splitBytes, "J\uFFFD\uFFFDrgensen", "Jørgensen"},
		{"surrogate escapes", splitPair, "pied \uFFFD\uFFFD.", "pied 🦶."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wire, err := reconstruct.Read(strings.NewReader(tt.in), nil)
			require.NoError(t, err)
			assert.Equal(t, tt.wire, string(wire.Answer.Text()), "the byte path")
			assert.Empty(t, wire.Diagnostics, "the byte path")

			c := serve(t, a2a.TransportProtocolJSONRPC, tt.in)
			var live strings.Builder
			var res *reconstruct.Result
			for u, err := range a2ago.Updates(c.SendStreamingMessage(context.Background(), request("hi")), nil) {
				require.NoError(t, err)
				switch u.Kind {
				case reconstruct.UpdateText:
					live.Write(u.Text)
				case reconstruct.UpdateDone:
					res = u.Result
				}
			}
			require.NotNil(t, res)
			assert.Equal(t, tt.want, live.String(), "live text")
			assert.Equal(t, tt.want, string(res.Answer.Text()))
			require.Len(t, res.Diagnostics, 1, "one per run: %v", res.Diagnostics)
			d := &res.Diagnostics[0]
			assert.ErrorIs(t, d, a2ago.ErrReplacedText)
			assert.Equal(t, "a1", string(d.ArtifactID))
			assert.Equal(t, "/artifactUpdate/artifact/parts", d.JSONPointer)
			assert.Equal(t, int64(2), d.Seq, "the first delta")
		})
	}
}
