package errtext_test

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/internal/errtext"
)

// TestAppendText checks each kind of character: the ones that could make
// a terminal act or reorder the text are escaped as strconv.Quote escapes
// them, the rest is kept, quotes and backslashes included.
func TestAppendText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", `no such task "t-1" at C:\tmp`, `no such task "t-1" at C:\tmp`},
		{"CSI and OSC", "a\x1b[2J\x1b]0;PWNED\x07b", `a\x1b[2J\x1b]0;PWNED\ab`},
		{"newline, tab, CR, NUL, DEL", "a\nb\tc\rd\x00e\x7f", `a\nb\tc\rd\x00e\x7f`},
		{"C1", "\u009b31m\u0085\u009d", `\u009b31m\u0085\u009d`},
		{"bidi", "take 5\u202e01 gm\u202c \u2067x\u2069 \u200e\u200f\u061c", `take 5\u202e01 gm\u202c \u2067x\u2069 \u200e\u200f\u061c`},
		{"ill-formed UTF-8, byte by byte", "a\xff\xe2\x82b\xc2", `a\xff\xe2\x82b\xc2`},
		{"other characters are text", "é 🦶 \uFFFD \u00a0 \u200b\u200d שלום", "é 🦶 \uFFFD \u00a0 \u200b\u200d שלום"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(errtext.AppendText([]byte("x: "), tt.in))
			assert.Equal(t, "x: "+tt.want, got)
			assert.Equal(t, got, string(errtext.AppendText([]byte("x: "), got[3:])), "written again, unchanged")
		})
	}
	var escaped []rune
	for r := rune(0); r < 0x10000; r++ {
		if s := string(errtext.AppendText(nil, string(r))); s != string(r) {
			assert.Equal(t, strconv.QuoteRune(r), "'"+s+"'", "as strconv escapes %U", r)
			escaped = append(escaped, r)
		}
	}
	assert.Len(t, escaped, 0x20+1+0x20+12, "C0, DEL, C1 and the 12 bidi characters: %U", escaped)
}

// FuzzAppendText checks, for any text: the result is valid UTF-8 with no
// control or bidirectional formatting character, writing it again changes
// nothing, and a text without quotes or backslashes is read back by
// strconv.Unquote.
func FuzzAppendText(f *testing.F) {
	for _, s := range []string{"a\x1b[2Jb", "\u009b\u202e\xff", "C:\\tmp \"x\"", "\xe2\x80", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := string(errtext.AppendText(nil, s))
		require.True(t, utf8.ValidString(got), "%q", got)
		for _, r := range got {
			require.False(t, r < 0x20 || r >= 0x7f && r <= 0x9f || errtext.Bidi(r), "%U in %q", r, got)
		}
		require.Equal(t, got, string(errtext.AppendText(nil, got)))
		if !strings.ContainsAny(s, "\"\\") {
			back, err := strconv.Unquote(`"` + got + `"`)
			require.NoError(t, err, "%q", got)
			require.Equal(t, s, back)
		}
	})
}
