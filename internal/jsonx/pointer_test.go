package jsonx

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rfcDoc is the example document of RFC 6901, section 5.
const rfcDoc = `{
      "foo": ["bar", "baz"],
      "": 0,
      "a/b": 1,
      "c%d": 2,
      "e^f": 3,
      "g|h": 4,
      "i\\j": 5,
      "k\"l": 6,
      " ": 7,
      "m~n": 8
   }`

func TestPointerRFC6901(t *testing.T) {
	tests := []struct {
		name, ptr, want string
		kind            Kind
	}{
		// Section 5: JSON String Representation.
		{"whole", "", rfcDoc[:len(rfcDoc)], KindObject},
		{"member", "/foo", `["bar", "baz"]`, KindArray},
		{"index", "/foo/0", `"bar"`, KindString},
		{"empty key", "/", `0`, KindNumber},
		{"slash escape", "/a~1b", `1`, KindNumber},
		{"percent is literal", "/c%d", `2`, KindNumber},
		{"caret", "/e^f", `3`, KindNumber},
		{"pipe", "/g|h", `4`, KindNumber},
		{"backslash", `/i\j`, `5`, KindNumber},
		{"quote", `/k"l`, `6`, KindNumber},
		{"space", "/ ", `7`, KindNumber},
		{"tilde escape", "/m~0n", `8`, KindNumber},
		// Section 6: URI Fragment Identifier Representation.
		{"fragment whole", "#", rfcDoc, KindObject},
		{"fragment member", "#/foo", `["bar", "baz"]`, KindArray},
		{"fragment index", "#/foo/0", `"bar"`, KindString},
		{"fragment empty key", "#/", `0`, KindNumber},
		{"fragment slash escape", "#/a~1b", `1`, KindNumber},
		{"fragment percent", "#/c%25d", `2`, KindNumber},
		{"fragment caret", "#/e%5Ef", `3`, KindNumber},
		{"fragment pipe", "#/g%7Ch", `4`, KindNumber},
		{"fragment backslash", "#/i%5Cj", `5`, KindNumber},
		{"fragment quote", "#/k%22l", `6`, KindNumber},
		{"fragment space", "#/%20", `7`, KindNumber},
		{"fragment tilde", "#/m~0n", `8`, KindNumber},
	}
	var p Pointer
	doc := []byte(rfcDoc)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, off, kind, token, code := p.Eval(doc, []byte(tt.ptr))
			require.Equal(t, PointerOK, code, "Eval(%q) failed at token %d", tt.ptr, token)
			require.Equal(t, tt.want, string(raw), "Eval(%q)", tt.ptr)
			require.Equal(t, tt.kind, kind, "Eval(%q): kind", tt.ptr)
			require.Equal(t, string(raw), string(doc[off:off+len(raw)]), "Eval(%q): offset %d does not locate the target", tt.ptr, off)
		})
	}
}

func TestPointerErrors(t *testing.T) {
	doc := `{"a":{"b":[10,{"c":true}],"s":"x","n":null},"e\u0301":1,"k":{"k":1,"k":2}}`
	tests := []struct {
		name, ptr string
		token     int
		code      PointerCode
	}{
		{"no leading slash", "a", -1, PointerSyntax},
		{"bad tilde", "/a/~2", 1, PointerSyntax},
		{"trailing tilde", "/a~", 0, PointerSyntax},
		{"bad percent", "#/a/%zz", 1, PointerSyntax},
		{"truncated percent", "#/a%2", 0, PointerSyntax},
		{"percent before slash", "#%41", -1, PointerSyntax},
		{"missing member", "/a/x", 1, PointerNoMember},
		{"member of array", "/a/b/c", 2, PointerBadIndex},
		{"leading zero", "/a/b/01", 2, PointerBadIndex},
		{"empty index", "/a/b/", 2, PointerBadIndex},
		{"negative index", "/a/b/-1", 2, PointerBadIndex},
		{"dash", "/a/b/-", 2, PointerIndexRange},
		{"past end", "/a/b/2", 2, PointerIndexRange},
		{"huge index", "/a/b/99999999999999999999", 2, PointerIndexRange},
		{"into string", "/a/s/0", 2, PointerNotContainer},
		{"into null", "/a/n/x", 2, PointerNotContainer},
		{"into bool", "/a/b/1/c/d", 4, PointerNotContainer},
		{"escaped key needs exact match", "/e", 0, PointerNoMember},
	}
	var p Pointer
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, _, _, token, code := p.Eval([]byte(doc), []byte(tt.ptr))
			assert.Equal(t, tt.code, code, "Eval(%q) = %q: code", tt.ptr, raw)
			assert.Equal(t, tt.token, token, "Eval(%q) = %q: token", tt.ptr, raw)
		})
	}
	t.Run("escaped key", func(t *testing.T) {
		raw, _, _, _, code := p.Eval([]byte(doc), []byte("/e\u0301"))
		require.Equal(t, PointerOK, code, "Eval: code")
		require.Equal(t, "1", string(raw), "Eval")
	})
	t.Run("duplicate key takes the first", func(t *testing.T) {
		raw, _, _, _, code := p.Eval([]byte(doc), []byte("/k/k"))
		require.Equal(t, PointerOK, code, "Eval: code")
		require.Equal(t, "1", string(raw), "Eval")
	})
	t.Run("bad document", func(t *testing.T) {
		// Damage before the target is reported; Eval does not look past it.
		for _, d := range []string{``, `   `, `{"a":`, `{"a" 1}`, `[1,`, `{"b":1,`, `{"b":"x\"}`, `{"b":[}`} {
			_, _, _, _, code := p.Eval([]byte(d), []byte("/a"))
			assert.NotEqual(t, PointerOK, code, "Eval(%q, /a) succeeded", d)
		}
	})
}

func TestValid(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want bool
	}{
		{"object", `{"a":[1,2,{"b":null}]}`, true},
		{"string", `"x\ny"`, true},
		{"whitespace around", " \t[1]\n", true},
		{"empty", ``, false},
		{"two values", `1 2`, false},
		{"bad escape", `"\q"`, false},
		{"control character in a key", "{\"a\x01\":1}", false},
		{"control character in a value", "[\"\t\"]", false},
		{"unclosed", `{"a":1`, false},
		{"depth at limit", strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth), true},
		{"too deep", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), false},
		{"deep unclosed", strings.Repeat("[", 1<<20), false},
		{"brackets in strings do not count", `["` + strings.Repeat("[", MaxDepth+5) + `"]`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Valid([]byte(tt.doc)), "Valid")
		})
	}
}

func TestCursor(t *testing.T) {
	doc := []byte(` { "a" : [ 1 , "x" , { } ] , "b\u0021" : null } `)
	c, k := Open(doc, 0)
	require.Equal(t, KindObject, k, "Open: kind")
	var keys, vals []string
	for {
		key, val, off, ok := c.NextMember()
		if !ok {
			break
		}
		require.Equal(t, string(val), string(doc[off:off+len(val)]), "member %q: offset %d does not locate the value", key, off)
		keys, vals = append(keys, string(key)), append(vals, string(val))
	}
	assert.Empty(t, cmp.Diff([]string{"a", `b\u0021`}, keys), "NextMember keys (-want +got)")
	assert.Empty(t, cmp.Diff([]string{`[ 1 , "x" , { } ]`, "null"}, vals), "NextMember values (-want +got)")
	v, off, ok := Member(doc, 0, "b!")
	require.True(t, ok, "Member b! not found")
	assert.Equal(t, "null", string(v), "Member b!")
	assert.Equal(t, bytes.Index(doc, []byte("null")), off, "Member b!: offset")
	arr, _, _ := Member(doc, 0, "a")
	c, _ = Open(arr, 0)
	var elems []string
	for {
		e, _, ok := c.NextElement()
		if !ok {
			break
		}
		elems = append(elems, string(e))
	}
	assert.Empty(t, cmp.Diff([]string{"1", `"x"`, "{ }"}, elems), "NextElement (-want +got)")
}

// TestAppendPointerToken checks that the token AppendPointerToken writes
// for each member of RFC 6901's example document, and for keys with
// escapes, finds the member again with Pointer.Eval.
func TestAppendPointerToken(t *testing.T) {
	doc := `{"foo":["bar"],"":0,"a/b":1,"m~n":8,"~/~":2,"\u002f\u007e":3,"caf\u00e9":4,"x\"y":5,"\ud83d":6}`
	tests := []struct {
		name, key, want, value string
	}{
		{"plain", `foo`, `/foo`, `["bar"]`},
		{"empty", ``, `/`, `0`},
		{"slash", `a/b`, `/a~1b`, `1`},
		{"tilde", `m~n`, `/m~0n`, `8`},
		{"both, twice", `~/~`, `/~0~1~0`, `2`},
		{"escaped slash and tilde", `\u002f\u007e`, `/~1~0`, `3`},
		{"escaped letter", `caf\u00e9`, `/café`, `4`},
		{"escaped quote", `x\"y`, `/x"y`, `5`},
		{"lone surrogate", `\ud83d`, "/\uFFFD", ``},
	}
	var p Pointer
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := AppendPointerToken([]byte("/pre"), []byte(tt.key))
			assert.Equal(t, "/pre"+tt.want, string(got))
			if tt.value == "" {
				return // a lone surrogate names no key Eval can match
			}
			raw, _, _, _, code := p.Eval([]byte(doc), []byte(tt.want))
			require.Equal(t, PointerOK, code)
			assert.Equal(t, tt.value, string(raw))
		})
	}
}
