package jsonx

// This file holds the byte scanners that work on the caller's input
// directly, shared by the pointer walker and the decoder's helpers:
// whitespace, the end of a string and the end of any value, stepping
// through array elements, and, on the error path only, a strict validator
// that finds the position fastjson does not report.

import "bytes"

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// Trim returns b without leading and trailing JSON whitespace.
func Trim(b []byte) []byte {
	i, j := skipSpace(b, 0), len(b)
	for j > i && isSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

// stringEnd returns the index just past the closing quote of the string
// that opens at b[i], or -1 when it is not closed. Short strings (most
// keys and codes) are scanned byte by byte; past shortString bytes it
// jumps from quote to quote and counts the backslashes before each one.
func stringEnd(b []byte, i int) int {
	const shortString = 32
	j := i + 1
	for limit := min(len(b), j+shortString); j < limit; j++ {
		switch b[j] {
		case '"':
			return j + 1
		case '\\':
			j++
		}
	}
	for j < len(b) {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return -1
		}
		q += j
		n := 0
		for k := q - 1; k > i && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
	return -1
}

// structural marks the bytes that matter when skipping a container.
var structural = [256]bool{'"': true, '{': true, '}': true, '[': true, ']': true}

// valueEnd returns the index just past the value that starts at b[i], or
// -1 when it does not end well. Containers are skipped by counting
// brackets outside strings, which is exact for valid JSON and terminates on
// anything. A scalar ends at whitespace or at one of , ] } :.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			if !structural[b[i]] {
				continue
			}
			switch b[i] {
			case '"':
				end := stringEnd(b, i)
				if end < 0 {
					return -1
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) {
		c := b[j]
		if isSpace(c) || c == ',' || c == ']' || c == '}' || c == ':' {
			break
		}
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// Skip returns the position just past the JSON value that starts at pos in
// data, which has parsed successfully. It returns pos when no value starts
// there, and len(data) when a string or container starting there is not
// closed.
func Skip(data []byte, pos int) int {
	if pos < 0 || pos >= len(data) {
		return pos
	}
	if end := valueEnd(data, pos); end >= 0 {
		return end
	}
	if c := data[pos]; c == '"' || c == '{' || c == '[' {
		return len(data)
	}
	return pos
}

// Raw returns the exact bytes of the value that starts at pos, or nil when
// pos is negative.
func Raw(data []byte, pos int) []byte {
	if pos < 0 || pos >= len(data) {
		return nil
	}
	return data[pos:Skip(data, pos)]
}

// FirstElement returns the position of the first element of the array whose
// '[' is at pos, or -1 when it is empty.
func FirstElement(data []byte, pos int) int {
	i := skipSpace(data, pos+1)
	if i >= len(data) || data[i] == ']' {
		return -1
	}
	return i
}

// NextElement returns the position of the array element after the one that
// starts at pos, or -1 after the last one.
func NextElement(data []byte, pos int) int {
	i := skipSpace(data, Skip(data, pos))
	if i >= len(data) || data[i] != ',' {
		return -1
	}
	if i = skipSpace(data, i+1); i >= len(data) {
		return -1
	}
	return i
}

// ElementPos returns the position of the i-th element of the array whose '['
// is at pos, or -1.
func ElementPos(data []byte, pos, i int) int {
	if pos < 0 {
		return -1
	}
	e := FirstElement(data, pos)
	for ; i > 0 && e >= 0; i-- {
		e = NextElement(data, e)
	}
	return e
}

// errorPos scans data as strict JSON (RFC 8259) and returns the position of
// the first byte that makes it invalid (len(data) when it ends too early),
// and whether the problem is nesting beyond MaxDepth. It returns -1 when it
// finds no problem, which happens only if fastjson refused what RFC 8259
// allows.
func errorPos(data []byte) (int, bool) {
	s := scanner{data: data}
	i := s.value(skipSpace(data, 0), 0)
	if s.bad >= 0 {
		return s.bad, s.deep
	}
	i = skipSpace(data, i)
	if i < len(data) {
		return i, false
	}
	return -1, false
}

type scanner struct {
	data []byte
	bad  int
	deep bool
}

func (s *scanner) fail(i int) int {
	s.bad = i
	return i
}

// value scans the value at i and returns the position after it; on error it
// records s.bad and returns it.
func (s *scanner) value(i, depth int) int {
	s.bad = -1
	return s.val(i, depth)
}

func (s *scanner) val(i, depth int) int {
	d := s.data
	if i >= len(d) {
		return s.fail(len(d))
	}
	if depth+1 > MaxDepth {
		// fastjson counts every value, scalars included, as one level.
		s.deep = true
		return s.fail(i)
	}
	switch c := d[i]; {
	case c == '{' || c == '[':
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		i = skipSpace(d, i+1)
		if i < len(d) && d[i] == closer {
			return i + 1
		}
		for {
			if c == '{' {
				if i >= len(d) || d[i] != '"' {
					return s.fail(i)
				}
				if i = s.str(i); s.bad >= 0 {
					return i
				}
				i = skipSpace(d, i)
				if i >= len(d) || d[i] != ':' {
					return s.fail(i)
				}
				i = skipSpace(d, i+1)
			}
			if i = s.val(i, depth+1); s.bad >= 0 {
				return i
			}
			i = skipSpace(d, i)
			if i >= len(d) {
				return s.fail(i)
			}
			if d[i] == closer {
				return i + 1
			}
			if d[i] != ',' {
				return s.fail(i)
			}
			i = skipSpace(d, i+1)
		}
	case c == '"':
		return s.str(i)
	case c == 't':
		return s.lit(i, "true")
	case c == 'f':
		return s.lit(i, "false")
	case c == 'n':
		return s.lit(i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return s.num(i)
	}
	return s.fail(i)
}

func (s *scanner) lit(i int, word string) int {
	for k := 0; k < len(word); k++ {
		if i+k >= len(s.data) || s.data[i+k] != word[k] {
			return s.fail(i + k)
		}
	}
	return i + len(word)
}

func (s *scanner) digits(i int) (int, int) {
	start := i
	for i < len(s.data) && s.data[i] >= '0' && s.data[i] <= '9' {
		i++
	}
	return i, i - start
}

func (s *scanner) num(i int) int {
	d := s.data
	if d[i] == '-' {
		i++
	}
	if i < len(d) && d[i] == '0' {
		i++
	} else {
		var n int
		if i, n = s.digits(i); n == 0 {
			return s.fail(i)
		}
	}
	if i < len(d) && d[i] == '.' {
		var n int
		if i, n = s.digits(i + 1); n == 0 {
			return s.fail(i)
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		var n int
		if i, n = s.digits(i); n == 0 {
			return s.fail(i)
		}
	}
	return i
}

// str scans the string whose opening quote is at i, escapes and control
// characters included, and returns the position after its closing quote.
func (s *scanner) str(i int) int {
	d := s.data
	for i++; i < len(d); i++ {
		switch c := d[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			return s.fail(i)
		case c == '\\':
			if i+1 >= len(d) {
				return s.fail(len(d))
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= len(d) {
						return s.fail(len(d))
					}
					if _, ok := unhex(d[i+k]); !ok {
						return s.fail(i)
					}
				}
				i += 5
			default:
				return s.fail(i)
			}
		}
	}
	return s.fail(len(d))
}

// ValidNumber reports whether b is exactly one JSON number (RFC 8259).
func ValidNumber(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	s := scanner{data: b, bad: -1}
	return s.num(0) == len(b) && s.bad < 0
}
