package sse_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/sse"
)

// stallReader returns no data and no error for its first stalls reads,
// then reads from r.
type stallReader struct {
	stalls int
	calls  int
	r      io.Reader
}

func (s *stallReader) Read(p []byte) (int, error) {
	s.calls++
	if s.calls <= s.stalls {
		return 0, nil
	}
	return s.r.Read(p)
}

// TestReadSome checks the one read rule of the package: reads that return
// nothing are retried, up to MaxEmptyReads in a row, then io.ErrNoProgress;
// anything else is returned as the read returned it.
func TestReadSome(t *testing.T) {
	tests := []struct {
		name      string
		stalls    int
		src       string
		buf       int
		wantN     int
		wantErr   error
		wantCalls int
	}{
		{"data at once", 0, "abc", 8, 3, nil, 1},
		{"data after empty reads", sse.MaxEmptyReads - 1, "abc", 8, 3, nil, sse.MaxEmptyReads},
		{"no progress", sse.MaxEmptyReads, "abc", 8, 0, io.ErrNoProgress, sse.MaxEmptyReads},
		{"end of input", 3, "", 8, 0, io.EOF, 4},
		{"empty buffer", 0, "abc", 0, 0, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &stallReader{stalls: tt.stalls, r: strings.NewReader(tt.src)}
			n, err := sse.ReadSome(r, make([]byte, tt.buf))
			assert.Equal(t, tt.wantN, n)
			assert.Equal(t, tt.wantErr, err)
			assert.Equal(t, tt.wantCalls, r.calls)
		})
	}
}

// TestLexerFillNoProgress: Fill reads by the same rule, so a reader stuck
// at (0, nil) is reported by Fill itself, with nothing written.
func TestLexerFillNoProgress(t *testing.T) {
	lx := sse.NewLexer(nil)
	r := &stallReader{stalls: sse.MaxEmptyReads + 1, r: strings.NewReader("data: a\n\n")}
	n, err := lx.Fill(r, sse.ReadSize)
	assert.Zero(t, n)
	assert.ErrorIs(t, err, io.ErrNoProgress)
	assert.Zero(t, lx.Buffered())
	n, err = lx.Fill(r, sse.ReadSize)
	require.NoError(t, err)
	assert.Equal(t, 9, n)
	require.True(t, lx.Next())
	assert.Equal(t, "a", string(lx.Frame().Data))
}

// TestLexerResume: after Resume the offsets of frames and errors go on
// from the bytes received before it, the cut event's bytes included, while
// Seq and the last event ID start over.
func TestLexerResume(t *testing.T) {
	lx := sse.NewLexer(nil)
	first := "id: 1\ndata: a\n\nid: 2\ndata: cut"
	lx.Write([]byte(first))
	require.True(t, lx.Next())
	require.False(t, lx.Next())
	lx.Resume()
	assert.Equal(t, int64(len(first)), lx.InputOffset())
	assert.Empty(t, lx.LastEventID())
	second := "data: b\n\ndata: again"
	lx.Write([]byte(second))
	require.True(t, lx.Next())
	f := lx.Frame()
	assert.Equal(t, int64(len(first)), f.Offset)
	assert.Equal(t, int64(1), f.Seq)
	assert.Empty(t, f.ID)
	err := lx.Close()
	var se *sse.SyntaxError
	require.True(t, errors.As(err, &se), "%v", err)
	assert.Equal(t, int64(len(first)+len("data: b\n\n")), se.Offset)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
}
