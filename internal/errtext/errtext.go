// Package errtext holds the two rules for the text of an error.
//
// A text that another party sent (a server's message, a header, an id) is
// written with its control and bidirectional formatting characters
// escaped (AppendText), so that a program that logs an error to a
// terminal is not made to act by it.
//
// An error that wraps another names each package once. An error of
// package p writes "p: " and where the problem was, then the wrapped
// error's text with its leading "p: " dropped (a sentinel of the same
// package), so that
//
//	reconstruct: frame 2 at byte 179 artifact "a": append to an unknown artifact
//
// does not say "reconstruct: " twice. A wrapped error of another package
// keeps its prefix, which names that package once:
//
//	reconstruct: frame 2 at byte 179: parser: server error 404 NOT_FOUND
package errtext

import "unicode/utf8"

// AppendCause appends the text of err, wrapped by an error of package pkg
// (its name without the colon, such as "reconstruct"), to b without a
// leading "pkg: ", and returns the extended slice; "unknown error" when
// err is nil. The text is written by AppendText, so that an error of
// another module that quotes a server (a2a-go's, say) holds no control
// character either; the project's own texts are unchanged by it.
func AppendCause(b []byte, pkg string, err error) []byte {
	if err == nil {
		return append(b, "unknown error"...)
	}
	msg := err.Error()
	if n := len(pkg); len(msg) > n+2 && msg[:n] == pkg && msg[n] == ':' && msg[n+1] == ' ' {
		msg = msg[n+2:]
	}
	return AppendText(b, msg)
}

// AppendText appends s, a text that another party sent (a server's
// message, status or reason, a header, a document's message), to b as an
// error's text holds it, and returns the extended slice. Each character
// that could make a terminal act or show the text in another order than
// it was sent is written as a Go escape, as strconv.Quote writes it: a C0
// character or DEL as \n, \t, \x1b…, a C1 character as \u009b, a
// bidirectional formatting character (Bidi) as \u202e, and each byte of
// ill-formed UTF-8 as \xff. Everything else, quotes and backslashes
// included, is appended unchanged, so the text reads as sent and writing
// a text AppendText wrote again gives it back unchanged: an error that
// wraps another does not escape it twice. The error's own fields keep the
// raw text.
func AppendText(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r >= 0x20 && r < 0x7f || r > 0x9f && size > 1 && !Bidi(r):
			b = append(b, s[i:i+size]...)
		case r >= 7 && r <= 13:
			b = append(b, '\\', "abtnvfr"[r-7])
		case size == 1:
			b = appendHex(b, 'x', rune(s[i]), 2)
		default:
			b = appendHex(b, 'u', r, 4)
		}
		i += size
	}
	return b
}

// appendHex appends a backslash, kind, and the n lower-case hexadecimal
// digits of r.
func appendHex(b []byte, kind byte, r rune, n int) []byte {
	b = append(b, '\\', kind)
	for shift := 4 * (n - 1); shift >= 0; shift -= 4 {
		b = append(b, "0123456789abcdef"[r>>shift&15])
	}
	return b
}

// EndsWith reports whether message, the text of an error that wraps err
// (directly, or through errors that add their place), ends with err's
// text as AppendCause writes it: whole, or without its "pkg: " when
// message starts with the same "pkg: ". A message written before this
// rule, with the prefix twice, matches too.
func EndsWith(message string, err error) bool {
	t := err.Error()
	if message == t || hasSuffix(message, ": "+t) {
		return true
	}
	for i := 0; i+1 < len(t); i++ {
		if t[i] == ':' && t[i+1] == ' ' {
			pkg, reason := t[:i+2], t[i+2:]
			return reason != "" && len(message) >= len(pkg) && message[:len(pkg)] == pkg && hasSuffix(message, ": "+reason)
		}
	}
	return false
}

func hasSuffix(s, suffix string) bool {
	return len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix
}

// As reports whether err, or an error in the tree its Unwrap methods make,
// is a T or says it is one (an As(any) bool method that fills a *T), and
// if so sets *target to the first, depth first. It is errors.As for a
// concrete target type: without reflection, so that the WebAssembly
// module, which formats its errors with it, links no internal/reflectlite
// (with errors.Is, 14.9 KB of the module gzipped: bench/RESULTS.md).
func As[T error](err error, target *T) bool {
	for err != nil {
		if t, ok := err.(T); ok {
			*target = t
			return true
		}
		if x, ok := err.(interface{ As(any) bool }); ok && x.As(target) {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if As(e, target) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// Bidi reports whether r is a bidirectional formatting character,
// Unicode's Bidi_Control property (PropList.txt): the Arabic letter mark
// U+061C, the marks LRM and RLM (U+200E, U+200F), the embeddings and
// overrides LRE, RLE, PDF, LRO, RLO (U+202A to U+202E) and the isolates
// LRI, RLI, FSI, PDI (U+2066 to U+2069). Each can make a text that a
// terminal lays out by the bidirectional algorithm read in an order other
// than that of its bytes (CVE-2021-42574, "Trojan Source"); a mark alone
// moves the neutrals and numbers around it ("5, 10" after an RLM shows as
// "10 ,5").
func Bidi(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
