package citations

import (
	"strconv"

	"github.com/a2astream/a2astream/parser"
)

// Unit is the unit in which citation offsets count.
type Unit uint8

// The offset units. The zero value, CodePoints, is the default: the spec
// counts "characters".
const (
	// CodePoints counts Unicode code points (Go runes, Python str indexes).
	CodePoints Unit = iota
	// Bytes counts bytes of UTF-8.
	Bytes
	// UTF16 counts UTF-16 code units (JavaScript string indexes).
	UTF16
)

// String returns the unit's name, or "Invalid(n)".
func (u Unit) String() string {
	switch u {
	case CodePoints:
		return "CodePoints"
	case Bytes:
		return "Bytes"
	case UTF16:
		return "UTF16"
	}
	return "Invalid(" + strconv.Itoa(int(u)) + ")"
}

// TextPosition is one place in a text, in all three units. Every field is
// 0-based and counts from the start of the joined text.
type TextPosition struct {
	// ByteOffset counts bytes of UTF-8: slice a Go []byte or string here.
	ByteOffset int
	// RuneIndex counts code points (each invalid UTF-8 subpart counts as
	// one, as the U+FFFD that replaces it would).
	RuneIndex int
	// UTF16Index counts UTF-16 code units: index a JavaScript string here.
	UTF16Index int
}

// LocatorKind is the kind of a citation's locator.
type LocatorKind uint8

// The kinds of locators.
const (
	// LocatorNone means the entry had no locator (or null): the citation
	// designates the whole cited part.
	LocatorNone LocatorKind = iota
	// LocatorPointer is an RFC 6901 JSON Pointer, possibly followed by a
	// line range applied to the string it designates.
	LocatorPointer
	// LocatorLines is a line range.
	LocatorLines
	// LocatorUnknown is a locator this package does not understand; Raw
	// holds it.
	LocatorUnknown
)

// String returns the kind's name, or "Invalid(n)".
func (k LocatorKind) String() string {
	switch k {
	case LocatorNone:
		return "None"
	case LocatorPointer:
		return "Pointer"
	case LocatorLines:
		return "Lines"
	case LocatorUnknown:
		return "Unknown"
	}
	return "Invalid(" + strconv.Itoa(int(k)) + ")"
}

// Locator says where inside the cited part a citation points.
type Locator struct {
	// Kind says which fields are meaningful.
	Kind LocatorKind
	// Pointer is the JSON Pointer as written, JSON string escapes decoded:
	// "" or "/a/0", or the URI fragment form "#/a%20b". Meaningful for
	// LocatorPointer.
	Pointer []byte
	// StartLine and EndLine are the 1-based, inclusive line range; both 0
	// when the locator has no range. A LocatorPointer may carry a range
	// too (an object locator {"pointer": …, "start": …, "end": …}): it
	// applies to the string the pointer designates.
	StartLine, EndLine int
	// Raw is the locator's raw JSON as the entry carried it; nil when the
	// entry had none.
	Raw []byte
}

// AppendText appends a short human-readable form of the locator to dst:
// the pointer, the line range as "L12-L20" (or "L12"), both separated by a
// space, or Raw for an unknown locator.
func (l Locator) AppendText(dst []byte) []byte {
	switch l.Kind {
	case LocatorUnknown:
		return append(dst, l.Raw...)
	case LocatorPointer:
		dst = append(dst, l.Pointer...)
		if l.StartLine == 0 && l.EndLine == 0 {
			return dst
		}
		dst = append(dst, ' ')
	}
	if l.Kind == LocatorLines || l.Kind == LocatorPointer {
		dst = append(dst, 'L')
		dst = strconv.AppendInt(dst, int64(l.StartLine), 10)
		if l.EndLine != l.StartLine {
			dst = append(dst, "-L"...)
			dst = strconv.AppendInt(dst, int64(l.EndLine), 10)
		}
	}
	return dst
}

// ValueKind is the type of a citation's target.
type ValueKind uint8

// The kinds of targets: the JSON types, and plain text for a line range or
// a cited text part.
const (
	ValueNone ValueKind = iota
	ValueObject
	ValueArray
	ValueString
	ValueNumber
	ValueTrue
	ValueFalse
	ValueNull
	// ValueText is plain text (not JSON): the lines of a line range or
	// the text of a cited text part.
	ValueText
)

// String returns the kind's name, or "Invalid(n)".
func (k ValueKind) String() string {
	switch k {
	case ValueNone:
		return "None"
	case ValueObject:
		return "Object"
	case ValueArray:
		return "Array"
	case ValueString:
		return "String"
	case ValueNumber:
		return "Number"
	case ValueTrue:
		return "True"
	case ValueFalse:
		return "False"
	case ValueNull:
		return "Null"
	case ValueText:
		return "Text"
	}
	return "Invalid(" + strconv.Itoa(int(k)) + ")"
}

var valueKindNames = [...]string{"None", "Object", "Array", "String", "Number", "True", "False", "Null", "Text"}

// MarshalText returns the kind's name, as String does, or a
// *parser.NameError for a number with no name.
func (k ValueKind) MarshalText() ([]byte, error) {
	if int(k) < len(valueKindNames) {
		return []byte(valueKindNames[k]), nil
	}
	return nil, &parser.NameError{Type: "citations.ValueKind", Name: k.String(), Err: parser.ErrUnknownName}
}

// UnmarshalText reads what MarshalText writes; anything else is a
// *parser.NameError.
func (k *ValueKind) UnmarshalText(text []byte) error {
	for i, n := range valueKindNames {
		if n == string(text) {
			*k = ValueKind(i)
			return nil
		}
	}
	return &parser.NameError{Type: "citations.ValueKind", Name: string(text), Err: parser.ErrUnknownName}
}

// Resolved is one citation whose offset fits the text and whose id joined
// a part of the artifact.
//
// ID, Locator.Pointer, Locator.Raw and Target are views: they alias the
// Part slices passed to Resolve or the Resolver's buffers, and are valid
// while those parts are unmodified and until the next Resolve or Reset on
// the same Resolver.
type Resolved struct {
	// TextPosition is where the citation sits in the joined text of the
	// artifact's text parts, in all three units.
	TextPosition
	// Offset is the offset as the entry gave it, in Options.Unit.
	Offset int
	// ID is the cited part's id, JSON escapes decoded.
	ID []byte
	// Locator is the entry's locator.
	Locator Locator
	// Part is the 0-based index, in the parts passed to Resolve, of the
	// text part whose metadata carried the entry.
	Part int
	// Index is the 0-based index of the entry in that part's
	// metadata.citations array.
	Index int
	// DataPart is the 0-based index, in the parts passed to Resolve, of
	// the cited part.
	DataPart int
	// Number is the 1-based marker number of the citation's target, the
	// cited part with this locator: targets are numbered in the order in
	// which the text first cites them, and citations share a number when
	// they cite the same part with the same locator as written (the same
	// kind, pointer text and line range, or the same raw unknown locator;
	// no locator is one more target). Two locators into one part are two
	// numbers, so that a footnote names what its markers point at.
	Number int
	// Target is what the locator designates: raw JSON (a subslice of the
	// data part's Data) for a pointer or no locator, the lines for a line
	// range, the whole text for a cited text part without a locator. nil
	// when Err is set.
	Target []byte
	// TargetKind is the type of Target; ValueNone when Err is set.
	TargetKind ValueKind
	// TargetOffset is the 0-based byte offset of Target in the cited
	// content: in the data part's Data for JSON targets; in the decoded
	// string for the lines of a string value; in the part's Text for a text
	// part.
	TargetOffset int
	// Err is nil when the locator resolved; otherwise why not (also
	// reported as a Diagnostic). The citation still has a position and a
	// cited part, so it can still be rendered.
	Err error
}
