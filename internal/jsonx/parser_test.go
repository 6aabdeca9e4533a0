package jsonx

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKeyPositions checks the tape against encoding/json: every member's
// Pos is the first byte of its value in the caller's input, whatever the
// whitespace, escapes in keys, or nesting; its Raw bytes are exactly that
// value; keys are unescaped; and arrays step element by element.
func TestKeyPositions(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"compact", `{"a":1,"bb":"x","c":{"d":[1,2]},"e":null}`},
		{"spaces and newlines", " \n\t{ \"a\" :\n 1 ,\r\n \"bb\"\t:\t\"x\" , \"c\" : { \"d\" : [ 1 ] } } \n"},
		{"escaped keys", `{"\u0061":true,"b\"c":false,"\\":[],"é":{}}`},
		{"escaped quote ends a key", `{"x\"":1,"\\\"":2,"y\u0022":3,"\\":4}`},
		{"empty key first", `{"":1,"k":2}`},
		{"long key", `{"` + strings.Repeat("k", 300) + `":"v","x":-1.5e3}`},
		{"arrays of objects", `{"a":[{"b":[[],{}]},{"c":"\n"}],"d":[ ]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Parser
			data := []byte(tt.in)
			root, err := p.Parse(data)
			require.NoError(t, err, "Parse")
			var want any
			require.NoError(t, unmarshalAny(data, &want), "encoding/json")
			assert.Empty(t, cmp.Diff(want, rebuild(t, &p, data, root)), "tape differs from encoding/json (-want +got)")
		})
	}
}

// rebuild turns the parsed value v back into encoding/json's any form,
// checking on the way that positions and raw bytes agree.
func rebuild(t *testing.T, p *Parser, data []byte, v Value) any {
	t.Helper()
	raw := v.Raw()
	require.GreaterOrEqual(t, v.Pos(), 0, "value %q: Pos", raw)
	require.LessOrEqual(t, v.Pos()+len(raw), len(data), "value %q at %d: Raw runs past the input", raw, v.Pos())
	require.Equal(t, string(data[v.Pos():v.Pos()+len(raw)]), string(raw), "value at %d: Raw is not its bytes", v.Pos())
	require.True(t, json.Valid(raw), "value at %d: Raw = %q is not valid JSON", v.Pos(), raw)
	switch v.Kind() {
	case '{':
		m := map[string]any{}
		for _, f := range p.AppendFields(nil, v) {
			require.Equal(t, f.Value.Pos(), f.Pos, "key %q: Pos, against its value's", f.Key)
			m[string(f.Key)] = rebuild(t, p, data, f.Value)
		}
		return m
	case '[':
		a := []any{}
		for i, el := 0, v.First(); i < v.Len(); i, el = i+1, el.Next() {
			a = append(a, rebuild(t, p, data, el))
		}
		return a
	case '"':
		s, esc := v.Contents()
		require.Equal(t, bytes.Contains(s, []byte{'\\'}), esc, "string %q: escaped", s)
		want, _ := AppendUnescaped([]byte("pre"), s, SurrogateWTF8)
		got, bad := v.AppendText([]byte("pre"))
		require.Equal(t, -1, bad, "string %q: AppendText's bad", s)
		require.Equal(t, string(want), string(got), "string %q: AppendText, against AppendUnescaped", s)
	}
	var x any
	require.NoError(t, unmarshalAny(raw, &x), "encoding/json on %q", raw)
	return x
}

func TestParseErrorPositions(t *testing.T) {
	tests := []struct {
		name string
		in   string // § marks the position
		deep bool
	}{
		{"empty", "§", false},
		{"truncated object", `{"a":1§`, false},
		{"truncated key", `{"a§`, false},
		{"missing colon", `{"a"§1}`, false},
		{"bad literal", `{"a":tru§x}`, false},
		{"leading zero", `{"a":0§1}`, false},
		{"bare minus", `[-§]`, false},
		{"no exponent digits", `[1e§]`, false},
		{"tail", `{} §{}`, false},
		{"unescaped control", "[\"a§\x01\"]", false},
		{"bad escape", `["a§\x"]`, false},
		{"short unicode escape", `["§\u12"]`, false},
		{"too deep", strings.Repeat("[", 300) + "§[" + strings.Repeat("]", 301), true},
		{"scalar too deep", strings.Repeat("[", 300) + "§1" + strings.Repeat("]", 300), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := strings.Index(tt.in, "§")
			in := tt.in[:i] + tt.in[i+len("§"):]
			pos, deep := errorPos([]byte(in))
			assert.Equal(t, i, pos, "errorPos: position")
			assert.Equal(t, tt.deep, deep, "errorPos: too deep")
			var p Parser
			_, err := p.Parse([]byte(in))
			var se *SyntaxError
			require.ErrorAs(t, err, &se, "Parse")
			assert.Equal(t, i, se.Pos, "Parse error %v: position", err)
			assert.Equal(t, tt.deep, se.TooDeep, "Parse error %v: too deep", err)
		})
	}
	var p Parser
	_, err := p.Parse([]byte(strings.Repeat("[", 300) + strings.Repeat("]", 300)))
	assert.NoError(t, err, "300 levels refused")
}

func TestValidNumber(t *testing.T) {
	for _, s := range []string{"0", "-0", "12", "1.5", "-1.5e+3", "2E-2", "1e9"} {
		assert.True(t, ValidNumber([]byte(s)), "ValidNumber(%q)", s)
	}
	for _, s := range []string{"", "-", "01", "1.", ".5", "1e", "+1", "NaN", "inf", "0x10", "1_0", "1 "} {
		assert.False(t, ValidNumber([]byte(s)), "ValidNumber(%q)", s)
	}
}

// scanResult is what TestStringScan compares: the end of the string (0
// when it fails), whether it has an escape, and where it fails (-1 when it
// does not).
type scanResult struct {
	End     int
	Escaped bool
	Bad     int
}

// TestStringScan compares the word-at-a-time string scan with a byte loop,
// for every special byte or escape at every offset of strings of up to 40
// bytes: the same end, the same escape flag, the same failure position.
// naiveString scans the string whose quote opens data, byte by byte, as
// RFC 8259 reads it: the position after its closing quote, whether it holds
// an escape, and the first offending byte (-1 when none).
func naiveString(data []byte) (end int, esc bool, bad int) {
	for i := 1; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			return i + 1, esc, -1
		case c < 0x20:
			return 0, esc, i
		case c == '\\':
			esc = true
			switch {
			case i+1 >= len(data):
				return 0, esc, len(data)
			case bytes.IndexByte([]byte(`"\\/bfnrt`), data[i+1]) >= 0:
				i++
			case data[i+1] == 'u':
				for k := 2; k < 6; k++ {
					if i+k >= len(data) {
						return 0, esc, len(data)
					}
					if _, ok := unhex(data[i+k]); !ok {
						return 0, esc, i
					}
				}
				i += 5
			default:
				return 0, esc, i
			}
		}
	}
	return 0, esc, len(data)
}

func TestStringScan(t *testing.T) {
	naive := naiveString
	fillers := []string{"a", "\x7f", "\x80", "\xe2", "\xff", " ", "!", "#", "[", "]"}
	specials := []string{`"`, `\`, "\x00", "\x1f", "\n", `\n`, `\"`, `\u00e9`, `\u12`, `\q`}
	for n := 0; n <= 40; n++ {
		for _, fill := range fillers {
			for _, sp := range specials {
				for at := 0; at <= n; at++ {
					in := `"` + strings.Repeat(fill, at) + sp + strings.Repeat(fill, n-at)
					for _, tail := range []string{`"`, `x"`, ``} {
						data := []byte(in + tail)
						p := Parser{data: data, bad: -1, validate: true}
						end, esc := p.string(0, false)
						wantEnd, wantEsc, wantBad := naive(data)
						if p.bad >= 0 {
							end = 0
						}
						got, want := scanResult{end, esc, p.bad}, scanResult{wantEnd, wantEsc, wantBad}
						if wantBad >= 0 {
							// The escape flag means nothing once the string failed.
							got.Escaped, want.Escaped = false, false
						}
						require.Equal(t, want, got, "string(%q)", data)
					}
				}
			}
		}
	}
}

// TestStringScanLong checks the scan of long strings, whose runs without
// a special byte reach the IndexByte path, against naiveString: one or two
// special bytes (a quote, a backslash, control characters, good and bad
// escapes) at positions around the run lengths where the scan changes
// path, with and without a closing quote.
func TestStringScanLong(t *testing.T) {
	unescaped := 0
	fillers := []string{"a", "\xe2\x80\x94", "\x7f"}
	specials := []string{`"`, "\x00", "\x1f", `\n`, `\"`, `\u00e9`, `\ud83d\ude00`, `\u12`, `\q`, `\`}
	positions := []int{0, 1, 7, 8, 9, 55, 56, 63, 64, 65, 71, 72, 73, 127, 128, 129, 200, 257}
	for _, n := range []int{60, 64, 72, 130, 300} {
		for _, fill := range fillers {
			for _, sp := range specials {
				for _, at := range positions {
					for _, second := range []string{"", "\x01", `\q`, `\"`, `\t`, strings.Repeat(`ab\u00e9\"\ud83d`, 20)} {
						if at > n {
							continue
						}
						in := `"` + strings.Repeat(fill, at) + sp + strings.Repeat(fill, n-at)
						if second != "" {
							in += second + strings.Repeat("b", 90)
						}
						for _, tail := range []string{`"`, `x"`, ``} {
							if checkLongScan(t, []byte(in+tail)) {
								unescaped++
							}
						}
					}
				}
			}
		}
	}
	assert.Greater(t, unescaped, 1000, "strings unescaped as they were scanned")
}

// checkLongScan scans the string that opens data as a check alone and
// while unescaping it, and compares both with naiveString: the same end,
// escape flag and first offending byte, and, when the scan unescaped the
// string, the text AppendUnescaped gives with the decoder's policy.
func checkLongScan(t *testing.T, data []byte) (unescaped bool) {
	t.Helper()
	wantEnd, wantEsc, wantBad := naiveString(data)
	want := scanResult{wantEnd, wantEsc, wantBad}
	if wantBad >= 0 {
		want.Escaped = false
	}
	for _, unescape := range []bool{false, true} {
		p := Parser{data: data, bad: -1, validate: !unescape}
		end, esc := p.string(0, unescape)
		got := scanResult{end, esc, p.bad}
		if p.bad >= 0 {
			got.End, got.Escaped = 0, false
		}
		require.Equal(t, want, got, "string(%q), unescaping %v", data, unescape)
		if !unescape || p.bad >= 0 {
			continue
		}
		if p.pending.end == 0 {
			continue
		}
		require.True(t, esc, "unescaped a string without escapes: %q", data)
		wantText, bad := AppendUnescaped(nil, data[1:end-1], SurrogateWTF8)
		require.Equal(t, -1, bad)
		require.Equal(t, string(wantText), string(p.text[p.pending.start:p.pending.end]), "text of %q", data)
		unescaped = true
	}
	return unescaped
}

// TestUnescapeString checks UnescapeString against StringEnd and
// AppendUnescaped on strings short and long, with escapes or none, valid
// or not, appended after what dst holds.
func TestUnescapeString(t *testing.T) {
	long := strings.Repeat("x", 70)
	tests := []struct{ name, doc string }{
		{"short plain", `"abc"`},
		{"short escaped", `"a\u00e9\n"`},
		{"long plain", `"` + long + long + `"`},
		{"long, escape at the start", `"\n` + long + `"`},
		{"long, escapes past the word loop", `"` + long + `\u00e9\ud83d\ude00\"` + long + `\t"`},
		{"long, a pair across the switch", `"` + long[:60] + `\ud83d\ude00` + long + `\n"`},
		{"long, lone surrogates", `"` + long + `\ude00\ud83d"`},
		{"long, bad escape", `"` + long + `\n\q"`},
		{"long, control character", `"` + long + `\n` + "\x01" + `"`},
		{"long, not closed", `"` + long + `\n` + long},
		{"long, closed by an escaped quote only", `"` + long + `\n\"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.doc + ` ,"next"`)
			dst := []byte("kept")
			out, end, esc, ok := UnescapeString(dst, data, 0)
			wantEnd, wantEsc, wantOK := StringEnd(data, 0)
			require.Equal(t, wantOK, ok, "ok")
			assert.Equal(t, "kept", string(out[:4]), "dst kept")
			if !ok {
				assert.Equal(t, "kept", string(out), "nothing appended to dst on failure")
				return
			}
			assert.Equal(t, wantEnd, end, "end")
			assert.Equal(t, wantEsc, esc, "esc")
			want := []byte("kept")
			if esc {
				want, _ = AppendUnescaped(want, data[1:end-1], SurrogateWTF8)
			}
			assert.Equal(t, string(want), string(out), "text")
		})
	}
}

// unmarshalAny is json.Unmarshal into an any, with numbers kept as their
// text (json.Number): a valid number too large for a float64 is still JSON.
func unmarshalAny(data []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

func TestStringEnd(t *testing.T) {
	tests := []struct {
		in      string
		end     int
		esc, ok bool
	}{
		{`"abc"`, 5, false, true},
		{`"abc" tail"`, 5, false, true},
		{`"a long string that passes the word loop"x`, 41, false, true},
		{`"\"quoted\" and \\"`, 19, true, true},
		{`"\u00e9\ud83d"`, 14, true, true},
		{`""`, 2, false, true},
		{`"abc`, 4, false, false},
		{`"a\`, 3, true, false},
		{"\"a\x1fb\"", 2, false, false},
		{`"a\qb"`, 2, true, false},
		{`"a\u12"`, 3, true, false},
	}
	for _, tt := range tests {
		end, esc, ok := StringEnd([]byte(tt.in), 0)
		assert.Equal(t, tt.ok, ok, "StringEnd(%q): ok", tt.in)
		assert.Equal(t, tt.esc, esc, "StringEnd(%q): escaped", tt.in)
		if ok {
			assert.Equal(t, tt.end, end, "StringEnd(%q): end", tt.in)
		}
	}
}

// TestCtrlIndex compares ctrlIndex with a byte loop: every length up to 100,
// a control character (or none) at every position, after fillers at the
// edges of the range it must not take for one (0x20, 0x7f, 0x80, 0xff).
func TestCtrlIndex(t *testing.T) {
	for n := 0; n <= 100; n++ {
		for _, fill := range []byte{' ', 0x7f, 0x80, 0xff, 'a'} {
			for at := -1; at < n; at++ {
				for _, c := range []byte{0x00, 0x1f, '\n'} {
					b := bytes.Repeat([]byte{fill}, n)
					want := -1
					if at >= 0 {
						b[at] = c
						want = at
						if at+1 < n {
							b[at+1] = 0x01 // a second one after it
						}
					}
					require.Equal(t, want, ctrlIndex(b), "ctrlIndex(%q)", b)
				}
			}
		}
	}
}
