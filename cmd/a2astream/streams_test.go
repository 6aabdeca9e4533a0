package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"
)

// stderrMarks are the starts of what goes to stderr in the human output,
// each with the prefixes a line that holds it may have.
var stderrMarks = []struct {
	mark     string
	prefixes []string
}{
	{"● ", []string{"● ", "── final: ● "}},
	{"[thinking] ^", []string{"[thinking] ^"}},
	{"── ", []string{"── "}},
	{"↻ ", []string{"↻ "}},
	{"error: ", []string{"error: "}},
	{"resume with", []string{"  resume with"}},
}

// outputCase is one run whose stdout and stderr are checked.
type outputCase struct {
	name  string
	args  []string
	stdin []byte
	// answer is text stdout must hold.
	answer string
}

func outputCases(t *testing.T) []outputCase {
	t.Helper()
	var cases []outputCase
	for _, name := range sampleNames(t) {
		cases = append(cases, outputCase{name: name, args: []string{"-"}, stdin: sample(t, name)})
	}
	fs := frames(sample(t, "completed.sse"))
	cases = append(cases, outputCase{name: "cut in the answer", args: []string{"-"}, stdin: join(fs[:6]), answer: "Asthme intermittent"})
	// A connection cut in the middle of the answer: the resubscription's
	// note comes while the answer's line is open.
	p := planCut(t, sample(t, "thinking-tool-answer.sse"), 17, false)
	a := newAgent(t, reply{body: p.firstPart(), cut: true}, reply{body: p.rest()}, reply{body: p.firstPart(), cut: true}, reply{body: p.rest()})
	cases = append(cases, outputCase{name: "resubscribed", args: []string{"-m", "x", "--retry-delay", "1ms", a.url()}, answer: "eGFR 78"})
	return cases
}

// TestOutputStreams checks where the human output goes. With stdout and
// stderr apart, stdout holds only the text of the artifacts and the answer
// (no state, note, marker, summary or error); with both in one buffer, no
// line of one runs into a line of the other.
func TestOutputStreams(t *testing.T) {
	for _, c := range outputCases(t) {
		t.Run(c.name, func(t *testing.T) {
			apart := runWith(t, c.args, bytes.NewReader(c.stdin), nil)
			for _, m := range stderrMarks {
				if strings.Contains(apart.stdout, m.mark) {
					t.Errorf("stdout holds %q:\n%s", m.mark, apart.stdout)
				}
			}
			if c.answer != "" && !strings.Contains(apart.stdout, c.answer) {
				t.Errorf("stdout lacks %q:\n%s", c.answer, apart.stdout)
			}
			if apart.stderr == "" {
				t.Error("nothing on stderr")
			}

			var sleeps []time.Duration
			var both bytes.Buffer
			code := run(c.args, bytes.NewReader(c.stdin), &both, &both, testEnv(&sleeps))
			if code != apart.code {
				t.Errorf("exit %d with one buffer, %d apart", code, apart.code)
			}
			for _, line := range strings.Split(both.String(), "\n") {
				for _, m := range stderrMarks {
					if !strings.Contains(line, m.mark) {
						continue
					}
					ok := false
					for _, p := range m.prefixes {
						ok = ok || strings.HasPrefix(line, p)
					}
					if !ok {
						t.Errorf("%q runs into another line: %q\nwhole output:\n%s", m.mark, line, both.String())
					}
				}
			}
			// The same lines, each whole, as apart.
			if got, want := sortedLines(both.String()), sortedLines(apart.stdout+apart.stderr); got != want {
				t.Errorf("one buffer holds other lines than stdout and stderr apart:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// sortedLines returns the non-empty lines of s, sorted, one per line.
func sortedLines(s string) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}
