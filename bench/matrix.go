package bench

import (
	"bytes"
	"fmt"
	"strconv"
)

// Verdict is the outcome of checking one implementation on one corpus.
type Verdict struct {
	Impl, Corpus string
	// OK reports that every event (or the run) came out right.
	OK bool
	// NA reports that the check does not apply (the limits).
	NA bool
	// Detail says what was wrong, or how many events were right.
	Detail string
}

// Check runs im on c, read in 4 KiB reads (Corpus.CheckRead when set), and
// compares what it found with what the corpus must give, event by event.
func Check(im Impl, c *Corpus) Verdict {
	v := Verdict{Impl: im.Name, Corpus: c.Name}
	if im.Level == LevelLimit {
		v.NA, v.Detail = true, "n/a"
		return v
	}
	s := &Sink{Record: true}
	n := 4096
	if c.CheckRead > 0 {
		n = c.CheckRead
	}
	err := im.Run(&readerN{r: bytes.NewReader(c.Data), n: n}, c, s)
	switch im.Level {
	case LevelSSE:
		v.OK, v.Detail = compare(len(c.Events), len(s.SSE), func(i int) (string, bool) {
			w, g := c.Events[i], s.SSE[i]
			if w == g {
				return "", true
			}
			return fmt.Sprintf("event %d: got id %q type %q data %s, want id %q type %q data %s",
				i+1, g.ID, g.Type, clip(g.Data), w.ID, w.Type, clip(w.Data)), false
		})
		v.Detail = diagnose(c, s, v.Detail)
	case LevelDecode:
		v.OK, v.Detail = compare(len(c.Decoded), len(s.Decoded), func(i int) (string, bool) {
			w, g := c.Decoded[i], s.Decoded[i]
			if w == g {
				return "", true
			}
			return fmt.Sprintf("event %d: got %+v, want %+v", i+1, clipD(g), clipD(w)), false
		})
	case LevelPipeline:
		switch {
		case s.Answer != c.Answer:
			v.Detail = fmt.Sprintf("answer of %d bytes, want %d", len(s.Answer), len(c.Answer))
		case s.State != c.State:
			v.Detail = "state " + s.State + ", want " + c.State
		default:
			v.OK, v.Detail = true, "answer and state right"
		}
	}
	if err != nil {
		v.OK = false
		v.Detail = "error: " + clip(err.Error()) + "; " + v.Detail
	}
	return v
}

// compare checks n want events against got ones.
func compare(want, got int, eq func(i int) (string, bool)) (bool, string) {
	bad, first := 0, ""
	for i := range min(want, got) {
		if d, ok := eq(i); !ok {
			if bad == 0 {
				first = d
			}
			bad++
		}
	}
	switch {
	case bad == 0 && want == got:
		return true, strconv.Itoa(want) + " events right"
	case want != got && bad == 0:
		return false, fmt.Sprintf("%d events, want %d", got, want)
	case want != got:
		return false, fmt.Sprintf("%d events, want %d; %d differ, first %s", got, want, bad, first)
	}
	return false, fmt.Sprintf("%d of %d events differ, first %s", bad, want, first)
}

func clip(s string) string {
	if len(s) > 60 {
		return strconv.Quote(s[:60]) + "…(" + strconv.Itoa(len(s)) + " bytes)"
	}
	return strconv.Quote(s)
}

func clipD(d Decoded) Decoded {
	if len(d.Text) > 40 {
		d.Text = d.Text[:40] + "…"
	}
	return d
}

// Matrix checks every implementation on every corpus of cs (Corpora or
// ShortCorpora).
func Matrix(cs []*Corpus) []Verdict {
	var out []Verdict
	for _, im := range Impls() {
		for _, c := range cs {
			out = append(out, Check(im, c))
		}
	}
	return out
}

// diagnose names the usual causes of a wrong SSE event list before the
// details.
func diagnose(c *Corpus, s *Sink, detail string) string {
	if len(s.SSE) == len(c.Events) {
		return detail
	}
	empty := 0
	for _, e := range s.SSE {
		if e.Data == "" {
			empty++
		}
	}
	switch {
	case len(s.SSE) > len(c.Events) && empty >= len(s.SSE)-len(c.Events):
		return fmt.Sprintf("keep-alive comments dispatched as %d empty events; ", len(s.SSE)-len(c.Events)) + detail
	case len(s.SSE) == 0 && bytes.IndexByte(c.Data, '\n') < 0:
		return "CR-only line ends not recognised; " + detail
	}
	return detail
}
