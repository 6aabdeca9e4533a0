package jsonx

// This file is the JSON parser. One pass over the input checks it against
// RFC 8259 and, unless it only validates, records every value as a node of
// a flat list (a tape) in document order: a container's node comes before
// its children's, and each node knows where its subtree ends, so that
// stepping from one member or element to the next is one index read. A
// node keeps positions into the caller's input rather than copies, and a
// string node says whether it holds an escape, so a reader never scans a
// string twice: a string with no escape is its raw bytes.
//
// Strings are scanned eight bytes at a time while no byte of the word is a
// quote, a backslash or a control character. UTF-8 is not validated: the
// bytes of a string pass through as they are (a text delta may end in the
// middle of a character), which is what readers of this package expect.

import (
	"bytes"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"unsafe"
)

// MaxDepth is the deepest nesting that Parser.Parse and Valid accept. Every
// value counts as one level, scalars included, so a scalar inside MaxDepth
// nested containers is one level too deep.
const MaxDepth = 300

// Parser parses JSON documents, reusing its memory from one Parse to the
// next. The zero value is ready to use. A Parser must not be used from
// multiple goroutines at once.
type Parser struct {
	// data is the input of the last successful Parse.
	data []byte
	// nodes is the tape: one node per value, in document order.
	nodes []node
	// keys holds the unescaped text of the keys that have escapes; a node
	// whose keyEsc is set locates its key there instead of in data.
	keys []byte
	// root holds the root object's members, gathered by Parse.
	root []Field
	// The flags are together, so that they take one word (and early, where
	// the WebAssembly module reaches them with short offsets): deep goes with
	// bad, escsFull with escs.
	//
	// validate is set when the pass only checks the input (no tape).
	validate bool
	deep     bool
	escsFull bool
	// unescape is set during ParseText and ParseInPlace: a long string
	// value with escapes is unescaped into text, or over itself, as it is
	// checked.
	unescape bool
	// placing is set during ParseInPlace; inData tells that the texts of
	// the last parse are in data (it was ParseInPlace).
	placing bool
	inData  bool
	// bad is the position of the first offending byte, -1 while none;
	// deep tells that it is nested too deep; path, innermost first, leads
	// to the value that holds it, gathered as the pass unwinds.
	bad  int
	path []PathSeg

	// text receives a string unescaped as it is checked (UnescapeString),
	// and pending is its span in text, end 0 when it was not.
	text    []byte
	pending span

	// escs holds the positions of the escapes the pass checked, in order,
	// so that a string's unescaping need not search for them again
	// (Value.AppendText); at most escMax of them (len(data)/32: the index
	// holds at most an eighth of the input's size), after which escsFull is
	// set and later strings are unescaped by searching.
	escs   []int32
	escMax int

	// ip is what ParseInPlace needs, made at its first call.
	ip *inPlace
}

// inPlace is what ParseInPlace needs: place, its choice of the strings to
// unescape over themselves; anc, the path to the value being parsed, one
// step per level (its first steps in buf); placed, the number of strings
// unescaped so.
type inPlace struct {
	place  func(path []PathSeg) bool
	anc    []step
	placed int
	buf    [8]step
}

// step is one step of the path to the value ParseInPlace is parsing: an
// object member, its key data[start:end], or an array element, start -1
// and its index in end. Inputs are shorter than 2 GiB.
type step struct{ start, end int32 }

// span locates an unescaped text: text[start:end].
type span struct{ start, end int }

// node is one value of the tape.
type node struct {
	// start and end delimit the value's bytes in the input: data[start:end].
	start, end int
	// next is the index of the node after this value's subtree: its next
	// sibling, if it has one.
	next int
	// n is the number of members or elements of a container.
	n int
	// keyStart and keyEnd delimit the key of an object member: its raw
	// contents in data, or, when keyEsc is set, its unescaped text in keys.
	keyStart, keyEnd int
	// kind is the value's first byte: '{', '[', '"', 't', 'f', 'n', or '0'
	// for any number.
	kind byte
	// esc tells that a string holds at least one escape.
	esc    bool
	keyEsc bool
	// escAt is the index in escs of a string's first escape, when every
	// escape of the string is there; -1 otherwise.
	escAt int32
	// textStart and textEnd delimit a string's text in Parser.text when
	// ParseText unescaped it; textEnd is 0 otherwise.
	textStart, textEnd int32
}

// Value is a parsed JSON value, valid until the next Parse on the Parser
// that returned it. The zero Value is absent.
type Value struct {
	p *Parser
	i int
}

// Field is one member of an object: its key (unescaped, valid until the
// next Parse), its value, and Pos, the 0-based byte position of the value's
// first byte in the parsed input.
type Field struct {
	Key   []byte
	Value Value
	Pos   int
}

// SyntaxError reports input that is not JSON. Pos is the 0-based byte
// position of the first offending byte (len(input) when the input ends too
// early); TooDeep reports nesting beyond MaxDepth; Path leads from the root
// to the innermost value that holds the offending byte.
type SyntaxError struct {
	Pos     int
	TooDeep bool
	Path    []PathSeg
}

// PathSeg is one step of a path into a document: an object member, named
// by its key as written (escapes in place, a view of the input), or, when
// Index is not -1, an array element.
type PathSeg struct {
	Key   []byte
	Index int
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

// Parse parses data, which must hold exactly one JSON value, optionally
// surrounded by whitespace. The returned Value and every view derived from
// it are valid until the next Parse, and as long as data is not modified.
// On failure the error is a *SyntaxError.
func (p *Parser) Parse(data []byte) (Value, error) {
	p.data = nil
	p.nodes = p.nodes[:0]
	p.keys = p.keys[:0]
	p.root = p.root[:0]
	p.validate = false
	p.path = p.path[:0]
	p.pending, p.inData = span{}, false
	if p.placing {
		p.ip.anc, p.ip.placed = p.ip.anc[:0], 0
	}
	p.escs, p.escsFull = p.escs[:0], false
	if p.escMax = len(data) / 32; len(data) > math.MaxInt32 {
		p.escMax = 0
	}
	if pos, deep := p.check(data); pos >= 0 {
		path := make([]PathSeg, len(p.path))
		for i, s := range p.path {
			path[len(path)-1-i] = s
		}
		return Value{}, &SyntaxError{Pos: pos, TooDeep: deep, Path: path}
	}
	p.data = data
	root := Value{p, 0}
	p.root = p.AppendFields(p.root, root)
	return root, nil
}

// check runs the pass over data and returns the position of the first
// offending byte and whether it is nested too deep, or -1.
func (p *Parser) check(data []byte) (int, bool) {
	p.data = data
	p.bad, p.deep = -1, false
	i := p.value(skipSpace(data, 0), 0)
	if p.bad >= 0 {
		return p.bad, p.deep
	}
	if i = skipSpace(data, i); i < len(data) {
		return i, false
	}
	return -1, false
}

// Valid reports whether doc is exactly one JSON value (RFC 8259),
// optionally surrounded by whitespace, nested at most MaxDepth deep. It
// does not allocate.
func Valid(doc []byte) bool {
	pos, _ := errorPos(doc)
	return pos < 0
}

// errorPos returns the position of the first byte that makes data invalid
// JSON (len(data) when it ends too early) and whether the problem is
// nesting beyond MaxDepth, or -1 when data is valid.
func errorPos(data []byte) (int, bool) {
	var p Parser
	p.validate = true
	return p.check(data)
}

// ValidNumber reports whether b is exactly one JSON number (RFC 8259).
func ValidNumber(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	p := scanner(b)
	p.validate = true
	return p.number(0) == len(b) && p.bad < 0
}

// StringEnd checks the string whose opening quote is at data[i] and
// returns the position just past its closing quote and whether it holds an
// escape; ok is false when the string is not valid JSON (a raw control
// character, a bad escape, no closing quote). It scans as Parse does and
// does not allocate.
func StringEnd(data []byte, i int) (end int, esc, ok bool) {
	p := scanner(data)
	end, esc = p.string(i, false)
	return end, esc, p.bad < 0
}

// UnescapeString is StringEnd that also appends to dst the text of the
// string when it holds an escape, as AppendUnescaped(dst, contents,
// SurrogateWTF8) would, and returns the extended slice; out is dst when the
// string has no escape or is not valid. A long string is unescaped as it is
// checked, in one pass instead of two.
func UnescapeString(dst, data []byte, i int) (out []byte, end int, esc, ok bool) {
	p := scanner(data)
	p.text = dst
	end, esc = p.string(i, true)
	switch {
	case p.bad >= 0:
		return dst, end, esc, false
	case p.pending.end > 0:
		return p.text, end, true, true
	case esc:
		out, _ = AppendUnescaped(dst, data[i+1:end-1], SurrogateWTF8)
		return out, end, true, true
	}
	return dst, end, false, true
}

// scanner returns a Parser for one scan of data with no Parse before it,
// as StringEnd, UnescapeString and ValidNumber make one per call (once per
// event, for the decoder's text). Its fields are set one by one on a zero
// Parser: a composite literal is built on the stack and copied, 27 words,
// which made UnescapeString on a token 1.7 times as slow
// (BenchmarkUnescapeStringToken: 18 ns a call against 10.5).
func scanner(data []byte) *Parser {
	p := new(Parser)
	p.data, p.bad = data, -1
	return p
}

func (p *Parser) fail(i int) int {
	p.bad = i
	return i
}

// value parses the value at i, nested depth levels deep, and returns the
// position after it; on error it records p.bad and returns it.
func (p *Parser) value(i, depth int) int {
	d := p.data
	if i >= len(d) {
		return p.fail(len(d))
	}
	if depth+1 > MaxDepth {
		p.deep = true
		return p.fail(i)
	}
	var end int
	esc := false
	kind := d[i]
	e0 := len(p.escs)
	switch kind {
	case '{', '[':
		return p.container(i, depth)
	case '"':
		end, esc = p.string(i, p.unescape)
	case 't':
		end = p.literal(i, "true")
	case 'f':
		end = p.literal(i, "false")
	case 'n':
		end = p.literal(i, "null")
	default:
		if kind != '-' && (kind < '0' || kind > '9') {
			return p.fail(i)
		}
		end, kind = p.number(i), '0'
	}
	if p.bad < 0 && !p.validate {
		p.leaf(i, end, kind, esc)
		p.indexed(e0, esc)
	}
	return end
}

// grow adds a node at the end of the tape and returns it. Its fields are
// set one by one by the caller, not from a composite literal: copying a
// literal built on the stack stalls on store forwarding, which cost a third
// of the parse.
func (p *Parser) grow() *node {
	idx := len(p.nodes)
	if idx == cap(p.nodes) {
		p.nodes = slices.Grow(p.nodes, 1)
	}
	p.nodes = p.nodes[:idx+1]
	return &p.nodes[idx]
}

// leaf adds the node of a scalar.
func (p *Parser) leaf(start, end int, kind byte, esc bool) {
	next := len(p.nodes) + 1
	nd := p.grow()
	nd.start, nd.end, nd.next, nd.n, nd.kind, nd.esc = start, end, next, 0, kind, esc
}

// indexed records on the last node, a scalar just added, where its
// escapes are in escs: from escs[e0] on, when it is a string with escapes
// and all of them are there; and the span of its text in text when
// ParseText unescaped it (pending).
func (p *Parser) indexed(e0 int, esc bool) {
	at := int32(-1)
	if esc && !p.escsFull {
		at = int32(e0)
	}
	nd := &p.nodes[len(p.nodes)-1]
	nd.escAt = at
	nd.textStart, nd.textEnd = int32(p.pending.start), int32(p.pending.end)
	p.pending = span{}
}

// container parses the object or array that opens at i, nested depth
// levels deep, and returns the position after it. Its node comes before
// its members' and is completed after them. Strings, most members, are
// parsed in place rather than through a call to value. During
// ParseInPlace it sets the step to each member in the path to the value
// being parsed, for the choice of the strings to unescape.
func (p *Parser) container(i, depth int) int {
	d := p.data
	idx := len(p.nodes)
	if !p.validate {
		nd := p.grow()
		nd.start, nd.n, nd.kind = i, 0, d[i]
	}
	obj := d[i] == '{'
	closer := d[i] + 2 // '}' or ']'
	i = skipSpace(d, i+1)
	n := 0
	if i < len(d) && d[i] == closer {
		i++
	} else {
		for {
			keyStart, keyEnd, keyEsc := 0, 0, false
			if obj {
				if i >= len(d) || d[i] != '"' {
					return p.fail(i)
				}
				var end int
				if end, keyEsc = p.string(i, false); p.bad >= 0 {
					return end
				}
				keyStart, keyEnd = i+1, end-1
				if i = end; i >= len(d) || d[i] != ':' {
					if i = skipSpace(d, i); i >= len(d) || d[i] != ':' {
						return p.fail(i)
					}
				}
				i = skipSpace(d, i+1)
			}
			if p.placing {
				st := step{int32(keyStart), int32(keyEnd)}
				if !obj {
					st = step{-1, int32(n)}
				}
				p.ip.anc = append(p.ip.anc[:depth], st)
			}
			member := len(p.nodes)
			if i < len(d) && d[i] == '"' && depth+2 <= MaxDepth {
				e0 := len(p.escs)
				end, esc := p.string(i, p.unescape)
				if p.bad < 0 && !p.validate {
					p.leaf(i, end, '"', esc)
					p.indexed(e0, esc)
				}
				i = end
			} else {
				i = p.value(i, depth+1)
			}
			if p.bad >= 0 {
				p.failedIn(obj, keyStart, keyEnd, n)
				return i
			}
			if obj && !p.validate {
				p.setKey(member, keyStart, keyEnd, keyEsc)
			}
			n++
			if i < len(d) && d[i] == ',' {
				i = skipSpace(d, i+1)
				continue
			}
			if i = skipSpace(d, i); i < len(d) && d[i] == closer {
				i++
				break
			}
			if i >= len(d) || d[i] != ',' {
				return p.fail(i)
			}
			i = skipSpace(d, i+1)
		}
	}
	if !p.validate {
		nd := &p.nodes[idx]
		nd.end, nd.next, nd.n = i, len(p.nodes), n
	}
	return i
}

// failedIn adds to path, as the pass unwinds from an error, the step to
// the member that holds it: its key data[keyStart:keyEnd] (obj), or
// element n. A pass that only validates keeps no path.
func (p *Parser) failedIn(obj bool, keyStart, keyEnd, n int) {
	if p.validate {
		return
	}
	seg := PathSeg{Index: n}
	if obj {
		seg = PathSeg{Key: p.data[keyStart:keyEnd:keyEnd], Index: -1}
	}
	p.path = append(p.path, seg)
}

// setKey records the key of the member whose node is at idx: its raw
// contents data[start:end], unescaped into p.keys when it has escapes.
func (p *Parser) setKey(idx, start, end int, esc bool) {
	nd := &p.nodes[idx]
	if esc {
		k := len(p.keys)
		p.keys, _ = AppendUnescaped(p.keys, p.data[start:end], SurrogateReplace)
		start, end = k, len(p.keys)
	}
	nd.keyStart, nd.keyEnd, nd.keyEsc = start, end, esc
}

// string scans the string whose opening quote is at i and returns the
// position after its closing quote and whether it holds an escape.
//
// It scans a word at a time, which suits keys, ids, deltas and texts dense
// with escapes; once a word loop has gone longRun bytes without meeting a
// special byte, the run is long, and it goes on in scanLong, a run at a
// time. Every byte is searched once either way. With unescape set, a
// string that has gone longRun bytes is long whatever its runs, and
// scanLong hands it to stringUnescape at its first escape.
func (p *Parser) string(i int, unescape bool) (int, bool) {
	d := p.data
	base := unsafe.Pointer(unsafe.SliceData(d))
	// Set field by field: a composite literal is built on the stack and
	// copied, which stalls on store forwarding (as in grow).
	var s strScan
	s.open, s.q, s.cc, s.lastEsc, s.lastEnd, s.unescape = i, -1, -1, -1, -1, unescape
	i++
	for {
		// Eight bytes at a time: a byte of the word is below 0x20, a quote
		// or a backslash when its high bit is set in special. A borrow may
		// also mark bytes above such a byte, never below it, so the lowest
		// mark is exact. The loop condition keeps the word inside d, which
		// lets the load skip the bounds checks that cost a third of the
		// loop.
		limit := i + longRun
		if s.unescape {
			// Unescaping, the string is long once it has gone longRun
			// bytes, escapes or not: texts dense with escapes are then
			// read once instead of checked and unescaped in turn.
			limit = min(limit, s.open+1+longRun)
		}
		for i+8 <= len(d) {
			if i >= limit {
				var done bool
				if i, done = p.scanLong(&s, i); done {
					return i, s.esc
				}
				break
			}
			x := load64((*[8]byte)(unsafe.Add(base, i)))
			quote := x ^ ('"' * ones)
			slash := x ^ ('\\' * ones)
			special := ((x - 0x20*ones) | (quote - ones) | (slash - ones)) &^ x & highs
			if special == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(special) >> 3
			break
		}
		// The special byte, or the last few bytes one at a time.
		for ; i < len(d); i++ {
			c := d[i]
			if c == '"' {
				return i + 1, s.esc
			}
			if c < 0x20 {
				return p.fail(i), s.esc
			}
			if c == '\\' {
				s.esc, s.lastEsc = true, i
				if len(p.escs) < p.escMax {
					if len(p.escs) == cap(p.escs) {
						// Doubled: append grows a large slice by a
						// quarter, which allocates five times its size.
						p.escs = slices.Grow(p.escs, min(p.escMax, 2*cap(p.escs)+256)-len(p.escs))
					}
					p.escs = append(p.escs, int32(i))
				} else {
					p.escsFull = true
				}
				if i = p.escape(i); p.bad >= 0 {
					return i, s.esc
				}
				s.lastEnd = i
				break
			}
		}
		if i >= len(d) {
			return p.fail(len(d)), s.esc
		}
	}
}

// longRun is how many bytes string's word loop goes without a special
// byte before it takes the run as long.
const longRun = 64

// strScan is what string knows of the string it scans beyond its
// position, shared with scanLong.
type strScan struct {
	// open is the position of the opening quote.
	open int
	// q is the position of the next quote at or after the scan, once
	// searched; -1 before. It is searched again only after an escape
	// consumed it (\").
	q int
	// cc is how far ahead the bytes hold no control character: d[i:cc]
	// (ctrlAhead).
	cc int
	// lastEsc and lastEnd delimit the last escape checked, -1 before.
	lastEsc, lastEnd int
	// esc tells that an escape was met.
	esc bool
	// unescape tells that the string is to be unescaped as it is checked
	// once it is long (ParseText, ParseInPlace).
	unescape bool
}

// scanLong goes on with the string s at i after a long run, a run at a
// time (s.run). It returns the position of the backslash or quote that
// ends the run, for string's byte loop; or, done set, what string returns:
// the position of a failure (a control character; no closing quote, found
// by stringTail), or, when s.unescape is set and a backslash comes first,
// the end of the string that stringUnescape unescaped from there.
func (p *Parser) scanLong(s *strScan, i int) (next int, done bool) {
	end, ok := s.run(p.data, i)
	if !ok {
		if end < 0 {
			next, s.esc = p.stringTail(i, s.esc)
			return next, true
		}
		return p.fail(end), true
	}
	if s.unescape && end < s.q {
		if !p.placing || p.placeHere() {
			// Unescaping starts at this backslash, or at the escape just
			// before it: the two may be the halves of a surrogate pair.
			from := end
			if s.lastEnd == end {
				from = s.lastEsc
			}
			next, s.esc = p.stringUnescape(s, from)
			return next, true
		}
		// ParseInPlace leaves it as it is: checked only.
		s.unescape = false
	}
	return end, false
}

// run finds the run of the long string s that starts at i, with the
// vectorised bytes.IndexByte: the closing quote (s.q, searched again only
// once i has passed it: an escape consumed it, \"), and the next backslash
// before it. It checks the bytes up to there for control characters a
// window ahead (ctrlAhead, s.cc), not run by run, so that a text with an
// escape every line pays one check per window. It returns the position of
// that backslash, or of the quote when there is none, and true; or false
// with the position of the first control character, or -1 when no closing
// quote follows i.
func (s *strScan) run(d []byte, i int) (end int, ok bool) {
	if s.q < i {
		k := bytes.IndexByte(d[i:], '"')
		if k < 0 {
			return -1, false
		}
		s.q = i + k
	}
	end = s.q
	if k := bytes.IndexByte(d[i:s.q], '\\'); k >= 0 {
		end = i + k
	}
	if s.cc = ctrlAhead(d, i, end, s.q, s.cc); s.cc < end {
		return s.cc, false
	}
	return end, true
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// stringUnescape goes on with the long string s, checked up to the
// backslash at i: it unescapes what is checked into p.text, then checks
// and unescapes the rest, a run (s.run, or a word at a time while runs are
// short) and an escape at a time, and leaves the text's span pending for
// the string's node. The text is never longer than the rest of the input,
// so the room is made once and the text written in place.
//
// During ParseInPlace the text is written over the string itself, from
// just after its opening quote: each byte is written after the bytes it
// comes from are read, and unescaping never lengthens, so the writing
// never overtakes the reading; the bytes of the string after its text are
// left as they were. On a failure the string is left partly unescaped.
func (p *Parser) stringUnescape(s *strScan, i int) (int, bool) {
	d, open := p.data, s.open
	mark := len(p.text)
	// The text is out[start:n]: in text, or, during ParseInPlace, in data.
	start := mark
	var out []byte
	if p.placing {
		start, out = open+1, d[:open+1:len(d)]
	} else {
		out = slices.Grow(p.text, len(d)-open)
	}
	// Up to i the string is checked: its escapes are good.
	out, _ = AppendUnescaped(out, d[open+1:i], SurrogateWTF8)
	n := len(out)
	out = out[:cap(out)]
	for {
		// The escape at i.
		var ok bool
		if n, i, ok = unescapeInto(out, n, d, i, SurrogateWTF8); !ok {
			p.text = p.text[:mark]
			return p.escape(i), true // fails where the check fails
		}
		// The run up to the next backslash or the closing quote: a word at
		// a time over its first 32 bytes (runs between escapes are short
		// in texts dense with them), then with IndexByte.
		if sp := specialIn(d, i, 32); sp >= 0 {
			n += copy(out[n:], d[i:sp])
			switch c := d[sp]; {
			case c == '"':
				p.endText(out, start, n)
				return sp + 1, true
			case c == '\\':
				i = sp
				continue
			}
			p.text = p.text[:mark]
			return p.fail(sp), true
		}
		end, ok := s.run(d, i)
		if !ok {
			p.text = p.text[:mark]
			if end < 0 {
				return p.stringTail(i, true)
			}
			return p.fail(end), true
		}
		n += copy(out[n:], d[i:end])
		if end == s.q {
			// An escape gives at least one byte: n > 0.
			p.endText(out, start, n)
			return end + 1, true
		}
		i = end
	}
}

// endText ends a string that stringUnescape unescaped, its text out[start:n]:
// over itself in the data (ParseInPlace), or the new end of text.
func (p *Parser) endText(out []byte, start, n int) {
	if p.placing {
		p.ip.placed++
	} else {
		p.text = out[:n]
	}
	p.pending = span{start: start, end: n}
}

// specialIn returns the index of the first quote, backslash or control
// character in d[i:i+max], read a word at a time, or -1 when there is none
// in the whole words there.
func specialIn(d []byte, i, max int) int {
	base := unsafe.Pointer(unsafe.SliceData(d))
	for limit := i + max; i+8 <= len(d) && i < limit; i += 8 {
		x := load64((*[8]byte)(unsafe.Add(base, i)))
		quote := x ^ ('"' * ones)
		slash := x ^ ('\\' * ones)
		if special := ((x - 0x20*ones) | (quote - ones) | (slash - ones)) &^ x & highs; special != 0 {
			return i + bits.TrailingZeros64(special)>>3
		}
	}
	return -1
}

// stringTail scans a string that has no closing quote after i, byte by
// byte, and fails at its first offending byte: a control character, a bad
// escape, or the end of the input.
func (p *Parser) stringTail(i int, esc bool) (int, bool) {
	d := p.data
	for i < len(d) {
		switch c := d[i]; {
		case c < 0x20:
			return p.fail(i), esc
		case c == '\\':
			esc = true
			if i = p.escape(i); p.bad >= 0 {
				return i, esc
			}
		default:
			i++
		}
	}
	return p.fail(len(d)), esc
}

// ctrlWindow is how far ahead of a run ctrlAhead checks for control
// characters.
const ctrlWindow = 4 << 10

// ctrlAhead extends the check for control characters of a long string,
// given that d[i:cc] holds none, so that it covers the run d[i:end] that
// ends before the quote at q: when end > cc it checks on from
// max(cc, i) to end or a window ahead, not past q, and returns the index
// of the first control character it met, or the end of what it checked
// (≥ end) when there is none.
func ctrlAhead(d []byte, i, end, q, cc int) int {
	if cc >= end {
		return cc
	}
	from := max(cc, i)
	to := max(end, min(q, from+ctrlWindow))
	if c := ctrlIndex(d[from:to]); c >= 0 {
		return from + c
	}
	return to
}

// ctrlIndex returns the index of the first byte of b below 0x20, or -1.
// Thirty-two bytes at a time: a byte below 0x20 is the only one whose high
// bit subtracting 0x20 sets and that did not have it; a borrow only marks
// bytes above a marked one, and the block is then searched byte by byte.
func ctrlIndex(b []byte) int {
	base := unsafe.Pointer(unsafe.SliceData(b))
	i := 0
	for ; i+32 <= len(b); i += 32 {
		w := load64((*[8]byte)(unsafe.Add(base, i)))
		x := load64((*[8]byte)(unsafe.Add(base, i+8)))
		y := load64((*[8]byte)(unsafe.Add(base, i+16)))
		z := load64((*[8]byte)(unsafe.Add(base, i+24)))
		if ((w-0x20*ones)&^w|(x-0x20*ones)&^x|(y-0x20*ones)&^y|(z-0x20*ones)&^z)&highs != 0 {
			break
		}
	}
	for ; i+8 <= len(b); i += 8 {
		x := load64((*[8]byte)(unsafe.Add(base, i)))
		if (x-0x20*ones)&^x&highs != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if b[i] < 0x20 {
			return i
		}
	}
	return -1
}

// load64 reads eight bytes as a little-endian word, which the compiler
// turns into one load (encoding/binary would do the same, but links
// reflect into the WebAssembly module).
func load64(b *[8]byte) uint64 {
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// escape checks the escape sequence whose backslash is at i and returns the
// position after it.
func (p *Parser) escape(i int) int {
	d := p.data
	if i+1 >= len(d) {
		return p.fail(len(d))
	}
	switch d[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return i + 2
	case 'u':
		for k := 2; k < 6; k++ {
			if i+k >= len(d) {
				return p.fail(len(d))
			}
			if _, ok := unhex(d[i+k]); !ok {
				return p.fail(i)
			}
		}
		return i + 6
	}
	return p.fail(i)
}

// literal checks that word (true, false or null) is at i.
func (p *Parser) literal(i int, word string) int {
	d := p.data
	if i+len(word) <= len(d) && string(d[i:i+len(word)]) == word {
		return i + len(word)
	}
	for k := 0; k < len(word); k++ {
		if i+k >= len(d) || d[i+k] != word[k] {
			return p.fail(i + k)
		}
	}
	return i + len(word)
}

// digits returns the position after the run of digits at i and its length.
func (p *Parser) digits(i int) (int, int) {
	d := p.data
	start := i
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	return i, i - start
}

// number checks the number that starts at i.
func (p *Parser) number(i int) int {
	d := p.data
	if d[i] == '-' {
		i++
	}
	if i < len(d) && d[i] == '0' {
		i++
	} else {
		var n int
		if i, n = p.digits(i); n == 0 {
			return p.fail(i)
		}
	}
	if i < len(d) && d[i] == '.' {
		var n int
		if i, n = p.digits(i + 1); n == 0 {
			return p.fail(i)
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		var n int
		if i, n = p.digits(i); n == 0 {
			return p.fail(i)
		}
	}
	return i
}

// RootFields returns the members of the root object of the last successful
// Parse, as AppendFields would append them; nil when the root is not an
// object. The slice is valid until the next Parse.
func (p *Parser) RootFields() []Field { return p.root }

// AppendFields appends the members of the object v, in input order, to dst.
// It appends nothing when v is not an object.
func (p *Parser) AppendFields(dst []Field, v Value) []Field {
	if v.p != p {
		return dst
	}
	for ms := v.Members(); ms.Next(); {
		dst = append(dst, *ms.Field())
	}
	return dst
}

// Members steps through the members of an object in input order:
//
//	for ms := v.Members(); ms.Next(); {
//		f := ms.Field()
//		…
//	}
//
// Unlike AppendFields it copies nothing but the current member.
type Members struct {
	p    *Parser
	next int // node of the next member
	left int // members not yet returned
	cur  Field
}

// Members returns a cursor over the members of the object v, over nothing
// when v is not an object.
func (v Value) Members() Members {
	if v.p == nil || v.p.nodes[v.i].kind != '{' {
		return Members{}
	}
	return Members{p: v.p, next: v.i + 1, left: v.p.nodes[v.i].n}
}

// Next moves to the next member and reports whether there is one.
func (ms *Members) Next() bool {
	if ms.left == 0 {
		return false
	}
	p := ms.p
	m := &p.nodes[ms.next]
	key := p.data[m.keyStart:m.keyEnd:m.keyEnd]
	if m.keyEsc {
		key = p.keys[m.keyStart:m.keyEnd:m.keyEnd]
	}
	// Field by field: a composite literal would be built on the stack and
	// copied, which stalls on store forwarding.
	ms.cur.Key, ms.cur.Value, ms.cur.Pos = key, Value{p, ms.next}, m.start
	ms.next, ms.left = m.next, ms.left-1
	return true
}

// Field returns the current member, valid until the next call to Next.
func (ms *Members) Field() *Field { return &ms.cur }

// Kind returns the value's first byte: '{', '[', '"', 't', 'f', 'n', or
// '0' for any number; 0 for the absent Value.
func (v Value) Kind() byte {
	if v.p == nil {
		return 0
	}
	return v.p.nodes[v.i].kind
}

// Pos returns the position of the value's first byte in the parsed input,
// -1 for the absent Value.
func (v Value) Pos() int {
	if v.p == nil {
		return -1
	}
	return v.p.nodes[v.i].start
}

// Raw returns the value's exact bytes in the parsed input, nil for the
// absent Value.
func (v Value) Raw() []byte {
	if v.p == nil {
		return nil
	}
	nd := &v.p.nodes[v.i]
	return v.p.data[nd.start:nd.end:nd.end]
}

// Contents returns the bytes between the quotes of the string v, escapes
// still in place, and whether it holds an escape; nil and false when v is
// not a string.
func (v Value) Contents() ([]byte, bool) {
	if v.p == nil {
		return nil, false
	}
	nd := &v.p.nodes[v.i]
	if nd.kind != '"' {
		return nil, false
	}
	return v.p.data[nd.start+1 : nd.end-1 : nd.end-1], nd.esc
}

// ParseText is Parse that also unescapes, as it checks them, the string
// values (not keys) that hold an escape and are long (64 bytes or more)
// into text, appended, in one pass instead of a check and an unescaping
// after it; Value.Unescaped returns such a string's text. It returns the
// extended text, which the values' texts are views of: they are valid
// until text is written again. For input of 2 GiB or more it is Parse,
// and text is returned as it was.
func (p *Parser) ParseText(data, text []byte) (Value, []byte, error) {
	if len(data) > math.MaxInt32 {
		v, err := p.Parse(data)
		return v, text, err
	}
	p.text, p.pending, p.unescape = text, span{}, true
	v, err := p.Parse(data)
	p.unescape = false
	return v, p.text, err
}

// ParseInPlace is ParseText for a caller that owns data and gives up its
// bytes: the long string values with escapes (64 bytes or more) whose path
// from the root place accepts are unescaped over their own bytes in data,
// from just after the opening quote, as they are checked: one pass, and no
// buffer for their text. The bytes of such a string after its text are
// left as they were, so its Raw and Contents no longer hold JSON;
// Value.Unescaped returns its text, a view of data. place is called at
// most once per string, when the string turns out to be long and to hold
// an escape, before anything is written; it is given the path to the
// string, keys as written (escapes in place), and must not keep it. A
// string that place refuses, and every other byte of data, is left as it
// was: place must refuse every string that the caller keeps a raw view of
// (the Raw of an enclosing value).
//
// It returns the root, the number of strings it unescaped over themselves,
// and the error as Parse does. On a failure the strings before the
// offending byte that place accepted are unescaped (the one that holds it
// partly): data no longer holds what was received, and only the error's
// position tells about it. For input of 2 GiB or more it is Parse, and
// unescapes nothing.
func (p *Parser) ParseInPlace(data []byte, place func(path []PathSeg) bool) (Value, int, error) {
	if len(data) > math.MaxInt32 || place == nil {
		v, err := p.Parse(data)
		return v, 0, err
	}
	if p.ip == nil {
		p.ip = new(inPlace)
		p.ip.anc = p.ip.buf[:0]
	}
	p.ip.place, p.placing, p.unescape = place, true, true
	v, err := p.Parse(data)
	p.ip.place, p.placing, p.unescape = nil, false, false
	p.inData = true
	return v, p.ip.placed, err
}

// placeHere asks ParseInPlace's place whether the string being parsed,
// long and with an escape, is to be unescaped over itself.
func (p *Parser) placeHere() bool {
	// The path is built where an error's is, empty until the pass fails.
	path := p.path[:0]
	for _, st := range p.ip.anc {
		seg := PathSeg{Index: int(st.end)}
		if st.start >= 0 {
			seg = PathSeg{Key: p.data[st.start:st.end:st.end], Index: -1}
		}
		path = append(path, seg)
	}
	ok := p.ip.place(path)
	clear(path)
	p.path = path[:0]
	return ok
}

// Unescaped returns the text of the string v when ParseText or
// ParseInPlace unescaped it as it checked it, and whether it did.
func (v Value) Unescaped() ([]byte, bool) {
	if v.p == nil {
		return nil, false
	}
	nd := &v.p.nodes[v.i]
	if nd.kind != '"' || nd.textEnd == 0 {
		return nil, false
	}
	if v.p.inData {
		return v.p.data[nd.textStart:nd.textEnd:nd.textEnd], true
	}
	return v.p.text[nd.textStart:nd.textEnd:nd.textEnd], true
}

// AppendText appends to dst the text of the string v, as
// AppendUnescaped(dst, contents, SurrogateWTF8) does with its contents, and
// returns the extended slice and bad as AppendUnescaped does (always -1:
// Parse checked the escapes). The escapes that Parse found are not
// searched for again. dst may be the contents' own bytes (dst[:0] of
// them): each byte is written after the bytes it comes from are read.
func (v Value) AppendText(dst []byte) ([]byte, int) {
	raw, esc := v.Contents()
	if !esc || v.p.nodes[v.i].escAt < 0 {
		return AppendUnescaped(dst, raw, SurrogateWTF8)
	}
	// The runs between the escapes are copied, the escapes decoded, as
	// AppendUnescaped does once it has found them.
	nd := &v.p.nodes[v.i]
	at, base := nd.escAt, nd.start+1
	n := len(dst)
	dst = slices.Grow(dst, len(raw))[:n+len(raw)]
	i := 0
	for _, e := range v.p.escs[at:] {
		k := int(e) - base
		if k >= len(raw) {
			break
		}
		if k < i {
			continue // the low half of a surrogate pair decoded with its high half
		}
		n += copy(dst[n:], raw[i:k])
		n, i, _ = unescapeInto(dst, n, raw, k, SurrogateWTF8)
	}
	n += copy(dst[n:], raw[i:])
	return dst[:n], -1
}

// Len returns the number of elements of the array v, 0 if v is not an
// array.
func (v Value) Len() int {
	if v.p == nil {
		return 0
	}
	if nd := &v.p.nodes[v.i]; nd.kind == '[' {
		return nd.n
	}
	return 0
}

// First returns the first element of the array v, the absent Value when v
// is not an array or is empty.
func (v Value) First() Value {
	if v.Len() == 0 {
		return Value{}
	}
	return Value{v.p, v.i + 1}
}

// Next returns the element after v in the array that holds it; the caller
// counts elements against Len, since past the last one Next returns
// whatever follows the array.
func (v Value) Next() Value {
	if v.p == nil || v.p.nodes[v.i].next >= len(v.p.nodes) {
		return Value{}
	}
	return Value{v.p, v.p.nodes[v.i].next}
}

// IsObject reports whether v is an object.
func (v Value) IsObject() bool { return v.Kind() == '{' }

// ParseFloat parses b, which must be a valid JSON number (see ValidNumber),
// as a float64 without allocating.
func ParseFloat(b []byte) (float64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	f, err := strconv.ParseFloat(unsafe.String(&b[0], len(b)), 64)
	return f, err == nil
}

// Forget drops what the parser holds of the input of the last Parse (the
// input itself and the root's keys), keeping its buffers for the next
// Parse: a parser kept for reuse then keeps no input alive. The Values and
// Fields of the last Parse must not be used after it.
func (p *Parser) Forget() {
	p.data, p.text = nil, nil
	clear(p.root[:cap(p.root)])
	p.root = p.root[:0]
	clear(p.path[:cap(p.path)])
	p.path = p.path[:0]
}
