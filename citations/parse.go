package citations

// This file parses citation entries and locators from raw metadata JSON,
// tolerant of the spellings servers use.

import (
	"math"

	"github.com/a2astream/a2astream/internal/jsonx"
)

// The member names accepted for each field of an entry and of a locator
// object, first match wins.
var (
	idNames      = [...]string{"data_part_id", "dataPartId", "dataPartID", "data_part"}
	partIDNames  = [...]string{"dataPartId", "dataPartID", "data_part_id"}
	offsetNames  = [...]string{"offset", "char_offset", "charOffset"}
	locatorNames = [...]string{"locator", "loc"}
	pointerNames = [...]string{"pointer", "jsonPointer", "json_pointer", "path"}
	linesNames   = [...]string{"lines", "range", "lineRange", "line_range"}
	startNames   = [...]string{"start", "startLine", "start_line", "line", "from"}
	endNames     = [...]string{"end", "endLine", "end_line", "to"}
)

// lookup finds the first of names among the members of the object at
// obj[off:] and returns its trimmed raw value.
func lookup(obj []byte, names []string) (val []byte, ok bool) {
	for _, name := range names {
		if v, _, found := jsonx.Member(obj, 0, name); found {
			return v, true
		}
	}
	return nil, false
}

// parseInt parses a JSON number that must be a non-negative integer. It
// accepts a zero fraction ("12.0", which float-minded encoders write) and
// rejects other fractions, exponents and anything that is not a number.
// Values too large for an int saturate, so they still fail as out of range.
func parseInt(raw []byte) (int, error) {
	if len(raw) == 0 || jsonx.KindOf(raw[0]) != jsonx.KindNumber {
		return 0, ErrOffsetNotInteger
	}
	neg := raw[0] == '-'
	i := 0
	if neg {
		i++
	}
	start := i
	n := 0
	const maxInt = int(^uint(0) >> 1)
	for ; i < len(raw) && raw[i] >= '0' && raw[i] <= '9'; i++ {
		d := int(raw[i] - '0')
		if n > (maxInt-d)/10 {
			n = maxInt
		} else {
			n = n*10 + d
		}
	}
	if i == start {
		return 0, ErrOffsetNotInteger
	}
	if i < len(raw) && raw[i] == '.' {
		i++
		if i == len(raw) {
			return 0, ErrOffsetNotInteger
		}
		for ; i < len(raw); i++ {
			if raw[i] != '0' {
				return 0, ErrOffsetNotInteger
			}
		}
	}
	if i != len(raw) {
		return 0, ErrOffsetNotInteger
	}
	if neg && n != 0 {
		return 0, ErrNegativeOffset
	}
	return n, nil
}

// stringValue returns the decoded content of a raw JSON string, decoding
// escapes into *scratch only when there are some. ok is false when raw is
// not a well-formed string.
func stringValue(raw []byte, scratch *[]byte) (s []byte, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil, false
	}
	content := raw[1 : len(raw)-1]
	if !jsonx.HasEscape(content) {
		return content, true
	}
	start := len(*scratch)
	var bad int
	*scratch, bad = jsonx.AppendUnescaped(*scratch, content, jsonx.SurrogateReplace)
	if bad >= 0 {
		*scratch = (*scratch)[:start]
		return nil, false
	}
	return (*scratch)[start:len(*scratch):len(*scratch)], true
}

// parseLocator parses a locator's raw JSON value. It returns the locator
// and nil, or the locator (Kind LocatorUnknown, Raw kept) and why it could
// not be understood.
func parseLocator(raw []byte, scratch *[]byte) (Locator, error) {
	loc := Locator{Raw: raw}
	switch jsonx.KindOf(raw[0]) {
	case jsonx.KindNull:
		return Locator{}, nil
	case jsonx.KindString:
		s, ok := stringValue(raw, scratch)
		if !ok {
			loc.Kind = LocatorUnknown
			return loc, ErrLocatorSyntax
		}
		return parseLocatorString(loc, s)
	case jsonx.KindObject:
		return parseLocatorObject(loc, raw, scratch)
	}
	loc.Kind = LocatorUnknown
	return loc, ErrUnknownLocator
}

// parseLocatorString classifies a string locator: a JSON Pointer ("",
// "/…", "#", "#/…") or a line range (["#"] ["L"] n ["-" ["L"] m]).
func parseLocatorString(loc Locator, s []byte) (Locator, error) {
	if len(s) == 0 || s[0] == '/' || (s[0] == '#' && (len(s) == 1 || s[1] == '/' || s[1] == '%')) {
		loc.Kind = LocatorPointer
		loc.Pointer = s
		return loc, nil
	}
	start, end, ok := parseLines(s)
	if !ok {
		loc.Kind = LocatorUnknown
		return loc, ErrLocatorSyntax
	}
	loc.Kind = LocatorLines
	loc.StartLine, loc.EndLine = start, end
	return loc, nil
}

// parseLines parses ["#"] ["L"] n ["-" ["L"] m] with decimal n and m. A
// single line n is the range n-n. Values too large saturate (and fail as
// out of range later); zero and reversed ranges are caught when applied.
func parseLines(s []byte) (start, end int, ok bool) {
	i := 0
	if i < len(s) && s[i] == '#' {
		i++
	}
	start, i, ok = lineNumber(s, i)
	if !ok {
		return 0, 0, false
	}
	end = start
	if i < len(s) && s[i] == '-' {
		end, i, ok = lineNumber(s, i+1)
		if !ok {
			return 0, 0, false
		}
	}
	return start, end, i == len(s)
}

func lineNumber(s []byte, i int) (n, next int, ok bool) {
	if i < len(s) && (s[i] == 'L' || s[i] == 'l') {
		i++
	}
	j := i
	for ; j < len(s) && s[j] >= '0' && s[j] <= '9'; j++ {
		if n <= (math.MaxInt-9)/10 {
			n = n*10 + int(s[j]-'0')
		}
	}
	return n, j, j > i
}

// parseLocatorObject reads {"pointer": …} and/or {"start": …, "end": …}
// (or {"lines": "12-20"}).
func parseLocatorObject(loc Locator, raw []byte, scratch *[]byte) (Locator, error) {
	if v, ok := lookup(raw, pointerNames[:]); ok {
		s, good := stringValue(v, scratch)
		if !good {
			loc.Kind = LocatorUnknown
			return loc, ErrLocatorSyntax
		}
		loc.Kind = LocatorPointer
		loc.Pointer = s
	}
	hasLines := false
	if v, ok := lookup(raw, linesNames[:]); ok {
		s, good := stringValue(v, scratch)
		if !good {
			loc.Kind = LocatorUnknown
			return loc, ErrLocatorSyntax
		}
		start, end, good := parseLines(s)
		if !good {
			loc.Kind = LocatorUnknown
			return loc, ErrLocatorSyntax
		}
		loc.StartLine, loc.EndLine, hasLines = start, end, true
	} else if v, ok := lookup(raw, startNames[:]); ok {
		start, err := parseInt(v)
		end := start
		if ev, ok := lookup(raw, endNames[:]); ok && err == nil {
			end, err = parseInt(ev)
		}
		if err != nil {
			loc.Kind = LocatorUnknown
			return loc, ErrLocatorSyntax
		}
		// A line 0 or a reversed range fails when it is applied, with a
		// *LocateError naming it, as the string forms do.
		loc.StartLine, loc.EndLine, hasLines = start, end, true
	}
	switch {
	case loc.Kind == LocatorPointer:
	case hasLines:
		loc.Kind = LocatorLines
	default:
		loc.Kind = LocatorUnknown
		return loc, ErrUnknownLocator
	}
	return loc, nil
}
