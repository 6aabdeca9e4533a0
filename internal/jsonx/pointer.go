package jsonx

// This file walks raw JSON bytes without building a tree: once Valid (in
// parser.go) has checked a document, Cursor, KeyEqual and Pointer read it
// in place, so that
// every value found is a subslice of the input with its byte offset. All of
// them are defensive: on malformed input they report failure, never panic.

import "unicode/utf8"

// Kind is the type of a JSON value, told by its first byte.
type Kind uint8

// The kinds of JSON values; KindInvalid is what a byte that starts no value
// yields.
const (
	KindInvalid Kind = iota
	KindObject
	KindArray
	KindString
	KindNumber
	KindTrue
	KindFalse
	KindNull
)

// KindOf returns the kind of the value whose first byte is c.
func KindOf(c byte) Kind {
	switch c {
	case '{':
		return KindObject
	case '[':
		return KindArray
	case '"':
		return KindString
	case 't':
		return KindTrue
	case 'f':
		return KindFalse
	case 'n':
		return KindNull
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return KindNumber
	}
	return KindInvalid
}

// Cursor walks the members of an object or the elements of an array in
// place. Its zero value is an exhausted cursor.
type Cursor struct {
	b       []byte
	i       int  // next byte to read; i ≤ len(b)
	open    bool // the container was opened and not yet closed
	first   bool // no member or element read yet
	obj     bool
	pending bool // b[i] starts a value that was returned but not skipped
}

// Open returns the kind of the value that starts at doc[off] (after
// whitespace) and, for an object or an array, a Cursor over its contents.
func Open(doc []byte, off int) (Cursor, Kind) {
	off = skipSpace(doc, off)
	if off >= len(doc) {
		return Cursor{}, KindInvalid
	}
	k := KindOf(doc[off])
	if k != KindObject && k != KindArray {
		return Cursor{}, k
	}
	return Cursor{b: doc, i: off + 1, open: true, first: true, obj: k == KindObject}, k
}

// next positions the cursor on the next item and reports whether there is
// one.
func (c *Cursor) next() bool {
	if c.pending {
		c.pending = false
		end := valueEnd(c.b, c.i)
		if end < 0 {
			c.open = false
		}
		c.i = end
	}
	if !c.open {
		return false
	}
	c.i = skipSpace(c.b, c.i)
	if c.i >= len(c.b) {
		c.open = false
		return false
	}
	if ch := c.b[c.i]; ch == '}' || ch == ']' {
		c.open = false
		return false
	}
	if !c.first {
		if c.b[c.i] != ',' {
			c.open = false
			return false
		}
		c.i = skipSpace(c.b, c.i+1)
	}
	c.first = false
	return c.i < len(c.b)
}

// closed reports whether the cursor stopped at the container's closing
// bracket rather than on malformed input.
func (c *Cursor) closed() bool {
	return !c.open && c.i >= 0 && c.i < len(c.b) && (c.b[c.i] == '}' || c.b[c.i] == ']')
}

// Value returns the raw bytes of the value that the last NextKey or
// NextIndex returned, and moves past it; ok is false when it does not end
// well.
func (c *Cursor) Value() (raw []byte, ok bool) {
	if !c.pending {
		return nil, false
	}
	c.pending = false
	start := c.i
	end := valueEnd(c.b, start)
	if end < 0 {
		c.open = false
		return nil, false
	}
	c.i = end
	return c.b[start:end], true
}

// NextKey moves to the next member of an object and returns its raw key
// (between the quotes, escapes not decoded) and the byte offset of its
// value in the document, without reading the value: call Value for it, or
// move on. It returns ok false at the end of the object or on malformed
// input.
func (c *Cursor) NextKey() (key []byte, off int, ok bool) {
	if !c.obj || !c.next() || c.b[c.i] != '"' {
		c.open = false
		return nil, 0, false
	}
	end := stringEnd(c.b, c.i)
	if end < 0 {
		c.open = false
		return nil, 0, false
	}
	key = c.b[c.i+1 : end-1]
	c.i = skipSpace(c.b, end)
	if c.i >= len(c.b) || c.b[c.i] != ':' {
		c.open = false
		return nil, 0, false
	}
	c.i = skipSpace(c.b, c.i+1)
	if c.i >= len(c.b) {
		c.open = false
		return nil, 0, false
	}
	c.pending = true
	return key, c.i, true
}

// NextIndex moves to the next element of an array and returns its byte
// offset in the document without reading it, like NextKey.
func (c *Cursor) NextIndex() (off int, ok bool) {
	if c.obj || !c.next() {
		c.open = false
		return 0, false
	}
	c.pending = true
	return c.i, true
}

// NextMember returns the next member of an object: the raw key between its
// quotes (escapes not decoded), the raw value and the value's byte offset in
// the document. It returns ok false at the end of the object or on
// malformed input.
func (c *Cursor) NextMember() (key, val []byte, off int, ok bool) {
	key, off, ok = c.NextKey()
	if !ok {
		return nil, nil, 0, false
	}
	val, ok = c.Value()
	return key, val, off, ok
}

// NextElement returns the next element of an array and its byte offset in
// the document, or ok false at the end of the array or on malformed input.
func (c *Cursor) NextElement() (val []byte, off int, ok bool) {
	off, ok = c.NextIndex()
	if !ok {
		return nil, 0, false
	}
	val, ok = c.Value()
	return val, off, ok
}

// Member returns the first member of the object at doc[off] whose decoded
// key equals name, with its byte offset.
func Member(doc []byte, off int, name string) (val []byte, valOff int, ok bool) {
	c, k := Open(doc, off)
	if k != KindObject {
		return nil, 0, false
	}
	for {
		key, v, o, more := c.NextMember()
		if !more {
			return nil, 0, false
		}
		if KeyEqual(key, name) {
			return v, o, true
		}
	}
}

// KeyEqual reports whether the raw JSON string content key decodes to
// exactly name, without allocating.
func KeyEqual(key []byte, name string) bool { return keyEqual(key, name) }

func keyEqual[S string | []byte](key []byte, name S) bool {
	var buf [utf8.UTFMax]byte
	n := 0
	for i := 0; i < len(key); {
		if key[i] != '\\' {
			if n >= len(name) || name[n] != key[i] {
				return false
			}
			n++
			i++
			continue
		}
		r, next, ok := unescapeAt(key, i)
		if !ok {
			return false
		}
		for _, b := range appendRune(buf[:0], r, SurrogateReplace) {
			if n >= len(name) || name[n] != b {
				return false
			}
			n++
		}
		i = next
	}
	return n == len(name)
}

// PointerCode says why a JSON Pointer did not resolve.
type PointerCode uint8

// The reasons a pointer fails, reported with the 0-based index of the
// reference token concerned (-1 when the pointer as a whole is at fault).
const (
	PointerOK           PointerCode = iota
	PointerSyntax                   // no leading '/', a '~' not followed by 0 or 1, a bad %-escape
	PointerNoMember                 // the object has no member with that name
	PointerBadIndex                 // an array token that is not 0 or a digit string without leading zeros
	PointerIndexRange               // an index at or past the array's end, "-" included
	PointerNotContainer             // the token descends into a string, number, boolean or null
	PointerBadDocument              // the document is not well-formed where the walk went
)

// Pointer evaluates RFC 6901 JSON Pointers over raw JSON. It keeps the
// scratch space for decoding tokens, so a warm Pointer does not allocate.
// Its zero value is ready to use.
type Pointer struct {
	frag []byte // the percent-decoded form of a '#' fragment pointer
	tok  []byte // the current reference token, ~0 and ~1 decoded
}

// Eval evaluates ptr on the JSON value doc. ptr is either a JSON Pointer
// string ("" or "/a/0/b~1c") or its URI fragment form ("#", "#/a%20b"),
// which is percent-decoded first. It returns the target's raw bytes (a
// subslice of doc), their byte offset in doc and their kind; on failure,
// the 0-based index of the failing reference token (-1 when the whole
// pointer is at fault) and a code. Duplicate object keys resolve to the
// first member.
//
// doc should have passed Valid: on other input Eval never panics, but it
// reads only as far as the target and may find one before the damage.
func (p *Pointer) Eval(doc, ptr []byte) (raw []byte, off int, kind Kind, token int, code PointerCode) {
	var ok bool
	if ptr, token, ok = p.unfragment(ptr); !ok {
		return nil, 0, KindInvalid, token, PointerSyntax
	}
	off = skipSpace(doc, 0)
	if len(ptr) == 0 {
		end := valueEnd(doc, off)
		if end < 0 {
			return nil, 0, KindInvalid, -1, PointerBadDocument
		}
		return doc[off:end], off, KindOf(doc[off]), -1, PointerOK
	}
	if ptr[0] != '/' {
		return nil, 0, KindInvalid, -1, PointerSyntax
	}
	token = 0
	for i := 1; ; token++ {
		j, ok := p.nextToken(ptr, i)
		if !ok {
			return nil, 0, KindInvalid, token, PointerSyntax
		}
		c, k := Open(doc, off)
		switch k {
		case KindObject:
			o, found, bad := memberOffset(&c, p.tok)
			if bad {
				return nil, 0, KindInvalid, token, PointerBadDocument
			}
			if !found {
				return nil, 0, KindInvalid, token, PointerNoMember
			}
			off = o
		case KindArray:
			n, code := arrayIndex(p.tok)
			if code != PointerOK {
				return nil, 0, KindInvalid, token, code
			}
			o, found, bad := elementOffset(&c, n)
			if bad {
				return nil, 0, KindInvalid, token, PointerBadDocument
			}
			if !found {
				return nil, 0, KindInvalid, token, PointerIndexRange
			}
			off = o
		case KindInvalid:
			return nil, 0, KindInvalid, token, PointerBadDocument
		default:
			return nil, 0, KindInvalid, token, PointerNotContainer
		}
		if j == len(ptr) {
			raw, ok := c.Value()
			if !ok {
				return nil, 0, KindInvalid, token, PointerBadDocument
			}
			return raw, off, KindOf(raw[0]), token, PointerOK
		}
		i = j + 1
	}
}

// unfragment returns ptr as a JSON Pointer string: ptr itself, or, for
// its URI fragment form ('#' first), its percent-decoded form, in p.frag.
// On a bad percent escape ok is false and token is the 0-based index of
// the reference token that holds it (-1 before the first '/').
func (p *Pointer) unfragment(ptr []byte) (out []byte, token int, ok bool) {
	if len(ptr) == 0 || ptr[0] != '#' {
		return ptr, 0, true
	}
	p.frag, token, ok = appendPercentDecoded(p.frag[:0], ptr[1:])
	return p.frag, token, ok
}

// nextToken decodes into p.tok, ~0 and ~1 decoded, the reference token of
// the JSON Pointer string ptr that starts at i (just after its '/'), and
// returns the position of the '/' that ends it, or len(ptr); ok is false
// when it holds a '~' that is not ~0 or ~1.
func (p *Pointer) nextToken(ptr []byte, i int) (end int, ok bool) {
	end = i
	for end < len(ptr) && ptr[end] != '/' {
		end++
	}
	p.tok, ok = appendTildeDecoded(p.tok[:0], ptr[i:end])
	return end, ok
}

// memberOffset finds the first member of c's object whose decoded key is
// name and leaves the cursor on its value; bad reports that the object was
// malformed before one was found.
func memberOffset(c *Cursor, name []byte) (off int, found, bad bool) {
	for {
		key, o, more := c.NextKey()
		if !more {
			return 0, false, !c.closed()
		}
		if keyEqual(key, name) {
			return o, true, false
		}
	}
}

// elementOffset leaves the cursor on element n of its array.
func elementOffset(c *Cursor, n int) (off int, found, bad bool) {
	for k := 0; ; k++ {
		o, more := c.NextIndex()
		if !more {
			return 0, false, !c.closed()
		}
		if k == n {
			return o, true, false
		}
	}
}

// arrayIndex parses an RFC 6901 array index token.
func arrayIndex(tok []byte) (int, PointerCode) {
	if len(tok) == 1 && tok[0] == '-' {
		return 0, PointerIndexRange
	}
	if len(tok) == 0 || (tok[0] == '0' && len(tok) > 1) {
		return 0, PointerBadIndex
	}
	n := 0
	for _, c := range tok {
		if c < '0' || c > '9' {
			return 0, PointerBadIndex
		}
		if n > (1<<31-1)/10 {
			return 0, PointerIndexRange
		}
		n = n*10 + int(c-'0')
	}
	return n, PointerOK
}

// AppendPointerToken appends to dst a '/' and the RFC 6901 reference
// token of the object member whose raw JSON key (the bytes between the
// quotes, escapes in place) is key, and returns the extended slice: the
// key's text (lone surrogates as U+FFFD; an invalid escape ends it) with
// '~' written "~0" and '/' written "~1", so that [Pointer.Eval] finds the
// member. An array element's token is its 0-based index in decimal.
func AppendPointerToken(dst, key []byte) []byte {
	dst = append(dst, '/')
	start := len(dst)
	dst, _ = AppendUnescaped(dst, key, SurrogateReplace)
	n := 0
	for _, c := range dst[start:] {
		if c == '~' || c == '/' {
			n++
		}
	}
	if n == 0 {
		return dst
	}
	// Shift the text right by n bytes, from its end, writing the escapes.
	end := len(dst)
	dst = append(dst, make([]byte, n)...)
	for i, j := end-1, len(dst)-1; i >= start; i-- {
		switch c := dst[i]; c {
		case '~', '/':
			dst[j] = '0'
			if c == '/' {
				dst[j] = '1'
			}
			dst[j-1] = '~'
			j -= 2
		default:
			dst[j] = c
			j--
		}
	}
	return dst
}

// appendTildeDecoded decodes ~0 and ~1 in one reference token.
func appendTildeDecoded(dst, tok []byte) ([]byte, bool) {
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c == '~' {
			if i+1 >= len(tok) {
				return dst, false
			}
			switch tok[i+1] {
			case '0':
				c = '~'
			case '1':
				c = '/'
			default:
				return dst, false
			}
			i++
		}
		dst = append(dst, c)
	}
	return dst, true
}

// appendPercentDecoded decodes %XX escapes of a URI fragment. On a bad
// escape it returns the 0-based index of the reference token it sits in
// (-1 before the first '/').
func appendPercentDecoded(dst, s []byte) (out []byte, token int, ok bool) {
	token = -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' {
			if i+2 >= len(s) {
				return dst, token, false
			}
			h, okh := unhex(s[i+1])
			l, okl := unhex(s[i+2])
			if !okh || !okl {
				return dst, token, false
			}
			c = h<<4 | l
			i += 2
		}
		if c == '/' {
			token++
		}
		dst = append(dst, c)
	}
	return dst, token, true
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
