package jsonx

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestKeyPositions guards the reliance on fastjson's layout: every member's
// Pos is the first byte of its value in the caller's input, whatever the
// whitespace, escapes in keys, or nesting.
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Parser
			data := []byte(tt.in)
			root, err := p.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			var check func(v Value)
			check = func(v Value) {
				for _, f := range p.AppendFields(nil, v) {
					if f.Pos < 0 {
						t.Fatalf("key %q: no position", f.Key)
					}
					raw := Raw(data, f.Pos)
					if !json.Valid(raw) {
						t.Fatalf("key %q: Raw at %d = %q is not one JSON value", f.Key, f.Pos, raw)
					}
					// The raw bytes re-encode to what fastjson parsed.
					var want, got any
					if err := json.Unmarshal(raw, &got); err != nil {
						t.Fatal(err)
					}
					if err := json.Unmarshal(f.Value.v.MarshalTo(nil), &want); err != nil {
						t.Fatal(err)
					}
					if gj, _ := json.Marshal(got); string(gj) != string(mustMarshal(t, want)) {
						t.Fatalf("key %q: Raw = %s, fastjson has %s", f.Key, raw, f.Value.v.MarshalTo(nil))
					}
					if f.Value.IsObject() {
						check(f.Value)
					}
				}
			}
			check(root)
		})
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
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
			if pos != i || deep != tt.deep {
				t.Errorf("errorPos = %d, %v; want %d, %v", pos, deep, i, tt.deep)
			}
			var p Parser
			_, err := p.Parse([]byte(in))
			var se *SyntaxError
			if tt.name == "leading zero" || tt.name == "no exponent digits" || tt.name == "bad escape" || tt.name == "short unicode escape" || tt.name == "unescaped control" {
				return // fastjson accepts these; the parser package checks what it reads
			}
			if !errors.As(err, &se) || se.Pos != i || se.TooDeep != tt.deep {
				t.Errorf("Parse error = %v, want position %d", err, i)
			}
		})
	}
	var p Parser
	if _, err := p.Parse([]byte(strings.Repeat("[", 300) + strings.Repeat("]", 300))); err != nil {
		t.Errorf("300 levels refused: %v", err)
	}
}

func TestElements(t *testing.T) {
	data := []byte(`[ 1 , "a,]" ,{"x":[2]}, [ ] ,null]`)
	want := []string{`1`, `"a,]"`, `{"x":[2]}`, `[ ]`, `null`}
	var got []string
	for pos := FirstElement(data, 0); pos >= 0; pos = NextElement(data, pos) {
		got = append(got, string(Raw(data, pos)))
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("elements = %q, want %q", got, want)
	}
	for i, w := range want {
		if e := ElementPos(data, 0, i); string(Raw(data, e)) != w {
			t.Errorf("ElementPos(%d) = %d (%q), want %q", i, e, Raw(data, e), w)
		}
	}
	if ElementPos(data, 0, len(want)) != -1 || FirstElement([]byte(`[ ]`), 0) != -1 {
		t.Error("an element past the end was found")
	}
}

func TestValidNumber(t *testing.T) {
	for _, s := range []string{"0", "-0", "12", "1.5", "-1.5e+3", "2E-2", "1e9"} {
		if !ValidNumber([]byte(s)) {
			t.Errorf("ValidNumber(%q) = false", s)
		}
	}
	for _, s := range []string{"", "-", "01", "1.", ".5", "1e", "+1", "NaN", "inf", "0x10", "1_0", "1 "} {
		if ValidNumber([]byte(s)) {
			t.Errorf("ValidNumber(%q) = true", s)
		}
	}
}

// FuzzErrorPos checks the error-position scanner against encoding/json:
// it finds a problem exactly when json.Valid does not accept the input
// (depth aside), and Parse never panics and reports a position in range.
func FuzzErrorPos(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,2,{"b":null}]}`, `["\u00e9\n"]`, `{"a":`, `[1,]`, `"\ud83d"`, `-0.5e-7`, "[\"\x01\"]", `{"a" 1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		pos, deep := errorPos(data)
		if !deep && (pos < 0) != json.Valid(data) {
			t.Fatalf("errorPos(%q) = %d, json.Valid = %v", data, pos, json.Valid(data))
		}
		if pos > len(data) {
			t.Fatalf("errorPos(%q) = %d beyond the input", data, pos)
		}
		var p Parser
		v, err := p.Parse(data)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Pos > len(data) {
				t.Fatalf("Parse(%q) error %v", data, err)
			}
			return
		}
		for _, fd := range p.AppendFields(nil, v) {
			if fd.Pos < 0 || fd.Pos >= len(data) {
				t.Fatalf("Parse(%q): key %q has position %d", data, fd.Key, fd.Pos)
			}
			if raw := Raw(data, fd.Pos); json.Valid(data) && !json.Valid(raw) {
				t.Fatalf("Parse(%q): key %q: Raw at %d = %q", data, fd.Key, fd.Pos, raw)
			}
		}
	})
}
