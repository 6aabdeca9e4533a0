package jsonx

// This file wraps fastjson's Parser. The wrapper adds the one thing fastjson
// does not give: byte positions in the caller's input. It does so from the
// object keys, which fastjson keeps as views into its private copy of the
// input (Parse copies the input once, after skipping leading whitespace, and
// unescapes keys in place, so a key's first byte never moves). The first key
// of the root object anchors that copy to the caller's input; every other
// key's position follows by pointer difference, and a member value starts
// after its key's closing quote, whitespace, the colon and whitespace.
// TestKeyPositions guards this reliance on fastjson's layout.

import (
	"strconv"
	"unsafe"

	"github.com/valyala/fastjson"
)

// Parser parses JSON documents, reusing its memory from one Parse to the
// next. The zero value is ready to use. A Parser must not be used from
// multiple goroutines at once.
type Parser struct {
	p fastjson.Parser
	// data is the input of the last successful Parse.
	data []byte
	// anchor is the address, inside fastjson's copy, of the first byte of
	// the root object's first key, and anchorPos that byte's position in
	// data; anchor is 0 when the root has no key.
	anchor    uintptr
	anchorPos int
	// root holds the root object's members, gathered by Parse.
	root []Field
}

// Value is a parsed JSON value, valid until the next Parse on the Parser
// that returned it. The zero Value is absent.
type Value struct {
	v *fastjson.Value
}

// Field is one member of an object: its key (unescaped, valid until the
// next Parse), its value, and Pos, the 0-based byte position of the value's
// first byte in the parsed input (-1 if it could not be found).
type Field struct {
	Key   []byte
	Value Value
	Pos   int
}

// SyntaxError reports input that is not JSON. Pos is the 0-based byte
// position of the first offending byte (len(input) when the input ends too
// early, -1 when the position could not be established); TooDeep reports
// nesting beyond MaxDepth.
type SyntaxError struct {
	Pos     int
	TooDeep bool
}

// Error describes the error with its position.
func (e *SyntaxError) Error() string {
	b := make([]byte, 0, 48)
	if e.TooDeep {
		b = append(b, "jsonx: nesting too deep at byte "...)
	} else {
		b = append(b, "jsonx: invalid JSON at byte "...)
	}
	b = strconv.AppendInt(b, int64(e.Pos), 10)
	return string(b)
}

// Parse parses data, which must hold exactly one JSON value. The returned
// Value and every view derived from it are valid until the next Parse. On
// failure the error is a *SyntaxError whose position comes from this
// package's own scan, never from fastjson's message.
func (p *Parser) Parse(data []byte) (Value, error) {
	p.data = nil
	p.anchor = 0
	v, err := p.p.ParseBytes(data)
	if err != nil {
		pos, deep := errorPos(data)
		return Value{}, &SyntaxError{Pos: pos, TooDeep: deep}
	}
	p.data = data
	p.root = p.root[:0]
	if o, err := v.Object(); err == nil && o.Len() > 0 {
		p.anchorPos = firstKeyPos(data)
		o.Visit(func(key []byte, fv *fastjson.Value) {
			if p.anchor == 0 {
				p.anchor = uintptr(unsafe.Pointer(unsafe.SliceData(key)))
			}
			p.root = append(p.root, p.field(key, fv))
		})
	}
	return Value{v}, nil
}

// RootFields returns the members of the root object of the last successful
// Parse, as AppendFields would append them; nil when the root is not an
// object. The slice is valid until the next Parse.
func (p *Parser) RootFields() []Field { return p.root }

func (p *Parser) field(key []byte, v *fastjson.Value) Field {
	pos := p.keyPos(key)
	if pos >= 0 {
		pos = valueAfterKey(p.data, pos, len(key))
	}
	return Field{Key: key, Value: Value{v}, Pos: pos}
}

// firstKeyPos returns the position of the first byte of the first key of
// the object that data (valid JSON) holds.
func firstKeyPos(data []byte) int {
	i := skipSpace(data, 0)
	i = skipSpace(data, i+1) // past '{'
	return i + 1             // past '"'
}

// keyPos returns the position in the input of the first byte of key, a key
// view obtained from this parse, or -1.
func (p *Parser) keyPos(key []byte) int {
	if p.anchor == 0 {
		return -1
	}
	pos := p.anchorPos + int(uintptr(unsafe.Pointer(unsafe.SliceData(key)))-p.anchor)
	if pos < 1 || pos > len(p.data) || p.data[pos-1] != '"' {
		return -1
	}
	return pos
}

// Data returns the input of the last successful Parse.
func (p *Parser) Data() []byte { return p.data }

// AppendFields appends the members of the object v, in input order, to dst.
// It appends nothing when v is not an object.
func (p *Parser) AppendFields(dst []Field, v Value) []Field {
	if v.v == nil {
		return dst
	}
	o, err := v.v.Object()
	if err != nil {
		return dst
	}
	o.Visit(func(key []byte, fv *fastjson.Value) {
		dst = append(dst, p.field(key, fv))
	})
	return dst
}

// valueAfterKey returns the position of the value of the member whose key
// (unescaped, n bytes) starts at pos, just after its opening quote, or -1.
func valueAfterKey(data []byte, pos, n int) int {
	// A key with no escape is exactly its n raw bytes, so its closing quote
	// is at pos+n. A key with escapes is longer raw than unescaped, and a
	// quote at pos+n would then be inside it, escaped by the backslash
	// before it: checking that byte tells the cases apart without a scan.
	end := pos + n
	if end >= len(data) || data[end] != '"' || (n > 0 && data[end-1] == '\\') {
		// The key's own scan, not a call to stringEnd: a call would cost
		// this leaf function a stack frame on the fast path too.
		end = -1
		for i := pos; i < len(data); i++ {
			if c := data[i]; c == '"' {
				end = i
				break
			} else if c == '\\' {
				i++
			}
		}
		if end < 0 {
			return -1
		}
	}
	i := end + 1
	if i < len(data) && data[i] == ':' {
		i++
	} else {
		i = skipSpace(data, i)
		if i >= len(data) || data[i] != ':' {
			return -1
		}
		i++
	}
	if i < len(data) && data[i] > ' ' {
		return i
	}
	i = skipSpace(data, i)
	if i >= len(data) {
		return -1
	}
	return i
}

// Len returns the number of elements of the array v, 0 if v is not an
// array.
func (v Value) Len() int {
	if v.v == nil {
		return 0
	}
	a, err := v.v.Array()
	if err != nil {
		return 0
	}
	return len(a)
}

// At returns the i-th element of the array v; the caller checks i against
// Len.
func (v Value) At(i int) Value {
	a, _ := v.v.Array()
	return Value{a[i]}
}

// IsObject reports whether v is an object.
func (v Value) IsObject() bool {
	return v.v != nil && v.v.Type() == fastjson.TypeObject
}

// ParseFloat parses b, which must be a valid JSON number (see ValidNumber),
// as a float64 without allocating.
func ParseFloat(b []byte) (float64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	f, err := strconv.ParseFloat(unsafe.String(&b[0], len(b)), 64)
	return f, err == nil
}
