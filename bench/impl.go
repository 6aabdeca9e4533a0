package bench

// This file holds the implementations compared: each reads a whole stream
// from an io.Reader and reports what it found to a Sink.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"

	ldes "github.com/launchdarkly/eventsource"
	r3 "github.com/r3labs/sse/v2"
	gosse "github.com/tmaxmax/go-sse"
	"github.com/valyala/fastjson"
	"gopkg.in/cenkalti/backoff.v1"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
)

// Level says what an implementation produces.
type Level int

// The levels.
const (
	// LevelSSE implementations give SSE events.
	LevelSSE Level = iota
	// LevelDecode implementations give decoded A2A events.
	LevelDecode
	// LevelPipeline implementations give the rebuilt run.
	LevelPipeline
	// LevelLimit implementations only touch the bytes: the speed limits.
	LevelLimit
)

// Impl is one implementation under test.
type Impl struct {
	// Key names the implementation in benchmark names.
	Key   string
	Name  string
	Level Level
	// Ours marks a2astream's own implementations.
	Ours bool
	// Payloads marks an implementation that reads the corpus's event
	// payloads, already split out, instead of the stream.
	Payloads bool
	// Rescans marks a reader that searches an unfinished event again from
	// its start after each read: quadratic in the event size with 1-byte
	// reads (measured by BenchmarkOneByteEvent).
	Rescans bool
	// Core marks the implementations of the targets' comparisons, measured
	// on every corpus; the other peers only on the corpora of
	// PeerCorpora.
	Core bool
	// Note says how the implementation is configured.
	Note string
	Run  func(r io.Reader, c *Corpus, s *Sink) error
}

// Sink receives what an implementation found. With Record unset it only
// counts, so that benchmarks measure the implementation, not the sink.
type Sink struct {
	Record  bool
	Events  int
	Bytes   int
	SSE     []Event
	Decoded []Decoded
	Answer  string
	State   string
}

// Event reports an SSE event.
func (s *Sink) Event(id, typ, data []byte) {
	s.Events++
	s.Bytes += len(data)
	if s.Record {
		if len(typ) == 0 {
			typ = []byte("message") // the WHATWG default that some peers leave to the caller
		}
		s.SSE = append(s.SSE, Event{ID: string(id), Type: string(typ), Data: string(data)})
	}
}

// EventString is Event for implementations that give strings.
func (s *Sink) EventString(id, typ, data string) {
	s.Events++
	s.Bytes += len(data)
	if s.Record {
		if typ == "" {
			typ = "message"
		}
		s.SSE = append(s.SSE, Event{ID: id, Type: typ, Data: data})
	}
}

// Dec reports a decoded event; text is given by Text calls before the
// next Dec.
func (s *Sink) Dec(d Decoded) {
	s.Events++
	if s.Record {
		s.Decoded = append(s.Decoded, d)
	}
}

// readerN hands out at most n bytes per Read.
type readerN struct {
	r io.Reader
	n int
}

func (r *readerN) Read(p []byte) (int, error) {
	if len(p) > r.n {
		p = p[:r.n]
	}
	return r.r.Read(p)
}

const bigLimit = 32 << 20 // the size limit given to peers that have one

// Impls returns every implementation, ours first, then the peers, then the
// limits.
func Impls() []Impl {
	return []Impl{
		{Key: "ours-lexer", Core: true, Name: "a2astream lexer", Level: LevelSSE, Ours: true, Note: "sse.Reader", Run: runLexer},
		{Key: "ours-decoder", Core: true, Name: "a2astream lexer+decoder", Level: LevelDecode, Ours: true, Note: "sse.Reader + parser.Decoder", Run: runLexerDecoder},
		{Key: "ours-pipeline", Core: true, Name: "a2astream pipeline", Level: LevelPipeline, Ours: true, Note: "reconstruct.Read to a Result", Run: runPipeline},
		{Key: "ours-stream", Core: true, Name: "a2astream stream", Level: LevelPipeline, Ours: true, Note: "a reused reconstruct.Stream fed by Write, its updates read", Run: runStream(new(reconstruct.Stream))},
		{Key: "gosse", Core: true, Rescans: true, Name: "go-sse", Level: LevelSSE, Note: "sse.Read, MaxEventSize 32 MiB", Run: runGoSSE(bigLimit)},
		{Key: "gosse-default", Rescans: true, Name: "go-sse (default limit)", Level: LevelSSE, Note: "sse.Read, default 64 KB MaxEventSize", Run: runGoSSE(0)},
		{Key: "r3labs", Rescans: true, Name: "r3labs/sse/v2", Level: LevelSSE, Note: "Client.SubscribeRaw over an in-memory transport, buffer 32 MiB", Run: runR3(bigLimit)},
		{Key: "r3labs-default", Rescans: true, Name: "r3labs/sse/v2 (default limit)", Level: LevelSSE, Note: "default 64 KiB buffer", Run: runR3(0)},
		{Key: "launchdarkly", Name: "launchdarkly/eventsource", Level: LevelSSE, Note: "Decoder.Decode", Run: runLD},
		{Key: "scanner", Rescans: true, Name: "bufio.Scanner lines", Level: LevelSSE, Note: "ScanLines, 32 MiB buffer, data: lines joined", Run: runScanner},
		{Key: "gosse-json", Core: true, Rescans: true, Name: "go-sse + encoding/json", Level: LevelDecode, Note: "typed structs", Run: runGoSSEJSON},
		{Key: "gosse-fastjson", Core: true, Rescans: true, Name: "go-sse + fastjson", Level: LevelDecode, Note: "fastjson.Parser reused", Run: runGoSSEFastjson},
		{Key: "fastjson-alone", Core: true, Name: "fastjson payloads alone", Level: LevelDecode, Payloads: true, Note: "the events' data, pre-split, parsed as go-sse + fastjson does", Run: runFastjsonAlone},
		{Key: "limit-read", Name: "limit: plain read", Level: LevelLimit, Note: "Read into a 32 KiB buffer", Run: runRead},
		{Key: "limit-indexbyte", Core: true, Name: "limit: bytes.IndexByte", Level: LevelLimit, Note: "Read + IndexByte over every LF", Run: runIndexByte},
		{Key: "limit-keep", Name: "limit: lexer+decoder keeping the text", Level: LevelLimit, Note: "sse.Reader + parser.Decoder in place, each artifact text appended to one buffer grown by doubling, not cleared", Run: runKeepText},
		{Key: "limit-pieces", Name: "limit: lexer+decoder keeping the text in pieces", Level: LevelLimit, Note: "sse.Reader + parser.Decoder in place, each artifact text appended to pieces of at least 64 KiB, joined into one buffer when the stream ends", Run: runPieceText},
		{Key: "limit-own", Name: "limit: lexer+decoder copying the text once", Level: LevelLimit, Note: "sse.Reader + parser.Decoder in place, each artifact text copied into one buffer of the texts' size, known beforehand (no stream knows it)", Run: runOwnText},
	}
}

// ImplByName returns the implementation called name.
func ImplByName(name string) (Impl, bool) {
	for _, im := range Impls() {
		if im.Name == name {
			return im, true
		}
	}
	return Impl{}, false
}

func runLexer(r io.Reader, _ *Corpus, s *Sink) error {
	rd := sse.NewReader(r, nil)
	for rd.Next() {
		f := rd.Frame()
		s.Event(f.ID, f.Event, f.Data)
	}
	return rd.Err()
}

func runLexerDecoder(r io.Reader, _ *Corpus, s *Sink) error {
	rd := sse.NewReader(r, nil)
	var dec parser.Decoder
	var text []byte
	for rd.Next() {
		f := rd.Frame()
		ev, err := dec.Decode(f)
		if err != nil {
			return err
		}
		if !s.Record {
			s.Events++
			continue
		}
		var d Decoded
		text = text[:0]
		switch ev.Kind {
		case parser.KindTask:
			d.Kind, d.State = "task", ev.Task.Status.State.String()
		case parser.KindStatusUpdate:
			d.Kind, d.State = "status", ev.StatusUpdate.Status.State.String()
			for _, p := range ev.StatusUpdate.Status.Message.Parts {
				text = append(text, p.Text...)
			}
		case parser.KindArtifactUpdate:
			u := &ev.ArtifactUpdate
			d.Kind, d.ArtifactID, d.Append, d.LastChunk = "artifact", string(u.Artifact.ArtifactID), u.Append, u.LastChunk
			for _, p := range u.Artifact.Parts {
				text = append(text, p.Text...)
			}
		}
		d.Text = string(text)
		s.Dec(d)
	}
	return rd.Err()
}

func runPipeline(r io.Reader, _ *Corpus, s *Sink) error {
	res, err := reconstruct.Read(r, nil)
	if res != nil {
		s.State = res.State.String()
		if res.Answer != nil {
			s.Events = len(res.Artifacts)
			if s.Record {
				s.Answer = string(res.Answer.Text())
			}
		}
	}
	return err
}

// runStream returns the Run of a reconstruct.Stream fed by Write, as a
// network loop or a JavaScript ReadableStream drives it: s is reset for each
// stream, each read is written to it, and its updates are read after each
// write (the bytes of the text updates counted).
func runStream(s *reconstruct.Stream) func(io.Reader, *Corpus, *Sink) error {
	buf := make([]byte, 32<<10)
	return func(r io.Reader, _ *Corpus, sk *Sink) error {
		s.Reset(nil)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				if _, werr := s.Write(buf[:n]); werr != nil {
					return werr
				}
				streamUpdates(s, sk)
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				s.CloseWithError(err)
				break
			}
		}
		s.Close()
		streamUpdates(s, sk)
		res := s.Result()
		sk.State = res.State.String()
		if res.Answer != nil {
			sk.Events = len(res.Artifacts)
			if sk.Record {
				sk.Answer = string(res.Answer.Text())
			}
		}
		return res.Err
	}
}

// streamUpdates reads the updates pending in s, counting their text.
func streamUpdates(s *reconstruct.Stream, sk *Sink) {
	for s.Next() {
		sk.Bytes += len(s.Update().Text)
	}
}

func runGoSSE(limit int) func(io.Reader, *Corpus, *Sink) error {
	return func(r io.Reader, _ *Corpus, s *Sink) error {
		var cfg *gosse.ReadConfig
		if limit > 0 {
			cfg = &gosse.ReadConfig{MaxEventSize: limit}
		}
		for ev, err := range gosse.Read(r, cfg) {
			if err != nil {
				return err
			}
			s.EventString(ev.LastEventID, ev.Type, ev.Data)
		}
		return nil
	}
}

// bodyTransport answers every request with the stream as its body.
type bodyTransport struct{ body io.Reader }

func (t *bodyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(t.body), Request: req}, nil
}

func runR3(limit int) func(io.Reader, *Corpus, *Sink) error {
	return func(r io.Reader, _ *Corpus, s *Sink) error {
		opts := []func(*r3.Client){}
		if limit > 0 {
			opts = append(opts, r3.ClientMaxBufferSize(limit))
		}
		c := r3.NewClient("http://bench.invalid/stream", opts...)
		c.Connection = &http.Client{Transport: &bodyTransport{body: r}}
		c.ReconnectStrategy = &backoff.StopBackOff{}
		return c.SubscribeRaw(func(ev *r3.Event) {
			s.Event(ev.ID, ev.Event, ev.Data)
		})
	}
}

func runLD(r io.Reader, _ *Corpus, s *Sink) error {
	dec := ldes.NewDecoder(r)
	for {
		ev, err := dec.Decode()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		id := ev.Id()
		if wl, ok := ev.(interface{ LastEventID() string }); ok {
			id = wl.LastEventID()
		}
		s.EventString(id, ev.Event(), ev.Data())
	}
}

// runScanner is the SSE reader many write by hand: bufio.Scanner lines,
// "data:" lines joined, a blank line dispatching.
func runScanner(r io.Reader, _ *Corpus, s *Sink) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), bigLimit)
	var data, id, typ []byte
	has := false
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if has {
				s.Event(id, typ, data)
			}
			data, typ, has = data[:0], typ[:0], false
		case line[0] == ':':
		default:
			field, value, _ := bytes.Cut(line, []byte(":"))
			value = bytes.TrimPrefix(value, []byte(" "))
			switch string(field) {
			case "data":
				if has {
					data = append(data, '\n')
				}
				data, has = append(data, value...), true
			case "id":
				id = append(id[:0], value...)
			case "event":
				typ = append(typ[:0], value...)
			}
		}
	}
	return sc.Err()
}

// The typed structs of go-sse + encoding/json.
type (
	jsonPart struct {
		Text string `json:"text"`
	}
	jsonMessage struct {
		MessageID string     `json:"messageId"`
		Role      string     `json:"role"`
		Parts     []jsonPart `json:"parts"`
	}
	jsonStatus struct {
		State     string       `json:"state"`
		Timestamp string       `json:"timestamp"`
		Message   *jsonMessage `json:"message"`
	}
	jsonArtifact struct {
		ArtifactID string     `json:"artifactId"`
		Parts      []jsonPart `json:"parts"`
		Metadata   struct {
			Type string `json:"type"`
		} `json:"metadata"`
	}
	jsonStream struct {
		Task *struct {
			ID        string     `json:"id"`
			ContextID string     `json:"contextId"`
			Status    jsonStatus `json:"status"`
		} `json:"task"`
		StatusUpdate *struct {
			TaskID    string     `json:"taskId"`
			ContextID string     `json:"contextId"`
			Status    jsonStatus `json:"status"`
			Metadata  struct {
				Usage *struct {
					Model        string  `json:"model"`
					InputTokens  int64   `json:"inputTokens"`
					OutputTokens int64   `json:"outputTokens"`
					Credits      float64 `json:"credits"`
				} `json:"$usage"`
			} `json:"metadata"`
		} `json:"statusUpdate"`
		ArtifactUpdate *struct {
			TaskID    string       `json:"taskId"`
			ContextID string       `json:"contextId"`
			Append    bool         `json:"append"`
			LastChunk bool         `json:"lastChunk"`
			Artifact  jsonArtifact `json:"artifact"`
		} `json:"artifactUpdate"`
	}
)

func runGoSSEJSON(r io.Reader, _ *Corpus, s *Sink) error {
	for ev, err := range gosse.Read(r, &gosse.ReadConfig{MaxEventSize: bigLimit}) {
		if err != nil {
			return err
		}
		var m jsonStream
		if err := json.Unmarshal([]byte(ev.Data), &m); err != nil {
			return err
		}
		var d Decoded
		switch {
		case m.Task != nil:
			d.Kind, d.State = "task", m.Task.Status.State
		case m.StatusUpdate != nil:
			d.Kind, d.State = "status", m.StatusUpdate.Status.State
			if msg := m.StatusUpdate.Status.Message; msg != nil {
				for _, p := range msg.Parts {
					d.Text += p.Text
				}
			}
		case m.ArtifactUpdate != nil:
			u := m.ArtifactUpdate
			d.Kind, d.ArtifactID, d.Append, d.LastChunk = "artifact", u.Artifact.ArtifactID, u.Append, u.LastChunk
			if len(u.Artifact.Parts) == 1 {
				d.Text = u.Artifact.Parts[0].Text
			} else {
				for _, p := range u.Artifact.Parts {
					d.Text += p.Text
				}
			}
		}
		s.Dec(d)
	}
	return nil
}

// fastjsonDecode extracts the same fields with a reused fastjson parser.
func fastjsonDecode(p *fastjson.Parser, data []byte, text []byte, s *Sink) ([]byte, error) {
	v, err := p.ParseBytes(data)
	if err != nil {
		return text, err
	}
	var d Decoded
	text = text[:0]
	parts := func(arr []*fastjson.Value) {
		for _, pv := range arr {
			text = append(text, pv.GetStringBytes("text")...)
		}
	}
	if t := v.Get("task"); t != nil {
		d.Kind, d.State = "task", string(t.GetStringBytes("status", "state"))
		_ = t.GetStringBytes("id")
		_ = t.GetStringBytes("contextId")
	} else if u := v.Get("statusUpdate"); u != nil {
		d.Kind, d.State = "status", string(u.GetStringBytes("status", "state"))
		_ = u.GetStringBytes("taskId")
		_ = u.GetStringBytes("contextId")
		_ = u.GetStringBytes("status", "timestamp")
		parts(u.GetArray("status", "message", "parts"))
		if us := u.Get("metadata", "$usage"); us != nil {
			_ = us.GetStringBytes("model")
			_ = us.GetInt64("inputTokens")
			_ = us.GetInt64("outputTokens")
			_ = us.GetFloat64("credits")
		}
	} else if u := v.Get("artifactUpdate"); u != nil {
		_ = u.GetStringBytes("taskId")
		_ = u.GetStringBytes("contextId")
		d.Kind, d.Append, d.LastChunk = "artifact", u.GetBool("append"), u.GetBool("lastChunk")
		_ = u.GetStringBytes("artifact", "metadata", "type")
		parts(u.GetArray("artifact", "parts"))
		if s.Record {
			d.ArtifactID = string(u.GetStringBytes("artifact", "artifactId"))
		} else {
			_ = u.GetStringBytes("artifact", "artifactId")
		}
	}
	if s.Record {
		d.Text = string(text)
	}
	s.Dec(d)
	return text, nil
}

func runGoSSEFastjson(r io.Reader, _ *Corpus, s *Sink) error {
	var p fastjson.Parser
	var text, buf []byte
	for ev, err := range gosse.Read(r, &gosse.ReadConfig{MaxEventSize: bigLimit}) {
		if err != nil {
			return err
		}
		buf = append(buf[:0], ev.Data...)
		if text, err = fastjsonDecode(&p, buf, text, s); err != nil {
			return err
		}
	}
	return nil
}

// payloads returns the corpus's event data, split out once.
func payloads(c *Corpus) [][]byte {
	out := make([][]byte, len(c.Events))
	for i, e := range c.Events {
		out[i] = []byte(e.Data)
	}
	return out
}

var (
	payloadMu    sync.Mutex
	payloadCache = map[*Corpus][][]byte{}
	// textSizes caches textsSize.
	textSizes = map[*Corpus]int{}
)

// payloadsOf returns the payloads of c, split out on the first call.
func payloadsOf(c *Corpus) [][]byte {
	payloadMu.Lock()
	defer payloadMu.Unlock()
	if payloadCache[c] == nil {
		payloadCache[c] = payloads(c)
	}
	return payloadCache[c]
}

// PreparePayloads splits out the payloads of every benchmark corpus for
// "fastjson payloads alone", outside any timing.
func PreparePayloads() {
	for _, c := range Corpora() {
		payloadsOf(c)
	}
}

func runFastjsonAlone(_ io.Reader, c *Corpus, s *Sink) error {
	var p fastjson.Parser
	var text []byte
	var err error
	for _, d := range payloadsOf(c) {
		if text, err = fastjsonDecode(&p, d, text, s); err != nil {
			return err
		}
	}
	return nil
}

func runRead(r io.Reader, _ *Corpus, s *Sink) error {
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		s.Bytes += n
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func runIndexByte(r io.Reader, _ *Corpus, s *Sink) error {
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		for b := buf[:n]; ; {
			i := bytes.IndexByte(b, '\n')
			if i < 0 {
				break
			}
			s.Events++
			b = b[i+1:]
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// runKeepText is lexer + decoder keeping the text of every artifact
// update, in order, in one buffer that doubles when full (keepTexts): what
// keeping what the agent wrote costs beyond decoding it, its length not
// known (the reference of the pipeline's targets, see References).
func runKeepText(r io.Reader, _ *Corpus, s *Sink) error {
	var text builderText
	return keepTexts(r, s, &text)
}

// runOwnText is keepTexts into one buffer of the size the texts of the
// artifact updates add up to, taken from the corpus before the stream is
// read: each text is copied once and the buffer never grows, what keeping
// the text would cost if its length were known, which no stream tells
// (see References).
func runOwnText(r io.Reader, c *Corpus, s *Sink) error {
	var text builderText
	text.b.Grow(textsSize(c))
	return keepTexts(r, s, &text)
}

// runPieceText is keepTexts into pieces joined once the stream ends
// (pieceText): the fewest copies of a text whose length no stream tells,
// kept in memory of about twice its size, can take, each byte copied
// into a piece and then into one buffer of the text's size.
func runPieceText(r io.Reader, _ *Corpus, s *Sink) error {
	var text pieceText
	return keepTexts(r, s, &text)
}

// keptText is where keepTexts keeps the texts.
type keptText interface {
	// keep appends p to the text.
	keep(p []byte)
	// text returns the text kept, in one buffer.
	text() string
}

// builderText keeps the texts in a strings.Builder that doubles when it
// has no room (Grow gives 2×cap+n and, as bytes.Join, does not clear the
// new buffer).
type builderText struct{ b strings.Builder }

func (t *builderText) keep(p []byte) {
	if t.b.Cap()-t.b.Len() < len(p) {
		t.b.Grow(len(p))
	}
	t.b.Write(p)
}

func (t *builderText) text() string { return t.b.String() }

// pieceText keeps the texts in pieces of at least 64 KiB, a text that
// does not fit in the last one starting the next, never copied until text
// joins them: reconstruct's pieces without the rest of the pipeline.
type pieceText struct {
	done [][]byte
	last []byte
}

func (t *pieceText) keep(p []byte) {
	if cap(t.last)-len(t.last) < len(p) {
		if len(t.last) > 0 {
			t.done = append(t.done, t.last)
		}
		if len(p) >= 64<<10 {
			// A piece of p's size, not cleared first.
			t.last = append([]byte(nil), p...)
			return
		}
		t.last = make([]byte, 0, 64<<10)
	}
	t.last = append(t.last, p...)
}

// text joins the pieces into a buffer of their size, not cleared first
// (strings.Builder.Grow, as bytes.Join).
func (t *pieceText) text() string {
	n := len(t.last)
	for _, p := range t.done {
		n += len(p)
	}
	var b strings.Builder
	b.Grow(n)
	for _, p := range t.done {
		b.Write(p)
	}
	b.Write(t.last)
	return b.String()
}

// keepTexts reads r with lexer + decoder, in place as reconstruct.Read
// decodes, and keeps the text of every artifact update's parts, in
// order, in text. It records the text (Sink.Answer).
func keepTexts(r io.Reader, s *Sink, text keptText) error {
	rd := sse.NewReader(r, nil)
	var dec parser.Decoder
	for rd.Next() {
		ev, err := dec.DecodeInPlace(rd.Frame())
		if err != nil {
			return err
		}
		s.Events++
		if ev.Kind != parser.KindArtifactUpdate {
			continue
		}
		for _, p := range ev.ArtifactUpdate.Artifact.Parts {
			text.keep(p.Text)
		}
	}
	all := text.text()
	s.Bytes = len(all)
	if s.Record {
		s.Answer = all
	}
	return rd.Err()
}

// textsSize returns the length of the texts of c's artifact updates, all
// together, added up on the first call.
func textsSize(c *Corpus) int {
	payloadMu.Lock()
	defer payloadMu.Unlock()
	n, ok := textSizes[c]
	if !ok {
		for _, d := range c.Decoded {
			if d.Kind == "artifact" {
				n += len(d.Text)
			}
		}
		textSizes[c] = n
	}
	return n
}
