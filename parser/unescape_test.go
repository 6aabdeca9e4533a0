package parser

import (
	"testing"
	"unicode/utf8"
)

func TestAppendUnescaped(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want string
		bad  int
	}{
		{"no escapes", "abc", "abc", -1},
		{"all short escapes", `\"\\\/\b\f\n\r\t`, "\"\\/\b\f\n\r\t", -1},
		{"two-byte UTF-8", `\u00e9`, "é", -1},
		{"three-byte UTF-8", `\u2028`, "\u2028", -1},
		{"pair", `\ud83d\ude00`, "😀", -1},
		{"highest pair", `\udbff\udfff`, "\U0010FFFF", -1},
		{"lone high, lowest", `\ud800`, "\xed\xa0\x80", -1},
		{"lone high, highest", `\udbff`, "\xed\xaf\xbf", -1},
		{"lone low, lowest", `\udc00`, "\xed\xb0\x80", -1},
		{"lone low, highest", `\udfff`, "\xed\xbf\xbf", -1},
		{"high then truncated escape", `\ud83d\u12`, "\xed\xa0\xbd", 6},
		{"high then text", `\ud83dx`, "\xed\xa0\xbdx", -1},
		{"invalid escape", `ab\qc`, "ab", 2},
		{"short \\u", `\u12`, "", 0},
		{"non-hex \\u", `x\u12g4`, "x", 1},
		{"backslash at end", `a\`, "a", 1},
		{"control character copied (jsonx refuses it first)", "a\x01", "a\x01", -1},
		{"invalid UTF-8 kept", "\xc3\x28\xff", "\xc3\x28\xff", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, bad := appendUnescaped([]byte("pre:"), []byte(tt.raw))
			if bad != tt.bad {
				t.Errorf("bad = %d, want %d", bad, tt.bad)
			}
			if string(got) != "pre:"+tt.want {
				t.Errorf("got %q, want %q", got, "pre:"+tt.want)
			}
		})
	}
}

// TestAppendUnescapedEveryBMPEscape checks every \uXXXX that is not a
// surrogate against utf8.AppendRune, and every surrogate against its
// generalized UTF-8 form.
func TestAppendUnescapedEveryBMPEscape(t *testing.T) {
	const hexdigits = "0123456789abcdef"
	raw := []byte(`\u0000`)
	for r := rune(0); r <= 0xFFFF; r++ {
		raw[2], raw[3], raw[4], raw[5] = hexdigits[r>>12], hexdigits[r>>8&15], hexdigits[r>>4&15], hexdigits[r&15]
		got, bad := appendUnescaped(nil, raw)
		if bad >= 0 {
			t.Fatalf("%s: bad at %d", raw, bad)
		}
		if r >= 0xD800 && r < 0xE000 {
			want := []byte{0xED, 0x80 | byte(r>>6)&0x3F, 0x80 | byte(r)&0x3F}
			if string(got) != string(want) {
				t.Fatalf("%s = %x, want %x", raw, got, want)
			}
			continue
		}
		if want := utf8.AppendRune(nil, r); string(got) != string(want) {
			t.Fatalf("%s = %x, want %x", raw, got, want)
		}
	}
}
