package errtext_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/a2astream/a2astream/internal/errtext"
)

func TestAppendCause(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"same package", errors.New("reconstruct: event after a terminal state"), "event after a terminal state"},
		{"other package", errors.New("parser: invalid JSON"), "parser: invalid JSON"},
		{"longer package name", errors.New("reconstructx: y"), "reconstructx: y"},
		{"prefix alone", errors.New("reconstruct: "), "reconstruct: "},
		{"no prefix", errors.New("disk full"), "disk full"},
		{"nil", nil, "unknown error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, "x: "+tt.want, string(errtext.AppendCause([]byte("x: "), "reconstruct", tt.err)))
		})
	}
}

func TestEndsWith(t *testing.T) {
	sentinel := errors.New("parser: invalid JSON")
	tests := []struct {
		name    string
		message string
		want    bool
	}{
		{"the sentinel", "parser: invalid JSON", true},
		{"same package, prefix dropped", "parser: frame 5 at byte 916, data byte 1: invalid JSON", true},
		{"same package, prefix twice (older documents)", "parser: frame 5 at byte 916: parser: invalid JSON", true},
		{"other package", "reconstruct: result document at byte 3: parser: invalid JSON", true},
		{"other package, prefix dropped", "reconstruct: result document at byte 3: invalid JSON", false},
		{"another reason", "parser: frame 5: invalid value for field", false},
		{"reason inside", "parser: frame 5: invalid JSON here", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, errtext.EndsWith(tt.message, sentinel))
		})
	}
	assert.True(t, errtext.EndsWith("x: unexpected EOF", errors.New("unexpected EOF")), "a sentinel without a prefix")
}

// TestBidi checks the twelve characters of Unicode's Bidi_Control
// property and their neighbours, which are not in it.
func TestBidi(t *testing.T) {
	for _, r := range []rune{0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069} {
		assert.True(t, errtext.Bidi(r), "%U", r)
	}
	for _, r := range []rune{'a', 0x061b, 0x061d, 0x200b, 0x200c, 0x200d, 0x2029, 0x202f, 0x2060, 0x2065, 0x206a, 0xfeff, 0x05d0, 0x0627} {
		assert.False(t, errtext.Bidi(r), "%U", r)
	}
}
