package citations

import (
	"errors"
	"strconv"

	"github.com/a2astream/a2astream/internal/errtext"
)

// The errors that this package reports. Each problem with one citation entry,
// one cited part or one locator is a [Diagnostic] whose Err is one of these,
// possibly wrapped in a *[LocateError]; match them with errors.Is.
var (
	// ErrBadMetadata means a text part's metadata is not a JSON object, or
	// its "citations" member is not an array. The part's entries are
	// skipped.
	ErrBadMetadata = errors.New("citations: metadata is not an object with a citations array")
	// ErrBadEntry means a citations entry is not a JSON object.
	ErrBadEntry = errors.New("citations: entry is not an object")
	// ErrMissingID means an entry has no non-empty string data_part_id (or
	// dataPartId).
	ErrMissingID = errors.New("citations: entry has no data_part_id string")
	// ErrMissingOffset means an entry has no offset.
	ErrMissingOffset = errors.New("citations: entry has no offset")
	// ErrOffsetNotInteger means an entry's offset is not a JSON integer: a
	// string, a fraction, an exponent form, a boolean...
	ErrOffsetNotInteger = errors.New("citations: offset is not an integer")
	// ErrNegativeOffset means an entry's offset is below zero.
	ErrNegativeOffset = errors.New("citations: offset is negative")
	// ErrOffsetOutOfRange means an offset lies past the end of the joined
	// text in the chosen unit. It is never clamped.
	ErrOffsetOutOfRange = errors.New("citations: offset is past the end of the text")
	// ErrOffsetSplitsChar means an offset falls inside one character in the
	// chosen unit: a byte offset inside a multi-byte UTF-8 sequence, or a
	// UTF-16 offset between the two halves of a surrogate pair.
	ErrOffsetSplitsChar = errors.New("citations: offset falls inside a character")
	// ErrTooManyCitations means the artifact carries more entries than
	// Options.MaxCitations; the excess entries are ignored.
	ErrTooManyCitations = errors.New("citations: too many citations")
	// ErrUnknownPart means no part of the artifact has the cited id in
	// metadata.dataPartId.
	ErrUnknownPart = errors.New("citations: no part has this data part id")
	// ErrDuplicatePartID means two parts of the artifact carry the same
	// metadata.dataPartId; citations join the first of them.
	ErrDuplicatePartID = errors.New("citations: data part id is not unique")
	// ErrNotDataPart means the cited part is not a data part (a raw or url
	// part, or a text part cited with a JSON Pointer).
	ErrNotDataPart = errors.New("citations: cited part is not a data part")
	// ErrInvalidData means the cited data part's data is not valid JSON.
	ErrInvalidData = errors.New("citations: cited data is not valid JSON")
	// ErrLocatorSyntax means a locator is neither a JSON Pointer nor a
	// line range, or a pointer is malformed (no leading '/', a '~' not
	// followed by 0 or 1, a bad %-escape).
	ErrLocatorSyntax = errors.New("citations: malformed locator")
	// ErrUnknownLocator means a locator object or value has a shape this
	// package does not know; it is kept raw in Locator.Raw.
	ErrUnknownLocator = errors.New("citations: unknown locator shape")
	// ErrNoMember means a pointer token names a member the object lacks.
	ErrNoMember = errors.New("citations: object has no such member")
	// ErrBadIndex means a pointer token applied to an array is not an
	// array index (digits without leading zeros).
	ErrBadIndex = errors.New("citations: token is not an array index")
	// ErrIndexRange means an array index is at or past the end of the
	// array; "-" (the element after the last) is never an existing element.
	ErrIndexRange = errors.New("citations: array index out of range")
	// ErrNotContainer means a pointer token descends into a string,
	// number, boolean or null.
	ErrNotContainer = errors.New("citations: token descends into a scalar")
	// ErrNotText means a line range was applied to content that is not
	// text (data that is not a JSON string).
	ErrNotText = errors.New("citations: line range on content that is not text")
	// ErrScanLimit means the locators of the artifact already read
	// Options.MaxScan bytes of cited content; this locator was not
	// evaluated.
	ErrScanLimit = errors.New("citations: locators read more than MaxScan bytes")
	// ErrLineRange means a line range does not fit the text: a line number
	// of 0, past the last line, or an end before the start.
	ErrLineRange = errors.New("citations: line range out of range")
)

// LocateError reports a locator that did not resolve, and which token
// failed.
type LocateError struct {
	// Pointer is the locator as written: a JSON Pointer (in the form the
	// entry gave it, '#' fragment or not) or a line range such as
	// "L12-L20".
	Pointer string
	// Token is the 0-based index of the failing token: for a JSON Pointer,
	// the reference token (0 is the one after the first '/'); for a line
	// range, 0 for the start line and 1 for the end line. It is -1 when the
	// locator as a whole is at fault.
	Token int
	// Err is one of the package's sentinels.
	Err error
}

// Error formats the error with the locator and the token.
func (e *LocateError) Error() string {
	b := make([]byte, 0, 64)
	b = append(b, "citations: "...)
	return string(e.appendTo(b))
}

// appendTo appends the error without the package prefix:
// locator "/a/0" token 1: reason.
func (e *LocateError) appendTo(b []byte) []byte {
	b = append(b, "locator "...)
	b = strconv.AppendQuote(b, e.Pointer)
	if e.Token >= 0 {
		b = append(b, " token "...)
		b = strconv.AppendInt(b, int64(e.Token), 10)
	}
	b = append(b, ": "...)
	return appendReason(b, e.Err)
}

// Unwrap returns the sentinel.
func (e *LocateError) Unwrap() error { return e.Err }

// appendReason appends err's message without the package prefix.
func appendReason(b []byte, err error) []byte {
	return errtext.AppendCause(b, "citations", err)
}

// Diagnostic reports one problem with the citations of an artifact: an
// entry that could not be parsed, an offset that does not fit, a join or a
// locator that failed. Diagnostics never stop the other citations from
// resolving.
type Diagnostic struct {
	// Err says what went wrong: one of the package's sentinels, or a
	// *LocateError wrapping one. Match it with errors.Is and errors.As.
	Err error
	// Part is the 0-based index, in the parts passed to Resolve, of the
	// part concerned: the text part whose metadata carried the entry, or
	// the part whose dataPartId is duplicated.
	Part int
	// Index is the 0-based index of the entry in that part's
	// metadata.citations array; -1 when the problem is not about one entry.
	Index int
	// ID is the cited data part id when known (a view, like
	// [Resolved.ID]).
	ID []byte
	// Offset is the entry's offset as given, in Options.Unit; -1 when the
	// entry had no usable offset.
	Offset int
}

// Error formats the diagnostic with the part, the entry and the reason.
func (d Diagnostic) Error() string {
	b := make([]byte, 0, 96)
	b = append(b, "citations: part "...)
	b = strconv.AppendInt(b, int64(d.Part), 10)
	if d.Index >= 0 {
		b = append(b, " entry "...)
		b = strconv.AppendInt(b, int64(d.Index), 10)
	}
	if len(d.ID) > 0 {
		b = append(b, " id "...)
		b = strconv.AppendQuote(b, string(d.ID))
	}
	if d.Offset >= 0 {
		b = append(b, " offset "...)
		b = strconv.AppendInt(b, int64(d.Offset), 10)
	}
	b = append(b, ": "...)
	if le, ok := d.Err.(*LocateError); ok {
		b = le.appendTo(b)
	} else {
		b = appendReason(b, d.Err)
	}
	return string(b)
}

// Unwrap returns Err, so that errors.Is and errors.As see the sentinel
// and the *LocateError.
func (d Diagnostic) Unwrap() error { return d.Err }
