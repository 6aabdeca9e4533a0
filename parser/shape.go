package parser

// This file holds the Decoder's shortcut for text deltas. The deltas of one
// artifact repeat the same document byte for byte except for their text:
//
//	{"artifactUpdate":{"taskId":"…","contextId":"…","artifact":{"artifactId":"…","parts":[{"text":"‹delta›"}]},"append":true}}
//
// After a full decode of such a delta the Decoder keeps its bytes before
// and after the text string (the head and the tail) and where each view of
// its event lay. A frame that has the same head, then one valid JSON
// string, then the same tail is the same document with another text: JSON
// is read left to right, so the head leaves the parse in the same state,
// a string is one token whatever it holds, and the tail then parses as it
// did. Its event is the kept one with its views moved onto the new data
// and the new text, which costs a comparison and a scan of the text
// instead of a parse and a walk of the tree. TestShapeMatchesFullDecode
// and FuzzShape check that the two agree on any input.

import (
	"unsafe"

	"github.com/a2astream/a2astream/internal/jsonx"
)

// maxShape bounds the head and tail a Decoder keeps: a delta's envelope is
// a few hundred bytes.
const maxShape = 4 << 10

// shape is the last artifact update whose envelope can be reused.
type shape struct {
	ok bool
	// head is the data up to and including the text's opening quote, tail
	// the data after its closing quote.
	head, tail []byte
	// ev is the kept event; its only part is part[0].
	ev   Event
	part [1]Part
	// spans locate the event's non-nil views: spans[:n].
	spans [numViews]span
	n     int
}

// span locates one view: field names it (an index into views), and it
// starts at off from the start of the data, or, when fromEnd is set, off
// bytes before the end.
type span struct {
	off, n  int32
	field   uint8
	fromEnd bool
}

// The byte-slice fields of an artifact update that can be views of the
// data, besides the text: the JSON-RPC id, the update's and artifact's
// strings, the part's, and three metadata objects of six views each.
const (
	numMetadataViews = 6
	numViews         = 9 + 3*numMetadataViews
)

// views returns pointers to the fields of e and its part p that can be
// views of the data, in a fixed order.
func views(e *Event, p *Part) [numViews]*[]byte {
	u := &e.ArtifactUpdate
	a := &u.Artifact
	return [numViews]*[]byte{
		&e.RPCID.Raw, &e.RPCID.Value,
		&u.TaskID, &u.ContextID,
		&a.ArtifactID, &a.Name, &a.Description,
		&p.Filename, &p.MediaType,
		&u.Metadata.Raw, &u.Metadata.Usage.Model, &u.Metadata.Timestamp,
		&u.Metadata.Type, &u.Metadata.DataPartID, &u.Metadata.Citations,
		&a.Metadata.Raw, &a.Metadata.Usage.Model, &a.Metadata.Timestamp,
		&a.Metadata.Type, &a.Metadata.DataPartID, &a.Metadata.Citations,
		&p.Metadata.Raw, &p.Metadata.Usage.Model, &p.Metadata.Timestamp,
		&p.Metadata.Type, &p.Metadata.DataPartID, &p.Metadata.Citations,
	}
}

// reuse returns the event of data when data is the kept shape with another
// text, nil otherwise.
func (d *Decoder) reuse(data []byte) *Event {
	s := &d.shape
	h, t := len(s.head), len(s.tail)
	if !s.ok || len(data) < h+t+1 ||
		string(data[:h]) != string(s.head) || string(data[len(data)-t:]) != string(s.tail) {
		return nil
	}
	end, esc, ok := jsonx.StringEnd(data, h-1)
	if !ok || end != len(data)-t {
		return nil
	}
	text := data[h : end-1 : end-1]
	d.text = d.text[:0]
	if esc {
		d.text, _ = appendUnescaped(d.text, text)
		text = d.text[:len(d.text):len(d.text)]
	}
	p := &s.part[0]
	p.Text = text
	vs := views(&s.ev, p)
	for _, sp := range s.spans[:s.n] {
		o := int(sp.off)
		if sp.fromEnd {
			o = len(data) - o
		}
		e := o + int(sp.n)
		*vs[sp.field] = data[o:e:e]
	}
	d.data = data
	d.maxData = max(d.maxData, len(data))
	return &s.ev
}

// keep records the event just decoded from data as the shape to reuse,
// when it is an artifact update whose one part is the only text string
// and every other view lies in data, away from that string. Any other
// event leaves the kept shape as it was: it is matched byte for byte, so
// keeping an older one is never wrong.
func (d *Decoder) keep(data []byte) {
	u := &d.ev.ArtifactUpdate
	ts, te := d.textStart, d.textEnd
	if d.ev.Kind != KindArtifactUpdate || d.texts != 1 || len(u.Artifact.Parts) != 1 ||
		u.Artifact.Extensions != nil || ts+1+len(data)-te > maxShape {
		return
	}
	part := &u.Artifact.Parts[0]
	if part.Kind != PartText || part.Raw != nil || part.URL != nil || part.Data != nil {
		return
	}
	var spans [numViews]span
	n := 0
	for i, v := range views(&d.ev, part) {
		if *v == nil {
			continue
		}
		o, ok := offsetIn(data, *v)
		e := o + len(*v)
		switch {
		case !ok:
			// Unescaped into the Decoder's buffer.
			return
		case e <= ts:
			spans[n] = span{off: int32(o), n: int32(len(*v)), field: uint8(i)}
		case o >= te:
			spans[n] = span{off: int32(len(data) - o), n: int32(len(*v)), field: uint8(i), fromEnd: true}
		default:
			return
		}
		n++
	}
	s := &d.shape
	s.ev = d.ev
	s.part[0] = *part
	s.ev.ArtifactUpdate.Artifact.Parts = s.part[:]
	s.spans, s.n = spans, n
	s.head = append(s.head[:0], data[:ts+1]...)
	s.tail = append(s.tail[:0], data[te:]...)
	s.ok = true
}

// forget drops the shape and what it pins.
func (s *shape) forget() {
	*s = shape{head: s.head[:0], tail: s.tail[:0]}
}

// offsetIn returns the position of v in data when v is a slice of data.
// An empty slice of data may point at its start whatever it was cut from;
// its position does not matter.
func offsetIn(data, v []byte) (int, bool) {
	base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	at := uintptr(unsafe.Pointer(unsafe.SliceData(v)))
	if at < base || at-base > uintptr(len(data)) || uintptr(len(v)) > uintptr(len(data))-(at-base) {
		return 0, false
	}
	return int(at - base), true
}
