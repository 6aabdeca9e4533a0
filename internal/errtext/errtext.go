// Package errtext holds the one rule for the text of an error that wraps
// another: the text names each package once. An error of package p writes
// "p: " and where the problem was, then the wrapped error's text with its
// leading "p: " dropped (a sentinel of the same package), so that
//
//	reconstruct: frame 2 at byte 179 artifact "a": append to an unknown artifact
//
// does not say "reconstruct: " twice. A wrapped error of another package
// keeps its prefix, which names that package once:
//
//	reconstruct: frame 2 at byte 179: parser: server error 404 NOT_FOUND
package errtext

// AppendCause appends the text of err, wrapped by an error of package pkg
// (its name without the colon, such as "reconstruct"), to b without a
// leading "pkg: ", and returns the extended slice; "unknown error" when
// err is nil.
func AppendCause(b []byte, pkg string, err error) []byte {
	if err == nil {
		return append(b, "unknown error"...)
	}
	msg := err.Error()
	if n := len(pkg); len(msg) > n+2 && msg[:n] == pkg && msg[n] == ':' && msg[n+1] == ' ' {
		msg = msg[n+2:]
	}
	return append(b, msg...)
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
