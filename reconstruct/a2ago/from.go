package a2ago

// This file converts a2a-go's events into a2astream's decoded events
// (a2a-go -> parser). Events are converted field by field, the strings seen
// as byte slices without a copy. A metadata map is written with
// encoding/json, as a2a-go's server writes it, and its typed fields
// ($usage, $timestamp, type, dataPartId, citations) are read by
// parser.Decoder from a small document that holds only it, so that they are
// picked out by the same code as on the byte path. An event that the
// field-by-field path would not give as the decoder does (text that is not
// valid UTF-8, an unknown state or role, a part without content, metadata
// the decoder refuses) is written whole with a2a-go's own JSON encoding and
// read back with parser.Decoder, with the decoder's errors.

import (
	"bytes"
	"encoding/json"
	"errors"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
)

// ErrNilEvent means the sequence handed out a nil a2a.Event with a nil
// error, or an event whose required pointer (a TaskArtifactUpdateEvent's
// Artifact) is nil.
var ErrNilEvent = errors.New("a2ago: nil event")

// Converter turns a2a-go's events into a2astream's decoded events
// (*parser.Event), which a reconstruct.Reducer applies. It reuses its
// buffers from one event to the next. The zero Converter is ready to use;
// a Converter must not be used from multiple goroutines at once.
type Converter struct {
	ev    parser.Event
	parts []parser.Part
	dec   parser.Decoder
	frame sse.Frame
	data  []byte
	// mdec reads the metadata documents, mdoc.
	mdec parser.Decoder
	mdoc []byte
}

// Event converts ev into a decoded event, the same event that
// parser.Decoder returns for the frame a2a-go's server writes for ev. seq
// is the event's 1-based ordinal in its stream, which a decoding error
// reports (0 when unknown). The returned Event is a view: its byte slices
// alias ev's strings and the Converter's buffers, valid until the next call
// to Event and as long as ev is not modified; it must not be modified.
//
// The error is ErrNilEvent, the error of encoding/json for a value that it
// cannot encode, or the *parser.DecodeError that the byte path would report
// for the same event.
func (c *Converter) Event(ev a2a.Event, seq int64) (*parser.Event, error) {
	c.parts = c.parts[:0]
	e := &c.ev
	// Clear only the payload the last event set: the Event is large, and
	// a token delta sets a small part of it. A delta after a delta needs
	// no clearing: artifactUpdate sets every field.
	_, delta := ev.(*a2a.TaskArtifactUpdateEvent)
	switch e.Kind {
	case parser.KindTask:
		e.Task = parser.Task{}
	case parser.KindMessage:
		e.Message = parser.Message{}
	case parser.KindStatusUpdate:
		e.StatusUpdate = parser.StatusUpdate{}
	case parser.KindArtifactUpdate:
		if !delta {
			e.ArtifactUpdate = parser.ArtifactUpdate{}
		}
	}
	e.Kind, e.Binding = 0, parser.BindingREST
	ok := false
	switch v := ev.(type) {
	case *a2a.Task:
		ok = v != nil && c.task(&e.Task, v)
		e.Kind = parser.KindTask
	case *a2a.Message:
		ok = v != nil && c.message(&e.Message, v)
		e.Kind = parser.KindMessage
	case *a2a.TaskStatusUpdateEvent:
		ok = v != nil && c.statusUpdate(&e.StatusUpdate, v)
		e.Kind = parser.KindStatusUpdate
	case *a2a.TaskArtifactUpdateEvent:
		// Kind first: the next call clears what this one leaves.
		e.Kind = parser.KindArtifactUpdate
		if v == nil || v.Artifact == nil {
			return nil, ErrNilEvent
		}
		ok = c.artifactUpdate(&e.ArtifactUpdate, v)
	}
	if ev == nil || isNil(ev) {
		return nil, ErrNilEvent
	}
	if ok {
		return e, nil
	}
	return c.viaJSON(ev, seq)
}

// isNil reports whether ev is a typed nil pointer.
func isNil(ev a2a.Event) bool {
	switch v := ev.(type) {
	case *a2a.Task:
		return v == nil
	case *a2a.Message:
		return v == nil
	case *a2a.TaskStatusUpdateEvent:
		return v == nil
	case *a2a.TaskArtifactUpdateEvent:
		return v == nil
	}
	return false
}

// viaJSON writes ev as a2a-go's server does and decodes it as the byte path
// does.
func (c *Converter) viaJSON(ev a2a.Event, seq int64) (*parser.Event, error) {
	data, err := json.Marshal(a2a.StreamResponse{Event: ev})
	if err != nil {
		return nil, err
	}
	c.data = data
	c.frame = sse.Frame{Offset: -1, Seq: seq, Data: c.data}
	return c.dec.Decode(&c.frame)
}

// view returns s's bytes without a copy; nil for "", as the decoder gives
// for an absent or empty string. The bytes must not be modified.
func view(s string) []byte {
	if s == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

func (c *Converter) task(dst *parser.Task, t *a2a.Task) bool {
	if !c.meta(&dst.Metadata, t.Metadata) {
		return false
	}
	dst.ID = view(string(t.ID))
	dst.ContextID = view(t.ContextID)
	if !c.status(&dst.Status, &t.Status) {
		return false
	}
	if len(t.Artifacts) > 0 {
		dst.Artifacts = make([]parser.Artifact, len(t.Artifacts))
		for i, a := range t.Artifacts {
			if a == nil || !c.artifact(&dst.Artifacts[i], a) {
				return false
			}
		}
	}
	if len(t.History) > 0 {
		dst.History = make([]parser.Message, len(t.History))
		for i, m := range t.History {
			if m == nil || !c.message(&dst.History[i], m) {
				return false
			}
		}
	}
	return true
}

func (c *Converter) status(dst *parser.Status, s *a2a.TaskStatus) bool {
	st, ok := state(s.State)
	if !ok {
		return false
	}
	dst.State = st
	if s.Timestamp != nil {
		// encoding/json writes a time.Time in RFC 3339 with nanoseconds.
		if y := s.Timestamp.Year(); y < 0 || y > 9999 {
			return false // encoding/json refuses it
		}
		ts := s.Timestamp.AppendFormat(nil, time.RFC3339Nano)
		dst.Timestamp = ts
	}
	if s.Message != nil {
		dst.HasMessage = true
		return c.message(&dst.Message, s.Message)
	}
	return true
}

// state maps a2a-go's state names to parser's; ok is false for a name
// a2a-go would send that is no A2A 1.0 state.
func state(s a2a.TaskState) (parser.TaskState, bool) {
	if s == a2a.TaskStateUnspecified {
		return parser.TaskStateUnspecified, true
	}
	st, err := parser.ParseTaskState(string(s))
	return st, err == nil
}

func (c *Converter) message(dst *parser.Message, m *a2a.Message) bool {
	if !c.meta(&dst.Metadata, m.Metadata) {
		return false
	}
	dst.MessageID = view(m.ID)
	dst.ContextID = view(m.ContextID)
	dst.TaskID = view(string(m.TaskID))
	switch m.Role {
	case a2a.MessageRoleUnspecified:
		dst.Role = parser.RoleUnspecified
	case a2a.MessageRoleUser:
		dst.Role = parser.RoleUser
	case a2a.MessageRoleAgent:
		dst.Role = parser.RoleAgent
	default:
		return false
	}
	var ok bool
	if dst.Parts, ok = c.partList(m.Parts); !ok {
		return false
	}
	dst.Extensions = views(m.Extensions)
	if len(m.ReferenceTasks) > 0 {
		dst.ReferenceTaskIDs = make([][]byte, len(m.ReferenceTasks))
		for i, id := range m.ReferenceTasks {
			dst.ReferenceTaskIDs[i] = view(string(id))
		}
	}
	return true
}

func views(ss []string) [][]byte {
	if len(ss) == 0 {
		return nil
	}
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = view(s)
	}
	return out
}

func (c *Converter) statusUpdate(dst *parser.StatusUpdate, u *a2a.TaskStatusUpdateEvent) bool {
	if !c.meta(&dst.Metadata, u.Metadata) {
		return false
	}
	dst.TaskID = view(string(u.TaskID))
	dst.ContextID = view(u.ContextID)
	return c.status(&dst.Status, &u.Status)
}

func (c *Converter) artifactUpdate(dst *parser.ArtifactUpdate, u *a2a.TaskArtifactUpdateEvent) bool {
	if !c.meta(&dst.Metadata, u.Metadata) {
		return false
	}
	dst.TaskID = view(string(u.TaskID))
	dst.ContextID = view(u.ContextID)
	dst.Append = u.Append
	dst.LastChunk = u.LastChunk
	return c.artifact(&dst.Artifact, u.Artifact)
}

func (c *Converter) artifact(dst *parser.Artifact, a *a2a.Artifact) bool {
	if !c.meta(&dst.Metadata, a.Metadata) {
		return false
	}
	dst.ArtifactID = view(string(a.ID))
	dst.Name = view(a.Name)
	dst.Description = view(a.Description)
	dst.Extensions = views(a.Extensions)
	var ok bool
	dst.Parts, ok = c.partList(a.Parts)
	return ok
}

// partList converts parts into the Converter's part buffer; the parts of
// one event share it, each list a sub-slice.
func (c *Converter) partList(parts a2a.ContentParts) ([]parser.Part, bool) {
	if len(parts) == 0 {
		return nil, true
	}
	start := len(c.parts)
	for _, p := range parts {
		if p == nil {
			return nil, false
		}
		q := parser.Part{Filename: view(p.Filename), MediaType: view(p.MediaType)}
		if !c.meta(&q.Metadata, p.Metadata) {
			return nil, false
		}
		switch v := p.Content.(type) {
		case a2a.Text:
			if !utf8.ValidString(string(v)) {
				// encoding/json writes U+FFFD for each bad byte.
				return nil, false
			}
			q.Kind, q.Text = parser.PartText, view(string(v))
		case a2a.Raw:
			if len(v) == 0 {
				return nil, false
			}
			q.Kind, q.Raw = parser.PartRaw, v
		case a2a.URL:
			if v == "" {
				return nil, false
			}
			q.Kind, q.URL = parser.PartURL, view(string(v))
		case a2a.Data:
			b, err := json.Marshal(v.Value)
			if err != nil {
				return nil, false
			}
			q.Kind, q.Data = parser.PartData, b
		default:
			return nil, false
		}
		c.parts = append(c.parts, q)
	}
	// The buffer may have moved while it grew: take the sub-slice now.
	return c.parts[start:len(c.parts):len(c.parts)], true
}

// The document the metadata maps are read from: a message holding only
// the metadata, whose members the decoder reads wherever they are.
const (
	metaOpen  = `{"message":{"metadata":`
	metaClose = `}}`
)

// meta sets md to the metadata m as the decoder reads it from the JSON
// a2a-go's server writes for m: none for an empty map (omitted), else the
// exact JSON and its typed fields, owned copies. It reports false when the
// decoder refuses it: the JSON path then gives the decoder's error for the
// whole event.
func (c *Converter) meta(md *parser.Metadata, m map[string]any) bool {
	if len(m) == 0 {
		if md.Raw != nil {
			// Only meta sets metadata here, always with Raw.
			*md = parser.Metadata{}
		}
		return true
	}
	*md = parser.Metadata{}
	raw, err := json.Marshal(m)
	if err != nil {
		return false
	}
	c.mdoc = append(append(append(c.mdoc[:0], metaOpen...), raw...), metaClose...)
	ev, err := c.mdec.Decode(&sse.Frame{Offset: -1, Data: c.mdoc})
	if err != nil {
		return false
	}
	got := &ev.Message.Metadata
	// The decoder's views last until its next Decode: copy them.
	*md = parser.Metadata{
		Raw:        raw,
		Usage:      got.Usage,
		Timestamp:  bytes.Clone(got.Timestamp),
		Type:       bytes.Clone(got.Type),
		DataPartID: bytes.Clone(got.DataPartID),
		Citations:  bytes.Clone(got.Citations),
	}
	md.Usage.Model = bytes.Clone(got.Usage.Model)
	return true
}
