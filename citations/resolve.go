package citations

// This file is structured as the four steps of Resolver.Resolve: index the
// ids of the parts, parse the entries of every text part, place the offsets
// in one pass over the joined text, then join and locate each citation.

import (
	"bytes"
	"math"
	"slices"

	"github.com/a2astream/a2astream/internal/jsonx"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/utf8buf"
)

// DefaultMaxCitations is the number of citation entries an artifact may
// carry when Options.MaxCitations is 0.
const DefaultMaxCitations = 1 << 16

// DefaultMaxScan is the number of bytes of cited content that the
// locators of one artifact may read when Options.MaxScan is 0.
const DefaultMaxScan = 256 << 20

// retainLimit is the capacity above which Reset drops a buffer rather
// than keep it for the next artifact.
const retainLimit = 1 << 16

// Options configures a Resolver. The zero value means the defaults.
type Options struct {
	// Unit is the unit of the entries' offsets; the default is
	// CodePoints, and a value outside the defined units counts code
	// points too.
	Unit Unit
	// MaxCitations caps the entries read from one artifact; the excess is
	// reported once with ErrTooManyCitations. 0 means DefaultMaxCitations.
	MaxCitations int
	// MaxScan caps the bytes of cited content that locators may read for
	// one artifact. A JSON pointer reads each object or array it descends
	// into once per artifact, whatever the number of pointers through it
	// (the Resolver indexes it), and the whole data when it is the empty
	// pointer; a line range reads its text from the start to the end of
	// its last line (the whole text on failure). Once it is spent, the
	// remaining locators fail with ErrScanLimit, so that many citations
	// deep into a large part cannot stall the caller. 0 means
	// DefaultMaxScan.
	MaxScan int
}

// Resolution holds the outcome of resolving one artifact's citations.
type Resolution struct {
	// Text is the joined text of the artifact's text parts, in order and
	// without separators; offsets count from its start.
	Text []byte
	// Citations are the citations that have a position and a cited part,
	// in text order (ByteOffset non-decreasing); citations at the same
	// offset keep their entry order (text part, then index in its array).
	Citations []Resolved
	// Diagnostics are the problems found, in the order found: duplicate
	// ids and bad metadata first, then entries that did not parse, offsets
	// that do not fit, ids that did not join and locators that did not
	// resolve.
	Diagnostics []Diagnostic
}

// partInfo is what the resolver learns about one part.
type partInfo struct {
	id    []byte // metadata.dataPartId decoded; nil when none
	state uint8  // dataUnchecked, dataValid, dataInvalid
	// str is the decoded data string when state is dataString.
	str []byte
	// root is the handle of the data in the Resolver's index; 0 until a
	// pointer descends into it.
	root int32
	// lineAt and lineN locate the starts of the lines of the part's text
	// (a text part's, or a data string's) in the Resolver's lineStarts,
	// once a line range has cited it: lineN is 0 before.
	lineAt, lineN int
}

const (
	dataUnchecked = iota
	dataValid
	dataInvalid
	dataString    // valid, a JSON string, decoded into str
	dataNotString // valid, not a JSON string
)

// Resolver resolves the citations of artifacts, reusing its buffers from
// one artifact to the next: once warm it does not allocate on the success
// path. Its zero value is ready to use with default Options.
//
// A Resolver must not be used from multiple goroutines at once.
type Resolver struct {
	opts   Options
	joined []byte     // joined text when there are several text parts
	parts  []partInfo // one per part passed to Resolve
	byID   []int32    // indices of parts with an id, sorted by id then index
	order  []int32    // scratch of place and number: citations sorted by offset; by target, first of each
	cites  []Resolved
	diags  []Diagnostic
	strs   []byte      // decoded JSON strings (ids, locators, string data)
	index  jsonx.Index // the containers of the data parts that pointers descend into
	// lineStarts holds the byte offsets of the lines of the texts that
	// line ranges cite, each text's once.
	lineStarts []int32
	// scanned counts the bytes charged to locators in this Resolve;
	// scanned ≤ MaxScan plus one part's size.
	scanned int
}

// NewResolver returns a Resolver configured by opts; nil opts selects the
// defaults. The Resolver keeps a copy of *opts.
func NewResolver(opts *Options) *Resolver {
	r := new(Resolver)
	r.setOptions(opts)
	return r
}

// setOptions keeps a copy of *opts, or the defaults when opts is nil.
func (r *Resolver) setOptions(opts *Options) {
	r.opts = Options{}
	if opts != nil {
		r.opts = *opts
	}
}

// Reset makes r ready for reuse as NewResolver(opts) returns it, dropping
// buffers that grew past a modest size so that one huge artifact does not
// stay pinned.
func (r *Resolver) Reset(opts *Options) {
	r.setOptions(opts)
	r.joined = shrink(r.joined)
	r.strs = shrink(r.strs)
	if cap(r.cites) > retainLimit/64 {
		r.cites = nil
	}
	if cap(r.diags) > retainLimit/64 {
		r.diags = nil
	}
	if cap(r.parts) > retainLimit/64 {
		r.parts, r.byID = nil, nil
	}
	if cap(r.order) > retainLimit/4 {
		r.order = nil
	}
	r.index.Reset(retainLimit)
	if cap(r.lineStarts) > retainLimit/4 {
		r.lineStarts = nil
	}
	r.clear()
}

func shrink(b []byte) []byte {
	if cap(b) > retainLimit {
		return nil
	}
	return b[:0]
}

// clear empties the per-artifact state, keeping capacity. Slices handed
// out by the previous Resolve stay intact until they are written over.
func (r *Resolver) clear() {
	r.joined = r.joined[:0]
	r.parts = r.parts[:0]
	r.byID = r.byID[:0]
	r.cites = r.cites[:0]
	r.diags = r.diags[:0]
	r.strs = r.strs[:0]
	r.index.Reset(math.MaxInt)
	r.lineStarts = r.lineStarts[:0]
	r.scanned = 0
}

// Resolve is a convenience for NewResolver(opts).Resolve(parts) with a
// Resolver of its own (nil opts selects the defaults): the result stays
// valid as long as parts are unmodified (its slices alias parts and
// buffers no one else holds).
func Resolve(parts []parser.Part, opts *Options) Resolution {
	var r Resolver
	r.setOptions(opts)
	return r.Resolve(parts)
}

// Resolve resolves the citations carried by the text parts of one
// artifact, whose parts are given in artifact order. It never fails as a
// whole: each problem becomes a Diagnostic.
//
// The result's slices alias r's buffers and parts, and are valid only
// until the next call to Resolve or Reset on r, and while parts are
// unmodified; they must not be modified. Use [Resolution.Clone] to retain
// them. The work is linear in the size of the parts, plus O(n log n) in
// the number of citations n: each object or array that pointers descend
// into is read once and indexed (members by key), each text that line
// ranges cite has its lines found once, so that many citations into one
// large part do not read it from its start for each.
func (r *Resolver) Resolve(parts []parser.Part) Resolution {
	r.clear()
	text := r.joinText(parts)
	r.indexParts(parts)
	r.parseEntries(parts)
	r.place(text)
	r.locate(parts)
	return Resolution{Text: text, Citations: r.cites, Diagnostics: r.diags}
}

// joinText returns the text parts joined, copying only when there are
// several. A UTF-16 surrogate pair split between two parts (a high
// surrogate's WTF-8 bytes ending one, the low one's starting the next)
// joins into its character, as the concatenated deltas would give it and
// as reconstruct's Artifact.Text does, so that offsets agree with it.
func (r *Resolver) joinText(parts []parser.Part) []byte {
	var only []byte
	n := 0
	for i := range parts {
		if parts[i].Kind == parser.PartText {
			only = parts[i].Text
			n++
		}
	}
	if n <= 1 {
		return only
	}
	for i := range parts {
		if parts[i].Kind == parser.PartText {
			r.joined = utf8buf.Append(r.joined, parts[i].Text)
		}
	}
	return r.joined
}

func (r *Resolver) diag(err error, part, index int, id []byte, off int) {
	r.diags = append(r.diags, Diagnostic{Err: err, Part: part, Index: index, ID: id, Offset: off})
}

// indexParts reads every part's metadata.dataPartId and sorts the parts
// by id, reporting duplicates.
func (r *Resolver) indexParts(parts []parser.Part) {
	r.parts = slices.Grow(r.parts[:0], len(parts))[:len(parts)]
	for i := range parts {
		r.parts[i] = partInfo{}
		meta := parts[i].Metadata.Raw
		if len(meta) == 0 {
			continue
		}
		v, ok := lookup(jsonx.Trim(meta), partIDNames[:])
		if !ok {
			continue
		}
		id, ok := stringValue(v, &r.strs)
		if !ok || len(id) == 0 {
			continue
		}
		r.parts[i].id = id
		r.byID = append(r.byID, int32(i))
	}
	slices.SortFunc(r.byID, func(a, b int32) int {
		if c := bytes.Compare(r.parts[a].id, r.parts[b].id); c != 0 {
			return c
		}
		return int(a - b)
	})
	for k := 1; k < len(r.byID); k++ {
		if prev, cur := r.byID[k-1], r.byID[k]; bytes.Equal(r.parts[prev].id, r.parts[cur].id) {
			r.diag(ErrDuplicatePartID, int(cur), -1, r.parts[cur].id, -1)
		}
	}
}

// parseEntries reads metadata.citations of every text part into r.cites.
func (r *Resolver) parseEntries(parts []parser.Part) {
	limit := r.opts.MaxCitations
	if limit <= 0 {
		limit = DefaultMaxCitations
	}
	for p := range parts {
		if parts[p].Kind != parser.PartText || len(parts[p].Metadata.Raw) == 0 {
			continue
		}
		meta := jsonx.Trim(parts[p].Metadata.Raw)
		if string(meta) == "null" || len(meta) == 0 {
			continue
		}
		if !jsonx.Valid(meta) {
			r.diag(ErrBadMetadata, p, -1, nil, -1)
			continue
		}
		list, ok := lookup(meta, []string{"citations"})
		if !ok {
			if len(meta) == 0 || meta[0] != '{' {
				r.diag(ErrBadMetadata, p, -1, nil, -1)
			}
			continue
		}
		c, kind := jsonx.Open(list, 0)
		if kind != jsonx.KindArray {
			if kind != jsonx.KindNull {
				r.diag(ErrBadMetadata, p, -1, nil, -1)
			}
			continue
		}
		for index := 0; ; index++ {
			entry, _, more := c.NextElement()
			if !more {
				break
			}
			if len(r.cites) >= limit {
				r.diag(ErrTooManyCitations, p, index, nil, -1)
				return
			}
			r.parseEntry(entry, p, index)
		}
	}
}

// parseEntry parses one entry into r.cites, or reports why it cannot.
func (r *Resolver) parseEntry(entry []byte, part, index int) {
	if jsonx.KindOf(entry[0]) != jsonx.KindObject {
		r.diag(ErrBadEntry, part, index, nil, -1)
		return
	}
	c := Resolved{Part: part, Index: index, DataPart: -1, Offset: -1}
	if v, ok := lookup(entry, idNames[:]); ok {
		c.ID, _ = stringValue(v, &r.strs)
	}
	v, ok := lookup(entry, offsetNames[:])
	var err error
	if !ok {
		err = ErrMissingOffset
	} else {
		c.Offset, err = parseInt(v)
		if err != nil {
			c.Offset = -1
		}
	}
	if err == nil && len(c.ID) == 0 {
		err = ErrMissingID
	}
	if err != nil {
		r.diag(err, part, index, c.ID, c.Offset)
		return
	}
	if v, ok := lookup(entry, locatorNames[:]); ok {
		c.Locator, c.Err = parseLocator(v, &r.strs)
	}
	r.cites = append(r.cites, c)
}

// place sorts the citations by offset and converts every offset in one
// pass over the text, dropping those that do not fit. It sorts their
// indices, as number does, then moves the citations into that order: one
// instance of slices.SortFunc, for []int32, serves both (sorting the
// []Resolved instead made the WebAssembly module 3.1 KB larger gzipped).
func (r *Resolver) place(text []byte) {
	n := len(r.cites)
	r.order = slices.Grow(r.order[:0], n)[:n]
	for i := range r.order {
		r.order[i] = int32(i)
	}
	slices.SortFunc(r.order, func(i, j int32) int {
		a, b := &r.cites[i], &r.cites[j]
		switch {
		case a.Offset != b.Offset:
			return cmpInt(a.Offset, b.Offset)
		case a.Part != b.Part:
			return cmpInt(a.Part, b.Part)
		}
		return cmpInt(a.Index, b.Index)
	})
	permute(r.cites, r.order)
	w := walker{text: text}
	kept := r.cites[:0]
	for i := range r.cites {
		c := &r.cites[i]
		pos, err := w.seek(c.Offset, r.opts.Unit)
		if err != nil {
			r.diag(err, c.Part, c.Index, c.ID, c.Offset)
			continue
		}
		c.TextPosition = pos
		kept = append(kept, *c)
	}
	r.cites = kept
}

// permute moves cites[order[k]] to cites[k] for every k, one cycle of
// the permutation at a time, and marks order's entries -1 as it goes.
func permute(cites []Resolved, order []int32) {
	for i := range order {
		if order[i] < 0 {
			continue
		}
		held := cites[i]
		for j := i; ; {
			k := int(order[j])
			order[j] = -1
			if k == i {
				cites[j] = held
				break
			}
			cites[j] = cites[k]
			j = k
		}
	}
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// locate joins every citation to its part, numbers the targets, and
// evaluates the locators, in text order.
func (r *Resolver) locate(parts []parser.Part) {
	kept := r.cites[:0]
	for i := range r.cites {
		c := r.cites[i]
		k, found := slices.BinarySearchFunc(r.byID, c.ID, func(p int32, id []byte) int {
			return bytes.Compare(r.parts[p].id, id)
		})
		if !found {
			r.diag(ErrUnknownPart, c.Part, c.Index, c.ID, c.Offset)
			continue
		}
		c.DataPart = int(r.byID[k])
		kept = append(kept, c)
	}
	r.cites = kept
	r.number()
	limit := r.opts.MaxScan
	if limit <= 0 {
		limit = DefaultMaxScan
	}
	for i := range r.cites {
		c := &r.cites[i]
		if c.Err == nil {
			if r.scanned > limit {
				c.Err = ErrScanLimit
			} else {
				r.target(c, &parts[c.DataPart], &r.parts[c.DataPart])
			}
		}
		if c.Err != nil {
			r.diag(c.Err, c.Part, c.Index, c.ID, c.Offset)
		}
	}
}

// number gives every distinct target, a cited part with one locator as
// written, a number in the order in which the text first cites it. It
// sorts the citations' indices by target, then by text order, so that the
// first of each run of equal targets is the one the text cites first.
func (r *Resolver) number() {
	n := len(r.cites)
	r.order = slices.Grow(r.order[:0], 2*n)[:2*n]
	order, first := r.order[:n], r.order[n:]
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmpTarget(&r.cites[a], &r.cites[b]); c != 0 {
			return c
		}
		return int(a - b)
	})
	for k, i := range order {
		first[i] = i
		if k > 0 && cmpTarget(&r.cites[order[k-1]], &r.cites[i]) == 0 {
			first[i] = first[order[k-1]]
		}
	}
	next := 1
	for i := range r.cites {
		if f := first[i]; int(f) != i {
			r.cites[i].Number = r.cites[f].Number
			continue
		}
		r.cites[i].Number = next
		next++
	}
}

// cmpTarget orders citations by cited part, then by locator as written.
func cmpTarget(a, b *Resolved) int {
	if c := cmpInt(a.DataPart, b.DataPart); c != 0 {
		return c
	}
	la, lb := &a.Locator, &b.Locator
	if c := cmpInt(int(la.Kind), int(lb.Kind)); c != 0 {
		return c
	}
	switch la.Kind {
	case LocatorNone:
		return 0
	case LocatorUnknown:
		return bytes.Compare(la.Raw, lb.Raw)
	}
	if c := bytes.Compare(la.Pointer, lb.Pointer); c != 0 {
		return c
	}
	if c := cmpInt(la.StartLine, lb.StartLine); c != 0 {
		return c
	}
	return cmpInt(la.EndLine, lb.EndLine)
}

// target evaluates c's locator on the cited part p, setting Target or Err:
// on a text part, on a data part that holds valid JSON (a line range on
// its string, its whole value, or the value a pointer designates), and
// ErrNotDataPart on any other part.
func (r *Resolver) target(c *Resolved, p *parser.Part, info *partInfo) {
	switch p.Kind {
	case parser.PartText:
		r.textTarget(c, p.Text, info)
		return
	case parser.PartData:
	default:
		c.Err = ErrNotDataPart
		return
	}
	if !info.validData(p.Data) {
		c.Err = ErrInvalidData
		return
	}
	whole := jsonx.Trim(p.Data) // valid JSON: exactly the value
	switch c.Locator.Kind {
	case LocatorLines:
		r.dataLines(c, whole, info)
	case LocatorNone:
		c.Target, c.TargetKind, c.TargetOffset = whole, valueKind(jsonx.KindOf(whole[0])), leadingSpace(p.Data, whole)
	default:
		r.pointerTarget(c, p.Data, whole, info)
	}
}

// textTarget evaluates c's locator on text, a text part's (info): a line
// range designates its lines, no locator the whole text, and a pointer is
// ErrNotDataPart.
func (r *Resolver) textTarget(c *Resolved, text []byte, info *partInfo) {
	switch c.Locator.Kind {
	case LocatorPointer:
		c.Err = ErrNotDataPart
	case LocatorLines:
		r.indexedLines(c, text, info)
	default:
		c.Target, c.TargetKind = text, ValueText
	}
}

// validData reports whether data, the part's, is valid JSON. It reads data
// the first time only, and records the answer in the part's state.
func (info *partInfo) validData(data []byte) bool {
	if info.state == dataUnchecked {
		info.state = dataInvalid
		if jsonx.Valid(data) {
			info.state = dataValid
		}
	}
	return info.state != dataInvalid
}

// dataLines evaluates c's line range on whole, the trimmed value of a valid
// data part (info): the value must be a JSON string (ErrNotText
// otherwise), decoded into info.str the first time a line range cites the
// part; ErrInvalidData when it does not decode.
func (r *Resolver) dataLines(c *Resolved, whole []byte, info *partInfo) {
	if info.state == dataValid {
		info.state = dataNotString
		if jsonx.KindOf(whole[0]) == jsonx.KindString {
			s, ok := stringValue(whole, &r.strs)
			if !ok {
				c.Err = ErrInvalidData
				return
			}
			info.state, info.str = dataString, s
		}
	}
	if info.state != dataString {
		c.Err = &LocateError{Pointer: string(c.Locator.AppendText(nil)), Token: -1, Err: ErrNotText}
		return
	}
	r.indexedLines(c, info.str, info)
}

// pointerTarget evaluates c's pointer on data, a valid data part (info)
// whose trimmed value is whole: the value it designates, or with a line
// range the lines of that value, which must be a JSON string. The bytes
// the pointer reads count towards MaxScan; a pointer that designates
// nothing sets a LocateError.
func (r *Resolver) pointerTarget(c *Resolved, data, whole []byte, info *partInfo) {
	loc := &c.Locator
	var (
		raw        []byte
		off, token int
		kind       jsonx.Kind
		code       jsonx.PointerCode
	)
	if len(loc.Pointer) == 0 || string(loc.Pointer) == "#" {
		// The whole data, as no locator designates it: nothing to read.
		raw, off, kind, code = whole, leadingSpace(data, whole), jsonx.KindOf(whole[0]), jsonx.PointerOK
	} else {
		read := r.index.Read
		raw, off, kind, token, code = r.index.Eval(data, &info.root, loc.Pointer)
		r.scanned += r.index.Read - read
	}
	if code != jsonx.PointerOK {
		c.Err = &LocateError{Pointer: string(loc.Pointer), Token: token, Err: pointerErr(code)}
		return
	}
	if loc.Kind == LocatorPointer && loc.StartLine > 0 {
		r.stringLines(c, raw, kind)
		return
	}
	c.Target, c.TargetOffset, c.TargetKind = raw, off, valueKind(kind)
}

// stringLines evaluates c's line range on raw, the JSON value of the kind
// c's pointer designates: ErrNotText when it is not a string,
// ErrInvalidData when it does not decode.
func (r *Resolver) stringLines(c *Resolved, raw []byte, kind jsonx.Kind) {
	if kind != jsonx.KindString {
		c.Err = &LocateError{Pointer: string(c.Locator.AppendText(nil)), Token: -1, Err: ErrNotText}
		return
	}
	s, ok := stringValue(raw, &r.strs)
	if !ok {
		c.Err = ErrInvalidData
		return
	}
	r.lines(c, s)
}

// leadingSpace returns the offset of whole, the trimmed value of data, in
// data: the whitespace Trim removed before it.
func leadingSpace(data, whole []byte) int {
	off := 0
	for off < len(data) && data[off] != whole[0] {
		off++
	}
	return off
}

// indexedLines is lines for text, the text of a part (info): the starts
// of its lines are found once, charged once, and every line range into it
// looks them up. A text of 2 GiB or more is read for each, as lines does.
func (r *Resolver) indexedLines(c *Resolved, text []byte, info *partInfo) {
	if len(text) > math.MaxInt32 {
		r.lines(c, text)
		return
	}
	if info.lineN == 0 {
		info.lineAt = len(r.lineStarts)
		if len(text) > 0 {
			r.lineStarts = append(r.lineStarts, 0)
		}
		for i := 0; ; {
			j := bytes.IndexByte(text[i:], '\n')
			if j < 0 || i+j+1 >= len(text) {
				break
			}
			i += j + 1
			r.lineStarts = append(r.lineStarts, int32(i))
		}
		r.lineStarts = append(r.lineStarts, int32(len(text))) // the end
		info.lineN = len(r.lineStarts) - info.lineAt
		r.scanned += len(text)
	}
	starts := r.lineStarts[info.lineAt : info.lineAt+info.lineN]
	lines := len(starts) - 1
	first, last := c.Locator.StartLine, c.Locator.EndLine
	var token int
	switch {
	case first < 1 || first > lines:
		token = 0
	case last < first || last > lines:
		token = 1
	default:
		start, end := int(starts[first-1]), int(starts[last])
		if end > start && text[end-1] == '\n' {
			end-- // the LF that ends the line (not the text's end)
		}
		if end > start && text[end-1] == '\r' {
			end--
		}
		c.Target, c.TargetOffset, c.TargetKind = text[start:end], start, ValueText
		return
	}
	c.Err = &LocateError{Pointer: string(c.Locator.AppendText(nil)), Token: token, Err: ErrLineRange}
}

// lines sets c.Target to the lines loc designates in text.
func (r *Resolver) lines(c *Resolved, text []byte) {
	start, end, token, ok := lineSpan(text, c.Locator.StartLine, c.Locator.EndLine)
	r.scanned += len(text)
	if ok {
		r.scanned -= len(text) - end
	}
	if !ok {
		c.Err = &LocateError{Pointer: string(c.Locator.AppendText(nil)), Token: token, Err: ErrLineRange}
		return
	}
	c.Target, c.TargetOffset, c.TargetKind = text[start:end], start, ValueText
}

// lineSpan returns the byte span of lines first..last (1-based,
// inclusive) of text. Lines end at LF; a CR before the LF is not part of
// the line; a final LF does not start another line, and an empty text has
// no lines. On failure token is 0 when first is at fault, 1 for last.
func lineSpan(text []byte, first, last int) (start, end, token int, ok bool) {
	if first < 1 {
		return 0, 0, 0, false
	}
	if last < first {
		return 0, 0, 1, false
	}
	i := 0
	for line := 1; line < first; line++ {
		j := bytes.IndexByte(text[i:], '\n')
		if j < 0 {
			return 0, 0, 0, false
		}
		i += j + 1
	}
	if i >= len(text) {
		return 0, 0, 0, false
	}
	start = i
	for line := first; ; line++ {
		j := bytes.IndexByte(text[i:], '\n')
		if line == last {
			end = len(text)
			if j >= 0 {
				end = i + j
			}
			break
		}
		if j < 0 || i+j+1 >= len(text) {
			return 0, 0, 1, false
		}
		i += j + 1
	}
	if end > start && text[end-1] == '\r' {
		end--
	}
	return start, end, 0, true
}

func pointerErr(code jsonx.PointerCode) error {
	switch code {
	case jsonx.PointerSyntax:
		return ErrLocatorSyntax
	case jsonx.PointerNoMember:
		return ErrNoMember
	case jsonx.PointerBadIndex:
		return ErrBadIndex
	case jsonx.PointerIndexRange:
		return ErrIndexRange
	case jsonx.PointerNotContainer:
		return ErrNotContainer
	}
	return ErrInvalidData
}

func valueKind(k jsonx.Kind) ValueKind {
	switch k {
	case jsonx.KindObject:
		return ValueObject
	case jsonx.KindArray:
		return ValueArray
	case jsonx.KindString:
		return ValueString
	case jsonx.KindNumber:
		return ValueNumber
	case jsonx.KindTrue:
		return ValueTrue
	case jsonx.KindFalse:
		return ValueFalse
	case jsonx.KindNull:
		return ValueNull
	}
	return ValueNone
}

// Clone returns a deep copy of res that aliases neither the parts nor a
// Resolver's buffers, so it stays valid after both are reused. All the
// bytes are copied into one allocation; Err values are shared (they are
// immutable).
func (res Resolution) Clone() Resolution {
	n := len(res.Text)
	for i := range res.Citations {
		c := &res.Citations[i]
		n += len(c.ID) + len(c.Locator.Pointer) + len(c.Locator.Raw) + len(c.Target)
	}
	for i := range res.Diagnostics {
		n += len(res.Diagnostics[i].ID)
	}
	buf := make([]byte, 0, n)
	keep := func(b []byte) []byte {
		if b == nil {
			return nil
		}
		start := len(buf)
		buf = append(buf, b...)
		return buf[start:len(buf):len(buf)]
	}
	out := Resolution{Text: keep(res.Text)}
	if res.Citations != nil {
		out.Citations = make([]Resolved, len(res.Citations))
		for i, c := range res.Citations {
			c.ID, c.Target = keep(c.ID), keep(c.Target)
			c.Locator.Pointer, c.Locator.Raw = keep(c.Locator.Pointer), keep(c.Locator.Raw)
			out.Citations[i] = c
		}
	}
	if res.Diagnostics != nil {
		out.Diagnostics = make([]Diagnostic, len(res.Diagnostics))
		for i, d := range res.Diagnostics {
			d.ID = keep(d.ID)
			out.Diagnostics[i] = d
		}
	}
	return out
}
