package reconstruct

// This file reads the document that document.go writes back into a Result
// (Result.UnmarshalJSON, Artifact.UnmarshalJSON), with the project's JSON
// reader, internal/jsonx. It is structured as: the entry points and their
// error types, the reader's walkers and scalars, then the document's
// objects in the order they nest (result, artifact, part, message, usage,
// diagnostic, error).

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"strconv"

	"github.com/a2astream/a2astream/internal/errtext"
	"github.com/a2astream/a2astream/internal/jsonx"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
)

// ErrDocument means a document given to [Result.UnmarshalJSON] or
// [Artifact.UnmarshalJSON] is not one that MarshalJSON writes: invalid
// JSON, or a member of the wrong type or with an unknown value. It comes
// in a *DocumentError that says where.
var ErrDocument = errors.New("reconstruct: not a result document")

// DocumentError reports where a result document could not be read.
type DocumentError struct {
	// Offset is the 0-based byte offset in the document of the value
	// concerned; 0 for a document that is not valid JSON.
	Offset int
	// JSONPointer is the RFC 6901 JSON Pointer of the member concerned,
	// such as "/artifacts/0/parts/1/kind", as parser.DecodeError gives
	// it; "" for the whole document.
	JSONPointer string
	// Err is ErrDocument, a *parser.NameError for an enum's unknown name,
	// or the *parser.DecodeError of a metadata object.
	Err error
}

// Error describes the error with its place in the document.
func (e *DocumentError) Error() string {
	b := append([]byte(nil), "reconstruct: result document"...)
	if e.JSONPointer != "" {
		b = append(b, ", member "...)
		b = errtext.AppendText(b, e.JSONPointer)
	}
	b = append(b, " at byte "...)
	b = strconv.AppendInt(b, int64(e.Offset), 10)
	b = append(b, ": "...)
	return string(errtext.AppendCause(b, "reconstruct", e.Err))
}

// Unwrap returns Err.
func (e *DocumentError) Unwrap() error { return e.Err }

// StoredError is an error read back from a result document that this
// package does not rebuild as the value it was: a decoding or limit error,
// an error of the host ("other", or the type JSONOptions.ErrorType gave),
// the cause of a truncation, a diagnostic's error that is none of this
// package's sentinels. Its Error is the document's message, and errors.Is
// matches the sentinel of the packages below (parser, sse, reconstruct)
// whose text the message ends with, when there is one.
type StoredError struct {
	// Type is the document's "type" member ("syntax", "limit", "other",
	// a host's own), "cause" for a truncation's cause, "diagnostic" for a
	// diagnostic's error.
	Type string
	// Message is the error's text.
	Message string
	// Err is the sentinel the message ends with; nil when none.
	Err error
	// Raw is the document's error object as it was read, compact; the
	// document of a Result whose Err it is holds it again, as it was. nil
	// for a cause or a diagnostic's error.
	Raw []byte
}

// Error returns the message, with its control and bidirectional
// formatting characters escaped (\x1b, \u202e), as every error text of the
// project quotes what another party wrote; Message keeps it as read.
func (e *StoredError) Error() string { return string(errtext.AppendText(nil, e.Message)) }

// Unwrap returns the sentinel, or nil.
func (e *StoredError) Unwrap() error { return e.Err }

// UnmarshalJSON reads a document that [Result.MarshalJSON] or package
// resultjson wrote (compact or indented) into r, replacing what r held:
// json.Unmarshal of the `a2astream --json` document gives back the Result
// that was written, with these exceptions, as the document does not hold
// them:
//
//   - texts, ids and names are read as the document holds them: ill-formed
//     UTF-8 was written as U+FFFD, and an empty byte slice is read as nil;
//     metadata, data parts and API error details as compacted JSON;
//   - a message keeps its messageId, role, parts and metadata, not its
//     contextId, taskId, extensions and referenceTaskIds;
//   - an artifact's Citations and CitationDiagnostics are resolved again
//     from its parts, as a Reducer with the default citations.Options
//     resolves them, when the document lists any;
//   - Err is rebuilt as a *TruncatedError (its Cut a *sse.SyntaxError
//     wrapping io.ErrUnexpectedEOF, its Cause a *StoredError), a
//     *parser.APIError (inside an *EventError when it came in the stream;
//     without its RPCID and Metadata), a *NotEventStreamError (without its
//     Err), an *HTTPError (without its Body), the Diagnostic of a rule
//     broken under Options.Strict, or otherwise a *StoredError; a
//     Diagnostic's Err is the package's sentinel or a *StoredError. Each
//     has the text the document holds.
//
// A document that is not valid JSON, or whose members have the wrong type,
// gives a *DocumentError; members it does not know are skipped.
func (r *Result) UnmarshalJSON(doc []byte) error {
	d := docReader{doc: doc}
	var res Result
	if d.valid() {
		d.result(&res, doc, 0)
	}
	if d.err != nil {
		return d.err
	}
	*r = res
	return nil
}

// UnmarshalJSON reads an artifact object that [Artifact.MarshalJSON]
// wrote (the document's "answer" and "artifacts" elements) into a, as
// [Result.UnmarshalJSON] reads them.
func (a *Artifact) UnmarshalJSON(doc []byte) error {
	d := docReader{doc: doc}
	var got *Artifact
	if d.valid() {
		got = d.artifact(doc, 0)
	}
	if d.err != nil {
		return d.err
	}
	*a = *got
	return nil
}

// docReader reads a result document. err is the first error; once it is
// set, every reader returns zero values. path is the JSON Pointer of the
// value being read, for errors.
type docReader struct {
	doc  []byte
	err  error
	path []byte
	// meta reads metadata objects, from mdoc.
	meta parser.Decoder
	mdoc []byte
}

func (d *docReader) fail(off int, err error) {
	if d.err == nil {
		d.err = &DocumentError{Offset: off, JSONPointer: string(d.path), Err: err}
	}
}

// valid checks that the document is valid JSON.
func (d *docReader) valid() bool {
	if !jsonx.Valid(d.doc) {
		d.fail(0, ErrDocument)
		return false
	}
	return true
}

// object calls each for every member of the object val (at offset off of
// the document), with its raw key, raw value and the value's offset.
func (d *docReader) object(val []byte, off int, each func(key string, val []byte, off int)) {
	c, k := jsonx.Open(d.doc, off)
	if k != jsonx.KindObject {
		d.fail(off, ErrDocument)
		return
	}
	for d.err == nil {
		key, v, voff, ok := c.NextMember()
		if !ok {
			return
		}
		n := len(d.path)
		d.path = jsonx.AppendPointerToken(d.path, key)
		each(string(key), v, voff)
		d.path = d.path[:n]
	}
}

// array calls each for every element of the array val.
func (d *docReader) array(val []byte, off int, each func(val []byte, off int)) {
	c, k := jsonx.Open(d.doc, off)
	if k != jsonx.KindArray {
		d.fail(off, ErrDocument)
		return
	}
	for i := 0; d.err == nil; i++ {
		v, voff, ok := c.NextElement()
		if !ok {
			return
		}
		n := len(d.path)
		d.path = strconv.AppendInt(append(d.path, '/'), int64(i), 10)
		each(v, voff)
		d.path = d.path[:n]
	}
}

func isNull(val []byte) bool { return string(val) == "null" }

// text returns the text of the string val; nil for "".
func (d *docReader) text(val []byte, off int) []byte {
	if len(val) < 2 || val[0] != '"' {
		d.fail(off, ErrDocument)
		return nil
	}
	if len(val) == 2 {
		return nil
	}
	out, _ := jsonx.AppendUnescaped(nil, val[1:len(val)-1], jsonx.SurrogateReplace)
	return out
}

func (d *docReader) str(val []byte, off int) string { return string(d.text(val, off)) }

func (d *docReader) int(val []byte, off int) int64 {
	n, err := strconv.ParseInt(string(val), 10, 64)
	if err != nil {
		d.fail(off, ErrDocument)
	}
	return n
}

func (d *docReader) bool(val []byte, off int) bool {
	switch string(val) {
	case "true":
		return true
	case "false":
		return false
	}
	d.fail(off, ErrDocument)
	return false
}

// enum reads the string val into v with its UnmarshalText.
func (d *docReader) enum(val []byte, off int, v interface{ UnmarshalText([]byte) error }) {
	if err := v.UnmarshalText(d.text(val, off)); err != nil {
		d.fail(off, err)
	}
}

// state reads a state as the document names it: "" for no state.
func (d *docReader) state(val []byte, off int) parser.TaskState {
	var s parser.TaskState
	if t := d.text(val, off); len(t) > 0 {
		d.enum(val, off, &s)
	}
	return s
}

func (d *docReader) result(r *Result, val []byte, off int) {
	var answer *Artifact
	var answerVal, errVal []byte
	var artifactVals [][]byte
	errOff := 0
	d.object(val, off, func(key string, val []byte, off int) {
		switch key {
		case "state":
			r.State = d.state(val, off)
		case "taskId":
			r.TaskID = d.str(val, off)
		case "contextId":
			r.ContextID = d.str(val, off)
		case "answer":
			if !isNull(val) {
				answer, answerVal = d.artifact(val, off), val
			}
		case "artifacts":
			d.array(val, off, func(val []byte, off int) {
				r.Artifacts = append(r.Artifacts, d.artifact(val, off))
				artifactVals = append(artifactVals, val)
			})
		case "statusMessage":
			r.StatusMessage = d.message(val, off)
		case "message":
			r.Message = d.message(val, off)
		case "usage":
			r.Usage = d.usage(val, off)
		case "lastEventId":
			r.LastEventID = d.str(val, off)
		case "diagnostics":
			d.array(val, off, func(val []byte, off int) {
				r.Diagnostics = append(r.Diagnostics, d.diagnostic(val, off))
			})
		case "error":
			errVal, errOff = val, off
		}
	})
	r.Answer = answer
	if answer != nil {
		// The answer is the artifact written the same, unless it is made
		// of a direct reply's parts.
		for i, val := range artifactVals {
			if bytes.Equal(val, answerVal) {
				r.Answer = r.Artifacts[i]
				break
			}
		}
	}
	if errVal != nil && !isNull(errVal) {
		d.path = append(d.path[:0], "/error"...)
		r.Err = d.error(r, errVal, errOff)
		d.path = d.path[:0]
	}
}

func (d *docReader) artifact(val []byte, off int) *Artifact {
	a := new(Artifact)
	cited := false
	d.object(val, off, func(key string, val []byte, off int) {
		switch key {
		case "artifactId":
			a.ArtifactID = d.text(val, off)
		case "name":
			a.Name = d.text(val, off)
		case "description":
			a.Description = d.text(val, off)
		case "parts":
			a.Parts = d.parts(val, off)
		case "metadata":
			a.Metadata = d.metadata(val, off)
		case "extensions":
			d.array(val, off, func(val []byte, off int) {
				a.Extensions = append(a.Extensions, d.text(val, off))
			})
		case "thinking":
			a.Thinking = d.bool(val, off)
		case "sealed":
			a.Sealed = d.bool(val, off)
		case "citations", "citationDiagnostics":
			cited = cited || string(val) != "[]"
		}
	})
	if cited && d.err == nil {
		// Resolved again from the parts, as the Reducer did.
		var red Reducer
		red.Reset(nil)
		red.resolve(a)
	}
	return a
}

func (d *docReader) parts(val []byte, off int) []parser.Part {
	var parts []parser.Part
	d.array(val, off, func(val []byte, off int) {
		parts = append(parts, d.part(val, off))
	})
	return parts
}

func (d *docReader) part(val []byte, off int) parser.Part {
	var p parser.Part
	d.object(val, off, func(key string, val []byte, off int) {
		switch key {
		case "kind":
			if string(val) != `"unknown"` {
				d.enum(val, off, &p.Kind)
			}
		case "text":
			p.Text = d.text(val, off)
		case "data":
			p.Data = bytes.Clone(val)
		case "dataText":
			p.Data = d.text(val, off)
		case "raw":
			raw, err := base64.StdEncoding.AppendDecode(nil, d.text(val, off))
			if err != nil {
				d.fail(off, ErrDocument)
			}
			p.Raw = raw
		case "url":
			p.URL = d.text(val, off)
		case "filename":
			p.Filename = d.text(val, off)
		case "mediaType":
			p.MediaType = d.text(val, off)
		case "metadata":
			p.Metadata = d.metadata(val, off)
		}
	})
	return p
}

// The document the metadata objects are read from: a message holding only
// the metadata, whose members parser.Decoder picks out as it does in a
// stream.
const (
	metaOpen  = `{"message":{"metadata":`
	metaClose = `}}`
)

// metadata reads a metadata object with its typed fields, as the decoder
// picks them out of a stream.
func (d *docReader) metadata(val []byte, off int) parser.Metadata {
	d.mdoc = append(append(append(d.mdoc[:0], metaOpen...), val...), metaClose...)
	ev, err := d.meta.Decode(&sse.Frame{Offset: -1, Data: d.mdoc})
	if err != nil {
		d.fail(off, err)
		return parser.Metadata{}
	}
	return copyMetadata(&ev.Message.Metadata)
}

// message reads a message object; nil for null.
func (d *docReader) message(val []byte, off int) *parser.Message {
	if isNull(val) {
		return nil
	}
	m := new(parser.Message)
	d.object(val, off, func(key string, val []byte, off int) {
		switch key {
		case "messageId":
			m.MessageID = d.text(val, off)
		case "role":
			d.enum(val, off, &m.Role)
		case "parts":
			m.Parts = d.parts(val, off)
		case "metadata":
			m.Metadata = d.metadata(val, off)
		}
	})
	return m
}

// usage reads a usage object; nil for null.
func (d *docReader) usage(val []byte, off int) *parser.Usage {
	if isNull(val) {
		return nil
	}
	u := new(parser.Usage)
	d.object(val, off, func(key string, val []byte, off int) {
		switch key {
		case "model":
			u.Model, u.Fields = d.text(val, off), u.Fields|parser.UsageModel
		case "inputTokens":
			u.InputTokens, u.Fields = d.int(val, off), u.Fields|parser.UsageInputTokens
		case "outputTokens":
			u.OutputTokens, u.Fields = d.int(val, off), u.Fields|parser.UsageOutputTokens
		case "cachedInputTokens":
			u.CachedInputTokens, u.Fields = d.int(val, off), u.Fields|parser.UsageCachedInputTokens
		case "cacheCreationInputTokens":
			u.CacheCreationInputTokens, u.Fields = d.int(val, off), u.Fields|parser.UsageCacheCreationInputTokens
		case "totalTokens":
			u.TotalTokens, u.Fields = d.int(val, off), u.Fields|parser.UsageTotalTokens
		case "credits":
			f, ok := jsonx.ParseFloat(val)
			if !ok {
				d.fail(off, ErrDocument)
			}
			u.Credits, u.Fields = f, u.Fields|parser.UsageCredits
		}
	})
	return u
}

// ruleErrors returns the sentinels of the rules a Diagnostic reports. (A
// function, not a package variable: the WebAssembly module, which reads
// no documents, then links no code that builds the list.)
func ruleErrors() []error {
	return []error{
		ErrUnknownArtifact, ErrAfterFinal, ErrTransition, ErrOtherTask,
		ErrSealedArtifact, ErrUnknownEvent, ErrLegacyField, ErrNoAnswer,
	}
}

func (d *docReader) diagnostic(val []byte, off int) Diagnostic {
	var g Diagnostic
	var text string
	d.object(val, off, func(key string, val []byte, off int) {
		switch key {
		case "offset":
			g.Offset = d.int(val, off)
		case "seq":
			g.Seq = d.int(val, off)
		case "id":
			g.ID = d.text(val, off)
		case "artifactId":
			g.ArtifactID = d.text(val, off)
		case "taskId":
			g.TaskID = d.text(val, off)
		case "jsonPointer":
			g.JSONPointer = d.str(val, off)
		case "from":
			d.enum(val, off, &g.From)
		case "to":
			d.enum(val, off, &g.To)
		case "error":
			text = d.str(val, off)
		}
	})
	// The text is the Diagnostic's Error: its place, then its error's.
	g.Err = errNoText
	msg, ok := cutPrefix(text, g.Error())
	if !ok {
		msg = text
	}
	g.Err = &StoredError{Type: "diagnostic", Message: msg}
	for _, s := range ruleErrors() {
		// msg is the sentinel's text without "reconstruct: " (with it in
		// documents written before errors named their package once).
		if t := s.Error(); msg == t || "reconstruct: "+msg == t {
			g.Err = s
		}
	}
	return g
}

// errNoText stands for a Diagnostic's error while its place is written.
var errNoText = errors.New("")

func cutPrefix(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):], true
	}
	return s, false
}

// docError holds the members of the document's error object.
type docError struct {
	typ, message, taskID, lastEventID, status, reason, domain string
	contentType, head, cause                                  string
	state                                                     parser.TaskState
	binding                                                   parser.Binding
	pos                                                       sse.Position
	hasPos, insideEvent, hasCause                             bool
	dropped, code, httpStatus                                 int64
	details                                                   []byte
}

// error reads the document's error object; r is the Result read so far.
func (d *docReader) error(r *Result, val []byte, off int) error {
	var e docError
	d.object(val, off, func(key string, val []byte, off int) {
		switch key {
		case "type":
			e.typ = d.str(val, off)
		case "message":
			e.message = d.str(val, off)
		case "taskId":
			e.taskID = d.str(val, off)
		case "lastEventId":
			e.lastEventID = d.str(val, off)
		case "state":
			e.state = d.state(val, off)
		case "offset":
			e.pos.Offset, e.hasPos = d.int(val, off), true
		case "seq":
			e.pos.Seq = d.int(val, off)
		case "id":
			e.pos.ID = d.text(val, off)
		case "insideEvent":
			e.insideEvent = d.bool(val, off)
		case "dropped":
			e.dropped = d.int(val, off)
		case "cause":
			e.cause, e.hasCause = d.str(val, off), true
		case "binding":
			d.enum(val, off, &e.binding)
		case "code":
			e.code = d.int(val, off)
		case "status":
			e.status = d.str(val, off)
		case "reason":
			e.reason = d.str(val, off)
		case "domain":
			e.domain = d.str(val, off)
		case "details":
			e.details = bytes.Clone(val)
		case "httpStatus":
			e.httpStatus = d.int(val, off)
		case "contentType":
			e.contentType = d.str(val, off)
		case "head":
			e.head = d.str(val, off)
		}
	})
	err := e.rebuild(r)
	if se, ok := err.(*StoredError); ok {
		se.Raw = bytes.Clone(val)
	}
	return err
}

// rebuild makes the error the document describes.
func (e *docError) rebuild(r *Result) error {
	switch e.typ {
	case "truncated":
		te := &TruncatedError{TaskID: e.taskID, ContextID: r.ContextID, State: e.state, LastEventID: e.lastEventID, Offset: e.pos.Offset}
		if e.insideEvent {
			te.Dropped = e.dropped
			te.Cut = &sse.SyntaxError{Position: sse.Position{Offset: e.pos.Offset - e.dropped}, Size: e.dropped, Err: io.ErrUnexpectedEOF}
		}
		if e.hasCause {
			te.Cause = stored("cause", e.cause)
		}
		return te
	case "api":
		api := &parser.APIError{Binding: e.binding, Code: e.code, Status: e.status, Message: e.message, Reason: e.reason, Domain: e.domain, Details: e.details}
		if e.hasPos {
			return &EventError{Position: e.pos, Err: &serverError{api: api}}
		}
		return api
	case "notEventStream":
		ne := &NotEventStreamError{StatusCode: int(e.httpStatus), ContentType: e.contentType}
		if e.head != "" {
			ne.Head = []byte(e.head)
		}
		return ne
	case "http":
		return &HTTPError{StatusCode: int(e.httpStatus), ContentType: e.contentType}
	case "rule":
		for i := len(r.Diagnostics) - 1; i >= 0; i-- {
			if r.Diagnostics[i].Error() == e.message {
				return &r.Diagnostics[i]
			}
		}
	}
	return stored(e.typ, e.message)
}

// knownErrors returns the sentinels a StoredError's message may end with
// (a function for the reason ruleErrors is one).
func knownErrors() []error {
	return []error{
		parser.ErrInvalidJSON, parser.ErrTooDeep, parser.ErrFieldType, parser.ErrFieldValue,
		parser.ErrNoPayload, parser.ErrTwoPayloads, parser.ErrLegacyShape, parser.ErrInvalidID,
		sse.ErrEventTooLarge, sse.ErrBufferFull, sse.ErrWriteAfterClose, sse.ErrInvalidRead,
		io.ErrUnexpectedEOF, io.ErrNoProgress,
		ErrArtifactTooLarge, ErrRunTooLarge, ErrTooManyArtifacts, ErrTooManyDiagnostics,
		ErrServer, ErrClosed, ErrNotEventStream,
	}
}

// stored returns a *StoredError for the message, with the sentinel it ends
// with.
func stored(typ, message string) *StoredError {
	e := &StoredError{Type: typ, Message: message}
	for _, s := range knownErrors() {
		if errtext.EndsWith(message, s) {
			e.Err = s
			break
		}
	}
	return e
}
