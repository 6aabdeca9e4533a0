package jsonx

// The fuzz targets of the JSON layer: FuzzErrorPos (the parser against
// encoding/json) and FuzzPointer (Pointer and Index against a reference
// evaluator built on encoding/json's tokenizer).

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// FuzzErrorPos checks the parser against encoding/json: it finds a problem
// exactly when json.Valid does not accept the input (depth aside), Parse
// and Valid agree, the position is in range, and on valid UTF-8 input the
// tape rebuilds to what json.Unmarshal gives. ParseText and ParseInPlace
// (checkParseText, checkParseInPlace) give the same verdict and position,
// and the texts they unescaped are AppendUnescaped's.
func FuzzErrorPos(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,2,{"b":null}]}`, `["\u00e9\n"]`, `{"a":`, `[1,]`, `"\ud83d"`, `-0.5e-7`, "[\"\x01\"]", `{"a" 1}`, `{"k\u00e9y":[true,false,{"":"x\"y"}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		pos, deep := errorPos(data)
		if !deep {
			require.Equal(t, json.Valid(data), pos < 0, "errorPos(%q) = %d: an error exactly when json.Valid rejects the input", data, pos)
		}
		require.LessOrEqual(t, pos, len(data), "errorPos(%q) beyond the input", data)
		require.Equal(t, pos < 0, Valid(data), "Valid(%q), errorPos = %d", data, pos)
		checkParseText(t, data, pos)
		checkParseInPlace(t, data, pos)
		var p Parser
		v, err := p.Parse(data)
		if err != nil {
			var se *SyntaxError
			require.ErrorAs(t, err, &se, "Parse(%q)", data)
			require.Equal(t, pos, se.Pos, "Parse(%q) error %v: position, against errorPos", data, err)
			require.Equal(t, deep, se.TooDeep, "Parse(%q) error %v: too deep, against errorPos", data, err)
			return
		}
		require.Negative(t, pos, "Parse(%q) succeeded, errorPos = %d", data, pos)
		if !utf8.Valid(data) {
			return
		}
		var want any
		require.NoError(t, unmarshalAny(data, &want), "encoding/json on %q", data)
		require.Empty(t, cmp.Diff(want, rebuild(t, &p, data, v)), "Parse(%q): tape differs from encoding/json (-want +got)", data)
	})
}

// refNode is a JSON value decoded by encoding/json's tokenizer, keeping
// object members in order so that duplicate keys resolve to the first, as
// Pointer does.
type refNode struct {
	scalar any
	keys   []string
	vals   []*refNode
	array  bool
	object bool
}

func refDecode(dec *json.Decoder) (*refNode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		n := &refNode{object: true}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := refDecode(dec)
			if err != nil {
				return nil, err
			}
			n.keys, n.vals = append(n.keys, k.(string)), append(n.vals, v)
		}
		_, err = dec.Token()
		return n, err
	case json.Delim('['):
		n := &refNode{array: true}
		for dec.More() {
			v, err := refDecode(dec)
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, v)
		}
		_, err = dec.Token()
		return n, err
	}
	return &refNode{scalar: tok}, nil
}

func refParse(b []byte) (*refNode, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	n, err := refDecode(dec)
	if err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return n, true
}

// refEval is a plain RFC 6901 evaluator over refNode (no fragment form).
func refEval(n *refNode, ptr string) (*refNode, bool) {
	if ptr == "" {
		return n, true
	}
	if ptr[0] != '/' {
		return nil, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		if strings.Contains(strings.NewReplacer("~0", "", "~1", "").Replace(tok), "~") {
			return nil, false
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch {
		case n.object:
			i := 0
			for i < len(n.keys) && n.keys[i] != tok {
				i++
			}
			if i == len(n.keys) {
				return nil, false
			}
			n = n.vals[i]
		case n.array:
			if tok == "" || (tok[0] == '0' && len(tok) > 1) || len(tok) > 9 {
				return nil, false
			}
			i := 0
			for _, c := range tok {
				if c < '0' || c > '9' {
					return nil, false
				}
				i = i*10 + int(c-'0')
			}
			if i >= len(n.vals) {
				return nil, false
			}
			n = n.vals[i]
		default:
			return nil, false
		}
	}
	return n, true
}

// FuzzPointer checks that Eval never panics, that a target is the
// subslice of the document at the reported offset, and, on valid UTF-8
// documents, that Eval agrees with a reference evaluator built on
// encoding/json.
func FuzzPointer(f *testing.F) {
	f.Add([]byte(rfcDoc), "/foo/1")
	f.Add([]byte(rfcDoc), "#/c%25d")
	f.Add([]byte(`{"a":{"b":[10,{"c":true}]}}`), "/a/b/1/c")
	f.Add([]byte(`{"a\u00e9":[[]]}`), "/aé/0")
	f.Add([]byte(`[1,2,3]`), "/-")
	f.Add([]byte(`{"k":1,"k":2}`), "/k")
	f.Add([]byte(`"text"`), "")
	f.Add([]byte(`{"a":`), "/a")
	f.Fuzz(func(t *testing.T, doc []byte, ptr string) {
		if len(doc) > 1<<16 {
			return
		}
		var p Pointer
		raw, off, kind, token, code := p.Eval(doc, []byte(ptr))
		if code == PointerOK {
			require.GreaterOrEqual(t, off, 0, "Eval(%q) = %q: offset", ptr, raw)
			require.LessOrEqual(t, off+len(raw), len(doc), "Eval(%q) = %q at %d: past the document's end", ptr, raw, off)
			require.Equal(t, string(raw), string(doc[off:off+len(raw)]), "Eval(%q): target at %d is not in the document", ptr, off)
			require.NotEmpty(t, raw, "Eval(%q): target", ptr)
			require.Equal(t, KindOf(raw[0]), kind, "Eval(%q) = %q: kind", ptr, raw)
		} else {
			require.GreaterOrEqual(t, token, -1, "Eval(%q) code %d: token", ptr, code)
			require.LessOrEqual(t, token, strings.Count(ptr, "/")+strings.Count(ptr, "%"), "Eval(%q) code %d: token past the pointer's", ptr, code)
		}
		if Valid(doc) {
			// Index gives the same, cold, and warm from a pointer to
			// the parent and from itself.
			var x Index
			var root int32
			want := indexResult{string(raw), off, kind, token, code}
			parent := ptr[:max(0, strings.LastIndexByte(ptr, '/'))]
			for _, p := range []string{ptr, parent, ptr} {
				r, o, k, tok, c := x.Eval(doc, &root, []byte(p))
				if p == ptr {
					if got := (indexResult{string(r), o, k, tok, c}); got != want {
						t.Fatalf("Index.Eval(%q) = %+v, Pointer.Eval %+v", p, got, want)
					}
				}
			}
		}
		if !Valid(doc) || !utf8.Valid(doc) || !utf8.ValidString(ptr) || strings.HasPrefix(ptr, "#") {
			return
		}
		ref, ok := refParse(doc)
		require.True(t, ok, "Valid(%q) but encoding/json rejects it", doc)
		want, found := refEval(ref, ptr)
		require.Equal(t, found, code == PointerOK, "Eval(%q) code %d: found, against the reference", ptr, code)
		if found {
			got, ok := refParse(raw)
			require.True(t, ok, "Eval(%q) = %q, which encoding/json rejects", ptr, raw)
			require.Empty(t, cmp.Diff(want, got, cmp.AllowUnexported(refNode{})), "Eval(%q) = %q, against the reference (-want +got)", ptr, raw)
		}
	})
}
