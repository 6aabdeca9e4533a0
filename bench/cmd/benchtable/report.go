package main

// This file prints the Markdown report of a run: the correctness matrix,
// the speed tables, the scaling table and the targets per corpus.

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/a2astream/a2astream/bench"
)

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

func mark(ok bool) string {
	if ok {
		return "✓"
	}
	return "✗"
}

// rowName is the BenchmarkRead name of im on corpus with reads rd (the
// payloads-alone baseline has only whole reads).
func rowName(im bench.Impl, corpus, rd string) string {
	if im.Payloads {
		rd = "whole"
	}
	return "Read/" + im.Key + "/" + corpus + "/" + rd
}

// header1 prints the sentence that says when the run was taken, on what
// machine and Go, and the load average at its start.
func header1(p printer, h header) {
	p("Taken %s – %s UTC on %s, GOMAXPROCS %d, %s, %s/%s; load average %s at the start. ",
		h.start.Format("2006-01-02 15:04"), h.end.Format("15:04"), cpuModel(), runtime.GOMAXPROCS(0), runtime.Version(), runtime.GOOS, runtime.GOARCH, h.load)
}

// printer prints to the report being written, as fmt.Fprintf does.
type printer func(format string, args ...any)

// report prints the Markdown report of a run from its summaries st and the
// correctness matrix: what was run and how to read it, the targets, the
// matrix and the corpora, a speed table for each corpus and reads
// measured (the lexer's row says which), and the 1-byte scaling table.
func report(w io.Writer, st map[string]stats, matrix []bench.Verdict, h header) {
	p := printer(func(format string, args ...any) { fmt.Fprintf(w, format, args...) })
	preamble(p, h)
	targets(p, st)
	correctness(p, matrix)
	for _, cn := range bench.SpeedCorpora {
		for _, rd := range []string{"4KiB", "whole", "1B"} {
			if _, ok := st["Read/ours-lexer/"+cn+"/"+rd]; ok {
				speedTable(p, st, matrix, cn, rd)
			}
		}
	}
	scaling(p, st)
}

// preamble prints the report's heading and the paragraph that says when,
// where and how the run was taken and how to read its figures.
func preamble(p printer, h header) {
	p("## Benchmarks\n\n")
	header1(p, h)
	p("Command: `cd bench && go run ./cmd/benchtable -svg chart.svg` (%d rounds of the whole set, so %d runs of each benchmark spread over the run, -benchtime=%s). ", h.count, h.count, h.benchtime)
	p("Figures are medians; ± is half the min–max range of the runs, relative to the median. ")
	p("× ours is the time relative to a2astream's implementation of the same level (the lexer for SSE readers, lexer + decoder for decoding readers); × limit the time relative to `bytes.IndexByte` over every line end with the same reads. ")
	p("cpu is the process CPU time per event (all goroutines), steadier than wall time on a shared machine. † marks a capped measurement (a prefix of the corpus). ")
	p("The targets are judged on BenchmarkRatio, which runs the two implementations of a target in turn on the same input and takes the median of the pairs' ratios in each round: two rows of a table are measured up to a minute apart, and their ratio moves with the machine.\n\n")
}

// correctness prints the correctness matrix, a row per implementation
// (the limits left out) and a column per corpus, then a sentence that
// describes each corpus.
func correctness(p printer, matrix []bench.Verdict) {
	p("### Correctness (every event checked, 4 KiB reads; 256 KiB on answer10m)\n\n")
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
			p("%s |", verdictCell(verdictOf(matrix, im.Name, c.Name)))
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
}

// verdictCell is the text of v's cell in the correctness matrix, from its
// leading space to its closing bar's: empty when not checked, a tick, or a
// cross with the first 90 bytes of the detail, its bars escaped.
func verdictCell(v *bench.Verdict) string {
	switch {
	case v == nil:
		return ""
	case v.OK:
		return " ✓"
	}
	d := v.Detail
	if len(d) > 90 {
		d = d[:90] + "…"
	}
	return " ✗ " + strings.ReplaceAll(d, "|", "\\|")
}

// speedTable prints the speed table of corpus cn with reads rd: a row per
// implementation measured, then, if any row is capped, the note that says
// how much of the corpus the capped peers read.
func speedTable(p printer, st map[string]stats, matrix []bench.Verdict, cn, rd string) {
	c := bench.CorpusByName(cn)
	p("### %s, %s reads\n\n", cn, rd)
	p("| implementation | MB/s | ns/event | cpu ns/event | allocs/event | × ours | × limit | correct |\n|---|---:|---:|---:|---:|---:|---:|:-:|\n")
	limit := st["Read/limit-indexbyte/"+cn+"/"+rd]
	anyCapped := false
	for _, im := range bench.Impls() {
		s, ok := st[rowName(im, cn, rd)]
		if !ok {
			continue
		}
		_, capped := bench.Capped(im, c, rd)
		anyCapped = anyCapped || capped
		ours := st[rowName(bench.Impl{Key: ourKey(im.Level)}, cn, rd)]
		nsEv, cpuEv, alEv := perEvent(s)
		p("| %s | %s | %s | %s | %s | %s | %s | %s |\n", speedLabel(im, capped), fnum(s.mbs), nsEv, cpuEv, alEv,
			timesOf(s, ours, capped), timesOf(s, limit, capped), correctCell(matrix, im.Name, cn))
	}
	if anyCapped {
		n, _ := bench.Capped(bench.Impl{Rescans: true}, c, rd)
		p("\n† These peers read only the first %d KiB of this corpus with %s reads: they search the unfinished event again from its start after every read, so the whole corpus would take them minutes (see the scaling table); MB/s is that of the prefix.\n", n>>10, rd)
	}
	p("\n")
}

// speedLabel names im in a speed table: its name, † when capped, and a
// note when it reads the payloads alone.
func speedLabel(im bench.Impl, capped bool) string {
	label := im.Name
	if capped {
		label += " †"
	}
	if im.Payloads {
		label += " (no reads)"
	}
	return label
}

// perEvent gives s's time per event (with its spread, ± half the range
// relative to the median), CPU time per event and allocations per event;
// "—" for what was not measured.
func perEvent(s stats) (ns, cpu, allocs string) {
	ns, cpu, allocs = "—", "—", "—"
	if s.events > 0 {
		ns = fnum(s.ns/s.events) + " ±" + strconv.Itoa(int(math.Round(50*(s.nsMax-s.nsMin)/s.ns))) + "%"
		if s.cpu > 0 {
			cpu = fnum(s.cpu / s.events)
		}
		allocs = fnum(s.allocs / s.events)
	}
	return ns, cpu, allocs
}

// timesOf is s's time relative to o's, "—" when o was not measured or s
// is capped (a prefix of the corpus).
func timesOf(s, o stats, capped bool) string {
	if !o.present || capped {
		return "—"
	}
	return fnum(s.ns/o.ns) + "×"
}

// correctCell is the correctness of impl on corpus cn in a speed table:
// a mark, or "—" when it was not checked or does not apply.
func correctCell(matrix []bench.Verdict, impl, cn string) string {
	if v := verdictOf(matrix, impl, cn); v != nil && !v.NA {
		return mark(v.OK)
	}
	return "—"
}

// scaling prints the table of 1-byte reads of growing events: for each
// implementation measured, ns per byte at each size and its growth from
// the smallest to the largest, judged against 1.5× for a2astream's.
func scaling(p printer, st map[string]stats) {
	p("### Large events with 1-byte reads: ns per byte as the event grows\n\n| implementation | sizes (KiB) | ns/byte at each size | growth, largest / smallest |\n|---|---|---|---:|\n")
	for _, im := range bench.Impls() {
		var per, ks []string
		var first, last float64
		for i, n := range bench.ScalingSizes(im) {
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
		lin := ""
		if im.Ours {
			lin = " (target ≤ 1.5×: " + mark(last/first <= 1.5) + ")"
		}
		p("| %s | %s | %s | %s×%s |\n", im.Name, strings.Join(ks, ", "), strings.Join(per, ", "), fnum(last/first), lin)
	}
	p("\nA linear reader keeps ns/byte flat (growth about 1×); a reader that rescans the unfinished event grows it with the size (about 4× over 16 → 64 KiB).\n\n")
}

// ratioCell returns a BenchmarkRatio pair's median ratio and its cell: the
// median, the range of the rounds' medians and the wall-time ratio. It is
// the ratio of CPU times where they were measured: wall time also counts
// the time other jobs held the CPU.
func ratioCell(s stats) (float64, string) {
	x, lo, hi, wall := s.ratio, s.ratioMin, s.ratioMax, ""
	if s.cpuRatio > 0 {
		x, lo, hi, wall = s.cpuRatio, s.cpuRatioMin, s.cpuRatioMax, "; wall "+fnum(s.ratio)+"×"
	}
	return x, fnum(x) + "× (" + fnum(lo) + "–" + fnum(hi) + wall + ")"
}

// targets prints the targets per corpus and reads: each BenchmarkRatio
// pair's median ratio (the range of the rounds' medians beside it), then
// each reference's, which no one judges, the decoding peers' time
// relative to lexer + decoder from the rows, and a2astream's allocations
// per event; then the targets missed.
func targets(p printer, st map[string]stats) {
	p("### Targets per corpus (pairs run in turn, BenchmarkRatio)\n\n")
	p("| corpus | reads |")
	// The references follow the pairs, unjudged.
	pairs := slices.Concat(bench.Pairs, bench.References)
	for i, pr := range pairs {
		if i >= len(bench.Pairs) {
			p(" reference, not judged: %s |", pr.Desc)
			continue
		}
		p(" %s |", pr.Desc)
	}
	p(" lex+decode ≥ 2× faster than go-sse + fastjson (rows) | lex+decode ≥ 8× faster than go-sse + encoding/json (rows) | allocs/event: lexer, lex+decode, Read, Stream |\n|---|---|")
	for range len(pairs) + 3 {
		p("---|")
	}
	p("\n")
	var misses []string
	met, total := 0, 0
	judge := func(ok bool, what string) string {
		total++
		if ok {
			met++
		} else {
			misses = append(misses, what)
		}
		return mark(ok)
	}
	for _, cn := range bench.SpeedCorpora {
		for _, rd := range []string{"4KiB", "1B"} {
			if _, ok := st["Read/ours-lexer/"+cn+"/"+rd]; !ok {
				continue
			}
			p("| %s | %s |", cn, rd)
			for i, pr := range pairs {
				s, ok := st["Ratio/"+pr.Key+"/"+cn+"/"+rd]
				if !ok {
					p(" — |")
					continue
				}
				x, cell := ratioCell(s)
				if i >= len(bench.Pairs) {
					p(" %s |", cell)
					continue
				}
				p(" %s %s |", cell, judge(pr.Met(x), pr.Desc+" on "+cn+", "+rd+" reads: "+fnum(x)+"×"))
			}
			dec := st["Read/ours-decoder/"+cn+"/"+rd]
			for _, peer := range []struct {
				key    string
				target float64
				desc   string
			}{{"gosse-fastjson", 2, "lex+decode ≥ 2× faster than go-sse + fastjson"}, {"gosse-json", 8, "lex+decode ≥ 8× faster than go-sse + encoding/json"}} {
				o, ok := st["Read/"+peer.key+"/"+cn+"/"+rd]
				_, capped := bench.Capped(bench.Impl{Rescans: true}, bench.CorpusByName(cn), rd)
				if !ok || !dec.present || capped {
					p(" — |")
					continue
				}
				x := o.ns / dec.ns
				p(" %s× %s |", fnum(x), judge(x >= peer.target, peer.desc+" on "+cn+", "+rd+" reads: "+fnum(x)+"×"))
			}
			var al []string
			for _, k := range []string{"ours-lexer", "ours-decoder", "ours-pipeline", "ours-stream"} {
				if s, ok := st["Read/"+k+"/"+cn+"/"+rd]; ok && s.events > 0 {
					al = append(al, fnum(s.allocs/s.events))
				} else {
					al = append(al, "—")
				}
			}
			p(" %s |\n", strings.Join(al, ", "))
		}
	}
	p("\nEach cell is A's CPU time over B's (for \"faster than\" targets, the peer's time over ours): the median of the rounds' medians, with their range, and the same ratio of wall times; CPU time leaves out the time other jobs held the CPU of this shared machine. The decode target has no 1-byte row: fastjson alone reads no stream. Allocations per event are those of one whole stream (the Reader's and Decoder's buffers) spread over its events: 0 per event in steady state, which the zero-allocation tests prove.\n\n")
	p("%d of %d targets met.", met, total)
	if len(misses) > 0 {
		p(" Missed: %s.", strings.Join(misses, "; "))
	}
	p("\n\n")
}
