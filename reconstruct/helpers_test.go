package reconstruct_test

// This file holds the test helpers: builders of A2A stream responses and of
// SSE streams (REST, and JSON-RPC by wrapping), the streams the tests share,
// the runner that feeds a Stream in chunks and records its updates, and the
// cmp options that compare Results.

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
)

const (
	taskID = "task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62"
	ctxID  = "ctx.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c63"
)

// esc returns s as the inside of a JSON string, escaping only what JSON
// requires so that every other byte (invalid UTF-8 included) passes
// through as it is.
func esc(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[c>>4])
			b.WriteByte("0123456789abcdef"[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// text returns a plain text part whose JSON string content is raw (already
// escaped, so that tests can write \ud83d escapes).
func textRaw(raw string) string { return `{"text":"` + raw + `"}` }

// text returns a plain text part carrying s.
func text(s string) string { return textRaw(esc(s)) }

// artifactUpdate returns an artifactUpdate stream response.
func artifactUpdate(art string, appendParts, last bool, metadata string, parts ...string) string {
	var b strings.Builder
	b.WriteString(`{"artifactUpdate":{"taskId":"` + taskID + `","contextId":"` + ctxID + `"`)
	if appendParts {
		b.WriteString(`,"append":true`)
	}
	if last {
		b.WriteString(`,"lastChunk":true`)
	}
	b.WriteString(`,"artifact":{"artifactId":"` + art + `","parts":[` + strings.Join(parts, ",") + `]`)
	if metadata != "" {
		b.WriteString(`,"metadata":` + metadata)
	}
	b.WriteString(`}}}`)
	return b.String()
}

// first returns the first delta of an artifact (append omitted).
func first(art, s string) string { return artifactUpdate(art, false, false, "", text(s)) }

// more returns a later delta (append true).
func more(art, s string) string { return artifactUpdate(art, true, false, "", text(s)) }

// moreRaw returns a later delta whose JSON string content is raw.
func moreRaw(art, raw string) string { return artifactUpdate(art, true, false, "", textRaw(raw)) }

// completion returns the completion close: append false, lastChunk true.
func completion(art string, parts ...string) string {
	return artifactUpdate(art, false, true, "", parts...)
}

// thinkingClose returns the intermediate-thinking close of an artifact.
func thinkingClose(art string) string {
	return artifactUpdate(art, true, true, `{"type":"intermediate-thinking"}`, `{"text":""}`)
}

// message returns the JSON of an agent message with one text part.
func message(id, s string) string {
	return `{"messageId":"` + id + `","role":"ROLE_AGENT","parts":[` + text(s) + `]}`
}

// status returns a statusUpdate; msg is a message's JSON or "", usage the
// JSON of a $usage object or "".
func status(state, msg, usage string) string {
	var b strings.Builder
	b.WriteString(`{"statusUpdate":{"taskId":"` + taskID + `","contextId":"` + ctxID + `","status":{"state":"` + state + `"`)
	if msg != "" {
		b.WriteString(`,"message":` + msg)
	}
	b.WriteString(`,"timestamp":"2026-09-01T12:00:01Z"}`)
	if usage != "" {
		b.WriteString(`,"metadata":{"$usage":` + usage + `}`)
	}
	b.WriteString(`}}`)
	return b.String()
}

// task returns a task snapshot with the given state and artifacts (their
// JSON).
func task(state string, artifacts ...string) string {
	s := `{"task":{"id":"` + taskID + `","contextId":"` + ctxID + `","status":{"state":"` + state + `"}`
	if len(artifacts) > 0 {
		s += `,"artifacts":[` + strings.Join(artifacts, ",") + `]`
	}
	return s + `}}`
}

const usage = `{"model":"corti-default","inputTokens":100,"outputTokens":20,"totalTokens":120,"credits":1.2}`

// sseStream returns the events as an SSE stream with ids prefix-1, prefix-2, …
func sseStream(prefix string, events ...string) string {
	var b strings.Builder
	for i, e := range events {
		b.WriteString("id: " + prefix + "-" + strconv.Itoa(i+1) + "\ndata: " + e + "\n\n")
	}
	return b.String()
}

// rpc wraps every data line of a REST stream into a JSON-RPC response
// envelope; error documents become JSON-RPC error responses.
func rpc(rest string) string {
	var b strings.Builder
	n := 0
	for _, line := range strings.SplitAfter(rest, "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			b.WriteString(line)
			continue
		}
		n++
		body := strings.TrimSuffix(data, "\n")
		id := `"req-` + strconv.Itoa(n) + `"`
		if inner, isErr := strings.CutPrefix(body, `{"error":`); isErr {
			b.WriteString(`data: {"jsonrpc":"2.0","id":` + id + `,"error":` + strings.TrimSuffix(inner, "}") + "}\n")
			continue
		}
		b.WriteString(`data: {"jsonrpc":"2.0","id":` + id + `,"result":` + body + "}\n")
	}
	return b.String()
}

// corpusStream is a named test stream, whole.
type corpusStream struct {
	name string
	in   string
}

// The streams of the spec and of the issue, shared by the tests.
var (
	// specCompleted is the spec's "Full event sequence for a completed
	// answer", with ids added.
	specCompleted = "id: 1\n" + `data: {"task":{"id":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","status":{"state":"TASK_STATE_WORKING","timestamp":"2026-09-01T12:00:00Z"}}}` + "\n\n" +
		"id: 2\n" + `data: {"artifactUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","artifact":{"artifactId":"art.0192f4c8-...","parts":[{"text":"The "}]}}}` + "\n\n" +
		"id: 3\n" + `data: {"artifactUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","append":true,"artifact":{"artifactId":"art.0192f4c8-...","parts":[{"text":"contract "}]}}}` + "\n\n" +
		"id: 4\n" + `data: {"artifactUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","append":true,"artifact":{"artifactId":"art.0192f4c8-...","parts":[{"text":"answer."}]}}}` + "\n\n" +
		"id: 5\n" + `data: {"artifactUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","lastChunk":true,"artifact":{"artifactId":"art.0192f4c8-...","parts":[{"text":"The contract answer."}]}}}` + "\n\n" +
		"id: 6\n" + `data: {"statusUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","status":{"state":"TASK_STATE_COMPLETED","timestamp":"2026-09-01T12:00:01Z"}}}` + "\n\n"

	// thinkingToolAnswer: narration closed as thinking, a tool call
	// (narrated in a WORKING status), then the answer with a cited data
	// part, completed with usage.
	thinkingToolAnswer = sseStream("tta",
		task("TASK_STATE_SUBMITTED"),
		status("TASK_STATE_WORKING", "", ""),
		first("art-A", "Let me "),
		more("art-A", "check the "),
		more("art-A", "guidelines."),
		thinkingClose("art-A"),
		status("TASK_STATE_WORKING", message("msg-1", "Calling search_guidelines"), ""),
		first("art-B", "Dose: "),
		more("art-B", "5 mg"),
		more("art-B", " daily."),
		completion("art-B",
			`{"text":"Dose: 5 mg daily.","metadata":{"citations":[{"data_part_id":"gid-1","offset":7,"locator":"/dose"}]}}`,
			`{"data":{"dose":"5 mg"},"metadata":{"dataPartId":"gid-1"}}`),
		status("TASK_STATE_COMPLETED", "", usage),
	)

	// inputRequired: narration then a question.
	inputRequired = sseStream("ir",
		task("TASK_STATE_WORKING"),
		first("art-N", "I need "),
		more("art-N", "to know more"),
		thinkingClose("art-N"),
		status("TASK_STATE_INPUT_REQUIRED", message("msg-q", "Which patient?"), ""),
	)

	// failed: narration then a failure.
	failed = sseStream("fail",
		task("TASK_STATE_WORKING"),
		first("art-N", "Looking "),
		more("art-N", "it up"),
		thinkingClose("art-N"),
		status("TASK_STATE_FAILED", message("msg-f", "The model transport failed."), usage),
	)

	// sameText: the completion text equals the streamed text: one close,
	// same id.
	sameText = sseStream("same",
		task("TASK_STATE_WORKING"),
		first("art-1", "Héllo, "),
		more("art-1", "wörld"),
		completion("art-1", text("Héllo, wörld")),
		status("TASK_STATE_COMPLETED", "", ""),
	)

	// splitChars: multi-byte characters split mid-rune in raw UTF-8, a
	// surrogate pair split between two escapes, combining marks, Korean.
	splitChars = sseStream("split",
		task("TASK_STATE_WORKING"),
		first("art-1", "Caf\xc3"),          // é split after its lead byte
		more("art-1", "\xa9 \xf0\x9f"),     // 😀 split in half
		more("art-1", "\x98\x80 "),         // … its second half
		moreRaw("art-1", `smile \ud83d`),   // high surrogate escape
		moreRaw("art-1", `\ude00 e\u0301`), // low surrogate escape; e + combining acute
		more("art-1", " \xed\x95"),         // 한 split after 2 bytes
		more("art-1", "\x9c\xea\xb8\x80."), // … its last byte, then 글
		completion("art-1", text("Caf\u00e9 \U0001F600 smile \U0001F600 e\u0301 한글.")),
		status("TASK_STATE_COMPLETED", "", ""),
	)

	// several: several artifacts with data, url and raw parts.
	several = sseStream("sev",
		task("TASK_STATE_WORKING"),
		artifactUpdate("art-data", false, true, "", `{"data":{"rows":[1,2,3]},"mediaType":"application/json"}`),
		artifactUpdate("art-file", false, false, "", `{"url":"https://example.com/a.pdf","filename":"a.pdf","mediaType":"application/pdf"}`),
		artifactUpdate("art-file", true, true, "", `{"raw":"aGVsbG8=","filename":"hello.txt"}`),
		first("art-ans", "See "),
		more("art-ans", "the files."),
		completion("art-ans", text("See the files.")),
		status("TASK_STATE_COMPLETED", "", usage),
	)

	// directReply: a message without a task.
	directReply = "id: m-1\ndata: " + `{"message":{"messageId":"msg-9","contextId":"` + ctxID + `","role":"ROLE_AGENT","parts":[{"text":"Hi there."}]}}` + "\n\n"
)

// corpus returns the package's test streams and the recorded ones of
// ../internal/samples, each in both bindings.
func corpus(t testing.TB) []corpusStream {
	t.Helper()
	base := []corpusStream{
		{"specCompleted", specCompleted},
		{"thinkingToolAnswer", thinkingToolAnswer},
		{"inputRequired", inputRequired},
		{"failed", failed},
		{"sameText", sameText},
		{"splitChars", splitChars},
		{"several", several},
	}
	base = append(base, testdataStreams(t)...)
	var out []corpusStream
	for _, c := range base {
		out = append(out, c, corpusStream{c.name + "/jsonrpc", rpc(c.in)})
	}
	return out
}

// testdataStreams returns the recorded streams, ../internal/samples/*.sse.
func testdataStreams(t testing.TB) []corpusStream {
	t.Helper()
	names, err := filepath.Glob("../internal/samples/*.sse")
	require.NoError(t, err)
	require.NotEmpty(t, names, "recorded streams in ../internal/samples")
	var out []corpusStream
	for _, name := range names {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		out = append(out, corpusStream{"samples/" + filepath.Base(name), string(b)})
	}
	return out
}

// run is what feeding a Stream gave.
type run struct {
	res *reconstruct.Result
	err error // from Close
	// live is the text shown per artifact: the UpdateText texts
	// concatenated, restarted by each UpdateReplaced.
	live map[string]string
	// kinds are the kinds of the updates in order.
	kinds []reconstruct.UpdateKind
	// texts are the UpdateText and UpdateReplaced texts, copied.
	texts []string
	// dones counts UpdateDone.
	dones int
}

// splitter returns the sizes of the chunks to write, for an input of n
// bytes.
type splitter func(n int) []int

func whole(n int) []int { return []int{n} }

func oneByte(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

func randomSplits(seed uint64) splitter {
	return func(n int) []int {
		rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		var s []int
		for n > 0 {
			k := min(n, 1+rng.IntN(64))
			s = append(s, k)
			n -= k
		}
		return s
	}
}

// feed writes in to s in chunks and collects the updates into r.
func feed(s *reconstruct.Stream, r *run, in string, split splitter) {
	off := 0
	for _, k := range split(len(in)) {
		s.Write([]byte(in[off : off+k]))
		off += k
		drain(s, r)
	}
}

func drain(s *reconstruct.Stream, r *run) {
	for s.Next() {
		u := s.Update()
		r.kinds = append(r.kinds, u.Kind)
		switch u.Kind {
		case reconstruct.UpdateText:
			r.live[string(u.Artifact.ArtifactID)] += string(u.Text)
			r.texts = append(r.texts, string(u.Text))
		case reconstruct.UpdateReplaced:
			r.live[string(u.Artifact.ArtifactID)] = string(u.Text)
			r.texts = append(r.texts, string(u.Text))
		case reconstruct.UpdateDone:
			r.dones++
		}
	}
}

// runStream feeds in to a new Stream with opts, split by split, and closes
// it.
func runStream(in string, split splitter, opts *reconstruct.Options) *run {
	return runOn(reconstruct.NewStream(opts), in, split)
}

// runOn feeds in to s, split by split, and closes it.
func runOn(s *reconstruct.Stream, in string, split splitter) *run {
	r := &run{live: map[string]string{}}
	feed(s, r, in, split)
	r.err = s.Close()
	drain(s, r)
	r.res = s.Result()
	return r
}

// cmpResult compares Results field by field, unexported fields aside, and
// errors by their messages.
var cmpResult = cmp.Options{
	cmpopts.IgnoreUnexported(reconstruct.Artifact{}),
	cmp.Comparer(func(a, b error) bool {
		if a == nil || b == nil {
			return a == nil && b == nil
		}
		return a.Error() == b.Error()
	}),
	// Byte slices compared whole (nil equals empty): cmp would otherwise
	// visit every byte with the options above.
	cmp.Comparer(func(a, b []byte) bool { return bytes.Equal(a, b) }),
}

// validUpdates reports the UpdateText texts that are not whole valid
// UTF-8.
func invalidTexts(texts []string) []string {
	var bad []string
	for _, s := range texts {
		if !utf8.ValidString(s) {
			bad = append(bad, s)
		}
	}
	return bad
}

// state parses a state name for want values.
func state(t testing.TB, s string) parser.TaskState {
	t.Helper()
	st, err := parser.ParseTaskState(s)
	require.NoError(t, err)
	return st
}
