package reconstruct

import (
	"bytes"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/utf8buf"
)

// Result is what a run produced: its ids, its state, the answer, every
// artifact and what went wrong.
//
// A Result returned by [Reducer.Result] changes as the Reducer applies
// events; once the run is over (after [Reducer.Finish], or from [Read])
// nothing changes it any more, and it holds nothing but its own values:
// keeping it does not keep the Reducer, Stream or buffers that built it.
//
// The package's model is package parser's: [parser.Part], [parser.Message],
// [parser.Usage] and [parser.Metadata], with ids as []byte; the run's own
// ids (TaskID, ContextID, LastEventID) are strings, as the client's calls
// take them. Where parser
// hands them out as views, valid until the next Decode, a Result holds deep
// copies that it owns: every byte slice in it, the typed fields of a
// Metadata (Type, DataPartID, Citations, Timestamp, Usage.Model) included,
// is its own and stays valid after the decoder, the lexer and the Reducer
// move on.
type Result struct {
	// TaskID is the task's id; "" for a direct message reply.
	TaskID string
	// ContextID is the context id; "" when no event named one.
	ContextID string
	// State is the last task state; parser.TaskStateUnspecified when no
	// status was seen (a direct message reply, or a stream cut early).
	State parser.TaskState
	// StatusMessage is the message of the last status: the narration of a
	// WORKING status, the question of INPUT_REQUIRED or AUTH_REQUIRED, the
	// failure of FAILED. nil when the last status had none. It is never the
	// answer.
	StatusMessage *parser.Message
	// Answer is the deliverable: the last artifact that was sealed by its
	// lastChunk before the run's final status and is not intermediate
	// thinking, or an artifact made of the parts of a direct message reply.
	// nil when there is none (a failed or interrupted run, a cut stream).
	Answer *Artifact
	// Message is the direct message reply when the agent answered without
	// a task; nil otherwise.
	Message *parser.Message
	// Artifacts holds every artifact of the run in the order each was first
	// seen, the answer and the thinking ones included.
	Artifacts []*Artifact
	// Usage is the last $usage seen on a status update or task; nil when
	// none.
	Usage *parser.Usage
	// LastEventID is the SSE id of the last event applied, the value for a
	// resubscription's Last-Event-ID header; "" when none had one. While
	// events are applied, the Reducer keeps the id in a buffer of its own
	// (a new id costs no allocation) and sets this field when the Result
	// is read with [Reducer.Result] or [Stream.Result], and when the run
	// ends: a Result held across Apply calls has the id of the last read.
	LastEventID string
	// Diagnostics lists the events that broke the protocol's rules, in
	// order. They did not stop the run unless Options.Strict was set.
	Diagnostics []Diagnostic
	// Err is why the run did not end normally: a *TruncatedError, an
	// *EventError wrapping the server's *parser.APIError, a decoding
	// *parser.DecodeError, or a rule error under Options.Strict. nil for a
	// run that reached a terminal or interrupted state.
	Err error
}

// Thinking returns the artifacts sealed as intermediate thinking, in order.
func (r *Result) Thinking() []*Artifact {
	var out []*Artifact
	for _, a := range r.Artifacts {
		if a.Thinking {
			out = append(out, a)
		}
	}
	return out
}

// Artifact is one artifact of the run: the artifact as the events left
// it, and what the Reducer learnt of it.
//
// Its embedded [parser.Artifact] is an owned copy (see [Result]): ArtifactID,
// Name, Description and Extensions as last sent; Metadata as last sent
// (Metadata.Raw nil when none); Parts in order, where the text parts that
// arrived one per delta are kept as one text part, as the server's
// consolidating close sends it (see the append rule in the package
// documentation). A text part's Text is byte-exact (surrogate pairs split
// across deltas joined; nothing else changed), except that the text of an
// artifact still streaming when the stream was cut holds back an
// incomplete character at its end, taken off its last text parts (see the
// package documentation).
type Artifact struct {
	parser.Artifact
	// Thinking reports whether the artifact was tagged intermediate
	// thinking (metadata.type "intermediate-thinking"): pre-tool narration,
	// not the answer.
	Thinking bool
	// Sealed reports whether a lastChunk event closed the artifact.
	Sealed bool
	// Citations are the answer's resolved inline citations, computed once
	// when the artifact was sealed (not for thinking artifacts). Offsets
	// count in the joined text of the text parts, see [Artifact.Text].
	Citations []citations.Resolved
	// CitationDiagnostics are the problems found while resolving Citations.
	CitationDiagnostics []citations.Diagnostic

	// shown is the number of bytes of the joined text (liveText) handed
	// out in updates.
	shown int
	// texts is the number of text parts, and joined their text joined
	// with utf8buf.Append when there are two or more (nil otherwise: the
	// one text part is the joined text). joined grows with the deltas, so
	// that a character split between two parts is handed out whole.
	texts  int
	joined []byte
	// textAt is the index of the last text part.
	textAt int
	// size is the number of bytes the parts and metadata hold.
	size int
	// live is the Reducer that keeps a's text in pieces while it streams
	// (see pieces), nil otherwise: Text and AppendText have it join them.
	live *Reducer
}

// Text returns the text of the artifact's text parts joined in order, the
// text that citation offsets count in. When there is one text part, it is
// that part's Text itself; otherwise a new slice. A nil Artifact, such as
// the Answer of a run that ended without one, has no text: Text returns nil.
// Called on an Update's Artifact while a text longer than 64 KiB streams,
// it first joins the pieces the Reducer keeps that text in, as
// Reducer.Result does.
func (a *Artifact) Text() []byte {
	if a == nil {
		return nil
	}
	if a.live != nil {
		a.live.joinPieces()
	}
	if a.joined != nil {
		return a.joined
	}
	return joinText(a.Parts)
}

// MessageText returns the text of m's text parts joined in order, as
// [Artifact.Text] joins an artifact's: that part's Text itself when there
// is one, otherwise a new slice. A nil m, such as the StatusMessage of a
// run whose last status had none, has no text: MessageText returns nil.
func MessageText(m *parser.Message) []byte {
	if m == nil {
		return nil
	}
	return joinText(m.Parts)
}

// liveText returns the joined text that the live updates hand out.
func (a *Artifact) liveText() []byte {
	switch {
	case a.texts > 1:
		return a.joined
	case a.texts == 1:
		return a.Parts[a.textAt].Text
	}
	return nil
}

// AppendText appends the text of the artifact's text parts, in order, to
// dst and returns the extended slice; dst itself for a nil Artifact. It
// joins a streaming text's pieces first, as Text does.
func (a *Artifact) AppendText(dst []byte) []byte {
	if a == nil {
		return dst
	}
	if a.live != nil {
		a.live.joinPieces()
	}
	return appendText(dst, a.Parts)
}

// appendText appends the text parts' text to dst, joining a surrogate pair
// split between two parts as the concatenation of the deltas would.
func appendText(dst []byte, parts []parser.Part) []byte {
	for i := range parts {
		if parts[i].Kind == parser.PartText {
			dst = utf8buf.Append(dst, parts[i].Text)
		}
	}
	return dst
}

// joinText returns the joined text of parts, aliasing the only text part
// when there is one.
func joinText(parts []parser.Part) []byte {
	if countText(parts) == 1 {
		for i := range parts {
			if parts[i].Kind == parser.PartText {
				return parts[i].Text
			}
		}
	}
	return appendText(nil, parts)
}

func countText(parts []parser.Part) int {
	n := 0
	for i := range parts {
		if parts[i].Kind == parser.PartText {
			n++
		}
	}
	return n
}

// The copies below make the owned values a Result holds from the decoder's
// views. Each makes one allocation for all the bytes of its value (and the
// metadata in it), except a part's Text, which deltas extend and which has
// its own; a nil slice stays nil, an empty one stays empty.

func copyParts(dst []parser.Part, src []parser.Part) []parser.Part {
	for i := range src {
		dst = append(dst, copyPart(&src[i]))
	}
	return dst
}

func copyPart(p *parser.Part) parser.Part { return copyPartText(p, bytes.Clone(p.Text)) }

// copyPartText is copyPart with text, a copy of p's text, as the text.
func copyPartText(p *parser.Part, text []byte) parser.Part {
	var o owner
	o.grow(len(p.Raw) + len(p.URL) + len(p.Data) + len(p.Filename) + len(p.MediaType) + metadataSize(&p.Metadata))
	return parser.Part{
		Kind:      p.Kind,
		Text:      text,
		Raw:       o.own(p.Raw),
		URL:       o.own(p.URL),
		Data:      o.own(p.Data),
		Metadata:  o.metadata(&p.Metadata),
		Filename:  o.own(p.Filename),
		MediaType: o.own(p.MediaType),
	}
}

// copyMessage returns an owned copy of m.
func copyMessage(m *parser.Message) *parser.Message {
	var o owner
	n := len(m.MessageID) + len(m.ContextID) + len(m.TaskID) + metadataSize(&m.Metadata)
	for _, b := range m.Extensions {
		n += len(b)
	}
	for _, b := range m.ReferenceTaskIDs {
		n += len(b)
	}
	o.grow(n)
	return &parser.Message{
		MessageID:        o.own(m.MessageID),
		ContextID:        o.own(m.ContextID),
		TaskID:           o.own(m.TaskID),
		Role:             m.Role,
		Parts:            copyParts(nil, m.Parts),
		Metadata:         o.metadata(&m.Metadata),
		Extensions:       o.ownAll(m.Extensions),
		ReferenceTaskIDs: o.ownAll(m.ReferenceTaskIDs),
	}
}

// copyUsage returns an owned copy of u.
func copyUsage(u *parser.Usage) *parser.Usage {
	c := *u
	c.Model = bytes.Clone(u.Model)
	return &c
}

// copyMetadata returns an owned copy of m.
func copyMetadata(m *parser.Metadata) parser.Metadata {
	var o owner
	o.grow(metadataSize(m))
	return o.metadata(m)
}

// metadataSize is the number of bytes of m and its views.
func metadataSize(m *parser.Metadata) int {
	return len(m.Raw) + len(m.Type) + len(m.DataPartID) + len(m.Citations) + len(m.Timestamp) + len(m.Usage.Model)
}

// owner hands out owned copies of byte slices from one buffer, sized first
// with grow. Each copy is capped at its length, so that appending to one
// never writes over the next.
type owner struct{ buf []byte }

func (o *owner) grow(n int) {
	if n > 0 {
		o.buf = make([]byte, 0, n)
	}
}

// own returns a copy of b; nil for nil.
func (o *owner) own(b []byte) []byte {
	if b == nil {
		return nil
	}
	start := len(o.buf)
	o.buf = append(o.buf, b...)
	return o.buf[start:len(o.buf):len(o.buf)]
}

// ownAll returns a copy of each of bs; nil for none.
func (o *owner) ownAll(bs [][]byte) [][]byte {
	if len(bs) == 0 {
		return nil
	}
	out := make([][]byte, len(bs))
	for i, b := range bs {
		out[i] = o.own(b)
	}
	return out
}

// metadata returns a copy of m whose views are copies too.
func (o *owner) metadata(m *parser.Metadata) parser.Metadata {
	c := *m
	c.Raw = o.own(m.Raw)
	c.Type = o.own(m.Type)
	c.DataPartID = o.own(m.DataPartID)
	c.Citations = o.own(m.Citations)
	c.Timestamp = o.own(m.Timestamp)
	c.Usage.Model = o.own(m.Usage.Model)
	return c
}
