//go:build linux

package main

// This file is structured as: the hostile runs (an agent's text with
// control characters in every place the output for people shows), the
// check of what a terminal receives, then the tests: the table over every
// C0 and C1 character and the common escape families on a
// pseudo-terminal, the bytes kept exact off a terminal, --raw, --visible,
// the JSON outputs, the process as a user runs it, and isTerminal.

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jsonText writes s as the content of a JSON string the way an agent
// might: control characters as \u escapes, everything else (C1 characters
// and ill-formed UTF-8 included) as it is.
func jsonText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteString(strconv.FormatUint(uint64(c)>>4, 16) + strconv.FormatUint(uint64(c)&15, 16))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

const hostileTask = "task.hostile"

// hostileMessage is a status message with text.
func hostileMessage(text string) string {
	return `{"role":"ROLE_AGENT","parts":[{"text":"` + jsonText(text) + `"}]}`
}

// hostileDeltas are the artifact updates of one answer streamed in
// deltas; the last one closes it and cites the data part "g"+cited at
// byte offset at of the joined text (read with --unit bytes).
func hostileDeltas(taskID string, deltas []string, at int, cited string) string {
	var b strings.Builder
	for i, d := range deltas {
		last := i == len(deltas)-1
		part := `{"text":"` + jsonText(d) + `"}`
		if last {
			part = `{"text":"` + jsonText(d) + `","metadata":{"citations":[{"data_part_id":"` + jsonText("g"+cited) + `","offset":` + strconv.Itoa(at) + `,"locator":"/x"}]}},` +
				`{"data":{"x":"` + jsonText(cited) + `"},"metadata":{"dataPartId":"` + jsonText("g"+cited) + `"}}`
		}
		b.WriteString(sseEvent(strconv.Itoa(i+2), `{"artifactUpdate":{"taskId":"`+jsonText(taskID)+`","append":`+strconv.FormatBool(i > 0)+
			`,"lastChunk":`+strconv.FormatBool(last)+`,"artifact":{"artifactId":"a1","parts":[`+part+`]}}}`))
	}
	return b.String()
}

// hostileRuns are three runs that carry payload wherever the output for
// people shows the stream's data: a completed run (the streamed text, the
// footnoted answer with its marker, the footnote's part id, the cited
// data, the status messages), a run ended by the server's error (its
// message) and a cut run (its task id in the summary and the resume
// hint, a diagnostic naming an artifact).
func hostileRuns(deltas []string, at int, payload string) map[string]string {
	working := sseEvent("1", `{"task":{"id":"`+hostileTask+`","status":{"state":"TASK_STATE_WORKING","message":`+hostileMessage(payload)+`}}}`)
	cutTask := "task." + payload
	return map[string]string{
		"completed": working + hostileDeltas(hostileTask, deltas, at, payload) +
			sseEvent("9", `{"statusUpdate":{"taskId":"`+hostileTask+`","status":{"state":"TASK_STATE_COMPLETED","message":`+hostileMessage(payload)+`}}}`),
		"server error": working + hostileDeltas(hostileTask, deltas[:1], 0, payload) +
			"event: error\ndata: " + `{"error":{"code":500,"status":"INTERNAL","message":"` + jsonText(payload) + `"}}` + "\n\n",
		"cut": sseEvent("1", `{"task":{"id":"`+jsonText(cutTask)+`","status":{"state":"TASK_STATE_WORKING"}}}`) +
			sseEvent("2", `{"artifactUpdate":{"taskId":"`+jsonText(cutTask)+`","append":true,"artifact":{"artifactId":"`+jsonText("a"+payload)+`","parts":[{"text":"x"}]}}}`),
	}
}

// checkShown fails the test when what a terminal received holds a
// control character other than newline and tab, C0, DEL or C1, a
// bidirectional formatting character, or ill-formed UTF-8, after removing
// the tool's own styles when styled.
func checkShown(t *testing.T, screen []byte, styled bool) {
	t.Helper()
	if styled {
		screen = ownStyles.ReplaceAll(screen, nil)
	}
	for i := 0; i < len(screen); {
		r, size := utf8.DecodeRune(screen[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			require.Failf(t, "ill-formed UTF-8 reached the terminal", "byte %#x at %d in:\n%q", screen[i], i, screen)
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f:
			require.Failf(t, "a control character reached the terminal", "%U at %d in:\n%q", r, i, screen)
		case bidiControls[r]:
			require.Failf(t, "a bidirectional formatting character reached the terminal", "%U at %d in:\n%q", r, i, screen)
		}
		i += size
	}
}

// ownStyles are the tool's own ANSI styles.
var ownStyles = regexp.MustCompile("\x1b\\[(?:0|1|2|31|32|33|36)m")

// ptyRun runs the command in this process with stdout and stderr on a
// pseudo-terminal (stdout on outFile, stderr on errFile, when they are not
// nil), the terminals found as main finds them, and returns what the
// terminal received.
func ptyRun(t *testing.T, args []string, stdin string, noColor bool, outFile, errFile *os.File) ([]byte, int) {
	t.Helper()
	p := openPTY(t)
	out, errw := p.tty, p.tty
	if outFile != nil {
		out = outFile
	}
	if errFile != nil {
		errw = errFile
	}
	in, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer in.Close()
	e := fileEnv(in, out, errw)
	e.getenv = func(k string) string {
		if k == "NO_COLOR" && noColor {
			return "1"
		}
		return ""
	}
	e.jitter = -1
	code := run(args, strings.NewReader(stdin), out, errw, e)
	return p.screen(t), code
}

// controlCases are the table of TestTerminalShowsControls: every C0 and
// C1 character, and the common escape families, streamed in deltas.
type controlCase struct {
	name   string
	deltas []string // the answer's text as streamed
	at     int      // the byte offset of the citation in the joined text
	// marked is what the footnote marker follows in the answer on a
	// terminal: the sequence shown; "" when not checked.
	marked string
}

func controlCases() []controlCase {
	var cases []controlCase
	for c := 0; c < 0x20; c++ {
		cases = append(cases, controlCase{name: "C0 " + strconv.Itoa(c), deltas: []string{"a" + string(rune(c)) + "b"}, at: 1})
	}
	cases = append(cases, controlCase{name: "DEL", deltas: []string{"a\x7fb"}, at: 1})
	for c := rune(0x80); c < 0xa0; c++ {
		cases = append(cases,
			controlCase{name: "C1 " + strconv.Itoa(int(c)), deltas: []string{"a" + string(c) + "b"}, at: 1},
			controlCase{name: "C1 byte " + strconv.Itoa(int(c)), deltas: []string{"a" + string([]byte{byte(c)}) + "b"}, at: 1})
	}
	for _, c := range []rune{0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069} {
		cases = append(cases, controlCase{name: "bidi " + strconv.FormatInt(int64(c), 16), deltas: []string{"a" + string(c) + "b"}, at: 1})
	}
	return append(cases,
		controlCase{"CSI", []string{"hi \x1b[2J end"}, 5, "␛[2J"},
		controlCase{"C1 CSI", []string{"hi \u009b31m end"}, 6, `\u009b31m`},
		controlCase{"OSC 0 with BEL", []string{"hi \x1b]0;PWNED\x07 end"}, 6, "␛]0;PWNED␇"},
		controlCase{"OSC 8 link", []string{"see \x1b]8;;https://evil.example/\x1b\\here\x1b]8;;\x1b\\ end"}, 8, "␛]8;;https://evil.example/␛\\"},
		controlCase{"OSC 52 clipboard", []string{"hi \x1b]52;c;ZXZpbA==\x07 end"}, 9, "␛]52;c;ZXZpbA==␇"},
		controlCase{"DCS", []string{"hi \x1bP1$qm\x1b\\ end"}, 5, "␛P1$qm␛\\"},
		controlCase{"APC", []string{"hi \x1b_Gf=100;AAAA\x1b\\ end"}, 5, "␛_Gf=100;AAAA␛\\"},
		controlCase{"the issue's text", []string{"hi \x1b]0;PWNED\x07 \x1b[2J\x1b]52;c;ZXZpbA==\x07 \u009b2J end"}, 6, "␛]0;PWNED␇"},
		controlCase{"a bare ESC at the end of a delta", []string{"hi \x1b", "[2J end"}, 4, "␛[2J"},
		controlCase{"a sequence split across deltas", []string{"hi \x1b]0;PW", "NED\x07 end"}, 7, "␛]0;PWNED␇"},
		controlCase{"Trojan Source: RLO and PDF", []string{"take 5\u202e01 gm\u202c daily"}, 9, `5\u202e`},
		controlCase{"RLI split across deltas", []string{"hi \xe2\x81", "\xa7dose\u2069 end"}, 3, ""},
		controlCase{"RLO split after its first byte", []string{"hi \xe2", "\x80\xae end"}, 3, ""},
		controlCase{"C1 split across deltas", []string{"hi \xc2", "\x9b2J end"}, 5, `\u009b2J`},
	)
}

// controlCaseNamed returns the case of controlCases with this name.
func controlCaseNamed(t *testing.T, name string) controlCase {
	t.Helper()
	for _, tc := range controlCases() {
		if tc.name == name {
			return tc
		}
	}
	require.FailNow(t, "no control case "+name)
	return controlCase{}
}

// TestTerminalShowsControls runs the hostile runs of every case on a
// pseudo-terminal: what the terminal receives holds no control character
// the agent sent, in the text, the answer, the footnotes, the status
// messages, the errors and the resume hint; the footnote marker follows
// the whole sequence; and the tool's own colours still work.
func TestTerminalShowsControls(t *testing.T) {
	for _, tc := range controlCases() {
		t.Run(tc.name, func(t *testing.T) {
			payload := strings.Join(tc.deltas, "")
			for name, stream := range hostileRuns(tc.deltas, tc.at, payload) {
				screen, code := ptyRun(t, []string{"--unit", "bytes", "-"}, stream, true, nil, nil)
				checkShown(t, screen, false)
				if name == "completed" {
					assert.Equal(t, exitOK, code, "exit code:\n%s", screen)
					if tc.marked != "" {
						assert.Contains(t, string(screen), tc.marked+"[^1]", "the marker follows the sequence")
					}
				}
			}
		})
	}
	t.Run("colours", func(t *testing.T) {
		tc := controlCaseNamed(t, "the issue's text")
		screen, code := ptyRun(t, []string{"--unit", "bytes", "-"}, hostileRuns(tc.deltas, tc.at, tc.deltas[0])["completed"], false, nil, nil)
		assert.Equal(t, exitOK, code)
		assert.Contains(t, string(screen), ansiGreen+"● TASK_STATE_COMPLETED"+ansiReset, "the tool's own colours")
		checkShown(t, screen, true)
	})
}

// TestTerminalOnlyWhereATerminalIs sends stdout to a file and stderr to a
// pseudo-terminal: the file gets the agent's bytes exactly, stderr shows
// them visibly; --visible shows them visibly in the file too.
func TestTerminalOnlyWhereATerminalIs(t *testing.T) {
	tc := controlCaseNamed(t, "a sequence split across deltas")
	payload := strings.Join(tc.deltas, "")
	stream := hostileRuns(tc.deltas, tc.at, payload)["completed"]
	for _, visible := range []bool{false, true} {
		f, err := os.Create(filepath.Join(t.TempDir(), "out.txt"))
		require.NoError(t, err)
		args := []string{"--unit", "bytes", "-"}
		if visible {
			args = append(args, "--visible")
		}
		screen, code := ptyRun(t, args, stream, true, f, nil)
		require.NoError(t, f.Close())
		require.Equal(t, exitOK, code, "%s", screen)
		checkShown(t, screen, false)
		assert.Contains(t, string(screen), "TASK_STATE_COMPLETED hi ␛]0;PWNED␇ end", "the status message on stderr")
		out, err := os.ReadFile(f.Name())
		require.NoError(t, err)
		if visible {
			checkShown(t, out, false)
			assert.True(t, strings.HasPrefix(string(out), "hi ␛]0;PWNED␇ end\n"), "--visible: %q", out)
			continue
		}
		assert.True(t, strings.HasPrefix(string(out), payload+"\n"), "the streamed text as sent: %q", out)
		assert.Contains(t, string(out), "hi \x1b]0;PWNED\x07[^1] end", "the answer as sent, the marker after the sequence")
	}
}

// TestTerminalStderrFile sends stderr to a file and stdout to a
// pseudo-terminal: the terminal shows the text visibly, the file gets the
// status messages as sent.
func TestTerminalStderrFile(t *testing.T) {
	tc := controlCaseNamed(t, "a sequence split across deltas")
	payload := strings.Join(tc.deltas, "")
	f, err := os.Create(filepath.Join(t.TempDir(), "err.txt"))
	require.NoError(t, err)
	screen, code := ptyRun(t, []string{"--unit", "bytes", "-"}, hostileRuns(tc.deltas, tc.at, payload)["completed"], true, nil, f)
	require.NoError(t, f.Close())
	require.Equal(t, exitOK, code, "%s", screen)
	checkShown(t, screen, false)
	assert.True(t, strings.HasPrefix(string(screen), "hi ␛]0;PWNED␇ end\n"), "the text shown: %q", screen)
	errText, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	assert.Contains(t, string(errText), "TASK_STATE_COMPLETED "+payload+"\n", "the status message as sent")
}

// TestTerminalRaw checks --raw: the agent's bytes reach the terminal as
// sent, and the footnote marker still follows the whole sequence.
func TestTerminalRaw(t *testing.T) {
	for _, tc := range controlCases() {
		if tc.marked == "" {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			payload := strings.Join(tc.deltas, "")
			screen, code := ptyRun(t, []string{"--raw", "--unit", "bytes", "-"}, hostileRuns(tc.deltas, tc.at, payload)["completed"], true, nil, nil)
			require.Equal(t, exitOK, code, "%q", screen)
			assert.Contains(t, string(screen), "\n"+payload+"\n", "the streamed text as sent")
			end := tc.at
			for end < len(payload) && !strings.HasSuffix(visibleString(payload[:end]), tc.marked) {
				end++
			}
			require.True(t, strings.HasSuffix(visibleString(payload[:end]), tc.marked), "the sequence %q in %q", tc.marked, payload)
			assert.Contains(t, string(screen), payload[:end]+"[^1]"+payload[end:], "the marker after the sequence")
		})
	}
}

// visibleString is s as a terminal shows it.
func visibleString(s string) string { return string(appendVisible(nil, []byte(s))) }

// TestTerminalJSONOutputs checks that --json, --frames and --events, which
// write the agent's text as JSON escapes, keep every control character
// and bidirectional formatting character off a terminal, in their notes
// and errors on stderr too.
func TestTerminalJSONOutputs(t *testing.T) {
	for _, caseName := range []string{"the issue's text", "Trojan Source: RLO and PDF", "RLI split across deltas"} {
		tc := controlCaseNamed(t, caseName)
		for _, mode := range []string{"--json", "--frames", "--events"} {
			for name, stream := range hostileRuns(tc.deltas, tc.at, strings.Join(tc.deltas, "")) {
				t.Run(caseName+" "+mode+" "+name, func(t *testing.T) {
					screen, _ := ptyRun(t, []string{mode, "-"}, stream, false, nil, nil)
					require.NotEmpty(t, screen)
					checkShown(t, screen, false)
				})
			}
		}
	}
}

// TestTerminalProcess runs the command as a user does, a process whose
// stdout and stderr are a terminal, on the stream: nothing the
// agent sent reaches the terminal as a control character.
func TestTerminalProcess(t *testing.T) {
	tc := controlCaseNamed(t, "the issue's text")
	file := filepath.Join(t.TempDir(), "f.sse")
	require.NoError(t, os.WriteFile(file, []byte(hostileRuns(tc.deltas, tc.at, tc.deltas[0])["completed"]), 0o644))
	p := openPTY(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "A2ASTREAM_TEST_MAIN=1", "NO_COLOR=1", "A2ASTREAM_TEST_ARGS="+file)
	cmd.Stdout, cmd.Stderr = p.tty, p.tty
	require.NoError(t, cmd.Run())
	screen := p.screen(t)
	checkShown(t, screen, false)
	assert.Contains(t, string(screen), "hi ␛]0;PWNED␇ ␛[2J␛]52;c;ZXZpbA==␇ \\u009b2J end")
}

// TestIsTerminal checks isTerminal with the terminal's ioctl: true for a
// pseudo-terminal, false for a pipe, a file and /dev/null (a character
// device that is no terminal).
func TestIsTerminal(t *testing.T) {
	p := openPTY(t)
	assert.True(t, isTerminal(p.tty), "a pseudo-terminal")
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()
	assert.False(t, isTerminal(w), "a pipe")
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, isTerminal(f), "a file")
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer null.Close()
	assert.False(t, isTerminal(null), "/dev/null")
}
