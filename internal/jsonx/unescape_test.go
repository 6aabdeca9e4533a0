package jsonx

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAppendUnescaped checks the unescaper under both surrogate policies:
// the same text for everything but a lone surrogate, which is U+FFFD under
// SurrogateReplace and its WTF-8 form under SurrogateWTF8; and the index of
// the first bad escape, with what came before it kept.
func TestAppendUnescaped(t *testing.T) {
	tests := []struct {
		name          string
		raw           string
		replace, wtf8 string // the text under each policy
		bad           int
	}{
		{"no escapes", "abc", "abc", "abc", -1},
		{"all short escapes", `\"\\\/\b\f\n\r\t`, "\"\\/\b\f\n\r\t", "\"\\/\b\f\n\r\t", -1},
		{"escapes between text", `a\"b\\c\/d\b\f\n\r\t`, "a\"b\\c/d\b\f\n\r\t", "a\"b\\c/d\b\f\n\r\t", -1},
		{"two-byte UTF-8", `\u00e9`, "é", "é", -1},
		{"three-byte UTF-8", `\u2028`, "\u2028", "\u2028", -1},
		{"upper-case hex", `caf\u00E9 \u4E2D`, "café 中", "café 中", -1},
		{"pair", `\ud83d\ude00`, "😀", "😀", -1},
		{"highest pair", `\udbff\udfff`, "\U0010FFFF", "\U0010FFFF", -1},
		{"lone high, lowest", `\ud800`, "\uFFFD", "\xed\xa0\x80", -1},
		{"lone high, highest", `\udbff`, "\uFFFD", "\xed\xaf\xbf", -1},
		{"lone low, lowest", `\udc00`, "\uFFFD", "\xed\xb0\x80", -1},
		{"lone low, highest", `\udfff`, "\uFFFD", "\xed\xbf\xbf", -1},
		{"low then high", `\ude00\ud83d`, "\uFFFD\uFFFD", "\xed\xb8\x80\xed\xa0\xbd", -1},
		{"high then text", `\ud83dx`, "\uFFFDx", "\xed\xa0\xbdx", -1},
		{"high then non-low escape", `\ud83d\u0041`, "\uFFFDA", "\xed\xa0\xbdA", -1},
		{"high then truncated escape", `\ud83d\u12`, "\uFFFD", "\xed\xa0\xbd", 6},
		{"invalid escape", `ab\qc`, "ab", "ab", 2},
		{"short \\u", `\u12`, "", "", 0},
		{"non-hex \\u", `x\u12g4`, "x", "x", 1},
		{"backslash at end", `a\`, "a", "a", 1},
		{"control character copied (Valid refuses it first)", "a\x01", "a\x01", "a\x01", -1},
		{"invalid UTF-8 kept", "\xc3\x28\xff", "\xc3\x28\xff", "\xc3\x28\xff", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, p := range []struct {
				name   string
				policy SurrogatePolicy
				want   string
			}{{"SurrogateReplace", SurrogateReplace, tt.replace}, {"SurrogateWTF8", SurrogateWTF8, tt.wtf8}} {
				got, bad := AppendUnescaped([]byte("pre:"), []byte(tt.raw), p.policy)
				assert.Equal(t, "pre:"+p.want, string(got), "%s: AppendUnescaped(%q)", p.name, tt.raw)
				assert.Equal(t, tt.bad, bad, "%s: AppendUnescaped(%q): bad", p.name, tt.raw)
			}
			// KeyEqual matches a key against a name by the
			// SurrogateReplace text.
			if tt.bad < 0 {
				assert.True(t, KeyEqual([]byte(tt.raw), tt.replace), "KeyEqual(%q, %q)", tt.raw, tt.replace)
			}
			assert.False(t, KeyEqual([]byte(tt.raw), tt.replace+"x"), "KeyEqual(%q, %q)", tt.raw, tt.replace+"x")
		})
	}
}

// TestAppendUnescapedEveryBMPEscape checks every \uXXXX that is not a
// surrogate against utf8.AppendRune under both policies, and every
// surrogate against its generalized UTF-8 form (SurrogateWTF8) and U+FFFD
// (SurrogateReplace). It runs 2×65536 checks: each is guarded by its own
// condition and calls require only on failure, as a testify call per check
// would be most of the test's time.
func TestAppendUnescapedEveryBMPEscape(t *testing.T) {
	const hexdigits = "0123456789abcdef"
	raw := []byte(`\u0000`)
	for r := rune(0); r <= 0xFFFF; r++ {
		raw[2], raw[3], raw[4], raw[5] = hexdigits[r>>12], hexdigits[r>>8&15], hexdigits[r>>4&15], hexdigits[r&15]
		want, wantWTF8 := utf8.AppendRune(nil, r), utf8.AppendRune(nil, r)
		if r >= 0xD800 && r < 0xE000 {
			wantWTF8 = []byte{0xED, 0x80 | byte(r>>6)&0x3F, 0x80 | byte(r)&0x3F}
		}
		got, bad := AppendUnescaped(nil, raw, SurrogateReplace)
		if bad >= 0 || string(got) != string(want) {
			require.Failf(t, "SurrogateReplace", "%s = %x (bad at %d), want %x", raw, got, bad, want)
		}
		got, bad = AppendUnescaped(nil, raw, SurrogateWTF8)
		if bad >= 0 || string(got) != string(wantWTF8) {
			require.Failf(t, "SurrogateWTF8", "%s = %x (bad at %d), want %x", raw, got, bad, wantWTF8)
		}
	}
}
