package bench

// This file generates the corpora: the A2A token-streaming stream (about
// 20,000 events with id lines, keep-alives, some multi-line data, a third of
// the deltas with \uXXXX escapes and a consolidated last chunk over 64 KiB),
// its CRLF and CR-only variants, and a large-event stream (100 events of
// 256 KiB). Each comes with the events it must give, so that every
// implementation can be checked event by event.

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
)

// Event is one SSE event as the WHATWG algorithm dispatches it.
type Event struct {
	ID, Type, Data string
}

// Decoded is what the decoding implementations extract from one event.
type Decoded struct {
	Kind       string // "task", "status" or "artifact"
	ArtifactID string
	Text       string // the text parts joined
	State      string // the task state name, for task and status
	Append     bool
	LastChunk  bool
}

// Corpus is a stream and what it means.
type Corpus struct {
	Name string
	Data []byte
	// Events are the events the stream must give, in order.
	Events []Event
	// Decoded are the events' contents.
	Decoded []Decoded
	// Answer is the text of the answer artifact, State the final state.
	Answer, State string
	// Features lists what the corpus exercises, for the matrix.
	Features string
}

const (
	taskID = "task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62"
	ctxID  = "ctx.0192f4c8-3d6b-7c4f-a02b-4d9e7f3c8b51"
	ids    = `"taskId":"` + taskID + `","contextId":"` + ctxID + `"`
)

// builder accumulates a stream with LF line ends.
type builder struct {
	buf     bytes.Buffer
	c       *Corpus
	rng     *rand.Rand
	n       int
	keep    int // a keep-alive every keep events (0: none)
	split   int // a two-line data every split events (0: none)
	escaped []bool
}

// add writes one event whose data is the stream response payload.
func (b *builder) add(payload string, d Decoded) {
	b.n++
	if b.keep > 0 && b.n%b.keep == 0 {
		b.buf.WriteString(": keep-alive\n\n")
	}
	id := strconv.Itoa(b.n)
	b.buf.WriteString("id: " + id + "\n")
	data := payload
	if i := strings.IndexByte(payload, ':'); b.split > 0 && b.n%b.split == 0 && i > 0 {
		// A line end is JSON whitespace: the joined lines still parse.
		b.buf.WriteString("data: " + payload[:i+1] + "\ndata:" + payload[i+1:] + "\n\n")
		data = payload[:i+1] + "\n" + payload[i+1:]
	} else {
		b.buf.WriteString("data: " + payload + "\n\n")
	}
	b.c.Events = append(b.c.Events, Event{ID: id, Type: "message", Data: data})
	b.c.Decoded = append(b.c.Decoded, d)
}

var plainWords = []string{"The ", "patient ", "reports ", "mild ", "dyspnea ", "on ", "exertion", ", ", "HbA1c ", "8.2 % ", "and ", "eGFR ", "78 ", "mL/min", ". ", "No ", "dose ", "change ", "needed", "\n"}
var wideWords = []string{"café ", "naïve ", "血压 ", "Ωmega ", "— ", "µg ", "über "}

// jsonString returns s as JSON string content, escaping what JSON requires
// and, when escape is set, every non-ASCII character as \uXXXX.
func jsonString(s string, escape bool) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || (escape && r >= 0x80 && r < 0x10000):
			b.WriteString(`\u`)
			h := strconv.FormatInt(int64(r), 16)
			b.WriteString(strings.Repeat("0", 4-len(h)) + h)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func (b *builder) delta(artID string, first bool, i int) string {
	escape := i%3 == 0
	t := plainWords[b.rng.IntN(len(plainWords))]
	if escape || b.rng.IntN(8) == 0 {
		t += wideWords[b.rng.IntN(len(wideWords))]
	}
	ap := `"append":true,`
	if first {
		ap = ""
	}
	b.add(`{"artifactUpdate":{`+ids+`,`+ap+`"artifact":{"artifactId":"`+artID+`","parts":[{"text":"`+jsonString(t, escape)+`"}]}}}`,
		Decoded{Kind: "artifact", ArtifactID: artID, Text: t, Append: !first})
	return t
}

func (b *builder) status(state, msg, meta string) {
	m := ""
	if msg != "" {
		m = `,"message":{"messageId":"msg.0192f4c8-5f8d-7e61-924d-6fb09b5ead73","role":"ROLE_AGENT","parts":[{"text":"` + jsonString(msg, false) + `"}]}`
	}
	b.add(`{"statusUpdate":{`+ids+`,"status":{"state":"`+state+`","timestamp":"2026-05-19T12:00:01Z"`+m+`}`+meta+`}}`,
		Decoded{Kind: "status", State: state, Text: msg})
}

// mainCorpus builds the A2A token-streaming corpus with LF line ends.
func mainCorpus() *Corpus {
	c := &Corpus{Name: "a2a", Features: "20k events, id lines, keep-alives, multi-line data, \\u escapes, a >64 KiB event"}
	b := &builder{c: c, rng: rand.New(rand.NewPCG(1, 2)), keep: 50, split: 97}
	b.add(`{"task":{"id":"`+taskID+`","contextId":"`+ctxID+`","status":{"state":"TASK_STATE_WORKING","timestamp":"2026-05-19T12:00:00Z"}}}`,
		Decoded{Kind: "task", State: "TASK_STATE_WORKING"})
	// Narration before a tool call, closed as intermediate thinking.
	const think = "art.0192f4c8-6a9e-7f72-a35e-70c1ac6fbe84"
	for i := range 2500 {
		b.delta(think, i == 0, i)
	}
	b.add(`{"artifactUpdate":{`+ids+`,"append":true,"lastChunk":true,"artifact":{"artifactId":"`+think+`","parts":[{"text":""}],"metadata":{"type":"intermediate-thinking"}}}}`,
		Decoded{Kind: "artifact", ArtifactID: think, Append: true, LastChunk: true})
	b.status("TASK_STATE_WORKING", "Looking up the latest labs…", "")
	// The answer, streamed until its text passes 64 KiB, then consolidated.
	const answer = "art.0192f4c8-7bb0-7a83-b46f-81d2bd7acf95"
	var text strings.Builder
	for i := 0; b.n < 19996; i++ {
		text.WriteString(b.delta(answer, i == 0, i))
	}
	c.Answer = text.String()
	b.add(`{"artifactUpdate":{`+ids+`,"lastChunk":true,"artifact":{"artifactId":"`+answer+`","parts":[{"text":"`+jsonString(c.Answer, false)+`"}]}}}`,
		Decoded{Kind: "artifact", ArtifactID: answer, Text: c.Answer, LastChunk: true})
	b.status("TASK_STATE_COMPLETED", "", `,"metadata":{"$usage":{"model":"corti-default","inputTokens":3210,"outputTokens":19990,"totalTokens":23200,"credits":33.52}}`)
	c.State = "TASK_STATE_COMPLETED"
	c.Data = b.buf.Bytes()
	return c
}

// largeCorpus builds 100 events of 256 KiB each: one artifact streamed in
// huge appends, then completed.
func largeCorpus() *Corpus {
	c := &Corpus{Name: "large", Features: "100 events of 256 KiB"}
	b := &builder{c: c, rng: rand.New(rand.NewPCG(3, 4))}
	const art = "art.0192f4c8-7bb0-7a83-b46f-81d2bd7acf96"
	var all strings.Builder
	for i := range 99 {
		var t strings.Builder
		for t.Len() < 256<<10-200 {
			t.WriteString(plainWords[b.rng.IntN(len(plainWords))])
			if b.rng.IntN(4) == 0 {
				t.WriteString(wideWords[b.rng.IntN(len(wideWords))])
			}
		}
		ap := `"append":true,`
		if i == 0 {
			ap = ""
		}
		s := t.String()
		all.WriteString(s)
		b.add(`{"artifactUpdate":{`+ids+`,`+ap+`"artifact":{"artifactId":"`+art+`","parts":[{"text":"`+jsonString(s, i%3 == 0)+`"}]}}}`,
			Decoded{Kind: "artifact", ArtifactID: art, Text: s, Append: i > 0})
	}
	c.Answer = all.String()
	b.add(`{"artifactUpdate":{`+ids+`,"append":true,"lastChunk":true,"artifact":{"artifactId":"`+art+`","parts":[{"text":""}]}}}`,
		Decoded{Kind: "artifact", ArtifactID: art, Append: true, LastChunk: true})
	// The final status also makes the run complete for the pipeline.
	b.status("TASK_STATE_COMPLETED", "", "")
	c.State = "TASK_STATE_COMPLETED"
	c.Data = b.buf.Bytes()
	return c
}

// withLineEnds returns c with every LF line end replaced by eol (the data
// carries no raw LF: JSON escapes it).
func withLineEnds(c *Corpus, name, eol, feature string) *Corpus {
	v := *c
	v.Name = name
	v.Features = feature
	v.Data = bytes.ReplaceAll(c.Data, []byte("\n"), []byte(eol))
	// Multi-line data is joined with LF whatever the line ends.
	return &v
}

var corpora = sync.OnceValue(func() []*Corpus {
	m := mainCorpus()
	return []*Corpus{
		m,
		withLineEnds(m, "a2a-crlf", "\r\n", "CRLF line ends"),
		withLineEnds(m, "a2a-cr", "\r", "CR-only line ends"),
		largeCorpus(),
	}
})

// Corpora returns the corpora, built once: "a2a", "a2a-crlf", "a2a-cr" and
// "large".
func Corpora() []*Corpus { return corpora() }

// CorpusByName returns the corpus called name, or nil.
func CorpusByName(name string) *Corpus {
	for _, c := range Corpora() {
		if c.Name == name {
			return c
		}
	}
	return nil
}
