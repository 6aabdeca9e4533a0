package sse_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/sse"
)

func TestPositionString(t *testing.T) {
	tests := []struct {
		name string
		pos  sse.Position
		want string
	}{
		{"everything", sse.Position{Offset: 1024, Seq: 3, ID: []byte("ev-7")}, `frame 3 (id "ev-7") at byte 1024`},
		{"no frame yet", sse.Position{Offset: 0}, `at byte 0`},
		{"no id", sse.Position{Offset: 9, Seq: 1}, `frame 1 at byte 9`},
		{"id only", sse.Position{Offset: -1, ID: []byte("a")}, `(id "a")`},
		{"offset unknown", sse.Position{Offset: -1, Seq: 2}, `frame 2`},
		{"nothing known", sse.Position{Offset: -1}, ``},
		{"odd id quoted", sse.Position{Offset: 5, ID: []byte("a\"\n\xff")}, `(id "a\"\n\xff") at byte 5`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.pos.String())
			assert.Equal(t, "pos: "+tt.want, string(tt.pos.Append([]byte("pos: "))), "Append appends")
		})
	}
}

// TestFramePosition checks that a frame's position owns its id: the lexer
// reusing its buffers does not change it.
func TestFramePosition(t *testing.T) {
	lx := sse.NewLexer(nil)
	lx.Write([]byte("id: 7\ndata: a\n\nid: 8\ndata: b\n\ndata: c\n\n"))
	require.True(t, lx.Next())
	pos := lx.Frame().Position()
	assert.Equal(t, sse.Position{Offset: 0, Seq: 1, ID: []byte("7")}, pos)
	for lx.Next() {
	}
	lx.Reset(nil)
	lx.Write([]byte("id: 9\ndata: x\n\n"))
	require.True(t, lx.Next())
	assert.Equal(t, sse.Position{Offset: 0, Seq: 1, ID: []byte("7")}, pos, "after the lexer moved on")

	lx = sse.NewLexer(nil)
	lx.Write([]byte("data: a\n\n"))
	require.True(t, lx.Next())
	assert.Nil(t, lx.Frame().Position().ID, "no id is nil")
}
