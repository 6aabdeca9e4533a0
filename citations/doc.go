// Package citations resolves the inline citations of an A2A answer: the
// entries of a text part's metadata.citations array, each with the id of a
// cited part (data_part_id), an offset into the answer text and a locator
// into the cited data.
//
// The caller passes one artifact's parts, [parser.Part] values in artifact
// order (a decoded event's views, or the owned parts of a
// reconstruct.Artifact), to [Resolve] (or [Resolver.Resolve] to reuse
// buffers). It reads Kind, Text, Data and Metadata.Raw, the exact JSON of
// the part's metadata, so that the spellings below are all read; a part
// of a kind other than parser.PartText and parser.PartData (raw, url) can
// be cited by id but has no content this package reads:
//
//	res := citations.Resolve(parts, nil) // nil: the default Options
//	for _, c := range res.Citations {
//		// c.ByteOffset, c.RuneIndex, c.UTF16Index; c.DataPart, c.Target…
//	}
//	for _, d := range res.Diagnostics {
//		// errors.Is(d, citations.ErrUnknownPart)…
//	}
//	out := citations.AppendRender(nil, res.Text, res.Citations, citations.Footnotes)
//
// Call order for a Resolver: { Resolve [ AppendRender ] } [ Reset ].
//
// # What is resolved
//
// Entries are read from every text part's metadata, tolerant of spellings:
// the id as data_part_id, dataPartId or dataPartID; the offset as a JSON
// integer ("12.0" accepted, fractions, exponents, strings and negative
// numbers rejected); the locator as a string, an object
// {"pointer": …} and/or {"start": n, "end": m} (or {"lines": "12-20"}), or
// kept raw when unknown. An entry that cannot be parsed is a [Diagnostic],
// never a failure of the whole answer.
//
// Offsets apply to the text of all the artifact's text parts joined in
// order, with no separator ([Resolution.Text]). The unit is [Options.Unit]:
// [CodePoints] by default (the spec says "character"), or [Bytes] or
// [UTF16]. Every [Resolved] citation reports its place in all three units
// ([TextPosition]); all are 0-based. An offset past the end of the text
// ([ErrOffsetOutOfRange]) or inside a character in the chosen unit
// ([ErrOffsetSplitsChar]) is reported, never clamped. The text is walked
// once for all citations, after sorting them by offset.
//
// Invalid UTF-8 in the text counts the way the WHATWG UTF-8 decoder (the
// one JavaScript's TextDecoder uses) would replace it: every maximal
// subpart of an ill-formed sequence becomes one U+FFFD, so it counts as
// one code point and one UTF-16 unit, and its bytes as bytes. A byte
// offset inside such a subpart splits a character.
//
// Each citation is joined to the part of the same artifact whose
// metadata.dataPartId equals its id ([ErrUnknownPart] when none,
// [ErrDuplicatePartID] when several: the first one wins). Its locator is
// then evaluated on the cited part:
//
//   - a JSON Pointer (RFC 6901: "" is the whole value, "/a/0", ~0 and ~1
//     escapes, array indices without leading zeros, "-" never an existing
//     element, the "#/a%20b" URI fragment form) on a data part's data
//     yields the raw JSON of the target, a subslice of the part's Data, and its
//     type; duplicate object keys resolve to the first;
//   - a line range ("L12", "L12-L20", "12-20", "#L12-L20"; 1-based,
//     inclusive) on text (a data part whose data is a JSON string,
//     unescaped first, or a text part) yields those lines; lines end at LF,
//     a CR before it is dropped, a final LF starts no extra line;
//   - no locator yields the whole data (or the whole text of a text part).
//
// A pointer or line range that does not resolve is reported with a
// *[LocateError] that names the failing token (0-based); a locator that
// cannot be parsed, a cited part of the wrong kind or invalid data with the
// bare sentinel. Either way the citation stays in the result with Err set,
// so it can still be rendered. Citations whose offset or id
// failed are only in the diagnostics.
//
// Markers are inserted in one pass by [AppendRender] ([Numbered] "[1]",
// Markdown [Footnotes] "[^1]" with the footnote list, [HTML] <sup> anchors
// with the text escaped) or [AppendRenderFunc] for any other style. Each
// target, a cited part with one locator, is numbered in the order the text
// first cites it, and every citation of it shows that number, so a
// footnote names exactly what its markers point at; citations at one
// offset keep their entry order.
//
// # Limits and allocation
//
// An artifact's entries are capped by [Options.MaxCitations]
// ([DefaultMaxCitations] when 0), and the bytes of cited content its
// locators may read by [Options.MaxScan] ([DefaultMaxScan] when 0), so
// that thousands of citations deep into a large part cannot stall the
// caller. The Resolver reads each object or array a JSON pointer descends
// into once per artifact, and finds the lines of a cited text once, so
// that 10^5 pointers into one 7 MiB data part resolve in one read of it. JSON nested deeper than 300 levels is invalid. A warm [Resolver] does not allocate on the success path;
// failures allocate their *LocateError.
//
// A Resolver must not be used from multiple goroutines at once.
package citations
