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
type Result struct {
	// TaskID is the task's id; "" for a direct message reply.
	TaskID string
	// ContextID is the context id.
	ContextID string
	// State is the last task state; parser.TaskStateUnspecified when no
	// status was seen (a direct message reply, or a stream cut early).
	State parser.TaskState
	// StatusMessage is the message of the last status: the narration of a
	// WORKING status, the question of INPUT_REQUIRED or AUTH_REQUIRED, the
	// failure of FAILED. nil when the last status had none. It is never the
	// answer.
	StatusMessage *Message
	// Answer is the deliverable: the last artifact that was sealed by its
	// lastChunk before the run's final status and is not intermediate
	// thinking, or an artifact made of the parts of a direct message reply.
	// nil when there is none (a failed or interrupted run, a cut stream).
	Answer *Artifact
	// Message is the direct message reply when the agent answered without
	// a task; nil otherwise.
	Message *Message
	// Artifacts holds every artifact of the run in the order each was first
	// seen, the answer and the thinking ones included.
	Artifacts []*Artifact
	// Usage is the last $usage seen on a status update or task; nil when
	// none.
	Usage *Usage
	// LastEventID is the SSE id of the last event applied, the value for a
	// resubscription's Last-Event-ID header; "" when none had one.
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

// Artifact is one artifact of the run, with the parts the events left in
// it. Its byte slices are owned by the Reducer.
type Artifact struct {
	// ID is the artifact id.
	ID string
	// Name is the optional name.
	Name string
	// Description is the optional description.
	Description string
	// Parts are the artifact's parts in order. Text parts that arrived one
	// per delta are kept as one text part: each appended plain text part
	// (one without metadata, file name or media type) extends the text part
	// before it, as the server's consolidating close does.
	Parts []Part
	// Metadata is the exact JSON of the artifact's metadata as last sent;
	// nil when none.
	Metadata []byte
	// Extensions are the URIs of the extensions the artifact uses.
	Extensions []string
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
}

// Text returns the text of the artifact's text parts joined in order, the
// text that citation offsets count in. When there is one text part, it is
// that part's Text itself; otherwise a new slice. A nil Artifact, such as
// the Answer of a run that ended without one, has no text: Text returns nil.
func (a *Artifact) Text() []byte {
	if a == nil {
		return nil
	}
	if a.joined != nil {
		return a.joined
	}
	return joinText(a.Parts)
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
// dst and returns the extended slice; dst itself for a nil Artifact.
func (a *Artifact) AppendText(dst []byte) []byte {
	if a == nil {
		return dst
	}
	return appendText(dst, a.Parts)
}

// appendText appends the text parts' text to dst, joining a surrogate pair
// split between two parts as the concatenation of the deltas would.
func appendText(dst []byte, parts []Part) []byte {
	for i := range parts {
		if parts[i].Kind == parser.PartText {
			dst = utf8buf.Append(dst, parts[i].Text)
		}
	}
	return dst
}

// joinText returns the joined text of parts, aliasing the only text part
// when there is one.
func joinText(parts []Part) []byte {
	if countText(parts) == 1 {
		for i := range parts {
			if parts[i].Kind == parser.PartText {
				return parts[i].Text
			}
		}
	}
	return appendText(nil, parts)
}

func countText(parts []Part) int {
	n := 0
	for i := range parts {
		if parts[i].Kind == parser.PartText {
			n++
		}
	}
	return n
}

// Part is one content part, an owned copy of what the wire carried. Only
// the field of its Kind is set among Text, Raw, URL and Data.
type Part struct {
	// Kind is the part's kind.
	Kind parser.PartKind
	// Text is a text part's text, byte-exact (surrogate pairs split across
	// deltas joined; nothing else changed), except that the text of an
	// artifact still streaming when the stream was cut holds back an
	// incomplete character at its end, taken off its last text parts (see
	// the package documentation).
	Text []byte
	// Raw is the decoded content of a raw part.
	Raw []byte
	// URL is a url part's URL.
	URL string
	// Data is the exact JSON of a data part's value.
	Data []byte
	// Metadata is the exact JSON of the part's metadata; nil when none.
	Metadata []byte
	// Filename is the optional file name.
	Filename string
	// MediaType is the optional media type.
	MediaType string
}

// plain reports whether p is a text part with nothing but text, the kind
// of part a token delta carries.
func (p *Part) plain() bool {
	return p.Kind == parser.PartText && p.Metadata == nil && p.Filename == "" && p.MediaType == ""
}

// Message is an owned copy of a message: a status message or a direct
// reply.
type Message struct {
	// ID is the message id.
	ID string
	// Role says who sent it.
	Role parser.Role
	// Parts are the message's parts.
	Parts []Part
	// Metadata is the exact JSON of the message's metadata; nil when none.
	Metadata []byte
}

// Text returns the text of the message's text parts joined in order; nil
// for a nil Message, such as the StatusMessage of a run that had none.
func (m *Message) Text() []byte {
	if m == nil {
		return nil
	}
	return joinText(m.Parts)
}

// Usage is Corti's $usage token and credit accounting, an owned copy of
// [parser.Usage].
type Usage struct {
	// Model is the model that served the request.
	Model string
	// InputTokens is the number of prompt tokens consumed.
	InputTokens int64
	// OutputTokens is the number of completion tokens produced.
	OutputTokens int64
	// CachedInputTokens is the part of InputTokens served from the cache.
	CachedInputTokens int64
	// CacheCreationInputTokens is the number of tokens written to the
	// cache.
	CacheCreationInputTokens int64
	// TotalTokens is the number of tokens billed.
	TotalTokens int64
	// Credits is the number of Corti credits charged.
	Credits float64
	// Fields says which of the above were present.
	Fields parser.UsageField
}

func copyParts(dst []Part, src []parser.Part) []Part {
	for i := range src {
		dst = append(dst, copyPart(&src[i]))
	}
	return dst
}

func copyPart(p *parser.Part) Part { return copyPartText(p, bytes.Clone(p.Text)) }

// copyPartText is copyPart with text, a copy of p's text, as the text.
func copyPartText(p *parser.Part, text []byte) Part {
	return Part{
		Kind:      p.Kind,
		Text:      text,
		Raw:       bytes.Clone(p.Raw),
		URL:       string(p.URL),
		Data:      bytes.Clone(p.Data),
		Metadata:  bytes.Clone(p.Metadata.Raw),
		Filename:  string(p.Filename),
		MediaType: string(p.MediaType),
	}
}

func copyMessage(m *parser.Message) *Message {
	return &Message{
		ID:       string(m.MessageID),
		Role:     m.Role,
		Parts:    copyParts(nil, m.Parts),
		Metadata: bytes.Clone(m.Metadata.Raw),
	}
}

func copyUsage(u *parser.Usage) *Usage {
	return &Usage{
		Model:                    string(u.Model),
		InputTokens:              u.InputTokens,
		OutputTokens:             u.OutputTokens,
		CachedInputTokens:        u.CachedInputTokens,
		CacheCreationInputTokens: u.CacheCreationInputTokens,
		TotalTokens:              u.TotalTokens,
		Credits:                  u.Credits,
		Fields:                   u.Fields,
	}
}
