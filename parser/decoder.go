package parser

// This file is structured as follows: the Decoder type and its entry points
// (Decode, Reset, decodeDoc); the envelope (REST stream response, JSON-RPC
// response, error documents); one method per A2A message type (task,
// message, status update, artifact update, status, artifact, part,
// metadata, usage); then the typed member readers (string, bool, number,
// enum, base64) and error construction.
//
// Every method works on jsonx's tape of the frame's data: each value's
// kind, its bytes and, for a string, whether it holds an escape. Strings
// with no escape are views of the frame's data; the others are unescaped
// into the decoder's buffer, byte-exact, a lone surrogate in WTF-8 form
// (jsonx.AppendUnescaped with jsonx.SurrogateWTF8); values that are kept
// raw (metadata, data parts) are sliced out of the frame's data.

import (
	"bytes"
	"encoding/base64"
	"slices"
	"strconv"
	"unsafe"

	"github.com/a2astream/a2astream/internal/jsonx"
	"github.com/a2astream/a2astream/parser/sse"
)

// maxPath is the number of path segments kept for error pointers; deeper
// segments are counted but not named (the pointer names their ancestor).
const maxPath = 12

// retainLimit is the capacity above which Reset drops a buffer rather than
// keep it for reuse.
const retainLimit = 1 << 20

// Decoder decodes the data of SSE frames into A2A 1.0 events. It reuses one
// JSON parser and its own buffers, so that decoding allocates nothing once
// the buffers have grown to the size of the frames (an Event of KindError
// is the exception: its *APIError is allocated for the caller to keep).
//
// It reads both bindings: HTTP+JSON, where the data is the StreamResponse,
// and JSON-RPC, where it is {"jsonrpc":"2.0","id":…,"result":…} or an error
// response. Names are lowerCamelCase or, as ProtoJSON readers accept,
// snake_case; enums are names or numbers; a missing member or null means
// the default; unknown members are ignored.
//
// What the agent said is never lost to an A2A 0.3 shape: A2A 0.3's "final"
// member of a status update, which A2A 1.0 removed and whose meaning the
// state carries, is ignored and reported (StatusUpdate.LegacyFinal); every
// other A2A 0.3 shape is refused with ErrLegacyShape: a "kind"
// discriminator, a "file" part, lowercase states and roles, and the
// ProtoJSON names A2A 1.0 renamed, under which the text would be ignored
// ("content" for a message's parts, "update" for a status message, "msg"
// for the message payload), and "final" beside the payload.
//
// Text is byte-exact. The bytes of a JSON string pass through unchanged,
// invalid UTF-8 included (a delta may end in the middle of a rune); escapes
// are decoded, a surrogate pair escape to the 4-byte UTF-8 of its
// character. A lone surrogate escape, which is what a delta ending in the
// middle of a pair carries ("…\ud83d" then "\ude00…"), becomes the 3-byte
// generalized UTF-8 (WTF-8) form of the surrogate: 0xED 0xA0–0xAF 0x80–0xBF
// for a high surrogate, 0xED 0xB0–0xBF 0x80–0xBF for a low one. It is never
// replaced by U+FFFD nor left as its six characters. Package utf8buf joins
// a high surrogate in this form at the end of one delta with a low one at
// the start of the next into the 4-byte UTF-8 of the pair. Strings with no
// escape are views of the frame's data; the others are unescaped into the
// Decoder's buffer. The whole document is checked against RFC 8259 before
// anything is read, raw views (Metadata.Raw, Part.Data) included: an
// invalid escape or a raw control character in any string is
// ErrInvalidJSON. UTF-8 is not checked.
//
// The text deltas of one artifact repeat the same document except for
// their text. A frame that has the bytes of the last such delta before and
// after its text string, and one valid JSON string between them, is that
// document with another text: the Decoder then checks the new text alone
// and reuses the rest of the last decode, which gives the same Event (and
// the same verdict on invalid input) as a full decode, several times
// faster; [Decoder.SameEnvelope] then reports it, so that a consumer can
// apply such a delta by its text alone.
//
// The zero Decoder is ready to use. A Decoder must not be used from
// multiple goroutines at once.
type Decoder struct {
	// pool holds what the pool of large text buffers needs (textpool.go).
	pool textPool

	p  jsonx.Parser
	ev Event

	// data is the JSON being decoded; offset, seq and id locate it in the
	// stream for errors.
	data   []byte
	offset int64
	seq    int64
	id     []byte

	// fields is a stack of object members: each object being read owns
	// fields[start:] for the time it is read.
	fields []jsonx.Field
	// text holds unescaped strings and decoded base64; views into it live
	// until the next Decode.
	text      []byte
	parts     []Part
	artifacts []Artifact
	messages  []Message
	strs      [][]byte
	// maxData, maxText and maxParts are the most data, text and parts
	// an event used since the last Reset, which tells Reset what to
	// keep; bigData is the largest data the parser has read since it was
	// made.
	maxData, maxText, maxParts int
	bigData                    int

	// path names the member being decoded, for errors.
	path  [maxPath]pathSeg
	depth int

	// texts counts the text strings of the event being decoded;
	// textStart and textEnd delimit the last one's quotes in data.
	texts              int
	textStart, textEnd int
	// shape is the last text delta, kept for reuse (shape.go).
	shape shape
	// inPlace is set during DecodeInPlace: texts are unescaped over their
	// own bytes in the data. placed is the number of strings the parser
	// unescaped over themselves (jsonx.Parser.ParseInPlace), placedTexts
	// the number of those read as texts.
	inPlace             bool
	placed, placedTexts int32
}

type pathSeg struct {
	name  []byte
	index int // -1 for a named member
}

// NewDecoder returns a new Decoder.
func NewDecoder() *Decoder { return new(Decoder) }

// Reset forgets the last event, and the data it was decoded from, so that
// the Decoder can read another stream. It keeps the buffers it grew when
// the stream since the last Reset needed them, so that a Decoder reused for
// streams alike allocates nothing per stream, large events included; a
// buffer larger than 1 MiB that this stream used less than half of, grown
// for an earlier stream's large event, is released, so that a pooled
// Decoder keeps a spike's buffers for one more stream at most.
func (d *Decoder) Reset() {
	d.ev = Event{}
	d.data, d.id = nil, nil
	if d.bigData > retainLimit && d.maxData < d.bigData/2 {
		d.p, d.bigData = jsonx.Parser{}, 0
	}
	d.p.Forget()
	if spare(cap(d.text), max(d.maxText, len(d.text))) {
		d.text = nil
	}
	d.text = d.text[:0]
	if spare(cap(d.parts)*int(unsafe.Sizeof(Part{})), max(d.maxParts, len(d.parts))*int(unsafe.Sizeof(Part{}))) {
		d.parts = nil
	}
	clear(d.fields[:cap(d.fields)])
	d.fields = d.fields[:0]
	clear(d.parts[:cap(d.parts)])
	clear(d.artifacts[:cap(d.artifacts)])
	clear(d.messages[:cap(d.messages)])
	clear(d.strs[:cap(d.strs)])
	d.path, d.depth = [maxPath]pathSeg{}, 0
	d.maxData, d.maxText, d.maxParts = 0, 0, 0
	d.shape.forget()
}

// spare reports whether a buffer of size bytes, of which the stream since
// the last Reset used at most used, is one that Reset releases: larger than
// retainLimit and less than half used.
func spare(size, used int) bool { return size > retainLimit && used < size/2 }

// Decode decodes the data of frame f, one A2A stream response of either
// binding, into an Event.
//
// The returned Event is a view valid only until the next call to Decode or
// Reset, or until f's data changes (the next call on the lexer that
// produced f); it must not be modified. An error frame (a top-level "error"
// member, whatever the SSE event name) is not a decoding failure: it gives
// an Event of KindError.
//
// A failure is a *DecodeError carrying f's Offset, Seq and ID, the byte
// offset in f.Data (JSONOffset) and the JSON Pointer of the problem, and one of the package's
// sentinels (ErrInvalidJSON, ErrTooDeep, ErrFieldType, ErrFieldValue,
// ErrNoPayload, ErrTwoPayloads, ErrLegacyShape).
func (d *Decoder) Decode(f *sse.Frame) (*Event, error) {
	d.offset, d.seq, d.id = f.Offset, f.Seq, f.ID
	return d.decode(f.Data, docStream)
}

// DecodeInPlace is Decode for a caller that owns f.Data and does not read
// it again: the text of a text part that holds escapes is unescaped in
// f.Data itself, over its JSON string, rather than into the Decoder's
// buffer. For a large text, such as an answer consolidated in one event,
// that saves a buffer as large as the text; a long one (64 bytes or more)
// is unescaped as the parser checks it, in one pass. The bytes of f.Data
// inside the strings of those texts are changed (and inside a text part's
// string that the Decoder ignores, such as one of a payload beside a
// JSON-RPC result); no byte that a view of the Event shows is (metadata,
// data parts, an unknown payload, the JSON-RPC id, an error's details).
// The Event, or the error, is the one Decode would return. On a failure
// the texts before the offending byte may be unescaped already: f.Data is
// consumed either way, and the error tells only positions in the data as
// received.
func (d *Decoder) DecodeInPlace(f *sse.Frame) (*Event, error) {
	d.inPlace = true
	ev, err := d.Decode(f)
	d.inPlace = false
	return ev, err
}

type docKind uint8

const (
	docStream docKind = iota
	docTask
	docError
)

// decodeDoc decodes a document outside a stream.
func (d *Decoder) decodeDoc(data []byte, kind docKind) (*Event, error) {
	d.offset, d.seq, d.id = 0, 0, nil
	return d.decode(data, kind)
}

func (d *Decoder) decode(data []byte, kind docKind) (*Event, error) {
	d.releaseText()
	d.shape.prev = d.shape.cur
	if kind == docStream {
		if ev := d.reuse(data); ev != nil {
			return ev, nil
		}
	}
	d.clearEvent()
	d.texts, d.shape.cur = 0, 0
	d.maxText, d.maxParts = max(d.maxText, len(d.text)), max(d.maxParts, len(d.parts))
	d.text = d.text[:0]
	d.parts = d.parts[:0]
	d.artifacts = d.artifacts[:0]
	d.messages = d.messages[:0]
	d.strs = d.strs[:0]
	d.fields = d.fields[:0]
	d.depth = 0
	d.data = data
	d.maxData = max(d.maxData, len(data))
	d.bigData = max(d.bigData, len(data))

	var root jsonx.Value
	var err error
	d.placed, d.placedTexts = 0, 0
	if d.inPlace {
		// The long texts with escapes of text parts are unescaped over
		// themselves as the parser checks them: one pass, no buffer.
		var placed int
		root, placed, err = d.p.ParseInPlace(data, textPath)
		d.placed = int32(placed)
	} else {
		// The long texts with escapes are unescaped as the parser checks
		// them, into the text buffer (from the pool when the data is
		// large): one pass over them, not two.
		d.textRoom(len(data))
		if root, d.text, err = d.p.ParseText(data, d.text); len(d.text) > 0 {
			// The parser made room for the rest of the data at the first
			// text it unescaped: what Reset is told the stream needed.
			d.maxText = max(d.maxText, len(data))
		}
	}
	if err != nil {
		se := err.(*jsonx.SyntaxError) // Parse's only error
		for _, s := range se.Path {
			if s.Index >= 0 {
				d.enterIndex(s.Index)
			} else {
				d.enter(s.Key)
			}
		}
		if se.TooDeep {
			return nil, d.fail(se.Pos, ErrTooDeep)
		}
		return nil, d.fail(se.Pos, ErrInvalidJSON)
	}
	pos := root.Pos()
	if !root.IsObject() {
		return nil, d.fail(pos, ErrFieldType)
	}
	if err := d.envelope(root, pos, kind); err != nil {
		return nil, err
	}
	if kind == docStream {
		d.keep(data)
	}
	return &d.ev, nil
}

// envelope decodes the root object: a REST stream response or error
// document, a JSON-RPC response, or (kind docTask) a bare task. The
// binding is JSON-RPC when the root has a jsonrpc or a result member, or
// both an id and an error; REST otherwise.
func (d *Decoder) envelope(root jsonx.Value, pos int, kind docKind) error {
	fs := d.p.RootFields()
	var ef envFields
	for i := range fs {
		f := &fs[i]
		switch string(f.Key) {
		case "jsonrpc":
			ef.jsonrpc = f
		case "id":
			ef.id = f
		case "result":
			ef.result = f
		case "error":
			ef.err = f
		case "kind":
			ef.kind = f
		}
	}
	if ef.jsonrpc != nil || ef.result != nil || (ef.id != nil && ef.err != nil) {
		d.ev.Binding = BindingJSONRPC
		return d.rpcEnvelope(&ef, pos, kind)
	}
	d.ev.Binding = BindingREST
	return d.restEnvelope(root, fs, &ef, pos, kind)
}

// envFields are the members of a root object that envelope reads, nil
// when absent: JSON-RPC's jsonrpc, id, result and error (also REST's
// error document), and kind, which only the legacy shape has.
type envFields struct {
	jsonrpc, id, result, err, kind *jsonx.Field
}

// rpcEnvelope decodes a JSON-RPC response whose root object, at pos, has
// the members ef: jsonrpc must be "2.0" when present, and there is exactly
// one of result and error. The result is a stream response, or, for kind
// docTask, a task; kind docError wants an error.
func (d *Decoder) rpcEnvelope(ef *envFields, pos int, kind docKind) error {
	if ef.jsonrpc != nil {
		d.enter(ef.jsonrpc.Key)
		v, err := d.str(ef.jsonrpc)
		if err != nil {
			return err
		}
		if string(v) != "2.0" {
			return d.fail(ef.jsonrpc.Pos, ErrFieldValue)
		}
		d.leave()
	}
	if ef.id != nil {
		if err := d.rpcID(ef.id); err != nil {
			return err
		}
	}
	result := ef.result
	switch {
	case result != nil && ef.err != nil:
		return d.fail(max(result.Pos, ef.err.Pos), ErrTwoPayloads)
	case ef.err != nil:
		return d.apiError(ef.err)
	case result == nil:
		return d.fail(pos, ErrNoPayload)
	}
	d.enter(result.Key)
	if d.kindOf(result) != '{' {
		return d.typeErr(result)
	}
	if kind == docTask {
		d.ev.Kind = KindTask
		return d.task(result.Value, &d.ev.Task)
	}
	if kind == docError {
		return d.fail(pos, ErrNoPayload)
	}
	start := len(d.fields)
	d.fields = d.p.AppendFields(d.fields, result.Value)
	defer d.popFields(start)
	return d.streamResponse(d.fields[start:], result.Pos)
}

// restEnvelope decodes a REST document, the root object at pos with the
// members fs, ef among them: an error document when it has an error
// member and no payload beside it, else a stream response, or, for kind
// docTask, a task; kind docError wants an error. A kind member is the
// legacy shape.
func (d *Decoder) restEnvelope(root jsonx.Value, fs []jsonx.Field, ef *envFields, pos int, kind docKind) error {
	if ef.kind != nil {
		return d.fail(ef.kind.Pos, ErrLegacyShape)
	}
	if ef.err != nil {
		for i := range fs {
			if payloadKind(fs[i].Key) != 0 {
				return d.fail(max(ef.err.Pos, fs[i].Pos), ErrTwoPayloads)
			}
		}
		return d.apiError(ef.err)
	}
	switch kind {
	case docTask:
		d.ev.Kind = KindTask
		return d.task(root, &d.ev.Task)
	case docError:
		return d.fail(pos, ErrNoPayload)
	}
	return d.streamResponse(fs, pos)
}

func (d *Decoder) popFields(start int) { d.fields = d.fields[:start] }

// clearEvent zeroes the last event, touching only the payload it set: an
// Event is large and most frames are small.
func (d *Decoder) clearEvent() {
	ev := &d.ev
	switch ev.Kind {
	case KindTask:
		ev.Task = Task{}
	case KindMessage:
		ev.Message = Message{}
	case KindStatusUpdate:
		ev.StatusUpdate = StatusUpdate{}
	case KindArtifactUpdate:
		ev.ArtifactUpdate = ArtifactUpdate{}
	case KindError, KindUnknown:
	default:
		// A failed decode may have filled any payload.
		*ev = Event{}
		return
	}
	ev.Kind, ev.Binding, ev.RPCID, ev.Err = 0, 0, RPCID{}, nil
	ev.UnknownKey, ev.UnknownRaw = nil, nil
}

// payloadKind maps a stream response key, lowerCamelCase or snake_case, to
// its event kind; 0 for any other key.
func payloadKind(key []byte) Kind {
	switch string(key) {
	case "task":
		return KindTask
	case "message":
		return KindMessage
	case "statusUpdate", "status_update":
		return KindStatusUpdate
	case "artifactUpdate", "artifact_update":
		return KindArtifactUpdate
	}
	return 0
}

// streamResponse decodes the members fs of a StreamResponse object at pos:
// exactly one known payload key, or a single unknown one.
func (d *Decoder) streamResponse(fs []jsonx.Field, pos int) error {
	var payload, unknown *jsonx.Field
	var kind Kind
	unknowns := 0
	for i := range fs {
		f := &fs[i]
		switch string(f.Key) {
		case "kind", "final":
			return d.fail(f.Pos, ErrLegacyShape)
		case "msg":
			// The message payload's A2A 0.3 ProtoJSON name.
			d.enter(f.Key)
			return d.fail(f.Pos, ErrLegacyShape)
		}
		k := payloadKind(f.Key)
		if k == 0 {
			if unknowns == 0 {
				unknown = f
			}
			unknowns++
			continue
		}
		if payload != nil {
			d.enter(f.Key)
			return d.fail(f.Pos, ErrTwoPayloads)
		}
		payload, kind = f, k
	}
	if payload == nil {
		if unknowns == 1 {
			d.ev.Kind = KindUnknown
			d.ev.UnknownKey = unknown.Key
			d.ev.UnknownRaw = unknown.Value.Raw()
			return nil
		}
		return d.fail(pos, ErrNoPayload)
	}
	d.enter(payload.Key)
	if d.kindOf(payload) != '{' {
		return d.typeErr(payload)
	}
	d.ev.Kind = kind
	switch kind {
	case KindTask:
		return d.task(payload.Value, &d.ev.Task)
	case KindMessage:
		return d.message(payload.Value, &d.ev.Message)
	case KindStatusUpdate:
		return d.statusUpdate(payload.Value, &d.ev.StatusUpdate)
	}
	return d.artifactUpdate(payload.Value, &d.ev.ArtifactUpdate)
}

// rpcID decodes the JSON-RPC id member f.
func (d *Decoder) rpcID(f *jsonx.Field) error {
	d.enter(f.Key)
	defer d.leave()
	id := &d.ev.RPCID
	switch d.kindOf(f) {
	case 'n':
		id.Kind = RPCIDNull
		id.Raw = f.Value.Raw()
	case '"':
		v, err := d.str(f)
		if err != nil {
			return err
		}
		id.Kind, id.Raw, id.Value = RPCIDString, f.Value.Raw(), v
	case '0':
		id.Kind = RPCIDNumber
		id.Raw = f.Value.Raw()
		id.Value = id.Raw
	default:
		return d.typeErr(f)
	}
	return nil
}

// apiError decodes the error member f of a REST error document or JSON-RPC
// error response into an Event of KindError.
func (d *Decoder) apiError(f *jsonx.Field) error {
	d.enter(f.Key)
	defer d.leave()
	if d.kindOf(f) != '{' {
		return d.typeErr(f)
	}
	e := &APIError{Binding: d.ev.Binding}
	if id := d.ev.RPCID; id.Kind != RPCIDAbsent {
		e.RPCID = RPCID{Kind: id.Kind, Raw: bytes.Clone(id.Raw), Value: bytes.Clone(id.Value)}
	}
	for ms := f.Value.Members(); ms.Next(); {
		m := ms.Field()
		d.enter(m.Key)
		var err error
		switch string(m.Key) {
		case "code":
			e.Code, err = d.int64(m)
		case "status":
			var s []byte
			s, err = d.str(m)
			e.Status = string(s)
		case "message":
			var s []byte
			s, err = d.str(m)
			e.Message = string(s)
		case "details", "data":
			if d.kindOf(m) == 'n' {
				break
			}
			e.Details = bytes.Clone(m.Value.Raw())
			err = d.errorDetails(m, e)
		}
		if err != nil {
			return err
		}
		d.leave()
	}
	d.ev.Kind = KindError
	d.ev.Err = e
	return nil
}

// errorDetails picks reason, domain and metadata from the first
// ErrorInfo-like object (one with a "reason") in the details array or data
// value m. Other shapes are kept raw only.
func (d *Decoder) errorDetails(m *jsonx.Field, e *APIError) error {
	switch d.kindOf(m) {
	case '{':
		return d.errorInfo(m.Value, e)
	case '[':
		el := m.Value.First()
		for i, n := 0, m.Value.Len(); i < n && e.Reason == ""; i, el = i+1, el.Next() {
			if !el.IsObject() {
				continue
			}
			d.enterIndex(i)
			if err := d.errorInfo(el, e); err != nil {
				return err
			}
			d.leave()
		}
	}
	return nil
}

func (d *Decoder) errorInfo(v jsonx.Value, e *APIError) error {
	start := len(d.fields)
	d.fields = d.p.AppendFields(d.fields, v)
	fs := d.fields[start:]
	defer d.popFields(start)
	var reason, domain, meta *jsonx.Field
	for i := range fs {
		switch string(fs[i].Key) {
		case "reason":
			reason = &fs[i]
		case "domain":
			domain = &fs[i]
		case "metadata":
			meta = &fs[i]
		}
	}
	if reason == nil || d.kindOf(reason) != '"' {
		return nil
	}
	s, err := d.member(reason)
	if err != nil {
		return err
	}
	e.Reason = string(s)
	if domain != nil && d.kindOf(domain) == '"' {
		if s, err = d.member(domain); err != nil {
			return err
		}
		e.Domain = string(s)
	}
	if meta != nil && d.kindOf(meta) == '{' {
		e.Metadata = bytes.Clone(meta.Value.Raw())
	}
	return nil
}

// member reads the string member f with its name on the path.
func (d *Decoder) member(f *jsonx.Field) ([]byte, error) {
	d.enter(f.Key)
	s, err := d.str(f)
	if err == nil {
		d.leave()
	}
	return s, err
}

// task decodes a Task object.
func (d *Decoder) task(v jsonx.Value, t *Task) error {
	for ms := v.Members(); ms.Next(); {
		f := ms.Field()
		d.enter(f.Key)
		var err error
		switch string(f.Key) {
		case "id":
			t.ID, err = d.str(f)
		case "contextId", "context_id":
			t.ContextID, err = d.str(f)
		case "status":
			err = d.status(f, &t.Status)
		case "artifacts":
			t.Artifacts, err = d.artifactList(f)
		case "history":
			t.History, err = d.messageList(f)
		case "metadata":
			err = d.metadata(f, &t.Metadata)
		case "kind":
			err = d.fail(f.Pos, ErrLegacyShape)
		}
		if err != nil {
			return err
		}
		d.leave()
	}
	return nil
}

// message decodes a Message object.
func (d *Decoder) message(v jsonx.Value, m *Message) error {
	for ms := v.Members(); ms.Next(); {
		f := ms.Field()
		d.enter(f.Key)
		var err error
		switch string(f.Key) {
		case "messageId", "message_id":
			m.MessageID, err = d.str(f)
		case "contextId", "context_id":
			m.ContextID, err = d.str(f)
		case "taskId", "task_id":
			m.TaskID, err = d.str(f)
		case "role":
			m.Role, err = d.role(f)
		case "parts":
			m.Parts, err = d.partList(f)
		case "metadata":
			err = d.metadata(f, &m.Metadata)
		case "extensions":
			m.Extensions, err = d.strList(f)
		case "referenceTaskIds", "reference_task_ids":
			m.ReferenceTaskIDs, err = d.strList(f)
		case "kind", "content":
			// "content" held the parts in A2A 0.3's ProtoJSON: ignored,
			// its text would be lost.
			err = d.fail(f.Pos, ErrLegacyShape)
		}
		if err != nil {
			return err
		}
		d.leave()
	}
	return nil
}

// statusUpdate decodes a TaskStatusUpdateEvent object.
func (d *Decoder) statusUpdate(v jsonx.Value, u *StatusUpdate) error {
	for ms := v.Members(); ms.Next(); {
		f := ms.Field()
		d.enter(f.Key)
		var err error
		switch string(f.Key) {
		case "taskId", "task_id":
			u.TaskID, err = d.str(f)
		case "contextId", "context_id":
			u.ContextID, err = d.str(f)
		case "status":
			err = d.status(f, &u.Status)
		case "metadata":
			err = d.metadata(f, &u.Metadata)
		case "final":
			// A2A 0.3's flag; the state says it all.
			u.LegacyFinal = true
		case "kind":
			err = d.fail(f.Pos, ErrLegacyShape)
		}
		if err != nil {
			return err
		}
		d.leave()
	}
	return nil
}

// artifactUpdate decodes a TaskArtifactUpdateEvent object.
func (d *Decoder) artifactUpdate(v jsonx.Value, u *ArtifactUpdate) error {
	for ms := v.Members(); ms.Next(); {
		f := ms.Field()
		d.enter(f.Key)
		var err error
		switch string(f.Key) {
		case "taskId", "task_id":
			u.TaskID, err = d.str(f)
		case "contextId", "context_id":
			u.ContextID, err = d.str(f)
		case "artifact":
			if d.kindOf(f) == 'n' {
				break
			}
			if d.kindOf(f) != '{' {
				err = d.typeErr(f)
				break
			}
			err = d.artifact(f.Value, &u.Artifact)
		case "append":
			u.Append, err = d.boolean(f)
		case "lastChunk", "last_chunk":
			u.LastChunk, err = d.boolean(f)
		case "metadata":
			err = d.metadata(f, &u.Metadata)
		case "kind":
			err = d.fail(f.Pos, ErrLegacyShape)
		}
		if err != nil {
			return err
		}
		d.leave()
	}
	return nil
}

// status decodes the TaskStatus member f.
func (d *Decoder) status(f *jsonx.Field, s *Status) error {
	switch d.kindOf(f) {
	case 'n':
		return nil
	case '{':
	default:
		return d.typeErr(f)
	}
	for ms := f.Value.Members(); ms.Next(); {
		m := ms.Field()
		d.enter(m.Key)
		var err error
		switch string(m.Key) {
		case "state":
			s.State, err = d.state(m)
		case "message":
			switch d.kindOf(m) {
			case 'n':
			case '{':
				s.HasMessage = true
				err = d.message(m.Value, &s.Message)
			default:
				err = d.typeErr(m)
			}
		case "timestamp":
			s.Timestamp, err = d.str(m)
		case "update":
			// The status message's A2A 0.3 ProtoJSON name.
			err = d.fail(m.Pos, ErrLegacyShape)
		}
		if err != nil {
			return err
		}
		d.leave()
	}
	return nil
}

// artifact decodes an Artifact object.
func (d *Decoder) artifact(v jsonx.Value, a *Artifact) error {
	for ms := v.Members(); ms.Next(); {
		f := ms.Field()
		d.enter(f.Key)
		var err error
		switch string(f.Key) {
		case "artifactId", "artifact_id":
			a.ArtifactID, err = d.str(f)
		case "name":
			a.Name, err = d.str(f)
		case "description":
			a.Description, err = d.str(f)
		case "parts":
			a.Parts, err = d.partList(f)
		case "metadata":
			err = d.metadata(f, &a.Metadata)
		case "extensions":
			a.Extensions, err = d.strList(f)
		}
		if err != nil {
			return err
		}
		d.leave()
	}
	return nil
}

// partList decodes the array of parts f into the Decoder's part buffer,
// which does not grow while a part is decoded: parts hold no parts.
func (d *Decoder) partList(f *jsonx.Field) ([]Part, error) {
	n, err := d.objectList(f)
	if n == 0 {
		return nil, err
	}
	first := len(d.parts)
	d.parts = slices.Grow(d.parts, n)[:first+n]
	parts := d.parts[first : first+n : first+n]
	if err := d.eachObject(f, n, func(i int, el jsonx.Value) error { return d.part(el, &parts[i]) }); err != nil {
		return nil, err
	}
	return parts, nil
}

// part decodes the Part object v.
func (d *Decoder) part(v jsonx.Value, p *Part) error {
	pos := v.Pos()
	*p = Part{}
	for ms := v.Members(); ms.Next(); {
		f := ms.Field()
		d.enter(f.Key)
		var err error
		kind := PartKind(0)
		switch string(f.Key) {
		case "text":
			kind = PartText
			if d.kindOf(f) == 'n' {
				break
			}
			if d.kindOf(f) == '"' {
				d.texts++
				d.textStart, d.textEnd = f.Pos, f.Pos+len(f.Value.Raw())
			}
			if d.inPlace && d.kindOf(f) == '"' {
				p.Text = d.unescapeInPlace(f.Value)
			} else {
				p.Text, err = d.str(f)
			}
			if err == nil && p.Text == nil {
				p.Text = []byte{}
			}
		case "raw":
			kind = PartRaw
			p.Raw, err = d.base64(f)
		case "url":
			kind = PartURL
			p.URL, err = d.str(f)
		case "data":
			kind = PartData
			p.Data = f.Value.Raw()
		case "metadata":
			err = d.metadata(f, &p.Metadata)
		case "filename":
			p.Filename, err = d.str(f)
		case "mediaType", "media_type":
			p.MediaType, err = d.str(f)
		case "kind", "file":
			err = d.fail(f.Pos, ErrLegacyShape)
		}
		if err != nil {
			return err
		}
		if kind != 0 && !(kind == PartText && d.kindOf(f) == 'n') {
			if p.Kind != 0 {
				return d.fail(f.Pos, ErrTwoPayloads)
			}
			p.Kind = kind
		}
		d.leave()
	}
	if p.Kind == 0 {
		return d.fail(pos, ErrNoPayload)
	}
	return nil
}

// artifactList decodes the array of artifacts f into the Decoder's
// artifact buffer; an artifact's parts go to the part buffer.
func (d *Decoder) artifactList(f *jsonx.Field) ([]Artifact, error) {
	n, err := d.objectList(f)
	if n == 0 {
		return nil, err
	}
	first := len(d.artifacts)
	d.artifacts = slices.Grow(d.artifacts, n)[:first+n]
	arts := d.artifacts[first : first+n : first+n]
	err = d.eachObject(f, n, func(i int, el jsonx.Value) error {
		arts[i] = Artifact{}
		return d.artifact(el, &arts[i])
	})
	if err != nil {
		return nil, err
	}
	return arts, nil
}

// messageList decodes the array of messages f into the Decoder's message
// buffer; a message's parts go to the part buffer.
func (d *Decoder) messageList(f *jsonx.Field) ([]Message, error) {
	n, err := d.objectList(f)
	if n == 0 {
		return nil, err
	}
	first := len(d.messages)
	d.messages = slices.Grow(d.messages, n)[:first+n]
	msgs := d.messages[first : first+n : first+n]
	err = d.eachObject(f, n, func(i int, el jsonx.Value) error {
		msgs[i] = Message{}
		return d.message(el, &msgs[i])
	})
	if err != nil {
		return nil, err
	}
	return msgs, nil
}

// objectList returns the number of elements of f, null (0) or an array,
// for the caller to make room for them before eachObject decodes them
// (partList, artifactList, messageList: not one generic function, whose
// three instances made the WebAssembly module 1.3 KB larger gzipped).
func (d *Decoder) objectList(f *jsonx.Field) (int, error) {
	switch d.kindOf(f) {
	case 'n':
		return 0, nil
	case '[':
		return f.Value.Len(), nil
	}
	return 0, d.typeErr(f)
}

// eachObject calls decode with each of the n elements of the array f,
// which must be objects, on the path of the element.
func (d *Decoder) eachObject(f *jsonx.Field, n int, decode func(i int, el jsonx.Value) error) error {
	el := f.Value.First()
	for i := range n {
		d.enterIndex(i)
		if !el.IsObject() {
			return d.fail(el.Pos(), ErrFieldType)
		}
		if err := decode(i, el); err != nil {
			return err
		}
		d.leave()
		el = el.Next()
	}
	return nil
}

// strList decodes the array of strings f.
func (d *Decoder) strList(f *jsonx.Field) ([][]byte, error) {
	switch d.kindOf(f) {
	case 'n':
		return nil, nil
	case '[':
	default:
		return nil, d.typeErr(f)
	}
	first := len(d.strs)
	el := f.Value.First()
	for i, n := 0, f.Value.Len(); i < n; i, el = i+1, el.Next() {
		d.enterIndex(i)
		if el.Kind() != '"' {
			return nil, d.fail(el.Pos(), ErrFieldType)
		}
		s, err := d.strOf(el)
		if err != nil {
			return nil, err
		}
		d.strs = append(d.strs, s)
		d.leave()
	}
	if len(d.strs) == first {
		return nil, nil
	}
	return d.strs[first:len(d.strs):len(d.strs)], nil
}

// metadata decodes the metadata object f: its raw bytes and the keys this
// package knows. Other keys are left in Raw.
func (d *Decoder) metadata(f *jsonx.Field, md *Metadata) error {
	switch d.kindOf(f) {
	case 'n':
		return nil
	case '{':
	default:
		return d.typeErr(f)
	}
	md.Raw = f.Value.Raw()
	for ms := f.Value.Members(); ms.Next(); {
		m := ms.Field()
		d.enter(m.Key)
		var err error
		switch string(m.Key) {
		case "$usage":
			err = d.usage(m, &md.Usage)
		case "$timestamp":
			switch d.kindOf(m) {
			case '"':
				md.Timestamp, err = d.str(m)
			case '0':
				md.Timestamp = m.Value.Raw()
			case 'n':
			default:
				err = d.typeErr(m)
			}
		case "type":
			// Free-form metadata: only a string is the known "type".
			if d.kindOf(m) == '"' {
				md.Type, err = d.str(m)
			}
		case "dataPartId":
			if d.kindOf(m) == '"' {
				md.DataPartID, err = d.str(m)
			}
		case "citations":
			md.Citations = m.Value.Raw()
		}
		if err != nil {
			return err
		}
		d.leave()
	}
	return nil
}

// usage decodes Corti's $usage object f.
func (d *Decoder) usage(f *jsonx.Field, u *Usage) error {
	switch d.kindOf(f) {
	case 'n':
		return nil
	case '{':
	default:
		return d.typeErr(f)
	}
	for ms := f.Value.Members(); ms.Next(); {
		m := ms.Field()
		if d.kindOf(m) == 'n' {
			continue
		}
		d.enter(m.Key)
		var err error
		var n *int64
		var bit UsageField
		switch string(m.Key) {
		case "model":
			u.Model, err = d.str(m)
			bit = UsageModel
		case "inputTokens":
			n, bit = &u.InputTokens, UsageInputTokens
		case "outputTokens":
			n, bit = &u.OutputTokens, UsageOutputTokens
		case "cachedInputTokens":
			n, bit = &u.CachedInputTokens, UsageCachedInputTokens
		case "cacheCreationInputTokens":
			n, bit = &u.CacheCreationInputTokens, UsageCacheCreationInputTokens
		case "totalTokens":
			n, bit = &u.TotalTokens, UsageTotalTokens
		case "credits":
			u.Credits, err = d.float64(m)
			bit = UsageCredits
		}
		if n != nil {
			*n, err = d.int64(m)
		}
		if err != nil {
			return err
		}
		u.Fields |= bit
		d.leave()
	}
	return nil
}

// kindOf returns the JSON type of f's value as its first byte: '{', '[',
// '"', 't', 'f', 'n', or '0' for any number.
func (d *Decoder) kindOf(f *jsonx.Field) byte { return f.Value.Kind() }

// str reads the string member f: a view of the frame's data when it has no
// escape, else its unescaped bytes in the text buffer. A null gives nil.
func (d *Decoder) str(f *jsonx.Field) ([]byte, error) {
	switch d.kindOf(f) {
	case '"':
		return d.strOf(f.Value)
	case 'n':
		return nil, nil
	}
	return nil, d.typeErr(f)
}

// strOf reads the string v.
func (d *Decoder) strOf(v jsonx.Value) ([]byte, error) {
	raw, esc := v.Contents()
	if !esc {
		return raw, nil
	}
	if t, ok := v.Unescaped(); ok {
		return t, nil // unescaped by ParseText
	}
	d.textRoom(len(raw))
	first := len(d.text)
	var bad int
	d.text, bad = v.AppendText(d.text)
	if bad >= 0 {
		// The parser checked every escape: not reached.
		return nil, d.fail(v.Pos()+1+bad, ErrInvalidJSON)
	}
	return d.text[first:len(d.text):len(d.text)], nil
}

// unescapeInPlace returns the text of the string v, for DecodeInPlace:
// when it has an escape, unescaped over its own bytes in the data. The
// unescaped bytes are never more than the raw ones, and each is written
// after the raw bytes it comes from are read, so the raw string's span
// holds them; the bytes after them in the span are left as they were. A
// long one the parser unescaped so as it checked it (textPath); the others
// are unescaped here, after the parser checked every escape.
func (d *Decoder) unescapeInPlace(v jsonx.Value) []byte {
	raw, esc := v.Contents()
	if !esc {
		return raw
	}
	if t, ok := v.Unescaped(); ok {
		d.placedTexts++ // unescaped over itself by ParseInPlace
		return t
	}
	text, _ := v.AppendText(raw[:0:len(raw)])
	return text[:len(text):len(text)]
}

// The steps of textPath's walk: where in a stream response a value is.
const (
	atNone uint8 = iota
	atRoot
	atResponse // a JSON-RPC result
	atTask
	atStatusUpdate
	atArtifactUpdate
	atStatus
	atMessage
	atArtifact
	atMessages  // a task's history
	atArtifacts // a task's artifacts
	atParts
	atPart
	atText
)

// textPath is DecodeInPlace's choice of the strings that the parser
// unescapes over themselves as it checks them (jsonx.Parser.ParseInPlace):
// it accepts the path of the text of a text part, and only it, wherever a
// stream response of either binding holds one (a message, a status's
// message, an artifact, a task's history and artifacts), keys as the
// decoder reads them and written without escapes. No raw view of the
// Event covers such a string: not metadata, a data part, an error's
// details, the JSON-RPC id nor an unknown payload, which are other
// members. A text the decoder ignores (the payload beside a JSON-RPC
// result, an earlier duplicate result) may be unescaped too: nothing reads
// it, and Decoder.keep does not keep a shape around it.
func textPath(path []jsonx.PathSeg) bool {
	at := atRoot
	for _, s := range path {
		if s.Index >= 0 {
			switch at {
			case atMessages:
				at = atMessage
			case atArtifacts:
				at = atArtifact
			case atParts:
				at = atPart
			default:
				return false
			}
			continue
		}
		switch at {
		case atRoot, atResponse:
			if at == atRoot && string(s.Key) == "result" {
				at = atResponse
				continue
			}
			switch payloadKind(s.Key) {
			case KindTask:
				at = atTask
			case KindMessage:
				at = atMessage
			case KindStatusUpdate:
				at = atStatusUpdate
			case KindArtifactUpdate:
				at = atArtifactUpdate
			default:
				return false
			}
		case atTask:
			switch string(s.Key) {
			case "status":
				at = atStatus
			case "history":
				at = atMessages
			case "artifacts":
				at = atArtifacts
			default:
				return false
			}
		case atStatusUpdate, atStatus, atArtifactUpdate, atMessage, atArtifact, atPart:
			want, next := "", atNone
			switch at {
			case atStatusUpdate:
				want, next = "status", atStatus
			case atStatus:
				want, next = "message", atMessage
			case atArtifactUpdate:
				want, next = "artifact", atArtifact
			case atMessage, atArtifact:
				want, next = "parts", atParts
			case atPart:
				want, next = "text", atText
			}
			if string(s.Key) != want {
				return false
			}
			at = next
		default:
			return false
		}
	}
	return at == atText
}

// boolean reads the bool member f; null means false.
func (d *Decoder) boolean(f *jsonx.Field) (bool, error) {
	switch d.kindOf(f) {
	case 't':
		return true, nil
	case 'f', 'n':
		return false, nil
	}
	return false, d.typeErr(f)
}

// number returns the text of the number member f, or of the string holding
// it (ProtoJSON writes 64-bit integers as strings).
func (d *Decoder) number(f *jsonx.Field) ([]byte, error) {
	var b []byte
	switch d.kindOf(f) {
	case '0':
		b = f.Value.Raw()
	case '"':
		s, err := d.strOf(f.Value)
		if err != nil {
			return nil, err
		}
		b = s
	default:
		return nil, d.typeErr(f)
	}
	if !jsonx.ValidNumber(b) {
		return nil, d.fail(f.Pos, ErrFieldValue)
	}
	return b, nil
}

// int64 reads the integer member f. A number with a fraction or exponent is
// accepted when its value is integral.
func (d *Decoder) int64(f *jsonx.Field) (int64, error) {
	b, err := d.number(f)
	if err != nil {
		return 0, err
	}
	if n, ok := parseInt(b); ok {
		return n, nil
	}
	x, ok := jsonx.ParseFloat(b)
	if !ok || x != float64(int64(x)) || x >= 1<<63 || x < -(1<<63) {
		return 0, d.fail(f.Pos, ErrFieldValue)
	}
	return int64(x), nil
}

// parseInt parses an optionally signed run of decimal digits that fits
// int64.
func parseInt(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false // 18 digits always fit; longer ones go through float
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// float64 reads the number member f.
func (d *Decoder) float64(f *jsonx.Field) (float64, error) {
	b, err := d.number(f)
	if err != nil {
		return 0, err
	}
	x, ok := jsonx.ParseFloat(b)
	if !ok {
		return 0, d.fail(f.Pos, ErrFieldValue)
	}
	return x, nil
}

// state reads a TaskState member: its name or number.
func (d *Decoder) state(f *jsonx.Field) (TaskState, error) {
	return enum(d, f, parseTaskState[[]byte])
}

// role reads a Role member: its name or number.
func (d *Decoder) role(f *jsonx.Field) (Role, error) {
	return enum(d, f, parseRole)
}

// enum reads the enum member f, its name (a string) or its number, with
// parse; null is the zero value, the unspecified one.
func enum[E TaskState | Role](d *Decoder, f *jsonx.Field, parse func([]byte) (E, error)) (E, error) {
	var s []byte
	switch d.kindOf(f) {
	case 'n':
		return 0, nil
	case '"':
		var err error
		if s, err = d.str(f); err != nil {
			return 0, err
		}
	case '0':
		s = f.Value.Raw()
	default:
		return 0, d.typeErr(f)
	}
	e, err := parse(s)
	if err != nil {
		return 0, d.fail(f.Pos, err)
	}
	return e, nil
}

// base64 reads the bytes member f, base64 in the standard or URL alphabet,
// padded or not, and decodes it into the text buffer.
func (d *Decoder) base64(f *jsonx.Field) ([]byte, error) {
	s, err := d.str(f)
	if err != nil || len(s) == 0 {
		return []byte{}, err
	}
	enc := base64.StdEncoding
	for _, c := range s {
		if c == '-' || c == '_' {
			enc = base64.URLEncoding
			break
		}
	}
	if s[len(s)-1] != '=' && len(s)%4 != 0 {
		enc = enc.WithPadding(base64.NoPadding)
	}
	first := len(d.text)
	d.text = slices.Grow(d.text, enc.DecodedLen(len(s)))
	n, err := enc.Decode(d.text[first:first+enc.DecodedLen(len(s))], s)
	if err != nil {
		return nil, d.fail(f.Pos, ErrFieldValue)
	}
	d.text = d.text[:first+n]
	return d.text[first : first+n : first+n], nil
}

func (d *Decoder) enter(name []byte) {
	if d.depth < maxPath {
		d.path[d.depth] = pathSeg{name: name, index: -1}
	}
	d.depth++
}

func (d *Decoder) enterIndex(i int) {
	if d.depth < maxPath {
		d.path[d.depth] = pathSeg{index: i}
	}
	d.depth++
}

func (d *Decoder) leave() { d.depth-- }

// typeErr reports that member f has the wrong JSON type.
func (d *Decoder) typeErr(f *jsonx.Field) error { return d.fail(f.Pos, ErrFieldType) }

// fail builds the *DecodeError for a problem at pos in the data, on the
// current path.
func (d *Decoder) fail(pos int, err error) error {
	e := &DecodeError{JSONOffset: pos, Err: err}
	e.Offset, e.Seq = d.offset, d.seq
	if len(d.id) > 0 {
		e.ID = bytes.Clone(d.id)
	}
	var b []byte
	for i := range min(d.depth, maxPath) {
		s := d.path[i]
		if s.index >= 0 {
			b = append(b, '/')
			b = strconv.AppendInt(b, int64(s.index), 10)
			continue
		}
		b = jsonx.AppendPointerToken(b, s.name)
	}
	e.JSONPointer = string(b)
	return e
}
