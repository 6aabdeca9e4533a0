package main

// This file prints the comparison of two checkouts (-base): the same
// benchmarks of both trees, run in turn in every round, as before/after
// tables, and the targets computed on each side.

import (
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/a2astream/a2astream/bench"
)

// commitOf names the commit checked out at dir.
func commitOf(dir string) string {
	out, err := exec.Command("git", "-C", dir, "log", "-1", "--format=%h %s").Output()
	if err != nil {
		return "unknown commit"
	}
	s := strings.TrimSpace(string(out))
	if len(s) > 90 {
		s = s[:90] + "…"
	}
	return s
}

// compare prints the comparison of two runs of the same benchmarks, before
// (the base's) and after (this tree's): what was compared and how to read
// it, the targets on each side, and a before/after table for each corpus
// and reads that both sides measured (the lexer's row says which).
func compare(w io.Writer, before, after map[string]stats, h header) {
	p := printer(func(format string, args ...any) { fmt.Fprintf(w, format, args...) })
	comparePreamble(p, h)
	compareTargets(p, before, after)
	for _, cn := range bench.PeerCorpora {
		for _, rd := range []string{"4KiB", "whole", "1B"} {
			if before["Read/ours-lexer/"+cn+"/"+rd].present && after["Read/ours-lexer/"+cn+"/"+rd].present {
				compareTable(p, before, after, cn, rd)
			}
		}
	}
}

// comparePreamble prints the comparison's heading and the paragraph that
// says when and where it was run, which trees it compares (the base's
// commit, and this tree's or the -from file), and how to read its figures.
func comparePreamble(p printer, h header) {
	p("### Before and after, in one run\n\n")
	header1(p, h)
	now := "this tree at " + commitOf(".")
	if h.from != "" {
		now = "the tree of " + h.from
	}
	p("Before: `%s` at %s. After: %s. ", h.base, commitOf(h.base), now)
	p("Command: `cd bench && go run ./cmd/benchtable -base %s` (%d rounds; each round runs both trees' benchmarks, which first alternating; -benchtime=%s). ", h.base, h.count, h.benchtime)
	p("Figures are process CPU time, which leaves out the time other jobs held the CPU (wall time on this shared machine moved by up to 5× between runs): the minimum over the rounds, the least disturbed run, and in brackets the median; after/before is the ratio of the minima (below 1: less CPU after).\n\n")
}

// compareTargets prints the targets table: for each corpus, every pair's
// ratio of minimum CPU times on each side, and on a2a the pipeline's ratio
// run in turn.
func compareTargets(p printer, before, after map[string]stats) {
	p("#### Targets, 4 KiB reads (ratios of the rows' minimum CPU times; the pipeline also run in turn)\n\n| corpus | target | before | after |\n|---|---|---:|---:|\n")
	for _, cn := range bench.PeerCorpora {
		for _, pr := range bench.Pairs {
			p("| %s | %s | %s | %s |\n", cn, pr.Desc, pairRatio(before, cn, pr.A, pr.B), pairRatio(after, cn, pr.A, pr.B))
		}
		if cn == "a2a" {
			b, a := before["PipelineRatio"], after["Ratio/pipeline-decoder/a2a/4KiB"]
			if !b.present {
				b = before["Ratio/pipeline-decoder/a2a/4KiB"]
			}
			p("| a2a | Read ≤ 1.25× lex+decode, pairs run in turn | %s | %s |\n", turnRatio(b), turnRatio(a))
		}
	}
	p("\n")
}

// pairRatio is the ratio of the minimum CPU times of the rows of a and b
// on corpus cn with 4 KiB reads (whole reads for fastjson alone) in side,
// or "—" when either was not measured.
func pairRatio(side map[string]stats, cn, a, b string) string {
	x, y := side["Read/"+a+"/"+cn+"/4KiB"], side["Read/"+b+"/"+cn+"/4KiB"]
	if b == "fastjson-alone" {
		y = side["Read/"+b+"/"+cn+"/whole"]
	}
	if !x.present || !y.present || y.cpuMin == 0 {
		return "—"
	}
	return fnum(x.cpuMin/y.cpuMin) + "×"
}

// turnRatio is the median ratio of a pair run in turn, with its range, or
// "—" when it was not measured.
func turnRatio(s stats) string {
	if !s.present {
		return "—"
	}
	return fnum(s.ratio) + "× (" + fnum(s.ratioMin) + "–" + fnum(s.ratioMax) + ")"
}

// compareTable prints the before/after table of corpus cn with reads rd:
// a row per implementation both sides measured, with the CPU time and the
// allocations per event on each side and the change in CPU time.
func compareTable(p printer, before, after map[string]stats, cn, rd string) {
	p("#### %s, %s reads\n\n| implementation | before cpu ns/event | after cpu ns/event | after/before | allocs/event before | after |\n|---|---:|---:|---:|---:|---:|\n", cn, rd)
	for _, im := range bench.Impls() {
		name := rowName(im, cn, rd)
		b, a := before[name], after[name]
		if !b.present || !a.present {
			continue
		}
		label := im.Name
		if _, capped := bench.Capped(im, bench.CorpusByName(cn), rd); capped {
			label += " †"
		}
		change := "—"
		if b.cpuMin > 0 && a.cpuMin > 0 {
			change = fnum(a.cpuMin/b.cpuMin) + "×"
		}
		p("| %s | %s | %s | %s | %s | %s |\n", label, cpuPerEvent(b), cpuPerEvent(a), change, allocsPerEvent(b), allocsPerEvent(a))
	}
	p("\n")
}

// cpuPerEvent is s's least CPU time per event with, in brackets, its
// median, or "—" when either was not measured.
func cpuPerEvent(s stats) string {
	if s.events == 0 || s.cpuMin == 0 {
		return "—"
	}
	return fnum(s.cpuMin/s.events) + " (" + fnum(s.cpu/s.events) + ")"
}

// allocsPerEvent is s's median allocations per event, or "—" when its
// events were not counted.
func allocsPerEvent(s stats) string {
	if s.events == 0 {
		return "—"
	}
	return fnum(s.allocs / s.events)
}
