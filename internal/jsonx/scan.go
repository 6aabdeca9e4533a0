package jsonx

// This file holds the byte scanners that work on the caller's input
// directly, shared by the pointer walker and the decoder's helpers:
// whitespace, the end of a string and the end of any value, and stepping
// through array elements.

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
