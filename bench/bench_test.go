package bench

import (
	"bytes"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// Reads are the ways the corpora are read: whole (the implementation's
// own buffer size decides), 4 KiB per Read, and 1 byte per Read.
var reads = []struct {
	name string
	wrap func(io.Reader) io.Reader
}{
	{"whole", func(r io.Reader) io.Reader { return r }},
	{"4KiB", func(r io.Reader) io.Reader { return &readerN{r: r, n: 4096} }},
	{"1B", iotest.OneByteReader},
}

// speedCorpora are the corpora of the speed table; the CR-only variant is
// only in the correctness matrix.
var speedCorpora = []string{"a2a", "a2a-crlf", "large"}

// skipped reports combinations not measured: the payloads-alone baseline
// has no reads, and peers with a default size limit fail on the corpora.
func skipped(im Impl, read string) bool {
	return (im.Payloads && read != "whole") || strings.HasSuffix(im.Key, "-default")
}

// BenchmarkRead runs every implementation on every corpus with every kind
// of reads: Read/<implementation key>/<corpus>/<reads>. Besides the usual
// figures it reports events/op, the events of the corpus (or of the
// prefix read), so that the table can give ns and allocs per event. With
// -short (CI) every input is cut to its first 256 KiB.
func BenchmarkRead(b *testing.B) {
	PreparePayloads()
	for _, im := range Impls() {
		b.Run(im.Key, func(b *testing.B) {
			for _, cn := range speedCorpora {
				c := CorpusByName(cn)
				b.Run(cn, func(b *testing.B) {
					for _, rd := range reads {
						if skipped(im, rd.name) {
							continue
						}
						b.Run(rd.name, func(b *testing.B) {
							n, capped := Capped(im, cn, rd.name)
							if testing.Short() {
								// CI runs each body once on a prefix.
								n, capped = min(n, 256<<10), true
							}
							data := c.Data[:n]
							events := len(c.Events)
							if capped {
								events = bytes.Count(data, []byte("\n\n"))
							}
							b.SetBytes(int64(n))
							b.ReportAllocs()
							var s Sink
							cpu := cpuNow()
							for b.Loop() {
								s = Sink{}
								if err := im.Run(rd.wrap(bytes.NewReader(data)), c, &s); err != nil && !capped {
									b.Fatal(err)
								}
							}
							reportCPU(b, cpu)
							b.ReportMetric(float64(events), "events/op")
						})
					}
				})
			}
		})
	}
}

// oneEvent returns a stream of one artifact update event whose text has
// about n bytes, ended by a blank line.
func oneEvent(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`data: {"artifactUpdate":{` + ids + `,"artifact":{"artifactId":"a","parts":[{"text":"`)
	for b.Len() < n {
		b.WriteString("dyspnea on exertion, café 血压 ")
	}
	b.WriteString("\"}]}}}\n\n")
	return b.Bytes()
}

// BenchmarkOneByteEvent reads one event of growing size with 1-byte reads:
// OneByteEvent/<implementation key>/<size in KiB>. A linear reader keeps
// the same ns per byte at every size; one that rescans the unfinished
// event doubles it with each doubling of the size.
func BenchmarkOneByteEvent(b *testing.B) {
	for _, im := range Impls() {
		switch im.Key {
		case "ours-lexer", "ours-decoder", "ours-pipeline", "gosse", "r3labs", "launchdarkly", "scanner":
		default:
			continue
		}
		b.Run(im.Key, func(b *testing.B) {
			sizes := ScalingSizes(im)
			if testing.Short() {
				sizes = sizes[:1]
			}
			for _, n := range sizes {
				data := oneEvent(n)
				b.Run(strconv.Itoa(n>>10), func(b *testing.B) {
					b.SetBytes(int64(len(data)))
					b.ReportAllocs()
					cpu := cpuNow()
					for b.Loop() {
						var s Sink
						_ = im.Run(iotest.OneByteReader(bytes.NewReader(data)), nil, &s)
					}
					reportCPU(b, cpu)
				})
			}
		})
	}
}

// reportCPU reports the process CPU time per operation since start as
// cpu-ns/op (the goroutines of peers that read on their own goroutine
// included).
func reportCPU(b *testing.B, start time.Duration) {
	if d := cpuNow() - start; d > 0 && b.N > 0 {
		b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkPipelineRatio runs the full pipeline and lexer + decoder in
// turn on the main corpus with 4 KiB reads, one stream each per iteration,
// which of the two first alternating, and reports the median over the
// iterations of the pipeline's time as a multiple of lexer + decoder's
// (pipeline-x). A pair run in turn sees one state of the machine; the
// table's separate medians of the two are taken up to a minute apart, and
// on a shared machine their ratio moves by ±15% from one table to the
// next. The median leaves out the pairs a garbage collection or another
// job fell on:
//
//	go test -run '^$' -bench PipelineRatio -benchtime 40x -count 10
func BenchmarkPipelineRatio(b *testing.B) {
	var c *Corpus
	for _, x := range Corpora() {
		if x.Name == "a2a" {
			c = x
		}
	}
	impls := map[string]Impl{}
	for _, im := range Impls() {
		impls[im.Key] = im
	}
	run := func(im Impl) time.Duration {
		var s Sink
		start := time.Now()
		if err := im.Run(&readerN{r: bytes.NewReader(c.Data), n: 4096}, c, &s); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	b.SetBytes(2 * int64(len(c.Data)))
	b.ReportAllocs()
	ratios := make([]float64, 0, b.N)
	for i := range b.N {
		var dec, pipe time.Duration
		if i%2 == 0 {
			dec = run(impls["ours-decoder"])
			pipe = run(impls["ours-pipeline"])
		} else {
			pipe = run(impls["ours-pipeline"])
			dec = run(impls["ours-decoder"])
		}
		ratios = append(ratios, float64(pipe)/float64(dec))
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "pipeline-x")
}
