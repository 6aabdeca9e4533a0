package sse_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/sse"
)

// An event that passes MaxEventSize is reported as soon as it passes it,
// not when its blank line arrives (or never, when no blank line comes): a
// Lexer fed 40 times the limit of one unfinished event has reported it once,
// with the event's offset and Size MaxEventSize+1, while holding no more
// than the limit. Reading goes on with the next event after it.
func TestLexerOversizedEventReportedWhenItPasses(t *testing.T) {
	const limit = 1 << 10
	for _, line := range []string{"data: ", ": "} { // an event, a comment line
		t.Run(strings.TrimSpace(line), func(t *testing.T) {
			lx := sse.NewLexer(&sse.Options{MaxEventSize: limit})
			_, err := lx.Write([]byte("data: a\n\n" + line))
			require.NoError(t, err)
			require.True(t, lx.Next())
			var reports []error
			fed := 9 + len(line)
			chunk := bytes.Repeat([]byte("x"), 100)
			reportedAt := -1
			for fed < 40*limit {
				_, err := lx.Write(chunk)
				require.NoError(t, err)
				fed += len(chunk)
				for lx.Next() {
					require.FailNow(t, "a frame from inside the oversized event", "%q", lx.Frame().Data)
				}
				if err := lx.Err(); err != nil {
					reports = append(reports, err)
					if reportedAt < 0 {
						reportedAt = fed
					}
				}
				assert.LessOrEqual(t, lx.Buffered(), limit+len(chunk))
			}
			require.Len(t, reports, 1, "reported once: %v", reports)
			assert.LessOrEqual(t, reportedAt, 9+limit+1+len(chunk), "reported in the Write that passed the limit")
			var se *sse.SyntaxError
			require.True(t, errors.As(reports[0], &se))
			assert.ErrorIs(t, se, sse.ErrEventTooLarge)
			assert.Equal(t, int64(9), se.Offset)
			assert.Equal(t, int64(limit+1), se.Size)

			_, err = lx.Write([]byte("\n\ndata: next\n\n"))
			require.NoError(t, err)
			require.True(t, lx.Next(), "the event after the oversized one: %v", lx.Err())
			assert.Equal(t, "next", string(lx.Frame().Data))
			require.NoError(t, lx.Close())
		})
	}
}

// The Reader reports it as soon as it passes too, and the rest of a stream
// that never ends is not waited for.
func TestReaderOversizedEventReportedWhenItPasses(t *testing.T) {
	const limit = 1 << 10
	r := sse.NewReader(&endless{prefix: []byte("data: a\n\ndata: ")}, &sse.Options{MaxEventSize: limit})
	require.True(t, r.Next())
	assert.False(t, r.Next())
	assert.ErrorIs(t, r.Err(), sse.ErrEventTooLarge)
}

// endless is a reader of prefix and then 'x' for ever.
type endless struct{ prefix []byte }

func (e *endless) Read(p []byte) (int, error) {
	n := copy(p, e.prefix)
	e.prefix = e.prefix[n:]
	for i := n; i < len(p); i++ {
		p[i] = 'x'
	}
	return len(p), nil
}
