package citations

import "strconv"

// Style is a ready-made marker style for [AppendRender].
type Style uint8

// The marker styles.
const (
	// Numbered inserts "[1]"; the text is copied as it is.
	Numbered Style = iota
	// Footnotes inserts Markdown footnote references "[^1]" and appends
	// the footnote list ("[^1]: <id> <locator>", one line per number, that
	// is per cited part and locator) after a blank line.
	Footnotes
	// HTML escapes the text and inserts
	// <sup><a href="#cite-1">1</a></sup>, then appends an ordered list
	// with one item per number, "<id> <locator>", whose items carry the
	// ids "cite-1", "cite-2"…
	HTML
)

// String returns the style's name, or "Invalid(n)".
func (s Style) String() string {
	switch s {
	case Numbered:
		return "Numbered"
	case Footnotes:
		return "Footnotes"
	case HTML:
		return "HTML"
	}
	return "Invalid(" + strconv.Itoa(int(s)) + ")"
}

// MarkerFunc appends the marker for citation c to dst and returns the
// extended slice.
type MarkerFunc func(dst []byte, c *Resolved) []byte

// AppendRender appends text to dst with a marker inserted at every
// citation's ByteOffset, in the given style, and returns the extended
// slice. It makes one pass over text.
//
// cites must be in text order, as [Resolver.Resolve] returns them;
// citations at the same offset are marked in slice order, and every
// citation shows its Number. The footnote and HTML lists have one entry
// per Number, taken from its first citation: Resolve gives one Number per
// cited part and locator, so each entry names the one target its markers
// point at. A citation whose
// ByteOffset is behind the previous one, or past the end of text, is
// marked where the previous one was, or at the end: rendering never fails.
// An unknown style renders as Numbered.
func AppendRender(dst, text []byte, cites []Resolved, style Style) []byte {
	switch style {
	case Footnotes:
		dst = appendRender(dst, text, cites, footnoteMarker, false)
		return appendFootnotes(dst, cites)
	case HTML:
		dst = appendRender(dst, text, cites, htmlMarker, true)
		return appendHTMLList(dst, cites)
	}
	return appendRender(dst, text, cites, numberedMarker, false)
}

// AppendRenderFunc is AppendRender with markers made by marker; the text
// is copied as it is and nothing is appended after it.
func AppendRenderFunc(dst, text []byte, cites []Resolved, marker MarkerFunc) []byte {
	return appendRender(dst, text, cites, marker, false)
}

func appendRender(dst, text []byte, cites []Resolved, marker MarkerFunc, escape bool) []byte {
	done := 0 // text[:done] has been copied; done ≤ len(text)
	for i := range cites {
		at := min(max(cites[i].ByteOffset, done), len(text))
		if escape {
			dst = appendEscaped(dst, text[done:at])
		} else {
			dst = append(dst, text[done:at]...)
		}
		done = at
		dst = marker(dst, &cites[i])
	}
	if escape {
		return appendEscaped(dst, text[done:])
	}
	return append(dst, text[done:]...)
}

func numberedMarker(dst []byte, c *Resolved) []byte {
	dst = append(dst, '[')
	dst = strconv.AppendInt(dst, int64(c.Number), 10)
	return append(dst, ']')
}

func footnoteMarker(dst []byte, c *Resolved) []byte {
	dst = append(dst, "[^"...)
	dst = strconv.AppendInt(dst, int64(c.Number), 10)
	return append(dst, ']')
}

func htmlMarker(dst []byte, c *Resolved) []byte {
	dst = append(dst, `<sup><a href="#cite-`...)
	dst = strconv.AppendInt(dst, int64(c.Number), 10)
	dst = append(dst, `">`...)
	dst = strconv.AppendInt(dst, int64(c.Number), 10)
	return append(dst, "</a></sup>"...)
}

// firstOfNumber reports whether cites[i] is the first citation with its
// number. Numbers are given in text order, so a number not above the
// largest seen so far was seen; max carries that largest number.
func firstOfNumber(c *Resolved, max *int) bool {
	if c.Number <= *max {
		return false
	}
	*max = c.Number
	return true
}

// appendFootnotes appends "\n\n[^n]: id locator\n" for each number.
func appendFootnotes(dst []byte, cites []Resolved) []byte {
	seen := 0
	open := false
	for i := range cites {
		c := &cites[i]
		if !firstOfNumber(c, &seen) {
			continue
		}
		if !open {
			dst = append(dst, "\n\n"...)
			open = true
		}
		dst = append(dst, "[^"...)
		dst = strconv.AppendInt(dst, int64(c.Number), 10)
		dst = append(dst, "]: "...)
		dst = append(dst, c.ID...)
		if c.Locator.Kind != LocatorNone {
			dst = append(dst, ' ')
			dst = c.Locator.AppendText(dst)
		}
		dst = append(dst, '\n')
	}
	return dst
}

// appendHTMLList appends an ordered list with one item per number.
func appendHTMLList(dst []byte, cites []Resolved) []byte {
	seen := 0
	open := false
	for i := range cites {
		c := &cites[i]
		if !firstOfNumber(c, &seen) {
			continue
		}
		if !open {
			dst = append(dst, "\n<ol class=\"citations\">\n"...)
			open = true
		}
		dst = append(dst, `<li id="cite-`...)
		dst = strconv.AppendInt(dst, int64(c.Number), 10)
		dst = append(dst, `" value="`...)
		dst = strconv.AppendInt(dst, int64(c.Number), 10)
		dst = append(dst, `">`...)
		dst = appendEscaped(dst, c.ID)
		if c.Locator.Kind != LocatorNone {
			dst = append(dst, ' ')
			var buf [64]byte
			dst = appendEscaped(dst, c.Locator.AppendText(buf[:0]))
		}
		dst = append(dst, "</li>\n"...)
	}
	if open {
		dst = append(dst, "</ol>\n"...)
	}
	return dst
}

func escapeOf(c byte) string {
	switch c {
	case '&':
		return "&amp;"
	case '<':
		return "&lt;"
	case '>':
		return "&gt;"
	case '"':
		return "&#34;"
	case '\'':
		return "&#39;"
	}
	return ""
}

// appendEscaped appends s with & < > " ' escaped as html.EscapeString
// does.
func appendEscaped(dst, s []byte) []byte {
	done := 0
	for i, c := range s {
		if e := escapeOf(c); e != "" {
			dst = append(dst, s[done:i]...)
			dst = append(dst, e...)
			done = i + 1
		}
	}
	return append(dst, s[done:]...)
}
