// Package jsonx reads JSON for the public packages without a dependency
// and without building a tree of allocated values. Parser checks a document
// against RFC 8259 in one pass and records its values as a flat list of
// positions into the caller's input, reused from one document to the next;
// the walkers (Cursor, Pointer, Member) read a checked document in place.
// Values live only until the next Parse on the same Parser and only as long
// as the input is unchanged. UTF-8 is not validated, and strings other
// than keys are not unescaped: callers that need a string's text unescape
// it with AppendUnescaped, the module's one unescaper, choosing what a
// lone surrogate becomes (U+FFFD, or its WTF-8 form for texts that may be
// cut between the halves of a pair).
package jsonx
