package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/citations"
)

// TestAppendVisible checks the sign of each kind of character, and that
// showing a text in pieces cut between characters gives the same as
// showing it whole.
func TestAppendVisible(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"printable, newline and tab", "a b\n\tc é 🦶 \uFFFD", "a b\n\tc é 🦶 \uFFFD"},
		{"ESC, BEL, CR, NUL", "\x1b]0;x\x07\r\x00", "␛]0;x␇␍␀"},
		{"every C0 but newline and tab", "\x01\x08\x0b\x0c\x1f", "␁␈␋␌␟"},
		{"DEL", "a\x7fb", "a␡b"},
		{"C1", "\u0080 \u009b2J \u009f", `\u0080 \u009b2J \u009f`},
		{"a C1 byte alone", "a\x9bb", "a\uFFFDb"},
		{"a truncated sequence is one U+FFFD", "A\xe2\x82 B", "A\uFFFD B"},
		{"a lone surrogate is three", "\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD"},
		{"U+00A0 and above are characters", "\u00a0\u00ff", "\u00a0\u00ff"},
		{"bidi embeddings and overrides", "\u202a\u202b\u202c\u202d\u202e", `\u202a\u202b\u202c\u202d\u202e`},
		{"bidi isolates", "\u2066\u2067\u2068\u2069", `\u2066\u2067\u2068\u2069`},
		{"bidi marks", "\u200e\u200f\u061c", `\u200e\u200f\u061c`},
		{"Trojan Source", "take 5\u202e01 gm\u202c daily", `take 5\u202e01 gm\u202c daily`},
		{"a truncated RLO is one U+FFFD", "a\xe2\x80b", "a\uFFFDb"},
		{"zero-width and invisible characters are text", "\u200b\u200c\u200d\u2060\ufeff\u00ad👩\u200d💻", "\u200b\u200c\u200d\u2060\ufeff\u00ad👩\u200d💻"},
		{"Hebrew and Arabic letters are text", "שלום سلام", "שלום سلام"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(appendVisible(nil, []byte(tt.in))))
			if !utf8.ValidString(tt.in) {
				return
			}
			var pieces []byte
			for _, r := range tt.in {
				pieces = appendVisible(pieces, []byte(string(r)))
			}
			assert.Equal(t, tt.want, string(pieces), "shown one character at a time")
		})
	}
}

// TestOutsideSequences checks where a footnote marker goes: after the
// whole escape sequence that its offset falls in, for every family, and
// where it was when it is outside all of them.
func TestOutsideSequences(t *testing.T) {
	tests := []struct {
		name string
		text string // § marks each citation's offset, removed
		want string // § marks where each marker goes
	}{
		{"no sequence", "a§b§c", "a§b§c"},
		{"CSI", "a\x1b[2§J b", "a\x1b[2J§ b"},
		{"CSI with intermediates", "a\x1b[?2§5h b", "a\x1b[?25h§ b"},
		{"C1 CSI", "a\u009b3§1m b", "a\u009b31m§ b"},
		{"OSC 0 ends at BEL", "a\x1b]0;PW§NED\x07 b", "a\x1b]0;PWNED\x07§ b"},
		{"OSC 8 ends at ESC backslash", "a\x1b]8;;https://e§vil\x1b\\x", "a\x1b]8;;https://evil\x1b\\§x"},
		{"OSC 52", "a\x1b]52;c;ZX§ZpbA==\x07b", "a\x1b]52;c;ZXZpbA==\x07§b"},
		{"C1 OSC ends at ST", "a\u009d0;x§y\u009cb", "a\u009d0;xy\u009c§b"},
		{"DCS", "a\x1bP1$§qm\x1b\\b", "a\x1bP1$qm\x1b\\§b"},
		{"APC", "a\x1b_G§f=1\x1b\\b", "a\x1b_Gf=1\x1b\\§b"},
		{"CAN cancels a string", "a\x1b]0;x§\x18b", "a\x1b]0;x\x18§b"},
		{"another ESC ends a string", "a\x1b]0;x§\x1b[1mb", "a\x1b]0;x§\x1b[1mb"},
		{"a string without end runs to the end", "a\x1b]0;x§yz", "a\x1b]0;xyz§"},
		{"charset designation", "a\x1b(§B b", "a\x1b(B§ b"},
		{"two-byte escape", "a\x1b§7 b", "a\x1b7§ b"},
		{"a bare ESC at the end", "a\x1b§", "a\x1b§"},
		{"between C2 and its C1 byte", "a\xc2§\x85b", "a\u0085§b"},
		{"at the start of a sequence stays", "a§\x1b[2Jb", "a§\x1b[2Jb"},
		{"two markers in one sequence", "a\x1b]0;§x§y\x07b", "a\x1b]0;xy\x07§§b"},
		{"a marker after a moved one", "\x1b[§2J§\x1b[§1m", "\x1b[2J§§\x1b[1m§"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts := strings.Split(tt.text, "§")
			text := strings.Join(parts, "")
			var cites []citations.Resolved
			at := 0
			for i, p := range parts[:len(parts)-1] {
				at += len(p)
				cites = append(cites, citations.Resolved{Number: i + 1})
				cites[i].ByteOffset = at
			}
			orig := append([]citations.Resolved(nil), cites...)
			got := outsideSequences([]byte(text), cites)
			assert.Equal(t, orig, cites, "the caller's citations are not changed")
			out := citations.AppendRenderFunc(nil, []byte(text), got, func(dst []byte, _ *citations.Resolved) []byte { return append(dst, "§"...) })
			assert.Equal(t, tt.want, string(out))
		})
	}
}

// TestJSONScreen writes JSON lines with C1 characters, DEL and
// bidirectional formatting characters through a jsonScreen in two writes
// cut at every byte: the output is the same whatever the cut, holds none
// of them, and decodes to the same value.
func TestJSONScreen(t *testing.T) {
	value := map[string]string{"text": "a\u009b31m b\x7f c\u0085 é \u00c2\u0080 5\u202e01\u202c \u2067x\u2069 \u200f\u061c \u20ac \u2060"}
	doc, err := json.Marshal(value)
	require.NoError(t, err)
	var whole bytes.Buffer
	j := &jsonScreen{w: &whole, escape: true}
	_, err = j.Write(doc)
	require.NoError(t, err)
	require.NoError(t, j.Flush())
	for _, bad := range []string{"\u009b", "\u0085", "\u0080", "\x7f", "\u202e", "\u202c", "\u2067", "\u2069", "\u200f", "\u061c"} {
		assert.NotContains(t, whole.String(), bad)
	}
	var back map[string]string
	require.NoError(t, json.Unmarshal(whole.Bytes(), &back), whole.String())
	assert.Empty(t, cmp.Diff(value, back))
	for cut := range len(doc) + 1 {
		var got bytes.Buffer
		j := &jsonScreen{w: &got, escape: true}
		_, err := j.Write(doc[:cut])
		require.NoError(t, err)
		_, err = j.Write(doc[cut:])
		require.NoError(t, err)
		require.NoError(t, j.Flush())
		require.Equal(t, whole.String(), got.String(), "cut at %d", cut)
	}
	var plain bytes.Buffer
	_, err = (&jsonScreen{w: &plain}).Write(doc)
	require.NoError(t, err)
	assert.Equal(t, string(doc), plain.String(), "without escape the bytes are as written")
}

// TestControlsFlags checks --raw and --visible, which exclude each other.
func TestControlsFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want controls
	}{{nil, controlsAuto}, {[]string{"--raw"}, controlsRaw}, {[]string{"--visible"}, controlsVisible}} {
		c, err := parseArgs(append(tt.args, "f.sse"))
		require.NoError(t, err)
		assert.Equal(t, tt.want, c.controls, "%v", tt.args)
	}
	_, err := parseArgs([]string{"--raw", "--visible", "f.sse"})
	assert.EqualError(t, err, "--raw and --visible exclude each other")
	assert.Equal(t, screen{escape: true}, controlsAuto.screen(true))
	assert.Equal(t, screen{}, controlsAuto.screen(false))
	assert.Equal(t, screen{}, controlsRaw.screen(true))
	assert.Equal(t, screen{escape: true}, controlsVisible.screen(false))
}

// bidiControls are the characters of Unicode's Bidi_Control property
// (PropList.txt), written out independently of the code under test.
var bidiControls = map[rune]bool{
	0x061c: true, 0x200e: true, 0x200f: true,
	0x202a: true, 0x202b: true, 0x202c: true, 0x202d: true, 0x202e: true,
	0x2066: true, 0x2067: true, 0x2068: true, 0x2069: true,
}

// FuzzVisible checks, for any text and offset: appendVisible gives valid
// UTF-8 without a control character other than newline and tab or a
// bidirectional formatting character (Unicode's Bidi_Control), the same
// whether the text is shown whole or in two pieces cut between
// characters; outsideSequences never moves an offset back, and never
// leaves one inside a sequence.
func FuzzVisible(f *testing.F) {
	for _, s := range []string{"hi \x1b]0;PWNED\x07 \x1b[2J\x1b]52;c;ZXZpbA==\x07 \u009b2J end", "a\x1bP1$qm\x1b\\b", "\x1b", "\xc2", "A\xe2\x82 B", "\x1b]8;;u\x1b\\x\x1b]8;;\x1b\\", "take 5\u202e01 gm\u202c \u2067x\u2069\u200f", "\xe2\x80"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, at int) {
		shown := appendVisible(nil, []byte(s))
		require.True(t, utf8.Valid(shown), "%q", shown)
		for _, r := range string(shown) {
			require.False(t, r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f || bidiControls[r], "%U in %q", r, shown)
		}
		if cut := len(s) / 2; utf8.ValidString(s) {
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
			require.Equal(t, string(shown), string(appendVisible(appendVisible(nil, []byte(s[:cut])), []byte(s[cut:]))))
		}
		at = max(at, 0) % (len(s) + 1)
		cites := outsideSequences([]byte(s), []citations.Resolved{{TextPosition: citations.TextPosition{ByteOffset: at}}})
		moved := cites[0].ByteOffset
		require.GreaterOrEqual(t, moved, at)
		for start, end := nextSequence([]byte(s), 0); start < len(s); start, end = nextSequence([]byte(s), end) {
			require.False(t, start < moved && moved < end, "offset %d inside the sequence [%d, %d) of %q", moved, start, end, s)
		}
	})
}
