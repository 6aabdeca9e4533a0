package sse_test

import (
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/a2astream/a2astream/parser/sse"
)

// TestSyntaxErrorText checks that a SyntaxError names the package once,
// also when it wraps one of the package's own sentinels, and counts one
// byte in the singular.
func TestSyntaxErrorText(t *testing.T) {
	tests := []struct {
		name string
		err  sse.SyntaxError
		want string
	}{
		{"own sentinel", sse.SyntaxError{Position: sse.Position{Offset: 9}, Size: 20, Err: sse.ErrEventTooLarge},
			"sse: at byte 9, 20 bytes: event exceeds MaxEventSize"},
		{"one byte", sse.SyntaxError{Position: sse.Position{Offset: 3, Seq: 1}, Size: 1, Err: io.ErrUnexpectedEOF},
			"sse: after frame 1 at byte 3, 1 byte: unexpected EOF"},
		{"reader's error", sse.SyntaxError{Position: sse.Position{Offset: 0}, Err: errors.New("sse: not ours but spelled so")},
			"sse: at byte 0: not ours but spelled so"},
		{"no cause", sse.SyntaxError{Position: sse.Position{Offset: 4}}, "sse: at byte 4: syntax error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.err.Error())
		})
	}
}
