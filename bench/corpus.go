package bench

// This file generates the corpora: the A2A token-streaming stream (about
// 20,000 events with id lines, keep-alives, some multi-line data, a third of
// the deltas with \uXXXX escapes and a consolidated last chunk over 64 KiB),
// its CRLF and CR-only variants, the same stream with the event ids real
// servers write (UUIDs as a2a-go's, Corti-style prefixed ones, none), a
// large-event stream (100 events of 256 KiB) and a 10 MB consolidated answer
// in one event. Each comes with the events it must give, so that every
// implementation can be checked event by event. Everything is generated
// from fixed seeds: the same bytes on every run.

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
	// RescanCap is the prefix, in bytes, that the peers which rescan an
	// unfinished event (Impl.Rescans) read of this corpus with 1-byte
	// reads, and RescanCap4K with 4 KiB reads; 0 means the whole corpus
	// (see Capped).
	RescanCap, RescanCap4K int
	// CheckRead is the read size of the correctness check, 0 for 4 KiB:
	// larger for a corpus whose one huge event the rescanning peers would
	// take minutes to read 4 KiB at a time.
	CheckRead int
}

// idStyle is the kind of SSE event ids a corpus carries.
type idStyle int

const (
	idSeq      idStyle = iota // "id: 1234", a counter
	idUUID                    // a2a-go's: a random UUIDv4, 36 characters
	idPrefixed                // Corti-style: "task." and a UUIDv7, 41 characters
	idNone                    // no id lines
)

const (
	taskID = "task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62"
	ctxID  = "ctx.0192f4c8-3d6b-7c4f-a02b-4d9e7f3c8b51"
	ids    = `"taskId":"` + taskID + `","contextId":"` + ctxID + `"`
)

// builder accumulates a stream with LF line ends.
type builder struct {
	buf   bytes.Buffer
	c     *Corpus
	rng   *rand.Rand
	n     int
	keep  int // a keep-alive every keep events (0: none)
	split int // a two-line data every split events (0: none)
	ids   idStyle
	idRng *rand.Rand // the ids' own source, so the texts stay those of idSeq
}

// uuid returns a UUID of the given version (4 or 7) in its 36-character
// form, drawn from b.idRng; a version-7 one carries a millisecond clock that
// starts at 2024-10-16 and moves 0–40 ms per event.
func (b *builder) uuid(version int) string {
	hi, lo := b.idRng.Uint64(), b.idRng.Uint64()
	if version == 7 {
		ms := uint64(0x0192f4c84e7c) + uint64(b.n)*20 + hi%20
		hi = ms<<16 | hi&0xffff
	}
	hi = hi&^(0xf<<12) | uint64(version)<<12 // the version nibble
	lo = lo&^(3<<62) | 2<<62                 // the RFC 9562 variant
	const hex = "0123456789abcdef"
	var out [36]byte
	j := 0
	for i := range 32 {
		if i == 8 || i == 12 || i == 16 || i == 20 {
			out[j] = '-'
			j++
		}
		w := hi
		if i >= 16 {
			w = lo
		}
		out[j] = hex[w>>(60-4*(i%16))&0xf]
		j++
	}
	return string(out[:])
}

// nextID returns the id of the event being added, "" for no id line.
func (b *builder) nextID() string {
	switch b.ids {
	case idUUID:
		return b.uuid(4)
	case idPrefixed:
		return "task." + b.uuid(7)
	case idNone:
		return ""
	}
	return strconv.Itoa(b.n)
}

// add writes one event whose data is the stream response payload.
func (b *builder) add(payload string, d Decoded) {
	b.n++
	if b.keep > 0 && b.n%b.keep == 0 {
		b.buf.WriteString(": keep-alive\n\n")
	}
	id := b.nextID()
	if id != "" {
		b.buf.WriteString("id: " + id + "\n")
	}
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

// mainCorpus builds the A2A token-streaming corpus with LF line ends:
// about events events (20,000 in the benchmarks), with ids of
// the given style. The texts do not depend on the ids.
func mainCorpus(name, features string, events int, style idStyle) *Corpus {
	c := &Corpus{Name: name, Features: features}
	b := &builder{c: c, rng: rand.New(rand.NewPCG(1, 2)), keep: 50, split: 97, ids: style, idRng: rand.New(rand.NewPCG(7, 8))}
	b.add(`{"task":{"id":"`+taskID+`","contextId":"`+ctxID+`","status":{"state":"TASK_STATE_WORKING","timestamp":"2026-05-19T12:00:00Z"}}}`,
		Decoded{Kind: "task", State: "TASK_STATE_WORKING"})
	// Narration before a tool call, closed as intermediate thinking.
	const think = "art.0192f4c8-6a9e-7f72-a35e-70c1ac6fbe84"
	for i := range events / 8 {
		b.delta(think, i == 0, i)
	}
	b.add(`{"artifactUpdate":{`+ids+`,"append":true,"lastChunk":true,"artifact":{"artifactId":"`+think+`","parts":[{"text":""}],"metadata":{"type":"intermediate-thinking"}}}}`,
		Decoded{Kind: "artifact", ArtifactID: think, Append: true, LastChunk: true})
	b.status("TASK_STATE_WORKING", "Looking up the latest labs…", "")
	// The answer, streamed until its text passes 64 KiB, then consolidated.
	const answer = "art.0192f4c8-7bb0-7a83-b46f-81d2bd7acf95"
	var text strings.Builder
	for i := 0; b.n < events-4; i++ {
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

// largeCorpus builds events-1 artifact updates of 256 KiB each (100 events
// in the benchmarks): one artifact streamed in huge appends, then
// completed.
func largeCorpus(events int) *Corpus {
	c := &Corpus{Name: "large", Features: strconv.Itoa(events) + " events of 256 KiB", RescanCap: 64 << 10}
	b := &builder{c: c, rng: rand.New(rand.NewPCG(3, 4))}
	const art = "art.0192f4c8-7bb0-7a83-b46f-81d2bd7acf96"
	var all strings.Builder
	for i := range events - 1 {
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

// answerCorpus builds a run whose answer arrives consolidated in one
// artifact update of size bytes (10 MB in the benchmarks), between the
// task and the final status, as an agent that does not stream tokens sends
// it: text with line breaks, quotes and a few non-ASCII characters left
// raw.
func answerCorpus(size int) *Corpus {
	c := &Corpus{Name: "answer10m", Features: "one " + strconv.Itoa(size>>20) + " MiB answer event", RescanCap: 64 << 10, RescanCap4K: 1 << 20, CheckRead: 256 << 10}
	if size < 1<<20 {
		c.Features = "one " + strconv.Itoa(size>>10) + " KiB answer event"
	}
	b := &builder{c: c, rng: rand.New(rand.NewPCG(5, 6))}
	b.add(`{"task":{"id":"`+taskID+`","contextId":"`+ctxID+`","status":{"state":"TASK_STATE_WORKING","timestamp":"2026-05-19T12:00:00Z"}}}`,
		Decoded{Kind: "task", State: "TASK_STATE_WORKING"})
	var t strings.Builder
	t.Grow(size + 64)
	for t.Len() < size {
		t.WriteString(plainWords[b.rng.IntN(len(plainWords))])
		switch b.rng.IntN(64) {
		case 0:
			t.WriteString(wideWords[b.rng.IntN(len(wideWords))])
		case 1:
			t.WriteString(`"quoted" `)
		}
	}
	c.Answer = t.String()
	const art = "art.0192f4c8-7bb0-7a83-b46f-81d2bd7acf97"
	b.add(`{"artifactUpdate":{`+ids+`,"lastChunk":true,"artifact":{"artifactId":"`+art+`","parts":[{"text":"`+jsonString(c.Answer, false)+`"}]}}}`,
		Decoded{Kind: "artifact", ArtifactID: art, Text: c.Answer, LastChunk: true})
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

// buildCorpora builds every corpus; short shrinks them (2,000 token
// events, 4 large events, a 512 KiB answer) for the correctness matrix in
// CI.
func buildCorpora(short bool) []*Corpus {
	events, large, answer := 20000, 100, 10<<20
	if short {
		events, large, answer = 2000, 4, 512<<10
	}
	n := strconv.Itoa(events/1000) + "k events"
	m := mainCorpus("a2a", n+", id lines, keep-alives, multi-line data, \\u escapes, a >64 KiB event", events, idSeq)
	return []*Corpus{
		m,
		withLineEnds(m, "a2a-crlf", "\r\n", "CRLF line ends"),
		withLineEnds(m, "a2a-cr", "\r", "CR-only line ends"),
		mainCorpus("uuid", "a2a with a2a-go's ids: UUIDv4, 36 characters", events, idUUID),
		mainCorpus("prefixed", "a2a with Corti-style ids: task.<UUIDv7>, 41 characters", events, idPrefixed),
		mainCorpus("noid", "a2a without id lines", events, idNone),
		largeCorpus(large),
		answerCorpus(answer),
	}
}

var (
	corpora      = sync.OnceValue(func() []*Corpus { return buildCorpora(false) })
	shortCorpora = sync.OnceValue(func() []*Corpus { return buildCorpora(true) })
)

// Corpora returns the corpora of the benchmarks, built once: "a2a",
// "a2a-crlf", "a2a-cr", "uuid", "prefixed", "noid", "large" and
// "answer10m".
func Corpora() []*Corpus { return corpora() }

// ShortCorpora returns the same corpora, smaller: 2,000 token events, 4
// large events and a 512 KiB answer (the matrix in CI).
func ShortCorpora() []*Corpus { return shortCorpora() }

// CorpusByName returns the benchmark corpus called name, or nil.
func CorpusByName(name string) *Corpus {
	for _, c := range Corpora() {
		if c.Name == name {
			return c
		}
	}
	return nil
}
