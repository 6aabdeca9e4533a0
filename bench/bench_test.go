package bench

import (
	"bytes"
	"io"
	"runtime"
	"slices"
	"strconv"
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

// shortPrefix is the input of every benchmark body with -short (CI, which
// runs each body once): 64 KiB, 16 KiB with 1-byte reads, which the peers
// that rescan an unfinished event take seconds to read in 64 KiB.
func shortPrefix(read string) int {
	if read == "1B" {
		return 16 << 10
	}
	return 64 << 10
}

// benchCorpus returns the corpus called name: the benchmarks' own, or with
// -short the same corpus made small (ShortCorpora), which is quicker to
// build.
func benchCorpus(name string) *Corpus {
	if testing.Short() {
		for _, c := range ShortCorpora() {
			if c.Name == name {
				return c
			}
		}
	}
	return CorpusByName(name)
}

// readsByName returns the reads called name.
func readsByName(name string) func(io.Reader) io.Reader {
	for _, r := range reads {
		if r.name == name {
			return r.wrap
		}
	}
	panic("no reads " + name)
}

// BenchmarkRead runs the implementations on the corpora (every Core one on
// every corpus of SpeedCorpora, the other peers on PeerCorpora) with every
// kind of reads: Read/<implementation key>/<corpus>/<reads>. Besides the usual
// figures it reports events/op, the events of the corpus (or of the
// prefix read), so that the table can give ns and allocs per event. With
// -short (CI) every input is a prefix of the small corpora (shortPrefix).
func BenchmarkRead(b *testing.B) {
	for _, im := range Impls() {
		b.Run(im.Key, func(b *testing.B) {
			for _, cn := range SpeedCorpora {
				c := benchCorpus(cn)
				payloadsOf(c)
				b.Run(cn, func(b *testing.B) {
					for _, rd := range reads {
						if !Measured(im, cn, rd.name) {
							continue
						}
						b.Run(rd.name, func(b *testing.B) {
							n, capped := Capped(im, c, rd.name)
							if testing.Short() {
								// CI runs each body once on a prefix.
								n, capped = min(n, shortPrefix(rd.name)), true
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

// BenchmarkRatio judges the targets: for each Pair (and each of the
// References, reported, not judged), corpus and reads (4 KiB and 1 byte)
// it runs A and B in turn on the same input, one stream
// each per iteration, which of the two first alternating, and reports the
// median over the iterations of A's time as a multiple of B's, wall time
// (x) and process CPU time (cpu-x, which the time other jobs hold the CPU
// does not count):
// Ratio/<pair>/<corpus>/<reads>. A pair run in turn sees one state of the
// machine; two rows of the speed table are measured up to a minute apart,
// and on a shared machine their ratio moves by ±15% from one table to the
// next. The median leaves out the pairs a garbage collection or another
// job fell on. Both read the same bytes: a prefix when either is capped
// (Capped), a prefix of the small corpora with -short (shortPrefix).
//
//	go test -run '^$' -bench 'Ratio/pipeline-decoder/a2a/4KiB' -benchtime 40x -count 10
func BenchmarkRatio(b *testing.B) {
	impls := map[string]Impl{}
	for _, im := range Impls() {
		impls[im.Key] = im
	}
	for _, p := range slices.Concat(Pairs, References) {
		b.Run(p.Key, func(b *testing.B) {
			for _, cn := range SpeedCorpora {
				c := benchCorpus(cn)
				payloadsOf(c)
				b.Run(cn, func(b *testing.B) {
					for _, rd := range []string{"4KiB", "1B"} {
						if rd != "4KiB" && p.NoSmallReads {
							continue
						}
						b.Run(rd, func(b *testing.B) { ratio(b, impls[p.A], impls[p.B], c, rd) })
					}
				})
			}
		})
	}
}

// warmUp runs pair, both sides of a ratio, until their garbage has been
// collected once, so that the pairs measured reuse memory: the first time
// a process's heap grows to its collection goal every page is new to it,
// and the system's first touch of each (a page fault, about 2 µs per 4 KiB
// on this VM, counted in the process's CPU time) then costs a side that
// allocates as much as its work (the pipeline on large, 50 MB a stream,
// twice its time in a process that holds the 280 MB of corpora). It warms
// each benchmark once (not again for each b.N the benchmark tries), stops
// as soon as a pair allocates under 1 MiB (the heap of such pairs does not
// grow much between collections) and after at most a second.
func warmUp(b *testing.B, pair func()) {
	if warmed[b.Name()] {
		return
	}
	warmed[b.Name()] = true
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	gcs, start := m.NumGC, time.Now()
	for time.Since(start) < time.Second {
		before := m.TotalAlloc
		pair()
		runtime.ReadMemStats(&m)
		if m.NumGC != gcs || m.TotalAlloc-before < 1<<20 {
			return
		}
	}
}

// warmed holds the names of the benchmarks warmUp has warmed.
var warmed = map[string]bool{}

func ratio(b *testing.B, x, y Impl, c *Corpus, rd string) {
	nx, cx := Capped(x, c, rd)
	ny, cy := Capped(y, c, rd)
	n, capped := min(nx, ny), cx || cy
	if testing.Short() {
		n, capped = min(n, shortPrefix(rd)), true
	}
	data := c.Data[:n]
	wrap := readsByName(rd)
	run := func(im Impl) (wall, cpu time.Duration) {
		var s Sink
		c0, start := cpuNow(), time.Now()
		if err := im.Run(wrap(bytes.NewReader(data)), c, &s); err != nil && !capped {
			b.Fatal(err)
		}
		return time.Since(start), cpuNow() - c0
	}
	b.StopTimer()
	warmUp(b, func() { run(x); run(y) })
	b.StartTimer()
	walls := make([]float64, 0, b.N)
	cpus := make([]float64, 0, b.N)
	for i := range b.N {
		var wx, wy, cx, cy time.Duration
		if i%2 == 0 {
			wx, cx = run(x)
			wy, cy = run(y)
		} else {
			wy, cy = run(y)
			wx, cx = run(x)
		}
		walls = append(walls, float64(wx)/float64(wy))
		if cx > 0 && cy > 0 {
			cpus = append(cpus, float64(cx)/float64(cy))
		}
	}
	b.ReportMetric(median(walls), "x")
	if len(cpus) > 0 {
		b.ReportMetric(median(cpus), "cpu-x")
	}
	b.ReportMetric(float64(n), "bytes")
}
