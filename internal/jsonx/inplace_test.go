package jsonx

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// pathString writes a path as a JSON Pointer-like string, for comparing
// the paths ParseInPlace gives its place with those of a walk of the tape.
func pathString(path []PathSeg) string {
	var b strings.Builder
	for _, s := range path {
		if s.Index >= 0 {
			fmt.Fprintf(&b, "/%d", s.Index)
		} else {
			fmt.Fprintf(&b, "/%q", s.Key)
		}
	}
	return b.String()
}

// walkStrings calls fn with each string value under v and its path, keys
// as written (raw, escapes in place: orig holds the input as received).
func walkStrings(v Value, orig []byte, path string, fn func(Value, string)) {
	switch v.Kind() {
	case '"':
		fn(v, path)
	case '{':
		nd := &v.p.nodes[v.i]
		for i := v.i + 1; i < nd.next; i = v.p.nodes[i].next {
			m := &v.p.nodes[i]
			key := orig[m.keyStart:m.keyEnd]
			if m.keyEsc {
				key = rawKeyBefore(orig, m.start)
			}
			walkStrings(Value{v.p, i}, orig, path+fmt.Sprintf("/%q", key), fn)
		}
	case '[':
		for i, el := 0, v.First(); i < v.Len(); i, el = i+1, el.Next() {
			walkStrings(el, orig, path+fmt.Sprintf("/%d", i), fn)
		}
	}
}

// rawKeyBefore returns the raw contents of the key of the member whose
// value starts at pos: the string before the colon before pos.
func rawKeyBefore(orig []byte, pos int) []byte {
	end := bytes.LastIndexByte(orig[:bytes.LastIndexByte(orig[:pos], ':')], '"')
	for start := end - 1; ; start-- {
		start = bytes.LastIndexByte(orig[:start+1], '"')
		// A quote after an odd number of backslashes is escaped.
		n := 0
		for k := start - 1; k >= 0 && orig[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return orig[start+1 : end]
		}
	}
}

// acceptSome is the place of checkParseInPlace: it accepts the strings
// whose path does not hold a key with an 'r' as written (so as to refuse
// some and accept others), and records the paths it was given and its
// verdicts.
type acceptSome struct{ asked map[string]bool }

func (a *acceptSome) place(path []PathSeg) bool {
	ok := true
	for _, s := range path {
		if s.Index < 0 && bytes.IndexByte(s.Key, 'r') >= 0 {
			ok = false
		}
	}
	a.asked[pathString(path)] = ok
	return ok
}

// checkParseInPlace checks ParseInPlace on data, whose first offending
// byte is at pos (-1 when it is valid): the verdict and position are
// Parse's; the bytes from the offending one on are as received (writing
// never overtakes reading); on success each string the place accepted
// and only those, long ones with escapes, have their text, equal to what
// AppendUnescaped gives, unescaped over themselves from just after their
// opening quote; every other byte is as received; place was given each
// string's own path, at most once, and refused ones are not unescaped.
func checkParseInPlace(t *testing.T, orig []byte, pos int) {
	t.Helper()
	data := bytes.Clone(orig)
	a := acceptSome{asked: map[string]bool{}}
	var p Parser
	v, placed, err := p.ParseInPlace(data, a.place)
	if err != nil {
		var se *SyntaxError
		require.ErrorAs(t, err, &se, "ParseInPlace(%q)", orig)
		require.Equal(t, pos, se.Pos, "ParseInPlace(%q) error %v: position", orig, err)
		require.Equal(t, string(orig[pos:]), string(data[pos:]), "ParseInPlace(%q): the data from the offending byte on", orig)
		return
	}
	require.Negative(t, pos, "ParseInPlace(%q) succeeded", orig)
	// want is the data with each accepted string's text written over it.
	want := bytes.Clone(orig)
	n := 0
	walkStrings(v, orig, "", func(s Value, path string) {
		nd := &p.nodes[s.i]
		raw := orig[nd.start+1 : nd.end-1]
		text, ok := s.Unescaped()
		verdict, asked := a.asked[path]
		if !ok {
			require.False(t, asked && verdict, "ParseInPlace(%q): string %s accepted but not unescaped", orig, path)
			return
		}
		n++
		require.True(t, asked && verdict, "ParseInPlace(%q): string %s unescaped, place said %v (asked %v)", orig, path, verdict, asked)
		require.GreaterOrEqual(t, len(raw), 64, "ParseInPlace(%q): string %s: short", orig, path)
		require.Same(t, &data[nd.start+1], &text[0], "ParseInPlace(%q): string %s: a view of the data after the quote", orig, path)
		unesc, bad := AppendUnescaped(nil, raw, SurrogateWTF8)
		require.Equal(t, -1, bad)
		require.Equal(t, string(unesc), string(text), "ParseInPlace(%q): string %s: text", orig, path)
		copy(want[nd.start+1:], unesc)
	})
	require.Equal(t, n, placed, "ParseInPlace(%q): the count", orig)
	require.Equal(t, string(want), string(data), "ParseInPlace(%q): the data", orig)
	require.LessOrEqual(t, len(a.asked), n+strings.Count(string(orig), `\`), "place asked once per string at most")
}

// TestParseInPlace checks ParseInPlace on textDocs, on documents whose
// long strings are accepted or refused by path (keys with an 'r'), and on
// documents that fail in a long string, before or after one unescaped.
func TestParseInPlace(t *testing.T) {
	long := strings.Repeat("prose before the escape, ", 4)
	esc := `\n\"\\\/\b\f\r\t\u00e9\u65E5\ud83d\ude00\ud83d \ude00\udc00\ud800\u0000`
	docs := []string{
		`{"k` + long + `\n":"` + long + esc + `"}`,
		`["` + long + `\ud83d\ude00 ` + long + `\ud83d", "short\n"]`,
		`"` + long + `\"` + long + `"`,
		`{"text":"` + esc + long + esc + long + esc + `","raw":"` + long + esc + `","t":{"r":["` + long + esc + `"]}}`,
		`{"a":[{"b":"` + esc + long + `"},["` + long + esc + `"]],"k\u0072":"` + long + esc + `","k\u0073":"` + long + esc + `"}`,
		`{"t":"` + long + esc + `","u":"` + long + `\q"}`,
		`{"t":"` + long + esc + `","u":tru}`,
		`{"t":"` + esc + long + `\u12` + `"}`,
		`{"t":"` + long + "\\n\x01" + `"}`,
		`{"t":"` + long + `\n`,
		`{"t":"` + long + `\n` + long + `\`,
	}
	for _, tt := range textDocs {
		docs = append(docs, tt.in)
	}
	for _, doc := range docs {
		pos, _ := errorPos([]byte(doc))
		checkParseInPlace(t, []byte(doc), pos)
	}
	// The place is asked with the path to the string, and the Parser's
	// other parses are not in place.
	var p Parser
	var got []string
	data := []byte(`{"a":[1,{"b\n":"` + long + esc + `"}],"c":"` + long + esc + `"}`)
	v, placed, err := p.ParseInPlace(data, func(path []PathSeg) bool {
		got = append(got, pathString(path))
		return len(path) == 1
	})
	require.NoError(t, err)
	require.Equal(t, []string{`/"a"/1/"b\\n"`, `/"c"`}, got)
	require.Equal(t, 1, placed)
	_, unesc := p.AppendFields(nil, v)[1].Value.Unescaped()
	require.True(t, unesc, "the accepted string")
	v, text, err := p.ParseText([]byte(`{"c":"`+long+esc+`"}`), nil)
	require.NoError(t, err)
	got2, unesc := p.AppendFields(nil, v)[0].Value.Unescaped()
	require.True(t, unesc)
	require.Same(t, &text[0], &got2[0], "after ParseInPlace, ParseText's texts are in its text")
}
