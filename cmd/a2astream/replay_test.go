package main

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
)

// TestResumeStdoutOnce cuts the connection inside every artifact update of
// every sample, after the first, and resubscribes to an agent that replays
// as Corti's does (a task snapshot, then the frames from the start of the
// artifact being streamed, not from Last-Event-ID): stdout holds the text
// of the uncut run, each character once, and no replacement is told.
func TestResumeStdoutOnce(t *testing.T) {
	for _, name := range sampleNames(t) {
		for _, rpc := range []bool{false, true} {
			binding, args := "REST", []string{"-m", "x", "--retry-delay", "1ms"}
			data := sample(t, name)
			if rpc {
				binding, args, data = "JSON-RPC", append(args, "--jsonrpc"), toJSONRPC(data)
			}
			t.Run(name+"/"+binding, func(t *testing.T) {
				want := runWith(t, []string{"-"}, bytes.NewReader(data), nil)
				require.NotEmpty(t, want.stdout, "the uncut run's stdout")
				cuts := 0
				for _, cut := range artifactFrames(t, data) {
					if cut == 0 {
						continue
					}
					p := planCut(t, data, cut, rpc)
					a := newAgent(t, reply{body: p.firstPart(), cut: true}, reply{body: p.rest()})
					got := runWith(t, append(args, a.url()), nil, nil)
					assert.Equal(t, want.code, got.code, "cut in frame %d: exit code; stderr:\n%s", cut, got.stderr)
					require.Equal(t, want.stdout, got.stdout, "cut in frame %d: stdout", cut)
					assert.NotContains(t, got.stderr, "replaced", "cut in frame %d: stderr", cut)
					assert.Equal(t, 2, a.requests(), "cut in frame %d: requests", cut)
					cuts++
				}
				require.NotZero(t, cuts, "cuts")
			})
		}
	}
}

// artifactFrames returns the indexes of the frames of a stream that are
// artifact updates.
func artifactFrames(t *testing.T, data []byte) []int {
	t.Helper()
	lx := sse.NewLexer(nil)
	dec := parser.NewDecoder()
	lx.Write(data)
	lx.Close()
	var out []int
	for i := 0; lx.Next(); i++ {
		ev, err := dec.Decode(lx.Frame())
		require.NoError(t, err, "frame "+strconv.Itoa(i))
		if ev.Kind == parser.KindArtifactUpdate {
			out = append(out, i)
		}
	}
	return out
}
