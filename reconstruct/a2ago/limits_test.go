package a2ago_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/a2ago"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// splitPair is a JSON-RPC stream whose agent splits the UTF-16 surrogate
// pair of 🦶 (U+1F9B6) between two deltas' escapes, as a server that
// counts UTF-16 code units may.
const splitPair = "data: {\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{\"task\":{\"id\":\"t1\",\"contextId\":\"c1\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}}\n\n" +
	"data: {\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{\"artifactUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c1\",\"artifact\":{\"artifactId\":\"a1\",\"parts\":[{\"text\":\"pied \\ud83e\"}]}}}}\n\n" +
	"data: {\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{\"artifactUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c1\",\"append\":true,\"lastChunk\":true,\"artifact\":{\"artifactId\":\"a1\",\"parts\":[{\"text\":\"\\uddb6.\"}]}}}}\n\n" +
	"data: {\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{\"statusUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c1\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}}}\n\n"

// TestSplitSurrogatePair documents a limit of a2a-go that the adapter
// cannot undo: a2a-go's client decodes each event with encoding/json, which
// turns each half of a surrogate pair split between two deltas into
// U+FFFD, while a2astream's byte path joins the halves into the character.
func TestSplitSurrogatePair(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(splitPair))
	}))
	defer srv.Close()

	wire, err := reconstruct.Read(strings.NewReader(splitPair), nil)
	require.NoError(t, err)
	assert.Equal(t, "pied 🦶.", string(wire.Answer.Text()))

	c, err := a2aclient.NewFromEndpoints(context.Background(), []*a2a.AgentInterface{a2a.NewAgentInterface(srv.URL, a2a.TransportProtocolJSONRPC)})
	require.NoError(t, err)
	res, err := a2ago.Reduce(c.SendStreamingMessage(context.Background(), request("hi")), nil)
	require.NoError(t, err)
	assert.Equal(t, "pied \uFFFD\uFFFD.", string(res.Answer.Text()))
}
