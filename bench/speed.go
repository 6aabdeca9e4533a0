package bench

import (
	"slices"
	"strings"
)

// Capped returns how many bytes of corpus c an implementation reads with
// the given reads ("whole", "4KiB" or "1B") in the benchmarks, and whether
// that is a cap: the peers that rescan an unfinished event from its start
// (Impl.Rescans) are quadratic in the event's size with small reads, so on
// the corpora with huge events they only read a prefix (Corpus.RescanCap
// with 1-byte reads, RescanCap4K with 4 KiB reads); MB/s is then measured
// on that prefix, and falls further as events grow.
func Capped(im Impl, c *Corpus, read string) (int, bool) {
	n := len(c.Data)
	if !im.Rescans {
		return n, false
	}
	limit := 0
	switch read {
	case "1B":
		limit = c.RescanCap
	case "4KiB":
		limit = c.RescanCap4K
	}
	if limit > 0 && limit < n {
		return limit, true
	}
	return n, false
}

// ScalingSizes are the event sizes of BenchmarkOneByteEvent: a2astream's
// implementations and the linear peers read events up to 1 MiB, the peers
// that rescan (quadratic with 1-byte reads) up to 64 KiB.
func ScalingSizes(im Impl) []int {
	if !im.Rescans {
		return []int{64 << 10, 256 << 10, 1 << 20}
	}
	return []int{16 << 10, 32 << 10, 64 << 10}
}

// SpeedCorpora are the corpora of the speed tables, in their order; the
// CR-only variant is only in the correctness matrix.
var SpeedCorpora = []string{"a2a", "a2a-crlf", "uuid", "prefixed", "noid", "large", "answer10m"}

// PeerCorpora are the corpora on which every peer is measured; on the
// others only the Core implementations are, which keeps the whole table
// to about ten minutes.
var PeerCorpora = []string{"a2a", "a2a-crlf", "large"}

// Measured reports whether the speed tables measure im on corpus with the
// given reads: peers with a default size limit fail on the corpora, the
// payloads-alone baseline has no reads, and the non-Core peers run on
// PeerCorpora only.
func Measured(im Impl, corpus, read string) bool {
	if strings.HasSuffix(im.Key, "-default") || (im.Payloads && read != "whole") {
		return false
	}
	return im.Core || slices.Contains(PeerCorpora, corpus)
}

// Pair is a target of the comparison: A's time as a multiple of B's on
// the same stream and reads, at most (AtMost) or at least Target.
type Pair struct {
	Key    string
	A, B   string // implementation keys
	Target float64
	AtMost bool
	// Desc states the target.
	Desc string
	// NoSmallReads marks a pair that is only measured with 4 KiB reads: B
	// reads no stream.
	NoSmallReads bool
}

// Pairs are the targets judged on BenchmarkRatio, which runs A and B in
// turn on the same input.
var Pairs = []Pair{
	{Key: "lexer-limit", A: "ours-lexer", B: "limit-indexbyte", Target: 2, AtMost: true, Desc: "lexer ≤ 2× bytes.IndexByte"},
	{Key: "gosse-lexer", A: "gosse", B: "ours-lexer", Target: 10, Desc: "lexer ≥ 10× faster than go-sse"},
	{Key: "decoder-fastjson", A: "ours-decoder", B: "fastjson-alone", Target: 1.25, AtMost: true, Desc: "lex+decode ≤ 1.25× fastjson alone", NoSmallReads: true},
	{Key: "pipeline-decoder", A: "ours-pipeline", B: "ours-decoder", Target: 1.25, AtMost: true, Desc: "Read ≤ 1.25× lex+decode"},
	{Key: "stream-decoder", A: "ours-stream", B: "ours-decoder", Target: 1.25, AtMost: true, Desc: "Stream (Write) ≤ 1.25× lex+decode"},
}

// References are ratios that BenchmarkRatio measures beside the targets
// and that no one judges: what a target's line stands against. Keeping
// the text in a buffer that grows (limit-keep) costs this much over lexer
// + decoder; keeping it in pieces joined once it ends (limit-pieces), as
// Read keeps a long text, this much: the two copies a text of unknown
// length takes to end in memory of about its size; copying it once into
// memory of its final size (limit-own), which needs the length no stream
// tells, this much: the floor, which Read and the Stream are also measured
// against.
var References = []Pair{
	{Key: "keep-decoder", A: "limit-keep", B: "ours-decoder", Desc: "lex+decode keeping the text ÷ lex+decode"},
	{Key: "pieces-decoder", A: "limit-pieces", B: "ours-decoder", Desc: "lex+decode keeping the text in pieces, joined at the end ÷ lex+decode"},
	{Key: "own-decoder", A: "limit-own", B: "ours-decoder", Desc: "lex+decode copying the text once, its length known ÷ lex+decode"},
	{Key: "pipeline-own", A: "ours-pipeline", B: "limit-own", Desc: "Read ÷ copying the text once, its length known"},
	{Key: "stream-own", A: "ours-stream", B: "limit-own", Desc: "Stream (Write) ÷ copying the text once, its length known"},
}

// Met reports whether ratio x meets the pair's target.
func (p Pair) Met(x float64) bool {
	if p.AtMost {
		return x <= p.Target
	}
	return x >= p.Target
}
