package main

// This file writes the throughput chart: hand-written SVG, one group of
// horizontal bars per corpus (MB/s of each implementation with 4 KiB
// reads, on a log scale), the bytes.IndexByte limit of the corpus marked
// by a vertical line across its group.

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/a2astream/a2astream/bench"
)

// chartBar is one measured pair: an implementation on a corpus.
type chartBar struct {
	Impl   string
	MBs    float64
	Ours   bool
	Capped bool
}

// chartGroup is the bars of one corpus and its limit (0: not measured).
type chartGroup struct {
	Corpus string
	Limit  float64
	Bars   []chartBar
}

// chartImpls are the implementations the chart shows, in its order.
var chartImpls = []string{"ours-lexer", "ours-decoder", "ours-pipeline", "fastjson-alone", "gosse", "gosse-fastjson", "gosse-json"}

// chartGroups gathers the 4 KiB-read throughputs of the run.
func chartGroups(st map[string]stats) []chartGroup {
	var gs []chartGroup
	for _, cn := range bench.SpeedCorpora {
		c := bench.CorpusByName(cn)
		g := chartGroup{Corpus: cn}
		if s, ok := st["Read/limit-indexbyte/"+cn+"/4KiB"]; ok {
			g.Limit = s.mbs
		}
		for _, key := range chartImpls {
			for _, im := range bench.Impls() {
				if im.Key != key {
					continue
				}
				if s, ok := st[rowName(im, cn, "4KiB")]; ok && s.mbs > 0 {
					_, capped := bench.Capped(im, c, "4KiB")
					g.Bars = append(g.Bars, chartBar{Impl: im.Name, MBs: s.mbs, Ours: im.Ours, Capped: capped})
				}
			}
		}
		if len(g.Bars) > 0 {
			gs = append(gs, g)
		}
	}
	return gs
}

// The chart's geometry, in pixels.
const (
	chartLeft   = 200 // the labels' column
	chartWidth  = 520 // the plot
	chartRight  = 90  // the values
	barHeight   = 11
	barGap      = 3
	groupHead   = 18
	groupGap    = 10
	chartTop    = 40
	chartBottom = 40
)

// writeSVG writes the chart of gs. The scale is logarithmic, in powers of
// ten of MB/s that cover every bar and limit.
func writeSVG(w io.Writer, gs []chartGroup) error {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, g := range gs {
		for _, b := range g.Bars {
			lo, hi = math.Min(lo, b.MBs), math.Max(hi, b.MBs)
		}
		if g.Limit > 0 {
			lo, hi = math.Min(lo, g.Limit), math.Max(hi, g.Limit)
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 1, 10
	}
	d0, d1 := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if d1 <= d0 {
		d1 = d0 + 1
	}
	x := func(v float64) float64 {
		return chartLeft + chartWidth*(math.Log10(v)-d0)/(d1-d0)
	}
	height := chartTop + chartBottom
	for _, g := range gs {
		height += groupHead + len(g.Bars)*(barHeight+barGap) + groupGap
	}
	width := chartLeft + chartWidth + chartRight

	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n", width, height, width, height)
	p("<title>Throughput per implementation and corpus, 4 KiB reads (MB/s, log scale); the line marks the bytes.IndexByte limit</title>\n")
	p(`<rect width="%d" height="%d" fill="#fff"/>`+"\n", width, height)
	p(`<text x="%d" y="18" font-size="13" font-weight="bold">Throughput, 4 KiB reads (MB/s, log scale)</text>`+"\n", 8)
	p(`<text x="%d" y="32" fill="#555">blue: a2astream; grey: peers; red line: bytes.IndexByte over every line end (the limit); † a prefix of the corpus</text>`+"\n", 8)
	plotTop, plotBottom := chartTop, height-chartBottom
	for d := d0; d <= d1; d++ {
		xd := x(math.Pow(10, d))
		p(`<line class="tick" x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>`+"\n", xd, plotTop, xd, plotBottom)
		p(`<text x="%.1f" y="%d" text-anchor="middle" fill="#555">%s</text>`+"\n", xd, plotBottom+14, strconv.FormatFloat(math.Pow(10, d), 'f', -1, 64))
	}
	p(`<text x="%d" y="%d" text-anchor="middle" fill="#555">MB/s</text>`+"\n", chartLeft+chartWidth/2, plotBottom+30)
	y := plotTop
	for _, g := range gs {
		p(`<g class="corpus">` + "\n")
		p(`<text x="8" y="%d" font-weight="bold">%s</text>`+"\n", y+13, esc(g.Corpus))
		top := y + groupHead
		y = top
		for _, b := range g.Bars {
			fill := "#999"
			if b.Ours {
				fill = "#2b6cb0"
			}
			label := b.Impl
			if b.Capped {
				label += " †"
			}
			p(`<text x="%d" y="%d" text-anchor="end">%s</text>`+"\n", chartLeft-6, y+barHeight-2, esc(label))
			p(`<rect class="bar" x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s on %s: %s MB/s</title></rect>`+"\n",
				chartLeft, y, math.Max(1, x(b.MBs)-chartLeft), barHeight, fill, esc(b.Impl), esc(g.Corpus), esc(fnum(b.MBs)))
			p(`<text x="%.1f" y="%d" fill="#333">%s</text>`+"\n", math.Max(x(b.MBs), chartLeft+1)+4, y+barHeight-2, esc(fnum(b.MBs)))
			y += barHeight + barGap
		}
		if g.Limit > 0 {
			xl := x(g.Limit)
			p(`<line class="limit" x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#c53030" stroke-width="2"><title>limit on %s: %s MB/s</title></line>`+"\n",
				xl, top-3, xl, y, esc(g.Corpus), esc(fnum(g.Limit)))
		}
		p("</g>\n")
		y += groupGap
	}
	p("</svg>\n")
	return bw.Flush()
}

// esc escapes s for XML text and attribute values.
func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
