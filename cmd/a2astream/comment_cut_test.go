package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A keep-alive comment cut at the end of the stream belongs to no event: it
// is no cut event, so --frames and --events print no DecodeError line for
// it and --json reports no cut inside an event.
func TestCommentCutAtEnd(t *testing.T) {
	completed := sample(t, "completed.sse")
	tests := []struct {
		name string
		in   string
		code int
	}{
		{"alone", ": keep-al", exitTruncated},
		{"after a completed run", string(completed) + ": keep-al", 0},
		{"after a cut between events", string(completed[:bytes.Index(completed, []byte("\n\n"))+2]) + ": keep-al", exitTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, mode := range []string{"--frames", "--events"} {
				res := runWith(t, []string{mode, "-"}, strings.NewReader(tt.in), nil)
				assert.Equal(t, tt.code, res.code, "%s: %s", mode, res.stderr)
				for sc := bufio.NewScanner(strings.NewReader(res.stdout)); sc.Scan(); {
					var line struct{ Kind string }
					require.NoError(t, json.Unmarshal(sc.Bytes(), &line), "%s line %s", mode, sc.Text())
					assert.NotEqual(t, "DecodeError", line.Kind, "%s line %s", mode, sc.Text())
				}
				assert.NotContains(t, res.stderr, "inside an event", mode)
			}
			res := runWith(t, []string{"--json", "-"}, strings.NewReader(tt.in), nil)
			assert.Equal(t, tt.code, res.code, res.stderr)
			var doc struct {
				Error *struct {
					Type        string
					InsideEvent bool `json:"insideEvent"`
				}
			}
			require.NoError(t, json.Unmarshal([]byte(res.stdout), &doc))
			if tt.code == 0 {
				assert.Nil(t, doc.Error)
				return
			}
			require.NotNil(t, doc.Error)
			assert.Equal(t, "truncated", doc.Error.Type)
			assert.False(t, doc.Error.InsideEvent)
		})
	}
}
