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

// checkParseText checks ParseText on data, whose first offending byte is
// at pos (-1 when it is valid): the same verdict as Parse, the text before
// it kept, and every string it unescaped (long ones with escapes) equal to
// what AppendUnescaped gives.
func checkParseText(t *testing.T, data []byte, pos int) {
	t.Helper()
	var p Parser
	v, text, err := p.ParseText(data, []byte("pre"))
	require.Equal(t, "pre", string(text[:3]), "ParseText(%q): the text before", data)
	if err != nil {
		var se *SyntaxError
		require.ErrorAs(t, err, &se, "ParseText(%q)", data)
		require.Equal(t, pos, se.Pos, "ParseText(%q) error %v: position", data, err)
		return
	}
	require.Negative(t, pos, "ParseText(%q) succeeded", data)
	for _, s := range stringsOf(v, nil) {
		raw, esc := s.Contents()
		got, ok := s.Unescaped()
		if !ok {
			continue
		}
		require.True(t, esc, "string at %d: unescaped without an escape", s.Pos())
		want, _ := AppendUnescaped(nil, raw, SurrogateWTF8)
		require.Equal(t, string(want), string(got), "string at %d: ParseText's text", s.Pos())
	}
}

// TestParseText checks ParseText on textDocs and on documents that fail in
// a long string: the long strings with escapes are unescaped as they are
// checked, keys and short strings are not, and the verdict is
// Parse's.
func TestParseText(t *testing.T) {
	long := strings.Repeat("prose before the escape, ", 4)
	docs := []string{
		`{"k` + long + `\n":"` + long + `\n"}`,
		`["` + long + `\ud83d\ude00 ` + long + `\ud83d", "short\n"]`,
		`"` + long + `\"` + long + `"`,
		`{"t":"` + long + `\q"}`,
		`{"t":"` + long + "\\n\x01" + `"}`,
		`{"t":"` + long + `\n`,
	}
	for _, tt := range textDocs {
		docs = append(docs, tt.in)
	}
	for _, doc := range docs {
		pos, _ := errorPos([]byte(doc))
		checkParseText(t, []byte(doc), pos)
	}
	var p Parser
	v, _, err := p.ParseText([]byte(docs[0]), nil)
	require.NoError(t, err)
	f := p.AppendFields(nil, v)[0]
	_, unesc := f.Value.Unescaped()
	require.True(t, unesc, "a long value with an escape is unescaped as it is checked")
	_, unesc = Value{&p, 0}.Unescaped()
	require.False(t, unesc, "an object")
	v, _, err = p.ParseText([]byte(`["short\n"]`), nil)
	require.NoError(t, err)
	_, unesc = v.First().Unescaped()
	require.False(t, unesc, "a short string is unescaped when read")
}
