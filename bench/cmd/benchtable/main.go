// Command benchtable runs the whole comparison of package bench and prints
// it as Markdown: the correctness matrix, one speed table per corpus and
// kind of reads (medians of repeated runs, with their spread), the targets
// per corpus judged on pairs run in turn (BenchmarkRatio), and the
// 1-byte-read scaling of large events. With -svg it also writes a chart of
// the throughput per implementation and corpus, the limit marked.
//
//	cd bench && go run ./cmd/benchtable -svg chart.svg > results.md
//
// Flags: -count (rounds of the whole set, so runs of each benchmark,
// default 5), -benchtime (default 300ms), -bench (a filter on the
// benchmarks, default those the report shows), -raw (a file for the plain benchmark output,
// for benchstat), -svg (a file for the chart), -from (a file written by
// -raw: report on its lines instead of running), -base (the bench directory
// of another checkout: each round then runs the base's benchmarks and this
// one's in turn, and the report compares the two; see compare.go). Progress
// goes to standard error. It exits with status 1 when a run fails, not
// when a target is missed: the table says which.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/a2astream/a2astream/bench"
)

// sample is one benchmark result line.
type sample struct {
	ns, cpu, mbs, allocs, bytesOp, events float64
	// ratio is BenchmarkRatio's x (or the old BenchmarkPipelineRatio's
	// pipeline-x), cpuRatio its cpu-x.
	ratio, cpuRatio float64
}

// stats are the medians of a benchmark's samples.
type stats struct {
	n                        int
	ns, nsMin, nsMax         float64
	cpu, mbs, allocs, events float64
	// cpuMin is the least CPU time of the samples.
	cpuMin                    float64
	ratio, ratioMin, ratioMax float64
	// cpuRatio is the median of the cpu-x ratios, with its range.
	cpuRatio, cpuRatioMin, cpuRatioMax float64
	present                            bool
}

// reportFilter is the default -bench: the benchmarks the report shows
// (BenchmarkE2E, over loopback HTTP, has its own command in RESULTS.md).
const reportFilter = `^Benchmark(Read|Ratio|OneByteEvent)$`

// compareFilter is the default -bench of a comparison with -base: the
// speed rows of the corpora that both trees have, and the pipeline's ratio
// run in turn (named PipelineRatio before BenchmarkRatio replaced it).
const compareFilter = `^Benchmark(Read|PipelineRatio|Ratio)$/^(ours-.*|gosse|gosse-json|gosse-fastjson|r3labs|launchdarkly|scanner|fastjson-alone|limit-.*|pipeline-decoder|stream-decoder)$/^(a2a|a2a-crlf|large)$`

// options are the command's flags.
type options struct {
	count                                   int
	benchtime, filter, raw, svg, base, from string
}

// parseFlags reads the command line. The filter defaults to the
// benchmarks the report shows, or with -base to the rows both trees have.
func parseFlags() options {
	var o options
	flag.IntVar(&o.count, "count", 5, "rounds: runs of each benchmark, one per round")
	flag.StringVar(&o.benchtime, "benchtime", "300ms", "go test -benchtime")
	flag.StringVar(&o.filter, "bench", "", "go test -bench (default: the benchmarks the report shows; with -base, the rows both trees have)")
	flag.StringVar(&o.raw, "raw", "", "also write the benchmark lines (benchstat's input) to this file")
	flag.StringVar(&o.svg, "svg", "", "also write the throughput chart (SVG) to this file")
	flag.StringVar(&o.base, "base", "", "the bench directory of another checkout to compare with, run in turn in each round")
	flag.StringVar(&o.from, "from", "", "report on the benchmark lines of this file (written by -raw) instead of running them")
	flag.Parse()
	if o.filter == "" {
		o.filter = reportFilter
		if o.base != "" {
			o.filter = compareFilter
		}
	}
	return o
}

func main() {
	o := parseFlags()
	start := time.Now().UTC()
	load := loadAvg()
	dir := benchDir()
	if o.from != "" {
		reportFrom(o, header{start: start, end: start, load: load, count: o.count, benchtime: o.benchtime, from: o.from})
		return
	}
	var matrix []bench.Verdict
	if o.base == "" {
		matrix = checkAll()
	}
	before, after, lines := runRounds(o, dir)
	end := time.Now().UTC()
	if o.raw != "" {
		if err := os.WriteFile(o.raw, []byte(lines), 0o644); err != nil {
			fail("%v", err)
		}
	}
	writeOutput(o, before, after, matrix, header{start: start, end: end, load: load, count: o.count, benchtime: o.benchtime, base: o.base})
}

// benchDir is the directory of package bench, as go list finds it from
// the working directory; it fails outside the bench module.
func benchDir() string {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", "github.com/a2astream/a2astream/bench").Output()
	if err != nil {
		fail("locating package bench: %v (run from the bench module: cd bench && go run ./cmd/benchtable)", err)
	}
	return strings.TrimSpace(string(out))
}

// checkAll runs the correctness matrix on every corpus, saying so on
// standard error (it takes seconds).
func checkAll() []bench.Verdict {
	fmt.Fprintln(os.Stderr, "benchtable: correctness matrix…")
	return bench.Matrix(bench.Corpora())
}

// reportFrom writes the report on the saved run o.from (-from), or the
// comparison when it holds a base's lines (or -base is given); h is the
// header, without its base.
func reportFrom(o options, h header) {
	b, err := os.ReadFile(o.from)
	if err != nil {
		fail("%v", err)
	}
	var before, after string
	o.base, before, after = splitBase(string(b), o.base)
	var matrix []bench.Verdict
	if o.base == "" {
		matrix = checkAll()
	}
	h.base = o.base
	writeOutput(o, parseLines(before), parseLines(after), matrix, h)
}

// splitBase splits the text of a saved run (written by -raw) into the
// base's lines and this tree's. A base's lines follow a "# base DIR" line
// and end with the "ok" line of their go test. base is the DIR of the last
// such line, or the given base when there is none.
func splitBase(text, base string) (_, before, after string) {
	var b, a strings.Builder
	into := &a
	for _, line := range strings.SplitAfter(text, "\n") {
		if strings.HasPrefix(line, "# base ") {
			base, into = strings.TrimSpace(strings.TrimPrefix(line, "# base ")), &b
			continue
		}
		into.WriteString(line)
		if strings.HasPrefix(line, "ok  ") {
			into = &a
		}
	}
	return base, b.String(), a.String()
}

// runRounds runs the benchmarks o.count rounds in a row, and returns the
// samples of the base's tree (before) and of this one (after), and the
// text of every run, each base's after a "# base" line (what -raw writes
// and -from reads). The whole set runs once per round, so that each
// benchmark's samples spread over the whole run and a change in the
// machine's speed (other jobs come and go) falls on every implementation
// alike, not on the ones that ran during it. With a base each round runs
// both trees, which one first alternating.
func runRounds(o options, dir string) (before, after map[string][]sample, lines string) {
	args := []string{"test", "-run=^$", "-bench=" + o.filter, "-benchtime=" + o.benchtime, "-count=1", "-json", "-timeout=0", "."}
	after, before = map[string][]sample{}, map[string][]sample{}
	var text strings.Builder
	for round := 1; round <= o.count; round++ {
		trees := []string{dir}
		if o.base != "" {
			trees = []string{o.base, dir}
			if round%2 == 0 {
				trees = []string{dir, o.base}
			}
		}
		for _, tree := range trees {
			fmt.Fprintf(os.Stderr, "benchtable: round %d of %d in %s: go %s\n", round, o.count, tree, strings.Join(args, " "))
			ss, out := run(tree, args)
			into := after
			if tree == o.base {
				into = before
				text.WriteString("# base " + o.base + "\n")
			}
			for name, s := range ss {
				into[name] = append(into[name], s...)
			}
			text.WriteString(out)
		}
	}
	return before, after, text.String()
}

// writeOutput prints to standard output the comparison of before and
// after when there is a base, else the report on after with the
// correctness matrix, and then writes its chart (-svg).
func writeOutput(o options, before, after map[string][]sample, matrix []bench.Verdict, h header) {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	if o.base != "" {
		compare(w, summarizeAll(before), summarizeAll(after), h)
		return
	}
	st := summarizeAll(after)
	report(w, st, matrix, h)
	writeChart(o.svg, st)
}

// writeChart writes the chart of st to the file path, if one is given.
func writeChart(path string, st map[string]stats) {
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err != nil {
		fail("%v", err)
	}
	if err := writeSVG(f, chartGroups(st)); err != nil {
		fail("writing %s: %v", path, err)
	}
	if err := f.Close(); err != nil {
		fail("%v", err)
	}
}

// fail says what went wrong on standard error and exits with status 1.
func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "benchtable: "+format+"\n", args...)
	os.Exit(1)
}

// run runs go test with args in dir and returns its benchmark results and
// the text of its output.
func run(dir string, args []string) (map[string][]sample, string) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fail("%v", err)
	}
	if err := cmd.Start(); err != nil {
		fail("%v", err)
	}
	ss, text := parse(out)
	if err := cmd.Wait(); err != nil {
		fail("go test in %s: %v", dir, err)
	}
	return ss, text
}

// parse reads go test -json output and collects the benchmark results,
// and returns the text of the run without the JSON framing.
func parse(r io.Reader) (map[string][]sample, string) {
	var text strings.Builder
	dec := json.NewDecoder(r)
	for {
		var ev struct{ Action, Output string }
		if err := dec.Decode(&ev); err != nil {
			break
		}
		if ev.Action == "output" {
			text.WriteString(ev.Output)
			if strings.Contains(ev.Output, "/op") {
				fmt.Fprint(os.Stderr, ev.Output)
			}
		}
	}
	return parseLines(text.String()), text.String()
}

// parseLines collects the benchmark result lines of go test's output by
// name (without the Benchmark prefix and the -GOMAXPROCS suffix).
func parseLines(text string) map[string][]sample {
	out := map[string][]sample{}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := f[0]
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		var s sample
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "ns/op":
				s.ns = v
			case "cpu-ns/op":
				s.cpu = v
			case "MB/s":
				s.mbs = v
			case "allocs/op":
				s.allocs = v
			case "B/op":
				s.bytesOp = v
			case "events/op":
				s.events = v
			case "x", "pipeline-x":
				s.ratio = v
			case "cpu-x":
				s.cpuRatio = v
			}
		}
		if s.ns > 0 {
			name = strings.TrimPrefix(name, "Benchmark")
			out[name] = append(out[name], s)
		}
	}
	return out
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	sort.Float64s(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

func summarize(ss []sample) stats {
	pick := func(f func(sample) float64) []float64 {
		var v []float64
		for _, s := range ss {
			v = append(v, f(s))
		}
		return v
	}
	ns := pick(func(s sample) float64 { return s.ns })
	ratio := pick(func(s sample) float64 { return s.ratio })
	cpuRatio := pick(func(s sample) float64 { return s.cpuRatio })
	return stats{
		cpuRatio: median(cpuRatio), cpuRatioMin: slices.Min(cpuRatio), cpuRatioMax: slices.Max(cpuRatio),
		n: len(ss), present: true,
		ns: median(ns), nsMin: slices.Min(ns), nsMax: slices.Max(ns),
		ratio: median(ratio), ratioMin: slices.Min(ratio), ratioMax: slices.Max(ratio),
		cpu:    median(pick(func(s sample) float64 { return s.cpu })),
		cpuMin: slices.Min(pick(func(s sample) float64 { return s.cpu })),
		mbs:    median(pick(func(s sample) float64 { return s.mbs })),
		allocs: median(pick(func(s sample) float64 { return s.allocs })),
		events: median(pick(func(s sample) float64 { return s.events })),
	}
}

func summarizeAll(samples map[string][]sample) map[string]stats {
	st := map[string]stats{}
	for name, ss := range samples {
		st[name] = summarize(ss)
	}
	return st
}

type header struct {
	start, end time.Time
	load       string
	count      int
	benchtime  string
	base       string
	// from is the file the run's lines were read from (-from), if any.
	from string
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
