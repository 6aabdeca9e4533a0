package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
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
				assert.NotContains(t, apart.stdout, m.mark, "stdout")
			}
			if c.answer != "" {
				assert.Contains(t, apart.stdout, c.answer, "stdout")
			}
			assert.NotEmpty(t, apart.stderr, "nothing on stderr")

			var sleeps []time.Duration
			var both bytes.Buffer
			code := run(c.args, bytes.NewReader(c.stdin), &both, &both, testEnv(&sleeps))
			assert.Equal(t, apart.code, code, "exit code with one buffer and apart")
			for _, line := range strings.Split(both.String(), "\n") {
				for _, m := range stderrMarks {
					if !strings.Contains(line, m.mark) {
						continue
					}
					ok := false
					for _, p := range m.prefixes {
						ok = ok || strings.HasPrefix(line, p)
					}
					assert.True(t, ok, "%q runs into another line: %q\nwhole output:\n%s", m.mark, line, both.String())
				}
			}
			// The same lines, each whole, as apart, but for a line of
			// stdout that a line of stderr comes into (the note of a
			// resubscription while the answer streams), ended there and
			// carried on after it.
			assert.Equal(t, sortedLines(apart.stdout+apart.stderr), sortedLines(rejoin(both.String(), apart.stdout+apart.stderr)), "the lines of one buffer (+) and of stdout and stderr apart (-)")
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

// rejoin returns out, stdout and stderr in one buffer, with each line that
// is not a line of apart (stdout and stderr apart) joined to the next such
// line when the two make one: a line of stdout that a line of stderr came
// into, cut in two there.
func rejoin(out, apart string) string {
	whole := map[string]bool{}
	for _, l := range strings.Split(apart, "\n") {
		whole[l] = true
	}
	lines := strings.Split(out, "\n")
	for i := 0; i < len(lines); i++ {
		if whole[lines[i]] {
			continue
		}
		for j := i + 1; j < len(lines); j++ {
			if !whole[lines[j]] {
				if whole[lines[i]+lines[j]] {
					lines[i] += lines[j]
					lines = slices.Delete(lines, j, j+1)
				}
				break
			}
		}
	}
	return strings.Join(lines, "\n")
}
