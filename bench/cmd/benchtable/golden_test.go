package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/bench"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// runMainEnv, set in the environment of this test binary, makes it run the
// command's main instead of the tests (TestMainFrom's child process).
const runMainEnv = "BENCHTABLE_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// The saved runs the golden tests report on. testdata/run.txt is the
// output of one `go test -bench '^Benchmark(Read|Ratio|OneByteEvent)$'
// -benchtime=1x` run followed by a second round, the same lines with
// their times moved by a few per cent (so that medians and ranges have two
// samples). testdata/base.txt is what -raw writes with -base: two rounds,
// each the base's lines after a "# base" line, then this tree's; the
// base's lines are those of run.txt on the peers' corpora, times moved,
// with BenchmarkPipelineRatio as an older base has it.
const (
	runFile  = "testdata/run.txt"
	baseFile = "testdata/base.txt"
	// noBase is the base directory named in base.txt: it does not exist,
	// so that its commit reads "unknown commit" wherever the test runs.
	noBase = "testdata/no-such-base"
)

// hostSentence is header1's sentence: when the run was taken and on what
// machine, the one part of the output that depends on the host and the
// clock.
var hostSentence = regexp.MustCompile(`Taken .*? at the start\. `)

// hostFree replaces header1's sentence in out with a fixed one, so that a
// golden file holds on any machine.
func hostFree(t *testing.T, out string) string {
	t.Helper()
	require.Len(t, hostSentence.FindAllString(out, -1), 1, "one sentence on the host")
	return hostSentence.ReplaceAllLiteralString(out, "Taken (when and where). ")
}

// checkGolden compares got with the file golden, or rewrites the file
// with -update.
func checkGolden(t *testing.T, golden, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), got, "the output differs from %s (rewrite it with -update only when the change is meant)", golden)
}

// statsOf summarizes the benchmark lines of a saved run.
func statsOf(t *testing.T, file string) map[string]stats {
	t.Helper()
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	return summarizeAll(parseLines(string(b)))
}

// goldenMatrix is a correctness matrix with every kind of cell: a2astream
// right everywhere, a peer wrong with a detail that holds a "|" and runs
// past 90 bytes on every third corpus, another wrong with a short detail,
// the limits not applicable, and one peer missing on one corpus.
func goldenMatrix() []bench.Verdict {
	var m []bench.Verdict
	for i, im := range bench.Impls() {
		for j, c := range bench.Corpora() {
			v := bench.Verdict{Impl: im.Name, Corpus: c.Name, OK: true, Detail: "all events right"}
			switch {
			case im.Ours:
			case im.Level == bench.LevelLimit:
				v.NA = true
			case i%3 == 0 && j%3 == 0:
				v.OK, v.Detail = false, `error: "token | too long" after 19996 events of 19998; the rest of the stream was not read, nor its last frames`
			case i%4 == 1 && j%2 == 1:
				v.OK, v.Detail = false, "CR-only line ends not recognised"
			case i%5 == 2 && j == 1:
				continue
			}
			m = append(m, v)
		}
	}
	return m
}

// TestReportGolden checks the whole report on a saved run byte for byte:
// the targets, the correctness matrix, the corpora, each speed table and
// the scaling table.
func TestReportGolden(t *testing.T) {
	var b strings.Builder
	start := time.Date(2026, 12, 6, 4, 0, 0, 0, time.UTC)
	h := header{start: start, end: start.Add(95 * time.Minute), load: "1.00 2.00 3.00", count: 2, benchtime: "1x"}
	report(&b, statsOf(t, runFile), goldenMatrix(), h)
	checkGolden(t, "testdata/report.golden.md", hostFree(t, b.String()))
}

// TestCompareGolden checks the comparison of two runs byte for byte when
// both sides ran the same benchmarks (here, the same run): the targets of
// each side, the pipeline's ratio run in turn (BenchmarkRatio on both),
// and the before/after table of every corpus and reads both measured.
// TestMainFrom checks it with an older base.
func TestCompareGolden(t *testing.T) {
	start := time.Date(2026, 12, 6, 4, 0, 0, 0, time.UTC)
	h := header{start: start, end: start, load: "1.00 2.00 3.00", count: 2, benchtime: "1x", base: noBase, from: runFile}
	st := statsOf(t, runFile)
	var b strings.Builder
	compare(&b, st, st, h)
	checkGolden(t, "testdata/compare-same.golden.md", hostFree(t, b.String()))
}

// runMain runs the command's main in a child process (this test binary,
// told so by runMainEnv) with args, and returns its standard output.
func runMain(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "benchtable %s: %s", strings.Join(args, " "), stderr.String())
	return string(out)
}

// TestMainFrom checks the command on saved runs (-from): with a run of
// this tree alone it prints what report prints for the run's lines and
// the correctness matrix, and writes the chart of those lines; with a run
// that has a base's lines (-raw with -base: each round's base lines after
// a "# base" line, up to their "ok" line) it prints the comparison of the
// two, byte for byte as before.
func TestMainFrom(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "chart.svg")
	got := runMain(t, "-from", runFile, "-svg", svg)

	st := statsOf(t, runFile)
	var want strings.Builder
	start := time.Now().UTC()
	report(&want, st, bench.Matrix(bench.Corpora()), header{start: start, end: start, count: 5, benchtime: "300ms", from: runFile})
	assert.Equal(t, hostFree(t, want.String()), hostFree(t, got), "main -from prints report's output")
	chart, err := os.ReadFile(svg)
	require.NoError(t, err)
	checkGolden(t, "testdata/chart.golden.svg", string(chart))

	got = runMain(t, "-from", baseFile)
	checkGolden(t, "testdata/compare.golden.md", hostFree(t, got))
}
