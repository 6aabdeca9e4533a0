package reconstruct

// This file writes a run as the JSON document that `a2astream --json`
// prints and package resultjson documents (its members, their order, its
// escaping), without encoding/json, so that the WebAssembly module, which
// must not link encoding/json, fmt or reflect, writes the same bytes; it
// lives here so that Result and Artifact can marshal as that document.
// It is structured as: the entry points and the json.Marshaler methods,
// the document's objects in the order they nest (result, artifact,
// citation, part, message, usage, diagnostic, error), then the scalar
// writers and the indenter.

import (
	"encoding/base64"
	"errors"
	"io"
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/internal/errtext"
	"github.com/a2astream/a2astream/internal/jsonx"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/utf8buf"
)

// JSONOptions configures AppendJSON and WriteJSON. The zero value writes
// one compact line.
type JSONOptions struct {
	// Indent writes the document indented by two spaces per level, as
	// `a2astream --json` prints it.
	Indent bool
	// ErrorType, when set, names the type of an error AppendJSON does not
	// know (the "type" member of "error", such as "io" for a failed read);
	// returning "" falls back to "other".
	ErrorType func(err error) string
}

// fallback is the document written when the result holds a number JSON
// cannot represent (a NaN or infinite credit count), as encoding/json
// refuses to encode it.
const fallback = `{"error":{"type":"other","message":"a2astream: cannot encode output"}}`

// AppendJSON appends the JSON document of the run res (see package
// resultjson for its members), which ended with err (nil when it reached a
// terminal or interrupted state; usually res.Err), followed by a newline,
// to dst and returns the extended slice. res may be nil when the run never
// started: the document then holds only the error. A result holding a
// number JSON cannot represent (a NaN or infinite credit count) gives a
// document holding only an "other" error saying so.
func AppendJSON(dst []byte, res *Result, err error, opts *JSONOptions) []byte {
	var o JSONOptions
	if opts != nil {
		o = *opts
	}
	if !encodable(res) {
		return append(append(dst, fallback...), '\n')
	}
	w := writer{opts: &o}
	w.result(res, err)
	if o.Indent {
		dst = w.ind.append(dst, w.b)
	} else {
		dst = append(dst, w.b...)
	}
	return append(dst, '\n')
}

// WriteJSON writes the document that AppendJSON would append to out, in pieces
// of about 64 KiB as it makes them: its memory does not grow with the
// size of the result (a run's texts, data and citations), so that a large
// run is not held twice, once as a Result and once as its document. It
// returns the first error of out.Write, after which it writes nothing
// more.
func WriteJSON(out io.Writer, res *Result, err error, opts *JSONOptions) error {
	var o JSONOptions
	if opts != nil {
		o = *opts
	}
	if !encodable(res) {
		_, werr := io.WriteString(out, fallback+"\n")
		return werr
	}
	w := writer{opts: &o, out: out, b: make([]byte, 0, flushAt+chunk)}
	w.result(res, err)
	w.b = append(w.b, '\n')
	w.flush()
	return w.werr
}

// MarshalJSON returns the run's JSON document, compact and without the
// final newline, as AppendJSON writes it with r.Err as the error:
// json.Marshal of a Result gives the `a2astream --json` document, which
// [Result.UnmarshalJSON] reads back. It returns an error, as
// encoding/json does, for a NaN or infinite credit count.
func (r Result) MarshalJSON() ([]byte, error) {
	if !encodable(&r) {
		return nil, errUnencodable
	}
	w := writer{opts: &JSONOptions{}}
	w.result(&r, r.Err)
	return w.b, nil
}

// MarshalJSON returns the artifact as the document's artifact objects
// are written (the members of "answer" and of each element of
// "artifacts"), compact; [Artifact.UnmarshalJSON] reads it back.
func (a Artifact) MarshalJSON() ([]byte, error) {
	w := writer{opts: &JSONOptions{}}
	w.artifact(&a)
	return w.b, nil
}

// errUnencodable is MarshalJSON's error for a number JSON cannot hold.
var errUnencodable = errors.New("reconstruct: cannot encode a NaN or infinite credit count as JSON")

// encodable reports whether JSON can hold every number of res: a NaN or
// infinite credit count cannot be written, and the whole document is then
// the fallback (decided before anything is written, as Write cannot take
// back what it wrote).
func encodable(res *Result) bool {
	if res == nil || res.Usage == nil || res.Usage.Fields&parser.UsageCredits == 0 {
		return true
	}
	return !math.IsNaN(res.Usage.Credits) && !math.IsInf(res.Usage.Credits, 0)
}

// Write's pieces: the compact document is handed to the indenter and out
// once it holds flushAt bytes; long strings, data and raw content are
// written chunk bytes at a time, so that b stays under flushAt plus the
// escaped form of one chunk.
const (
	flushAt = 64 << 10
	chunk   = 24 << 10 // a multiple of 3, for base64
)

// writer builds the compact document in b. Members are written with a
// leading comma when they are not the first of their object or array:
// first records that state for the innermost open container. With out
// set (Write) it hands b over to out, indented when asked, whenever it
// holds flushAt bytes; otherwise b ends up holding the whole document.
type writer struct {
	b     []byte
	first bool
	opts  *JSONOptions

	out  io.Writer
	ind  indenter
	obuf []byte // the indented form of b, for out
	werr error  // the first error of out.Write
}

// spill flushes b to out when it holds flushAt bytes or more.
func (w *writer) spill() {
	if w.out != nil && len(w.b) >= flushAt {
		w.flush()
	}
}

// flush writes b to out, indented when asked, and empties it.
func (w *writer) flush() {
	out := w.b
	if w.opts.Indent {
		w.obuf = w.ind.append(w.obuf[:0], w.b)
		out = w.obuf
	}
	if w.werr == nil {
		_, w.werr = w.out.Write(out)
	}
	w.b = w.b[:0]
}

func (w *writer) open(c byte) {
	w.b = append(w.b, c)
	w.first = true
}

func (w *writer) close(c byte) {
	w.b = append(w.b, c)
	w.first = false
}

// key starts the member name; the value follows.
func (w *writer) key(name string) {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
	w.b = append(w.b, '"')
	w.b = append(w.b, name...)
	w.b = append(w.b, '"', ':')
}

// elem starts an array element.
func (w *writer) elem() {
	w.spill()
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
}

// str writes the member name: s. It escapes s's bytes in place, as a
// []byte: one instance of appendString serves strings and byte slices
// (two made the WebAssembly module 1.4 KB larger gzipped).
func (w *writer) str(name, s string) {
	w.key(name)
	w.b = appendString(w.b, unsafe.Slice(unsafe.StringData(s), len(s)), false)
}

func (w *writer) strBytes(name string, s []byte) {
	w.key(name)
	w.text(s, false)
}

// text writes s as a JSON string, as appendString does; for Write, a
// chunk at a time, cut where no character is split.
func (w *writer) text(s []byte, html bool) {
	if w.out == nil || len(s) <= chunk {
		w.b = appendString(w.b, s, html)
		return
	}
	w.b = append(w.b, '"')
	for len(s) > 0 {
		n := len(s)
		if n > chunk {
			n = cutAt(s, chunk)
		}
		w.b = appendStringBody(w.b, s[:n], html)
		s = s[n:]
		w.spill()
	}
	w.b = append(w.b, '"')
}

// cutAt returns a place near n to cut s where no valid UTF-8 character
// is split, so that each side decodes as s does: the nearest of n and the
// three bytes before it that is not a continuation byte; or n when all
// four are, as then no character of s holds the byte at n.
func cutAt(s []byte, n int) int {
	for k := n; k > n-utf8.UTFMax && k > 0; k-- {
		if utf8.RuneStart(s[k]) {
			return k
		}
	}
	return n
}

// compact writes the valid JSON raw compacted, as appendCompact does; for
// Write, a chunk at a time.
func (w *writer) compact(raw []byte) {
	var c compactor
	if w.out == nil {
		w.b = c.append(w.b, raw)
		return
	}
	for len(raw) > 0 {
		n := min(len(raw), chunk)
		w.b = c.append(w.b, raw[:n])
		raw = raw[n:]
		w.spill()
	}
}

func (w *writer) strOmit(name, s string) {
	if s != "" {
		w.str(name, s)
	}
}

func (w *writer) strBytesOmit(name string, s []byte) {
	if len(s) > 0 {
		w.strBytes(name, s)
	}
}

func (w *writer) int(name string, n int64) {
	w.key(name)
	w.b = strconv.AppendInt(w.b, n, 10)
}

func (w *writer) bool(name string, v bool) {
	w.key(name)
	w.b = strconv.AppendBool(w.b, v)
}

func (w *writer) null(name string) {
	w.key(name)
	w.b = append(w.b, "null"...)
}

// rawOmit writes raw JSON (compacted) when it is valid, and nothing
// otherwise, like the CLI's omitempty json.RawMessage members.
func (w *writer) rawOmit(name string, raw []byte) {
	if len(raw) == 0 || !jsonx.Valid(raw) {
		return
	}
	w.key(name)
	w.compact(raw)
}

// stateName returns the name the document gives state s: its
// [parser.TaskState.String], or "" for parser.TaskStateUnspecified (no
// status seen).
func stateName(s parser.TaskState) string {
	if s == parser.TaskStateUnspecified {
		return ""
	}
	return s.String()
}

func (w *writer) result(res *Result, err error) {
	w.open('{')
	if res != nil {
		w.str("state", stateName(res.State))
		w.str("taskId", res.TaskID)
		w.str("contextId", res.ContextID)
		w.key("answer")
		if res.Answer != nil {
			w.artifact(res.Answer)
		} else {
			w.b = append(w.b, "null"...)
		}
		w.key("thinking")
		w.open('[')
		for _, a := range res.Artifacts {
			if a.Thinking {
				w.elem()
				w.artifact(a)
			}
		}
		w.close(']')
		w.key("artifacts")
		w.open('[')
		for _, a := range res.Artifacts {
			w.elem()
			w.artifact(a)
		}
		w.close(']')
		w.message("statusMessage", res.StatusMessage)
		w.message("message", res.Message)
		w.usage(res.Usage)
		w.str("lastEventId", res.LastEventID)
		w.key("diagnostics")
		w.open('[')
		for i := range res.Diagnostics {
			w.elem()
			w.diagnostic(&res.Diagnostics[i])
		}
		w.close(']')
	} else {
		w.str("state", "")
		w.str("taskId", "")
		w.str("contextId", "")
		w.null("answer")
		w.key("thinking")
		w.b = append(w.b, "[]"...)
		w.key("artifacts")
		w.b = append(w.b, "[]"...)
		w.null("statusMessage")
		w.null("message")
		w.null("usage")
		w.str("lastEventId", "")
		w.key("diagnostics")
		w.b = append(w.b, "[]"...)
	}
	if err != nil {
		w.key("error")
		w.errorDoc(err)
	} else {
		w.null("error")
	}
	w.close('}')
}

func (w *writer) artifact(a *Artifact) {
	w.open('{')
	w.strBytes("artifactId", a.ArtifactID)
	w.strBytesOmit("name", a.Name)
	w.strBytesOmit("description", a.Description)
	w.key("text")
	w.text(a.Text(), false)
	w.parts(a.Parts)
	w.rawOmit("metadata", a.Metadata.Raw)
	if len(a.Extensions) > 0 {
		w.key("extensions")
		w.open('[')
		for _, e := range a.Extensions {
			w.elem()
			w.b = appendString(w.b, e, false)
		}
		w.close(']')
	}
	w.bool("thinking", a.Thinking)
	w.bool("sealed", a.Sealed)
	w.key("citations")
	w.open('[')
	for i := range a.Citations {
		w.elem()
		w.citation(&a.Citations[i])
	}
	w.close(']')
	w.key("citationDiagnostics")
	w.open('[')
	for i := range a.CitationDiagnostics {
		g := &a.CitationDiagnostics[i]
		w.elem()
		w.open('{')
		w.int("part", int64(g.Part))
		w.int("index", int64(g.Index))
		w.strBytes("id", g.ID)
		w.int("offset", int64(g.Offset))
		w.str("error", g.Error())
		w.close('}')
	}
	w.close(']')
	w.close('}')
}

func (w *writer) citation(c *citations.Resolved) {
	w.open('{')
	w.int("number", int64(c.Number))
	w.strBytes("id", c.ID)
	w.int("offset", int64(c.Offset))
	w.int("byteOffset", int64(c.ByteOffset))
	w.int("runeIndex", int64(c.RuneIndex))
	w.int("utf16Index", int64(c.UTF16Index))
	w.strBytes("locator", c.Locator.AppendText(nil))
	w.key("target")
	switch {
	case c.Err != nil:
		w.b = append(w.b, "null"...)
	case c.TargetKind == citations.ValueText:
		// The CLI marshals the text on its own, with HTML escaping.
		w.text(c.Target, true)
	case len(c.Target) > 0 && jsonx.Valid(c.Target):
		w.compact(c.Target)
	default:
		w.b = append(w.b, "null"...)
	}
	w.str("targetKind", c.TargetKind.String())
	if c.Err != nil {
		w.str("error", c.Err.Error())
	} else {
		w.null("error")
	}
	w.close('}')
}

func (w *writer) parts(parts []parser.Part) {
	w.key("parts")
	w.partList(parts)
}

// partList writes parts as the document's array of part objects.
func (w *writer) partList(parts []parser.Part) {
	w.open('[')
	for i := range parts {
		p := &parts[i]
		w.elem()
		w.open('{')
		switch p.Kind {
		case parser.PartText:
			w.str("kind", "text")
			w.strBytes("text", p.Text)
		case parser.PartData:
			w.str("kind", "data")
			if len(p.Data) > 0 && jsonx.Valid(p.Data) {
				w.key("data")
				w.compact(p.Data)
			} else {
				w.strBytes("dataText", p.Data)
			}
		case parser.PartRaw:
			w.str("kind", "raw")
			if len(p.Raw) > 0 {
				w.key("raw")
				w.b = append(w.b, '"')
				for raw := p.Raw; len(raw) > 0; {
					n := min(len(raw), chunk)
					w.b = base64.StdEncoding.AppendEncode(w.b, raw[:n])
					raw = raw[n:]
					w.spill()
				}
				w.b = append(w.b, '"')
			}
		case parser.PartURL:
			w.str("kind", "url")
			w.strBytesOmit("url", p.URL)
		default:
			w.str("kind", "unknown")
		}
		w.strBytesOmit("filename", p.Filename)
		w.strBytesOmit("mediaType", p.MediaType)
		w.rawOmit("metadata", p.Metadata.Raw)
		w.close('}')
	}
	w.close(']')
}

func (w *writer) message(name string, m *parser.Message) {
	if m == nil {
		w.null(name)
		return
	}
	w.key(name)
	w.messageObject(m)
}

// messageObject writes m as the document's message object.
func (w *writer) messageObject(m *parser.Message) {
	w.open('{')
	w.strBytes("messageId", m.MessageID)
	w.str("role", m.Role.String())
	w.strBytes("text", MessageText(m))
	w.parts(m.Parts)
	w.rawOmit("metadata", m.Metadata.Raw)
	w.close('}')
}

func (w *writer) usage(u *parser.Usage) {
	if u == nil {
		w.null("usage")
		return
	}
	w.key("usage")
	w.open('{')
	has := func(f parser.UsageField) bool { return u.Fields&f != 0 }
	if has(parser.UsageModel) {
		w.strBytes("model", u.Model)
	}
	if has(parser.UsageInputTokens) {
		w.int("inputTokens", u.InputTokens)
	}
	if has(parser.UsageOutputTokens) {
		w.int("outputTokens", u.OutputTokens)
	}
	if has(parser.UsageCachedInputTokens) {
		w.int("cachedInputTokens", u.CachedInputTokens)
	}
	if has(parser.UsageCacheCreationInputTokens) {
		w.int("cacheCreationInputTokens", u.CacheCreationInputTokens)
	}
	if has(parser.UsageTotalTokens) {
		w.int("totalTokens", u.TotalTokens)
	}
	if has(parser.UsageCredits) {
		w.key("credits")
		w.float(u.Credits)
	}
	w.close('}')
}

func (w *writer) diagnostic(g *Diagnostic) {
	w.open('{')
	w.int("offset", g.Offset)
	w.int("seq", g.Seq)
	w.strBytes("id", g.ID)
	w.strBytesOmit("artifactId", g.ArtifactID)
	w.strBytesOmit("taskId", g.TaskID)
	w.strOmit("jsonPointer", g.JSONPointer)
	if g.From != 0 || g.To != 0 {
		w.strOmit("from", g.From.String())
		w.strOmit("to", g.To.String())
	}
	w.str("error", g.Error())
	w.close('}')
}

// errorDoc writes err as [AppendErrorJSON] describes it. This is the one
// table of error types: the --json document, the --events lines and the
// WebAssembly module's documents all name errors with it. Each type's
// members are written by a method of its own.
func (w *writer) errorDoc(err error) {
	var (
		api     *parser.APIError
		httpErr *HTTPError
		trunc   *TruncatedError
		syn     *parser.DecodeError
		lex     *sse.SyntaxError
		diag    *Diagnostic
		ev      *EventError
		notSSE  *NotEventStreamError
	)
	if se, ok := err.(*StoredError); ok && jsonx.Valid(se.Raw) {
		// Read from a document: written back as it was.
		w.compact(se.Raw)
		return
	}
	w.open('{')
	switch {
	case errtext.As(err, &trunc):
		w.truncatedDoc(err, trunc)
	case errtext.As(err, &api):
		w.apiDoc(api)
		if errtext.As(err, &ev) {
			w.position(ev.Position)
		}
	case errtext.As(err, &notSSE):
		w.typed("notEventStream", err)
		w.httpDoc(notSSE.StatusCode, notSSE.ContentType)
		w.str("head", string(notSSE.Head))
	case errtext.As(err, &httpErr):
		w.typed("http", err)
		w.httpDoc(httpErr.StatusCode, httpErr.ContentType)
	case errtext.As(err, &diag):
		w.typed("rule", err)
		w.position(diag.Position)
	case errtext.As(err, &syn):
		w.typed("syntax", err)
		w.position(syn.Position)
		if syn.JSONOffset >= 0 {
			w.int("jsonOffset", int64(syn.JSONOffset))
		}
		w.strOmit("jsonPointer", syn.JSONPointer)
	case errtext.As(err, &lex):
		// The lexer's error concerns an event that was never dispatched:
		// it has an offset and an id, no frame ordinal of its own.
		w.typed("syntax", err)
		w.position(sse.Position{Offset: lex.Offset, ID: lex.ID})
	case errtext.As(err, &ev):
		w.typed("limit", err)
		w.position(ev.Position)
	default:
		t := ""
		if w.opts.ErrorType != nil {
			t = w.opts.ErrorType(err)
		}
		if t == "" {
			t = "other"
		}
		w.typed(t, err)
	}
	w.close('}')
}

// typed writes an error document's type and message, err's text.
func (w *writer) typed(t string, err error) {
	w.str("type", t)
	w.str("message", err.Error())
}

// position writes where in the stream an error happened: its offset, and
// its frame's ordinal and SSE id when known.
func (w *writer) position(p sse.Position) {
	w.int("offset", p.Offset)
	if p.Seq != 0 {
		w.int("seq", p.Seq)
	}
	w.strBytesOmit("id", p.ID)
}

// truncatedDoc writes the members of a truncated run's error: taskId,
// lastEventId and state are always present ("" when none), so is how the
// stream ended; cause only when the input failed (a reset, a deadline),
// with the failure's message.
func (w *writer) truncatedDoc(err error, trunc *TruncatedError) {
	w.typed("truncated", err)
	w.str("taskId", trunc.TaskID)
	w.str("lastEventId", trunc.LastEventID)
	w.str("state", stateName(trunc.State))
	w.int("offset", trunc.Offset)
	w.bool("insideEvent", trunc.Cut != nil)
	w.int("dropped", trunc.Dropped)
	if trunc.Cause != nil {
		w.str("cause", trunc.Cause.Error())
	}
}

// apiDoc writes the members of the server's error: its message, not the
// error's text, and the binding only when known (an APIError made by hand
// or by an adapter to another SDK has none).
func (w *writer) apiDoc(api *parser.APIError) {
	w.str("type", "api")
	w.str("message", api.Message)
	if api.Binding == parser.BindingREST || api.Binding == parser.BindingJSONRPC {
		w.str("binding", api.Binding.String())
	}
	if api.Code != 0 {
		w.int("code", api.Code)
	}
	w.strOmit("status", api.Status)
	w.strOmit("reason", api.Reason)
	w.strOmit("domain", api.Domain)
	w.rawOmit("details", api.Details)
}

// httpDoc writes an HTTP answer's status, when known, and content type.
func (w *writer) httpDoc(status int, contentType string) {
	if status != 0 {
		w.int("httpStatus", int64(status))
	}
	w.strOmit("contentType", contentType)
}

// float writes f in encoding/json's format: the shortest decimal, in
// exponent form below 1e-6 and from 1e21 up, with a one-digit negative
// exponent written without its leading zero.
func (w *writer) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		w.b = append(w.b, "null"...) // not reached: encodable refused it
		return
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	start := len(w.b)
	w.b = strconv.AppendFloat(w.b, f, format, -1, 64)
	if format == 'e' {
		b := w.b[start:]
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			w.b = w.b[:len(w.b)-1]
		}
	}
}

const hex = "0123456789abcdef"

// appendString appends s as a JSON string the way encoding/json does,
// escaping '<', '>' and '&' too when html is set, except for ill-formed
// UTF-8: encoding/json writes one \ufffd per byte, appendString one per
// maximal subpart of an ill-formed sequence (utf8buf.ReplacedLen), the
// WHATWG rule that JavaScript's TextDecoder and package citations follow.
func appendString(dst, s []byte, html bool) []byte {
	dst = append(dst, '"')
	dst = appendStringBody(dst, s, html)
	return append(dst, '"')
}

// appendStringBody appends s escaped as appendString does, without the
// quotes.
func appendStringBody(dst, s []byte, html bool) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!html || (c != '<' && c != '>' && c != '&')) {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			// One U+FFFD per maximal subpart of an ill-formed sequence,
			// as TextDecoder decodes the bytes and package citations
			// counts them, so that citation offsets index the text.
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			var head [4]byte
			i += utf8buf.ReplacedLen(head[:copy(head[:], s[i:])])
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(dst, s[start:]...)
}

// compactor drops the whitespace outside the strings of valid JSON given
// in pieces: it carries whether a string, and an escape in it, is open at
// the end of a piece.
type compactor struct {
	inStr, esc bool
}

// append appends raw, the next piece, compacted.
func (c *compactor) append(dst, raw []byte) []byte {
	for i := 0; i < len(raw); i++ {
		b := raw[i]
		if c.inStr {
			switch {
			case c.esc:
				c.esc = false
			case b == '\\':
				c.esc = true
			case b == '"':
				c.inStr = false
			}
			dst = append(dst, b)
			continue
		}
		switch b {
		case ' ', '\t', '\n', '\r':
		case '"':
			c.inStr = true
			dst = append(dst, b)
		default:
			dst = append(dst, b)
		}
	}
	return dst
}

// indenter indents the compact JSON document given in pieces by two
// spaces per level, with ": " after names and empty objects and arrays
// kept as {} and [], the way encoding/json.Indent lays it out. It carries
// its state from one piece to the next.
type indenter struct {
	depth   int
	pending bool // an opening bracket waits for its first element
	inStr   bool // inside a string
	esc     bool // after a backslash in a string
}

// append appends doc, the next piece of the document, indented.
func (d *indenter) append(dst, doc []byte) []byte {
	newline := func() {
		dst = append(dst, '\n')
		for range d.depth {
			dst = append(dst, ' ', ' ')
		}
	}
	for i := 0; i < len(doc); i++ {
		c := doc[i]
		if d.inStr {
			// Copy the string up to its closing quote or the end of
			// the piece.
			j := i
			for ; j < len(doc); j++ {
				switch {
				case d.esc:
					d.esc = false
					continue
				case doc[j] == '\\':
					d.esc = true
					continue
				case doc[j] != '"':
					continue
				}
				d.inStr = false
				break
			}
			if j < len(doc) {
				j++ // the closing quote
			}
			dst = append(dst, doc[i:j]...)
			i = j - 1
			continue
		}
		if d.pending {
			d.pending = false
			if c == '}' || c == ']' {
				d.depth--
				dst = append(dst, c)
				continue
			}
			newline()
		}
		switch c {
		case '"':
			d.inStr = true
			dst = append(dst, c)
		case '{', '[':
			dst = append(dst, c)
			d.depth++
			d.pending = true
		case '}', ']':
			d.depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// AppendErrorJSON appends err as the document's "error" member, one compact
// JSON object (JSONOptions.Indent does not apply), and returns the extended
// slice; it appends null when err is nil. `a2astream --events` writes the
// error of its error lines with it, so that every output names an error
// alike.
//
// The object starts with "type", which says what kind of error err is, and
// "message", followed by the members of that kind: "truncated" (taskId,
// lastEventId, state, offset, insideEvent, dropped, and cause when the
// input failed), "api" (the server's error document: binding when it is
// known, code, status, reason, domain, details, and offset, seq and id
// when it came in the stream), "notEventStream" (input that is no SSE
// stream: httpStatus and contentType when it came in a response, head its
// first bytes),
// "http" (httpStatus, contentType), "rule" (a rule broken under
// reconstruct's JSONOptions.Strict: offset, seq, id), "syntax" (offset, seq,
// id; for a frame that did not decode, jsonOffset, the 0-based byte offset
// in its data, and jsonPointer, the RFC 6901 pointer of the member
// concerned), "limit" (offset, seq, id), or the type JSONOptions.ErrorType
// gives an error this list does not know, "other" by default. Members
// that are zero are left out, except offset and the members of
// "truncated". Every offset member is a 0-based count of bytes: offset
// and dropped of the stream, jsonOffset of the frame's data.
func AppendErrorJSON(dst []byte, err error, opts *JSONOptions) []byte {
	if err == nil {
		return append(dst, "null"...)
	}
	var o JSONOptions
	if opts != nil {
		o = *opts
	}
	w := writer{b: dst, opts: &o}
	w.errorDoc(err)
	return w.b
}

// AppendJSONString appends s as a JSON string escaped as the document's
// strings are (ill-formed UTF-8 as one \ufffd per maximal subpart), and
// returns the extended slice.
func AppendJSONString(dst []byte, s []byte) []byte {
	return appendString(dst, s, false)
}

// AppendPartsJSON appends parts as the document's "parts" arrays hold
// them, one compact JSON array of part objects, and returns the extended
// slice. `a2astream --events` writes the parts of its lines with it, so
// that every output writes a part alike.
func AppendPartsJSON(dst []byte, parts []parser.Part) []byte {
	w := writer{b: dst, opts: &JSONOptions{}}
	w.partList(parts)
	return w.b
}

// AppendMessageJSON appends m as the document's "statusMessage" and
// "message" members hold it, one compact JSON object (messageId, role,
// text, parts, metadata), or null when m is nil, and returns the extended
// slice. `a2astream --events` writes the messages of its lines with it.
func AppendMessageJSON(dst []byte, m *parser.Message) []byte {
	if m == nil {
		return append(dst, "null"...)
	}
	w := writer{b: dst, opts: &JSONOptions{}}
	w.messageObject(m)
	return w.b
}
