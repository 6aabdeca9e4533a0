// Command benchtable runs the whole comparison of package bench and prints
// it as Markdown: the correctness matrix, one speed table per corpus and
// kind of reads (medians of repeated runs, with their spread), the
// issue's targets with the figures that meet or miss them, and the
// 1-byte-read scaling of large events.
//
//	cd bench && go run ./cmd/benchtable > results.md
//
// Flags: -count (rounds of the whole set, so runs of each benchmark,
// default 5), -benchtime (default
// 300ms), -bench (a filter on the benchmarks, default all), -raw (a file for
// the plain benchmark output, for benchstat). Progress goes to standard
// error.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"runtime"
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
	// ratio is BenchmarkPipelineRatio's pipeline-x.
	ratio float64
}

// stats are the medians of a benchmark's samples.
type stats struct {
	n                         int
	ns, nsMin, nsMax          float64
	cpu, mbs, allocs, events  float64
	ratio, ratioMin, ratioMax float64
	present                   bool
}

func main() {
	count := flag.Int("count", 5, "rounds: runs of each benchmark, one per round")
	benchtime := flag.String("benchtime", "300ms", "go test -benchtime")
	filter := flag.String("bench", ".", "go test -bench")
	raw := flag.String("raw", "", "also write the benchmark lines (benchstat's input) to this file")
	flag.Parse()

	start := time.Now().UTC()
	load := loadAvg()
	fmt.Fprintln(os.Stderr, "benchtable: correctness matrix…")
	matrix := bench.Matrix()

	dir, err := exec.Command("go", "list", "-f", "{{.Dir}}", "github.com/a2astream/a2astream/bench").Output()
	if err != nil {
		fail("locating package bench: %v (run from the bench module: cd bench && go run ./cmd/benchtable)", err)
	}
	// Rounds: the whole set runs once per round, count rounds in a row,
	// so that each benchmark's samples spread over the whole run and a
	// change in the machine's speed (other jobs come and go) falls on every
	// implementation alike, not on the ones that ran during it.
	args := []string{"test", "-run=^$", "-bench=" + *filter, "-benchtime=" + *benchtime, "-count=1", "-json", "-timeout=0", "."}
	samples := map[string][]sample{}
	var lines strings.Builder
	for round := 1; round <= *count; round++ {
		fmt.Fprintf(os.Stderr, "benchtable: round %d of %d: go %s\n", round, *count, strings.Join(args, " "))
		cmd := exec.Command("go", args...)
		cmd.Dir = strings.TrimSpace(string(dir))
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
			fail("go test: %v", err)
		}
		for name, s := range ss {
			samples[name] = append(samples[name], s...)
		}
		lines.WriteString(text)
	}
	end := time.Now().UTC()
	if *raw != "" {
		if err := os.WriteFile(*raw, []byte(lines.String()), 0o644); err != nil {
			fail("%v", err)
		}
	}
	st := map[string]stats{}
	for name, ss := range samples {
		st[name] = summarize(ss)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	report(w, st, matrix, header{start: start, end: end, load: load, count: *count, benchtime: *benchtime})
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "benchtable: "+format+"\n", args...)
	os.Exit(1)
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
	out := map[string][]sample{}
	for _, line := range strings.Split(text.String(), "\n") {
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
			case "pipeline-x":
				s.ratio = v
			}
		}
		if s.ns > 0 {
			out[strings.TrimPrefix(name, "Benchmark")] = append(out[strings.TrimPrefix(name, "Benchmark")], s)
		}
	}
	return out, text.String()
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
	return stats{
		n: len(ss), present: true,
		ns: median(ns), nsMin: slices.Min(ns), nsMax: slices.Max(ns),
		ratio: median(ratio), ratioMin: slices.Min(ratio), ratioMax: slices.Max(ratio),
		cpu:    median(pick(func(s sample) float64 { return s.cpu })),
		mbs:    median(pick(func(s sample) float64 { return s.mbs })),
		allocs: median(pick(func(s sample) float64 { return s.allocs })),
		events: median(pick(func(s sample) float64 { return s.events })),
	}
}

type header struct {
	start, end time.Time
	load       string
	count      int
	benchtime  string
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

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "model name") {
			if _, v, ok := strings.Cut(line, ":"); ok {
				return strings.TrimSpace(v)
			}
		}
	}
	return runtime.GOARCH
}

// ourKey is the a2astream implementation a peer of the given level is
// compared with.
func ourKey(l bench.Level) string {
	switch l {
	case bench.LevelDecode:
		return "ours-decoder"
	case bench.LevelPipeline:
		return "ours-pipeline"
	}
	return "ours-lexer"
}

func verdictOf(matrix []bench.Verdict, impl, corpus string) *bench.Verdict {
	for i := range matrix {
		if matrix[i].Impl == impl && matrix[i].Corpus == corpus {
			return &matrix[i]
		}
	}
	return nil
}

func fnum(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case v >= 0.01:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'g', 2, 64)
}

func report(w io.Writer, st map[string]stats, matrix []bench.Verdict, h header) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("## Benchmarks\n\n")
	p("Taken %s – %s UTC on %s, GOMAXPROCS %d, %s, %s/%s; load average %s at the start. ",
		h.start.Format("2006-01-02 15:04"), h.end.Format("15:04"), cpuModel(), runtime.GOMAXPROCS(0), runtime.Version(), runtime.GOOS, runtime.GOARCH, h.load)
	p("Command: `cd bench && go run ./cmd/benchtable` (%d rounds of the whole set, so %d runs of each benchmark spread over the run, -benchtime=%s). ", h.count, h.count, h.benchtime)
	p("Figures are medians; ± is half the min–max range of the runs, relative to the median. ")
	p("× ours is the time relative to a2astream's implementation of the same level (the lexer for SSE readers, lexer + decoder for decoding readers); × limit the time relative to `bytes.IndexByte` over every line end with the same reads. ")
	p("cpu is the process CPU time per event (all goroutines), steadier than wall time on a shared machine. † marks a capped measurement. ")
	p("The pipeline's target is judged on BenchmarkPipelineRatio, which runs the pipeline and lexer + decoder in turn on the same stream and takes the median of the pairs' ratios in each round: two rows of a table are measured up to a minute apart, and their ratio moves with the machine.\n\n")

	p("### Correctness (every event checked, 4 KiB reads)\n\n")
	corpora := bench.Corpora()
	p("| implementation |")
	for _, c := range corpora {
		p(" %s |", c.Name)
	}
	p("\n|---|")
	for range corpora {
		p("---|")
	}
	p("\n")
	for _, im := range bench.Impls() {
		if im.Level == bench.LevelLimit {
			continue
		}
		p("| %s |", im.Name)
		for _, c := range corpora {
			v := verdictOf(matrix, im.Name, c.Name)
			switch {
			case v == nil:
				p(" |")
			case v.OK:
				p(" ✓ |")
			default:
				d := v.Detail
				if len(d) > 90 {
					d = d[:90] + "…"
				}
				p(" ✗ %s |", strings.ReplaceAll(d, "|", "\\|"))
			}
		}
		p("\n")
	}
	p("\nCorpora: ")
	for i, c := range corpora {
		if i > 0 {
			p("; ")
		}
		p("%s (%.2f MB, %d events: %s)", c.Name, float64(len(c.Data))/1e6, len(c.Events), c.Features)
	}
	p(".\n\n")

	for _, cn := range []string{"a2a", "a2a-crlf", "large"} {
		for _, rd := range []string{"4KiB", "whole", "1B"} {
			if _, ok := st["Read/ours-lexer/"+cn+"/"+rd]; !ok {
				continue
			}
			p("### %s, %s reads\n\n", cn, rd)
			p("| implementation | MB/s | ns/event | cpu ns/event | allocs/event | × ours | × limit | correct |\n|---|---:|---:|---:|---:|---:|---:|:-:|\n")
			limit := st["Read/limit-indexbyte/"+cn+"/"+rd]
			for _, im := range bench.Impls() {
				name := "Read/" + im.Key + "/" + cn + "/" + rd
				if im.Payloads {
					name = "Read/" + im.Key + "/" + cn + "/whole"
				}
				s, ok := st[name]
				if !ok {
					continue
				}
				_, capped := bench.Capped(im, cn, rd)
				label := im.Name
				if capped {
					label += " †"
				}
				if im.Payloads {
					label += " (no reads)"
				}
				events := s.events
				nsEv, cpuEv, alEv := "—", "—", "—"
				if events > 0 {
					nsEv = fnum(s.ns/events) + " ±" + strconv.Itoa(int(math.Round(50*(s.nsMax-s.nsMin)/s.ns))) + "%"
					if s.cpu > 0 {
						cpuEv = fnum(s.cpu / events)
					}
					alEv = fnum(s.allocs / events)
				}
				ratio := func(o stats) string {
					if !o.present || capped {
						return "—"
					}
					return fnum(s.ns/o.ns) + "×"
				}
				ours := st["Read/"+ourKey(im.Level)+"/"+cn+"/"+rd]
				correct := "—"
				if v := verdictOf(matrix, im.Name, cn); v != nil && !v.NA {
					correct = map[bool]string{true: "✓", false: "✗"}[v.OK]
				}
				p("| %s | %s | %s | %s | %s | %s | %s | %s |\n", label, fnum(s.mbs), nsEv, cpuEv, alEv, ratio(ours), ratio(limit), correct)
			}
			if rd == "1B" && cn == "large" {
				p("\n† These peers read only the first 64 KiB of this corpus with 1-byte reads: they search the unfinished event again from its start after every read, so one 256 KiB event would take them seconds to minutes (see the scaling table); MB/s is that of the prefix.\n")
			}
			p("\n")
		}
	}

	p("### Large events with 1-byte reads: ns per byte as the event grows\n\n| implementation | sizes (KiB) | ns/byte at each size | growth, largest / smallest |\n|---|---|---|---:|\n")
	linear := map[string]float64{}
	for _, im := range bench.Impls() {
		sizes := bench.ScalingSizes(im)
		var per []string
		var first, last float64
		var ks []string
		for i, n := range sizes {
			s, ok := st["OneByteEvent/"+im.Key+"/"+strconv.Itoa(n>>10)]
			if !ok {
				continue
			}
			v := s.ns / float64(n)
			if i == 0 {
				first = v
			}
			last = v
			per = append(per, fnum(v))
			ks = append(ks, strconv.Itoa(n>>10))
		}
		if len(per) == 0 || first == 0 {
			continue
		}
		linear[im.Key] = last / first
		p("| %s | %s | %s | %s× |\n", im.Name, strings.Join(ks, ", "), strings.Join(per, ", "), fnum(last/first))
	}
	p("\nA linear reader keeps ns/byte flat (growth about 1×); a reader that rescans the unfinished event grows it with the size (about 4× over 16 → 64 KiB).\n\n")

	p("### Targets (main corpus, 4 KiB reads, one run)\n\n| target | measured (wall; cpu) | met |\n|---|---|:-:|\n")
	get := func(key string) stats { return st["Read/"+key+"/a2a/4KiB"] }
	lexer, dec, pipe := get("ours-lexer"), get("ours-decoder"), get("ours-pipeline")
	idx, gs, gsj, gsf := get("limit-indexbyte"), get("gosse"), get("gosse-json"), get("gosse-fastjson")
	fja := st["Read/fastjson-alone/a2a/whole"]
	target := func(name string, a, b stats, limit float64, atMost bool) {
		if !a.present || !b.present {
			p("| %s | not measured | — |\n", name)
			return
		}
		r := a.ns / b.ns
		rc := 0.0
		if a.cpu > 0 && b.cpu > 0 {
			rc = a.cpu / b.cpu
		}
		met := r <= limit
		if !atMost {
			met = r >= limit
		}
		p("| %s | %s× ; %s× | %s |\n", name, fnum(r), fnum(rc), map[bool]string{true: "✓", false: "✗"}[met])
	}
	target("lexer time ≤ 2× bytes.IndexByte limit", lexer, idx, 2, true)
	target("lexer ≥ 10× faster than go-sse (go-sse time / lexer time)", gs, lexer, 10, false)
	if lexer.present {
		perEv := lexer.allocs / lexer.events
		p("| lexer 0 allocs/event | %s allocs per stream of %d events (%s per event: the Reader's buffers) | %s |\n",
			fnum(lexer.allocs), int(lexer.events), fnum(perEv), map[bool]string{true: "✓", false: "✗"}[perEv < 0.001])
	}
	target("lexer + decoder ≤ 1.25× fastjson parsing the payloads alone", dec, fja, 1.25, true)
	target("lexer + decoder ≥ 2× faster than go-sse + fastjson", gsf, dec, 2, false)
	target("lexer + decoder ≥ 8× faster than go-sse + encoding/json", gsj, dec, 8, false)
	// The pipeline target is judged on BenchmarkPipelineRatio, whose
	// pairs run in turn see one state of the machine: the medians of the
	// rows above are taken up to a minute apart.
	if pr := st["PipelineRatio"]; pr.present && pipe.present && dec.present {
		p("| full pipeline ≤ 1.3× lexer + decoder, run in turn (BenchmarkPipelineRatio: median of the rounds' medians, range) | %s× (%s–%s); the rows above: %s× ; %s× | %s |\n",
			fnum(pr.ratio), fnum(pr.ratioMin), fnum(pr.ratioMax), fnum(pipe.ns/dec.ns), fnum(pipe.cpu/dec.cpu),
			map[bool]string{true: "✓", false: "✗"}[pr.ratio <= 1.3])
	} else {
		target("full pipeline ≤ 1.3× lexer + decoder", pipe, dec, 1.3, true)
	}
	for _, k := range []string{"ours-lexer", "ours-decoder", "ours-pipeline"} {
		if g, ok := linear[k]; ok {
			p("| %s linear with 1-byte reads (ns/byte growth 64 KiB → 1 MiB ≤ 1.5×) | %s× | %s |\n", k, fnum(g), map[bool]string{true: "✓", false: "✗"}[g <= 1.5])
		}
	}
	p("\n")
}
