package jsonx

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// textDocs are documents whose strings AppendText must give as
// AppendUnescaped does: escapes of every kind, in short and long strings
// (the parser's word loop and its IndexByte runs), after escaped keys,
// beyond the escape index's room (len/32 escapes), and split surrogate
// pairs.
var textDocs = []struct {
	name string
	in   string
}{
	{"no escape", `{"a":"plain","b":["x","y"]}`},
	{"short escapes", `{"a":"l\u00e9\n\"q\"","b":"\\/\b\f\r\t"}`},
	{"escaped key before", `{"k\u00e9y":"v\nw","\"":"x\ty"}`},
	{"surrogates", `["\ud83d\ude00 pair","lone \ud83d end","low \ude00 first","\ud83d\ud83d\ude00"]`},
	{"long with escapes", `{"text":"` + strings.Repeat(`a line of prose, well past the word loop's run\n`, 40) + `end \"q\" \u00e9"}`},
	{"long then dense", `{"text":"` + strings.Repeat("x", 200) + strings.Repeat(`\u00e9\n`, 50) + `"}`},
	{"index full", `{"dense":"` + strings.Repeat(`\n`, 400) + `","after":"` + strings.Repeat("y", 100) + `\t\"z\""}`},
	{"many strings", `[` + strings.Repeat(`"a\nb",`, 100) + `"\u0041"]`},
}

// TestAppendText checks Value.AppendText against AppendUnescaped on every
// string of textDocs, appended to other bytes and over the string's own
// bytes (as the decoder's DecodeInPlace does).
func TestAppendText(t *testing.T) {
	for _, tt := range textDocs {
		t.Run(tt.name, func(t *testing.T) {
			var p Parser
			data := []byte(tt.in)
			root, err := p.Parse(data)
			require.NoError(t, err, "Parse")
			strs := stringsOf(root, nil)
			require.NotEmpty(t, strs, "strings")
			for _, v := range strs {
				raw, _ := v.Contents()
				want, _ := AppendUnescaped([]byte("pre"), raw, SurrogateWTF8)
				got, bad := v.AppendText([]byte("pre"))
				require.Equal(t, -1, bad, "string at %d: bad", v.Pos())
				require.Equal(t, string(want), string(got), "string at %d: appended", v.Pos())
			}
			// In place: each string once, over its own bytes.
			for _, v := range strs {
				raw, _ := v.Contents()
				want, _ := AppendUnescaped(nil, raw, SurrogateWTF8)
				got, _ := v.AppendText(raw[:0:len(raw)])
				require.Equal(t, string(want), string(got), "string at %d: in place", v.Pos())
			}
		})
	}
}

// stringsOf appends the string values under v, in document order.
func stringsOf(v Value, out []Value) []Value {
	switch v.Kind() {
	case '"':
		return append(out, v)
	case '{':
		for _, f := range v.p.AppendFields(nil, v) {
			out = stringsOf(f.Value, out)
		}
	case '[':
		for i, el := 0, v.First(); i < v.Len(); i, el = i+1, el.Next() {
			out = stringsOf(el, out)
		}
	}
	return out
}

// TestLongStringControlPositions checks that a control character in a
// long string with escapes (checked a window ahead of its runs) is
// reported at its own position, and that a bad escape before it is
// reported first.
func TestLongStringControlPositions(t *testing.T) {
	line := strings.Repeat("w", 70) + `\n`
	long := strings.Repeat(line, 200) // 14,400 bytes, past the 4 KiB window
	tests := []struct {
		name string
		in   string // § marks the position
	}{
		{"in the first run", `{"t":"` + strings.Repeat("w", 80) + "§\x01" + long + `"}`},
		{"after escapes", `{"t":"` + long + "§\x1f" + long + `"}`},
		{"beyond the window", `{"t":"` + long + long + "§\n" + `"}`},
		{"before the quote", `{"t":"` + long + "§\t\"}"},
		{"bad escape first", `{"t":"` + long + `§\x` + "\x01" + long + `"}`},
		{"after an escaped quote", `{"t":"` + long + `\"` + strings.Repeat("q", 90) + "§\x02" + `"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := strings.Index(tt.in, "§")
			data := []byte(strings.Replace(tt.in, "§", "", 1))
			var p Parser
			_, err := p.Parse(data)
			var se *SyntaxError
			require.ErrorAs(t, err, &se, "Parse")
			require.Equal(t, want, se.Pos, "error position")
			end, _, ok := StringEnd(data, 5)
			require.False(t, ok, "StringEnd")
			require.Equal(t, want, end, "StringEnd's position")
			_, end, _, ok = UnescapeString(nil, data, 5)
			require.False(t, ok, "UnescapeString")
			require.Equal(t, want, end, "UnescapeString's position")
		})
	}
}
