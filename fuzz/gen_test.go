package fuzz

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file generates A2A 1.0 runs from a seed: a structured sequence of
// stream responses that follows the protocol (a task, narrations streamed
// as artifact deltas and closed as intermediate thinking or by a
// consolidating completion, status updates, a final status, or a cut), with
// random text (ASCII, multi-byte characters, escapes, surrogate pair
// escapes split between two deltas, raw UTF-8 split mid-character), rendered
// as SSE bytes in either binding with id lines, keep-alives, multi-line data
// and any line end.

// genArtifact is what the generator meant an artifact to hold.
type genArtifact struct {
	ID       string
	Text     string // the text after every event, surrogate pairs joined
	Thinking bool
	Sealed   bool
}

// genRun is a generated run: its SSE bytes and what it means.
type genRun struct {
	SSE       []byte
	Artifacts []genArtifact // in the order first seen
	Answer    string        // the answer artifact's id; "" when none
	State     string        // the last state sent ("" when none)
	Status    string        // the text of the last status message sent
	Usage     string        // the last $usage sent, as usageString formats it
	Final     bool          // a terminal or interrupted status was sent
}

// usageString formats the token counts and credits of a $usage.
func usageString(in, out int64, credits float64) string {
	return strconv.FormatInt(in, 10) + "/" + strconv.FormatInt(out, 10) + "/" + strconv.FormatFloat(credits, 'g', -1, 64)
}

// piece is a fragment of text with its JSON string encoding; a split
// surrogate pair escape is two pieces whose texts are the WTF-8 halves.
type piece struct {
	json string
	text string
}

var words = []string{"The ", "HbA1c ", "is ", "8.2 % ", "café ", "血压 ", "🩺 ", "naïve ", "Ωmega ", "x", "\u2028", "\"quoted\" ", "tab\t", "line\n", "back\\slash ", "€", "𝄞", "😀"}

// pieces encodes s as pieces of JSON string content, escaping characters at
// random: \uXXXX for a BMP character, a surrogate pair escape for the
// others (as two pieces), raw UTF-8 otherwise.
func pieces(rng *rand.Rand, s string) []piece {
	var out []piece
	for _, r := range s {
		raw := string(r)
		switch {
		case r == '"' || r == '\\':
			out = append(out, piece{`\` + raw, raw})
		case r == '\n':
			out = append(out, piece{`\n`, raw})
		case r < 0x20:
			out = append(out, piece{`\u` + hex4(int(r)), raw})
		case r >= 0x10000 && rng.IntN(2) == 0:
			hi, lo := 0xD800+((r-0x10000)>>10), 0xDC00+((r-0x10000)&0x3FF)
			out = append(out, piece{`\u` + hex4(int(hi)), wtf8(hi)}, piece{`\u` + hex4(int(lo)), wtf8(lo)})
		case r >= 0x80 && r < 0x10000 && rng.IntN(3) == 0:
			out = append(out, piece{`\u` + hex4(int(r)), raw})
		case r >= 0x80 && rng.IntN(4) == 0:
			// Raw UTF-8 that a delta boundary may cut: one piece per byte.
			for i := 0; i < len(raw); i++ {
				out = append(out, piece{raw[i : i+1], raw[i : i+1]})
			}
		default:
			out = append(out, piece{raw, raw})
		}
	}
	return out
}

func hex4(v int) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[v>>12&15], digits[v>>8&15], digits[v>>4&15], digits[v&15]})
}

// wtf8 encodes a surrogate code point as its 3-byte generalized UTF-8.
func wtf8(r rune) string {
	return string([]byte{0xE0 | byte(r>>12), 0x80 | byte(r>>6&0x3F), 0x80 | byte(r&0x3F)})
}

func randomText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(words[rng.IntN(len(words))])
	}
	return b.String()
}

// generate makes a run from rng.
func generate(rng *rand.Rand) genRun {
	const taskID, ctxID = "task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62", "ctx.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c63"
	ids := `"taskId":"` + taskID + `","contextId":"` + ctxID + `"`
	var run genRun
	var events []string
	status := func(state, msg, meta string) string {
		s := `{"statusUpdate":{` + ids + `,"status":{"state":"` + state + `"`
		if msg != "" {
			s += `,"message":{"messageId":"msg-` + strconv.Itoa(len(events)) + `","role":"ROLE_AGENT","parts":[{"text":"` + msg + `"}]}`
		}
		s += `}` + meta + `}}`
		run.State, run.Status = state, msg
		return s
	}
	events = append(events, `{"task":{"id":"`+taskID+`","contextId":"`+ctxID+`","status":{"state":"TASK_STATE_WORKING"}}}`)
	run.State = "TASK_STATE_WORKING"

	narrations := 1 + rng.IntN(4)
	completed := false
	for n := range narrations {
		artID := "art-" + strconv.Itoa(n) + "-" + strconv.Itoa(rng.IntN(1000))
		last := n == narrations-1
		text := randomText(rng, rng.IntN(12))
		ps := pieces(rng, text)
		// Cut the pieces into deltas at random places; a delta may carry
		// its text in several text parts (they join), and a data part
		// now and then (it is not text).
		deltas := [][]string{{""}}
		for _, p := range ps {
			switch rng.IntN(6) {
			case 0, 1:
				deltas = append(deltas, []string{""})
			case 2:
				deltas[len(deltas)-1] = append(deltas[len(deltas)-1], "")
			}
			d := deltas[len(deltas)-1]
			d[len(d)-1] += p.json
		}
		for i := range deltas {
			for j := range deltas[i] {
				deltas[i][j] = `{"text":"` + deltas[i][j] + `"}`
			}
		}
		for i := range deltas {
			at := rng.IntN(len(deltas[i]) + 1)
			if rng.IntN(10) != 0 {
				continue
			}
			deltas[i] = slices.Insert(deltas[i], at, `{"data":{"k":[1,"v"]},"metadata":{"dataPartId":"d`+strconv.Itoa(i)+`"}}`)
		}
		if rng.IntN(4) == 0 {
			deltas = nil // no streamed deltas: the close alone
		}
		for i, d := range deltas {
			ap := ""
			if i > 0 {
				ap = `"append":true,`
			}
			events = append(events, `{"artifactUpdate":{`+ids+`,`+ap+`"artifact":{"artifactId":"`+artID+`","parts":[`+strings.Join(d, ",")+`]}}}`)
		}
		art := genArtifact{ID: artID}
		if deltas != nil {
			art.Text = text
		}
		switch {
		case last && rng.IntN(3) > 0:
			// The completion close: the consolidated text replaces the
			// deltas, with a cited data part now and then.
			full := randomText(rng, rng.IntN(8))
			if rng.IntN(2) == 0 && deltas != nil {
				full = text
			}
			var enc strings.Builder
			for _, p := range pieces(rng, full) {
				enc.WriteString(p.json)
			}
			parts := `{"text":"` + enc.String() + `"}`
			if rng.IntN(3) == 0 {
				parts = `{"text":"` + enc.String() + `","metadata":{"citations":[{"data_part_id":"gid-1","offset":0}]}},{"data":{"lab":"HbA1c","value":8.2},"metadata":{"dataPartId":"gid-1"}}`
			}
			events = append(events, `{"artifactUpdate":{`+ids+`,"lastChunk":true,"artifact":{"artifactId":"`+artID+`","parts":[`+parts+`]}}}`)
			art.Text, art.Sealed = full, true
			run.Answer = artID
			completed = true
		case deltas != nil && (!last || rng.IntN(2) == 0):
			// The intermediate-thinking close.
			events = append(events, `{"artifactUpdate":{`+ids+`,"append":true,"lastChunk":true,"artifact":{"artifactId":"`+artID+`","parts":[{"text":""}],"metadata":{"type":"intermediate-thinking"}}}}`)
			art.Thinking, art.Sealed = true, true
		}
		if deltas != nil || art.Sealed {
			run.Artifacts = append(run.Artifacts, art)
		}
		if !last && rng.IntN(2) == 0 {
			events = append(events, status("TASK_STATE_WORKING", "Looking up the labs…", ""))
		}
	}
	usage, usageText := "", ""
	if rng.IntN(2) == 0 {
		out := rng.IntN(500)
		usage = `,"metadata":{"$usage":{"model":"m","inputTokens":10,"outputTokens":` + strconv.Itoa(out) + `,"credits":1.5}}`
		usageText = usageString(10, int64(out), 1.5)
	}
	switch {
	case rng.IntN(6) == 0:
		// Cut before the final status.
		run.Answer = ""
	case completed:
		events = append(events, status("TASK_STATE_COMPLETED", "", usage))
		run.Final = true
	case rng.IntN(2) == 0:
		events = append(events, status("TASK_STATE_INPUT_REQUIRED", "Which patient?", usage))
		run.Final = true
	default:
		events = append(events, status("TASK_STATE_FAILED", "The model failed.", usage))
		run.Final = true
	}
	events = restyle(rng, events)
	run.SSE = render(rng, events)
	if !run.Final {
		run.Answer = ""
	} else {
		run.Usage = usageText
	}
	return run
}

// restyle rewrites the events of a run in one of the other forms a
// ProtoJSON writer may use: the proto field names (snake_case; not inside
// metadata, a google.protobuf.Struct whose keys are data), enums as
// numbers, int64 as strings, spaces after colons and commas.
func restyle(rng *rand.Rand, events []string) []string {
	snake, numbers, spaces := rng.IntN(4) == 0, rng.IntN(4) == 0, rng.IntN(4) == 0
	var rep []string
	if snake {
		rep = append(rep, `"taskId"`, `"task_id"`, `"contextId"`, `"context_id"`, `"artifactId"`, `"artifact_id"`,
			`"lastChunk"`, `"last_chunk"`, `"artifactUpdate"`, `"artifact_update"`, `"statusUpdate"`, `"status_update"`,
			`"messageId"`, `"message_id"`)
	}
	if numbers {
		for i, st := range []string{"SUBMITTED", "WORKING", "COMPLETED", "FAILED", "CANCELED", "INPUT_REQUIRED"} {
			rep = append(rep, `"state":"TASK_STATE_`+st+`"`, `"state":`+strconv.Itoa(i+1))
		}
		rep = append(rep, `"role":"ROLE_AGENT"`, `"role":2`, `"inputTokens":10`, `"inputTokens":"10"`)
	}
	r := strings.NewReplacer(rep...)
	out := make([]string, len(events))
	for i, ev := range events {
		ev = r.Replace(ev)
		if spaces && !strings.Contains(ev, `\"`) {
			ev = strings.NewReplacer(`":`, `": `, `,"`, `, "`).Replace(ev)
		}
		out[i] = ev
	}
	return out
}

// render writes events as an SSE stream: REST or JSON-RPC binding, LF, CRLF
// or CR line ends, id lines (not on every event), keep-alive comments, a BOM
// now and then, and data split over two lines now and then.
func render(rng *rand.Rand, events []string) []byte {
	eol := []string{"\n", "\r\n", "\r"}[rng.IntN(3)]
	jsonrpc := rng.IntN(3) == 0
	var b strings.Builder
	if rng.IntN(8) == 0 {
		b.WriteString("\xEF\xBB\xBF")
	}
	for i, ev := range events {
		if jsonrpc {
			ev = `{"jsonrpc":"2.0","id":"req-1","result":` + ev + `}`
		}
		if rng.IntN(5) == 0 {
			b.WriteString(": keep-alive" + eol + eol)
		}
		if rng.IntN(4) > 0 {
			b.WriteString("id: " + strconv.Itoa(i+1) + eol)
		}
		if cut := strings.IndexByte(ev, ':'); rng.IntN(4) == 0 && cut > 0 {
			// A line end is JSON whitespace: the joined lines are the same
			// document.
			b.WriteString("data: " + ev[:cut+1] + eol + "data:" + ev[cut+1:] + eol + eol)
			continue
		}
		b.WriteString("data: " + ev + eol + eol)
	}
	return []byte(b.String())
}

// joinSurrogates replaces each WTF-8 high surrogate immediately followed by
// a WTF-8 low surrogate with the 4-byte UTF-8 of their code point; it is
// the reference for what utf8buf and the reducer do to text.
func joinSurrogates(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		if i+6 <= len(b) && b[i] == 0xED && b[i+1] >= 0xA0 && b[i+1] <= 0xAF && b[i+2] >= 0x80 && b[i+2] <= 0xBF &&
			b[i+3] == 0xED && b[i+4] >= 0xB0 && b[i+4] <= 0xBF && b[i+5] >= 0x80 && b[i+5] <= 0xBF {
			hi := rune(b[i+1]&0x0F)<<6 | rune(b[i+2]&0x3F) // bits of 0xD800 + x
			lo := rune(b[i+4]&0x0F)<<6 | rune(b[i+5]&0x3F)
			out = utf8.AppendRune(out, 0x10000+hi<<10+lo)
			i += 6
			continue
		}
		out = append(out, b[i])
		i++
	}
	return out
}
