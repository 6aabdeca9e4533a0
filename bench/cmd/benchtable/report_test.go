package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTargets checks the targets table: each pair judged per corpus on its
// CPU ratio when there is one (on the wall ratio otherwise), a missed
// target marked and listed, a corpus not measured left out.
func TestTargets(t *testing.T) {
	st := map[string]stats{
		"Read/ours-lexer/a2a/4KiB":              {present: true, ns: 1, events: 1},
		"Ratio/lexer-limit/a2a/4KiB":            {present: true, ratio: 2.5, ratioMin: 2.4, ratioMax: 2.6, cpuRatio: 1.8, cpuRatioMin: 1.7, cpuRatioMax: 1.9},
		"Ratio/gosse-lexer/a2a/4KiB":            {present: true, ratio: 12, ratioMin: 11, ratioMax: 13},
		"Ratio/decoder-fastjson/a2a/4KiB":       {present: true, ratio: 0.3, cpuRatio: 0.3, cpuRatioMin: 0.3, cpuRatioMax: 0.3},
		"Ratio/pipeline-decoder/a2a/4KiB":       {present: true, ratio: 1.2, cpuRatio: 1.35, cpuRatioMin: 1.3, cpuRatioMax: 1.4},
		"Ratio/stream-decoder/a2a/4KiB":         {present: true, ratio: 1.2, cpuRatio: 1.22, cpuRatioMin: 1.2, cpuRatioMax: 1.3},
		"Read/ours-lexer/large/4KiB":            {present: true, ns: 1, events: 1},
		"Ratio/decoder-fastjson/large/4KiB":     {present: true, ratio: 1.1, cpuRatio: 1.24},
		"Ratio/decoder-fastjson/answer10m/4KiB": {present: true, ratio: 9, cpuRatio: 9},
	}
	var b strings.Builder
	targets(func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }, st)
	out := b.String()
	rows := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Split(line, "|"); len(f) > 3 {
			rows[strings.TrimSpace(f[1])+"/"+strings.TrimSpace(f[2])] = line
		}
	}
	require.Contains(t, rows, "a2a/4KiB")
	require.Contains(t, rows, "large/4KiB")
	assert.NotContains(t, rows, "answer10m/4KiB", "a corpus whose lexer row was not measured")
	cells := strings.Split(rows["a2a/4KiB"], "|")
	assert.Contains(t, cells[3], "1.80× (1.70–1.90; wall 2.50×) ✓", "judged on CPU time")
	assert.Contains(t, cells[4], "12.0× (11.0–13.0) ✓", "wall time when no CPU ratio")
	assert.Contains(t, cells[6], "1.35× (1.30–1.40; wall 1.20×) ✗", "Read over 1.25×")
	assert.Contains(t, cells[7], "1.22× (1.20–1.30; wall 1.20×) ✓", "the Stream's row")
	assert.Contains(t, strings.Split(rows["large/4KiB"], "|")[5], "1.24×", "decode on large")
	assert.Contains(t, strings.Split(rows["large/4KiB"], "|")[5], "✓")
	assert.Contains(t, out, "Missed: Read ≤ 1.25× lex+decode on a2a, 4KiB reads: 1.35×.")
	assert.Contains(t, out, "5 of 6 targets met.")
}
