package bench

import (
	"strings"
	"testing"
)

// TestMatrix checks every implementation event by event on every corpus.
// a2astream's own implementations must be right everywhere; the peers'
// verdicts are logged (a wrong peer is a finding about the peer, shown in
// the table, not a failure of this module). The corpora must also expose
// what they claim: CR-only lines, multi-line data, events over 64 KiB and
// keep-alives.
func TestMatrix(t *testing.T) {
	m := CorpusByName("a2a")
	if !strings.Contains(string(m.Data), ": keep-alive\n\n") || !strings.Contains(string(m.Data), "\ndata:{") {
		t.Fatal("the main corpus lacks keep-alives or multi-line data")
	}
	big := 0
	for _, e := range m.Events {
		big = max(big, len(e.Data))
	}
	if big <= 64<<10 {
		t.Fatalf("the largest event of the main corpus has %d bytes, want > 64 KiB", big)
	}
	if n := len(m.Events); n < 19000 || n > 21000 {
		t.Fatalf("the main corpus has %d events, want about 20,000", n)
	}
	if strings.Contains(string(CorpusByName("a2a-cr").Data), "\n") {
		t.Fatal("the CR corpus has an LF")
	}
	for _, v := range Matrix() {
		im, _ := ImplByName(v.Impl)
		switch {
		case im.Ours && !v.OK:
			t.Errorf("%s on %s: %s", v.Impl, v.Corpus, v.Detail)
		case v.NA:
		default:
			t.Logf("%-32s %-9s ok=%-5v %s", v.Impl, v.Corpus, v.OK, v.Detail)
		}
	}
}
