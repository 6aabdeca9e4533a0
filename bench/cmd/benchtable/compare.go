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

func compare(w io.Writer, before, after map[string]stats, h header) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("### Before and after, in one run\n\n")
	header1(p, h)
	p("Before: `%s` at %s. After: this tree at %s. ", h.base, commitOf(h.base), commitOf("."))
	p("Command: `cd bench && go run ./cmd/benchtable -base %s` (%d rounds; each round runs both trees' benchmarks, which first alternating; -benchtime=%s). Figures are medians of the rounds; after/before is the ratio of the median times (below 1: faster after).\n\n", h.base, h.count, h.benchtime)

	p("#### Targets, 4 KiB reads (from the rows; the pipeline also run in turn)\n\n| corpus | target | before | after |\n|---|---|---:|---:|\n")
	for _, cn := range bench.PeerCorpora {
		row := func(side map[string]stats, a, b string) string {
			x, y := side["Read/"+a+"/"+cn+"/4KiB"], side["Read/"+b+"/"+cn+"/4KiB"]
			if b == "fastjson-alone" {
				y = side["Read/"+b+"/"+cn+"/whole"]
			}
			if !x.present || !y.present {
				return "—"
			}
			return fnum(x.ns/y.ns) + "×"
		}
		for _, pr := range bench.Pairs {
			p("| %s | %s | %s | %s |\n", cn, pr.Desc, row(before, pr.A, pr.B), row(after, pr.A, pr.B))
		}
		if cn == "a2a" {
			b, a := before["PipelineRatio"], after["Ratio/pipeline-decoder/a2a/4KiB"]
			if !b.present {
				b = before["Ratio/pipeline-decoder/a2a/4KiB"]
			}
			cell := func(s stats) string {
				if !s.present {
					return "—"
				}
				return fnum(s.ratio) + "× (" + fnum(s.ratioMin) + "–" + fnum(s.ratioMax) + ")"
			}
			p("| a2a | pipeline ≤ 1.3× lex+decode, pairs run in turn | %s | %s |\n", cell(b), cell(a))
		}
	}
	p("\n")

	for _, cn := range bench.PeerCorpora {
		for _, rd := range []string{"4KiB", "whole", "1B"} {
			if !before["Read/ours-lexer/"+cn+"/"+rd].present || !after["Read/ours-lexer/"+cn+"/"+rd].present {
				continue
			}
			p("#### %s, %s reads\n\n| implementation | before MB/s | after MB/s | after/before time | allocs/event before | after |\n|---|---:|---:|---:|---:|---:|\n", cn, rd)
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
				perEv := func(s stats) string {
					if s.events == 0 {
						return "—"
					}
					return fnum(s.allocs / s.events)
				}
				p("| %s | %s | %s | %s× | %s | %s |\n", label, fnum(b.mbs), fnum(a.mbs), fnum(a.ns/b.ns), perEv(b), perEv(a))
			}
			p("\n")
		}
	}
}
