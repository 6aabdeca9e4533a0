package a2ago_test

import (
	"errors"
	"io/fs"
	"testing"
	"unicode/utf8"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/internal/samples"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/a2ago"
)

// TestErrorTextsEscaped ends a run through a2a-go with a server's error
// and with a transport error whose texts hold control and bidirectional
// formatting characters: the run's error text holds none of them raw, and
// the APIError's Message keeps the text as sent.
func TestErrorTextsEscaped(t *testing.T) {
	const hostile = "x\x1b]0;PWNED\x07\x1b[2J\u009b31m 5\u202e01\u2067\r\nFAKE"
	data, err := fs.ReadFile(samples.Streams, "completed.sse")
	require.NoError(t, err)
	all := sampleEvents(t, data)
	cut := all[:len(all)/2]
	for name, end := range map[string]error{
		"server error":    a2a.NewError(a2a.ErrTaskNotFound, hostile),
		"transport error": errors.New(hostile),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := a2ago.Reduce(seqOf(cut, end), nil)
			require.Error(t, err)
			msg := err.Error()
			require.True(t, utf8.ValidString(msg), "%q", msg)
			for _, r := range msg {
				require.False(t, r < 0x20 || r >= 0x7f && r <= 0x9f || r == 0x202e || r == 0x2067, "%U in %q", r, msg)
			}
			assert.Contains(t, msg, `x\x1b]0;PWNED\a\x1b[2J\u009b31m 5\u202e01\u2067\r\nFAKE`)
			var api *parser.APIError
			if errors.As(err, &api) {
				assert.Contains(t, api.Message, hostile)
			} else {
				assert.ErrorIs(t, err, reconstruct.ErrTruncated)
			}
		})
	}
}
