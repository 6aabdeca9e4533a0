package main

// This file is structured as: the output for people, which streams the
// text of the artifacts to stdout as it arrives and tells the states on
// stderr, then shows the answer's citations, the final state and the usage.

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
)

// The ANSI styles used on a terminal.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
)

// thinkingPrefix starts each line of narration known to be thinking when
// the output is not coloured.
const thinkingPrefix = "[thinking] "

// human is the output for people.
//
// The text of every artifact goes to stdout as its updates arrive, in whole
// characters, and at the end the answer with its citations: stdout holds
// only what a person would paste. Everything else goes to stderr: the
// states, the notes, the summary, the markers. The stream only says that
// an artifact was intermediate thinking when it closes it, so narration
// that streamed before its close was shown as plain text; the close is then
// marked on stderr by a line that says the text above was thinking, dimmed
// on a terminal. Text already known to be thinking when it arrives goes to
// stderr, dimmed on a terminal, and with each line prefixed "[thinking] "
// otherwise. When stdout and stderr go to one place, a line on either first
// ends the other's open line, so that lines never run together. All that
// the agent sent (texts, ids, messages, errors that quote them) goes
// through the stream's screen, which on a terminal shows its control
// characters visibly; the tool's own styles are added around it.
type human struct {
	out, errw          io.Writer
	outColor, errColor bool
	// outScreen and errScreen show the agent's data on stdout and stderr.
	outScreen, errScreen screen
	// shared is true when stdout and stderr go to the same terminal, file
	// or pipe: a line on one then first ends the open line on the other.
	shared bool

	cur     *reconstruct.Artifact // the artifact whose text was shown last
	midLine bool                  // stdout's last byte is not a line end
	errMid  bool                  // stderr's last byte is not a line end
	// plain holds the artifacts whose text was shown before they were
	// known as thinking.
	plain     map[*reconstruct.Artifact]bool
	lastState parser.TaskState
	notes     int
}

func newHuman(out, errw io.Writer, outColor, errColor, shared bool, outScreen, errScreen screen) *human {
	return &human{out: out, errw: errw, outColor: outColor, errColor: errColor, shared: shared,
		outScreen: outScreen, errScreen: errScreen, plain: make(map[*reconstruct.Artifact]bool)}
}

func (h *human) frame(*sse.Frame, *parser.Event, error) {}

// style wraps s in an ANSI style when on is true.
func style(on bool, code, s string) string {
	if !on || s == "" {
		return s
	}
	return code + s + ansiReset
}

// endLine ends the text line on stdout, if one is open.
func (h *human) endLine() {
	if h.midLine {
		io.WriteString(h.out, "\n")
		h.midLine = false
	}
}

// endErrLine ends the line of thinking text on stderr, if one is open.
func (h *human) endErrLine() {
	if h.errMid {
		io.WriteString(h.errw, "\n")
		h.errMid = false
	}
}

// toOut prepares a write to stdout: with a shared output, stderr's open
// line is ended first.
func (h *human) toOut() {
	if h.shared {
		h.endErrLine()
	}
}

// toErr prepares a write to stderr: with a shared output, stdout's open
// line is ended first.
func (h *human) toErr() {
	if h.shared {
		h.endLine()
	}
}

// errLine writes one line to stderr.
func (h *human) errLine(s string) {
	h.toErr()
	h.endErrLine()
	io.WriteString(h.errw, s+"\n")
}

func (h *human) update(u *reconstruct.Update) {
	switch u.Kind {
	case reconstruct.UpdateText:
		h.text(u.Artifact, u.Text, false)
	case reconstruct.UpdateReplaced:
		h.text(u.Artifact, u.Text, true)
	case reconstruct.UpdateSealed:
		a := u.Artifact
		if a.Thinking && h.plain[a] {
			if h.errColor {
				h.errLine(style(true, ansiDim, "╰─ thinking: the narration above is not the answer"))
			} else {
				h.errLine(thinkingPrefix + "^ the narration above was intermediate thinking, not the answer")
			}
		}
	case reconstruct.UpdateState:
		if u.State == h.lastState && u.Message == nil {
			return
		}
		h.lastState = u.State
		line := h.stateName(u.State)
		if u.Message != nil {
			if t := messageText(u.Message); t != "" {
				line += " " + indent(h.errScreen.str(t))
			}
		}
		h.errLine(line)
	}
}

// text shows new text of artifact a, or its replacing text: on stdout,
// or on stderr when a is known to be thinking.
func (h *human) text(a *reconstruct.Artifact, t []byte, replaced bool) {
	if a != h.cur || replaced {
		h.endLine()
		h.endErrLine()
		if h.cur != nil && a != h.cur && h.plain[h.cur] && !a.Thinking {
			h.toOut()
			io.WriteString(h.out, "\n")
		}
		h.cur = a
		if replaced {
			h.errLine(style(h.errColor, ansiDim, "[replaced: the artifact's text is now]"))
		}
	}
	if len(t) == 0 {
		return
	}
	if !a.Thinking {
		h.toOut()
		h.plain[a] = true
		h.out.Write(h.outScreen.bytes(t))
		h.midLine = t[len(t)-1] != '\n'
		return
	}
	// Known thinking: on stderr, set apart line by line.
	h.toErr()
	for len(t) > 0 {
		line := t
		if i := bytes.IndexByte(t, '\n'); i >= 0 {
			line = t[:i+1]
		}
		t = t[len(line):]
		if !h.errMid && !h.errColor {
			io.WriteString(h.errw, thinkingPrefix)
		}
		if h.errColor {
			body := bytes.TrimSuffix(line, []byte("\n"))
			io.WriteString(h.errw, style(true, ansiDim, string(h.errScreen.bytes(body))))
			if len(body) < len(line) {
				io.WriteString(h.errw, "\n")
			}
		} else {
			h.errw.Write(h.errScreen.bytes(line))
		}
		h.errMid = line[len(line)-1] != '\n'
	}
}

// stateName returns the state's name, coloured by outcome on a terminal.
func (h *human) stateName(s parser.TaskState) string {
	name := "● " + s.String()
	if s == parser.TaskStateUnspecified {
		name = "● no state"
	}
	code := ansiCyan
	switch {
	case s == parser.TaskStateCompleted:
		code = ansiGreen
	case s.Interrupted():
		code = ansiYellow
	case s.Terminal():
		code = ansiRed
	}
	return style(h.errColor, code, name)
}

// note tells msg, which may quote the agent's data, on stderr.
func (h *human) note(msg string) {
	h.notes++
	h.errLine(style(h.errColor, ansiYellow, "↻ "+h.errScreen.str(msg)))
}

// finish shows the answer with its citations, then the final state, the
// usage, the diagnostics and the error.
func (h *human) finish(res *reconstruct.Result, err error) {
	h.endLine()
	h.endErrLine()
	if res != nil && res.Answer != nil && len(res.Answer.Citations) > 0 {
		a := res.Answer
		h.errLine(style(h.errColor, ansiDim, "── answer with citations ──"))
		io.WriteString(h.out, "\n")
		text := a.Text()
		out := citations.AppendRender(nil, text, outsideSequences(text, a.Citations), citations.Footnotes)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		h.out.Write(h.outScreen.bytes(out))
		for i := range a.Citations {
			io.WriteString(h.out, style(h.outColor, ansiDim, h.outScreen.str(citedLine(&a.Citations[i])))+"\n")
		}
	}
	if res != nil {
		h.summary(res)
	}
	if err != nil {
		h.errLine(style(h.errColor, ansiRed+ansiBold, "error: ") + h.errScreen.str(describeError(err)))
		var trunc *reconstruct.TruncatedError
		if errors.As(err, &trunc) && len(trunc.TaskID) > 0 {
			hint := "resume with: a2astream --subscribe " + string(trunc.TaskID)
			if len(trunc.LastEventID) > 0 {
				hint += " --last-event-id " + string(trunc.LastEventID)
			}
			h.errLine("  " + h.errScreen.str(hint) + " URL")
		}
	}
}

// summary writes the final state and what came with it to stderr.
func (h *human) summary(res *reconstruct.Result) {
	var b strings.Builder
	b.WriteString(h.stateName(res.State))
	if res.State == parser.TaskStateUnspecified && res.Message != nil && len(res.TaskID) == 0 {
		b.Reset()
		b.WriteString(style(h.errColor, ansiGreen, "● direct message reply"))
	}
	if len(res.TaskID) > 0 {
		b.WriteString("  task " + h.errScreen.str(string(res.TaskID)))
	}
	h.errLine("── final: " + b.String())
	if res.StatusMessage != nil && res.State != parser.TaskStateWorking {
		if t := messageText(res.StatusMessage); t != "" {
			h.errLine("   message: " + indent(h.errScreen.str(t)))
		}
	}
	if res.Answer != nil {
		n := len(res.Answer.Citations)
		h.errLine("   answer: " + strconv.Itoa(len(res.Answer.Text())) + " byte" + plural(len(res.Answer.Text())) + ", " + strconv.Itoa(n) + " citation" + plural(n) + " (artifact " + h.errScreen.str(string(res.Answer.ArtifactID)) + ")")
	}
	if th := res.Thinking(); len(th) > 0 {
		h.errLine("   thinking: " + strconv.Itoa(len(th)) + " artifact" + plural(len(th)))
	}
	if u := res.Usage; u != nil {
		h.errLine("   usage: " + h.errScreen.str(usageLine(u)))
	}
	if len(res.LastEventID) > 0 {
		h.errLine("   last event id: " + h.errScreen.str(string(res.LastEventID)))
	}
	for i := range res.Diagnostics {
		h.errLine(style(h.errColor, ansiYellow, "   diagnostic: ") + h.errScreen.str(res.Diagnostics[i].Error()))
	}
	if res.Answer != nil {
		for i := range res.Answer.CitationDiagnostics {
			h.errLine(style(h.errColor, ansiYellow, "   citation: ") + h.errScreen.str(res.Answer.CitationDiagnostics[i].Error()))
		}
	}
}

// citedLine says what one citation points at: its number, offset,
// locator and a preview of the target.
func citedLine(c *citations.Resolved) string {
	s := "  [" + strconv.Itoa(c.Number) + "] at " + strconv.Itoa(c.RuneIndex)
	if loc := c.Locator.AppendText(nil); len(loc) > 0 {
		s += " " + string(loc)
	}
	if c.Err != nil {
		return s + " ✗ " + c.Err.Error()
	}
	return s + " → " + preview(c.Target, 100)
}

// preview returns b on one line, cut to at most n characters (whole
// ones) with an ellipsis.
func preview(b []byte, n int) string {
	var sb strings.Builder
	space := false
	count := 0
	for _, r := range string(b) {
		if r == '\n' || r == '\r' || r == '\t' || r == ' ' {
			space = true
			continue
		}
		if space && sb.Len() > 0 {
			sb.WriteByte(' ')
			count++
		}
		space = false
		if count >= n {
			sb.WriteString("…")
			break
		}
		sb.WriteRune(r)
		count++
	}
	return sb.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// usageLine writes the fields of $usage that were present.
func usageLine(u *parser.Usage) string {
	var parts []string
	add := func(f parser.UsageField, s string) {
		if u.Fields&f != 0 {
			parts = append(parts, s)
		}
	}
	add(parser.UsageModel, "model "+string(u.Model))
	add(parser.UsageInputTokens, strconv.FormatInt(u.InputTokens, 10)+" input")
	add(parser.UsageCachedInputTokens, strconv.FormatInt(u.CachedInputTokens, 10)+" cached input")
	add(parser.UsageCacheCreationInputTokens, strconv.FormatInt(u.CacheCreationInputTokens, 10)+" cache write")
	add(parser.UsageOutputTokens, strconv.FormatInt(u.OutputTokens, 10)+" output")
	add(parser.UsageTotalTokens, strconv.FormatInt(u.TotalTokens, 10)+" total tokens")
	add(parser.UsageCredits, strconv.FormatFloat(u.Credits, 'f', -1, 64)+" credits")
	return strings.Join(parts, " · ")
}

// messageText returns the text of a status message.
func messageText(m *parser.Message) string {
	return strings.TrimSpace(string(reconstruct.MessageText(m)))
}

// indent indents the lines after the first of a multi-line text.
func indent(s string) string {
	return strings.ReplaceAll(s, "\n", "\n    ")
}

// describeError says what went wrong, with the fields of a server error
// spelled out.
func describeError(err error) string {
	var api *parser.APIError
	if errors.As(err, &api) {
		return describeAPIError(api)
	}
	var httpErr *reconstruct.HTTPError
	if errors.As(err, &httpErr) {
		s := httpErr.Error()
		if len(httpErr.Body) > 0 {
			s += ": " + strings.TrimSpace(string(httpErr.Body[:min(len(httpErr.Body), 200)]))
		}
		return s
	}
	return err.Error()
}

// describeAPIError says what the server's error is: its binding, its code
// with the REST status ("401 UNAUTHENTICATED", or "code -32001" without a
// status), its reason when it is not the status again, and its message.
func describeAPIError(api *parser.APIError) string {
	var b strings.Builder
	b.WriteString("the server answered with an error")
	if api.Binding != 0 {
		b.WriteString(" (" + api.Binding.String() + ")")
	}
	code := ""
	switch {
	case api.Status != "" && api.Code != 0:
		code = strconv.FormatInt(api.Code, 10) + " " + api.Status
	case api.Status != "":
		code = api.Status
	case api.Code != 0:
		code = "code " + strconv.FormatInt(api.Code, 10)
	}
	if api.Reason != "" && api.Reason != api.Status {
		code += " (" + api.Reason + ")"
	}
	if code = strings.TrimSpace(code); code != "" {
		b.WriteString(": " + code)
	}
	if api.Message != "" {
		b.WriteString(": " + api.Message)
	}
	return b.String()
}
