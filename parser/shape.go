package parser

// This file holds the Decoder's shortcut for text deltas. The deltas of one
// artifact repeat the same document byte for byte except for their text:
//
//	{"artifactUpdate":{"taskId":"…","contextId":"…","artifact":{"artifactId":"…","parts":[{"text":"‹delta›"}]},"append":true}}
//
// After a full decode of such a delta the Decoder keeps its bytes before
// and after the text string (the head and the tail) and its event. A frame that has the same head, then one valid JSON
// string, then the same tail is the same document with another text: JSON
// is read left to right, so the head leaves the parse in the same state,
// a string is one token whatever it holds, and the tail then parses as it
// did. Its event is the kept one (whose views point into the kept head and
// tail) with the new text, which costs a comparison and a scan of the text
// instead of a parse and a walk of the tree. TestShapeMatchesFullDecode
// and FuzzShape check that the two agree on any input; SameEnvelope tells
// the caller that the event was decoded so.

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
	// id numbers the kept shapes of the Decoder, from 1; cur is the id of
	// the last event's shape, 0 when it has none, and prev that of the
	// event before it (Decoder.SameEnvelope).
	id, cur, prev uint64
}

// SameEnvelope reports whether the event that the last call to Decode
// returned is a text delta in the same envelope as the event the call
// before it returned: both are artifact updates with one text part, equal
// in every field but that part's text. It is false for any other event,
// after a failed Decode, and after Reset.
//
// The Decoder knows it without comparing the events: it decoded the frame
// by reusing the previous one's parse (see the Decoder's documentation), so
// that a consumer that has applied the previous delta can apply this one by
// its text alone, as reconstruct's Stream does. A delta in the same
// envelope that the Decoder could not reuse (its envelope longer than
// 4 KiB, or one that escapes a string) reports false: false never means
// that the envelopes differ.
func (d *Decoder) SameEnvelope() bool {
	return d.shape.cur != 0 && d.shape.cur == d.shape.prev
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
	// One pass checks the text and, for a long one with escapes,
	// unescapes it. Reset is told how much text the last event used.
	d.maxText = max(d.maxText, len(d.text))
	d.text = d.text[:0]
	d.textRoom(len(data) - h - t)
	unesc, end, esc, ok := jsonx.UnescapeString(d.text, data, h-1)
	if !ok || end != len(data)-t {
		return nil
	}
	text := data[h : end-1 : end-1]
	d.text = unesc
	if esc {
		text = d.text[:len(d.text):len(d.text)]
	}
	s.part[0].Text = text
	s.cur = s.id
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
		u.Artifact.Extensions != nil || ts+1+len(data)-te > maxShape ||
		d.placed != d.placedTexts {
		// The last condition: DecodeInPlace's parser unescaped a string
		// over itself that is not the text (one the decoder ignores), and
		// the head or tail holds it, no longer as received.
		return
	}
	part := &u.Artifact.Parts[0]
	if part.Kind != PartText || part.Raw != nil || part.URL != nil || part.Data != nil {
		return
	}
	for _, v := range views(&d.ev, part) {
		if *v == nil {
			continue
		}
		// A view unescaped into the Decoder's buffer, or one that holds
		// the text, cannot be kept.
		if o, ok := offsetIn(data, *v); !ok || (o+len(*v) > ts && o < te) {
			return
		}
	}
	// The kept event's views move to the kept bytes, equal to the data's.
	s := &d.shape
	s.head = append(s.head[:0], data[:ts+1]...)
	s.tail = append(s.tail[:0], data[te:]...)
	// The other payloads of s.ev stay zero.
	s.ev.Kind, s.ev.Binding, s.ev.RPCID, s.ev.ArtifactUpdate = d.ev.Kind, d.ev.Binding, d.ev.RPCID, d.ev.ArtifactUpdate
	s.part[0] = *part
	s.ev.ArtifactUpdate.Artifact.Parts = s.part[:]
	for _, v := range views(&s.ev, &s.part[0]) {
		if *v == nil {
			continue
		}
		o, _ := offsetIn(data, *v)
		e := o + len(*v)
		if e <= ts {
			*v = s.head[o:e:e]
		} else {
			*v = s.tail[o-te : e-te : e-te]
		}
	}
	s.ok = true
	s.id++
	s.cur = s.id
}

// forget drops the shape and what it pins.
func (s *shape) forget() {
	*s = shape{head: s.head[:0], tail: s.tail[:0], id: s.id}
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
