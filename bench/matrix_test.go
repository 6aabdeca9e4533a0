package bench

import (
	"bytes"
	"io"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corporaUnderTest are the corpora of the tests: the benchmarks' own, or
// with -short (CI) the same corpora made smaller.
func corporaUnderTest() []*Corpus {
	if testing.Short() {
		return ShortCorpora()
	}
	return Corpora()
}

func byName(cs []*Corpus, name string) *Corpus {
	for _, c := range cs {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// TestCorpora checks that each corpus exposes what it claims: keep-alives
// and multi-line data, CR-only lines, the ids of each style, a large and a
// consolidated event of their sizes, and that the corpora are the same on
// every build.
func TestCorpora(t *testing.T) {
	cs := corporaUnderTest()
	m := byName(cs, "a2a")
	require.NotNil(t, m)
	assert.Contains(t, string(m.Data), ": keep-alive\n\n", "keep-alives")
	assert.Contains(t, string(m.Data), "\ndata:{", "multi-line data")
	assert.NotContains(t, string(byName(cs, "a2a-cr").Data), "\n", "the CR corpus has an LF")
	assert.Contains(t, string(byName(cs, "a2a-crlf").Data), "\r\n\r\n", "CRLF line ends")
	if !testing.Short() {
		big := 0
		for _, e := range m.Events {
			big = max(big, len(e.Data))
		}
		assert.Greater(t, big, 64<<10, "the largest event of the main corpus")
		assert.InDelta(t, 20000, len(m.Events), 1000, "events of the main corpus")
	}

	idLine := map[string]*regexp.Regexp{
		"a2a":      regexp.MustCompile(`^[0-9]+$`),
		"uuid":     regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`),
		"prefixed": regexp.MustCompile(`^task\.[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`),
	}
	for _, tc := range []struct {
		name   string
		length int
	}{{"a2a", 0}, {"uuid", 36}, {"prefixed", 41}, {"noid", 0}} {
		t.Run("ids/"+tc.name, func(t *testing.T) {
			c := byName(cs, tc.name)
			require.NotNil(t, c)
			assert.Equal(t, len(m.Events), len(c.Events), "the same events as a2a")
			seen := map[string]bool{}
			for i, e := range c.Events {
				assert.Equal(t, m.Events[i].Data, e.Data, "event %d's data", i+1)
				if tc.name == "noid" {
					require.Empty(t, e.ID, "event %d", i+1)
					continue
				}
				require.Regexp(t, idLine[tc.name], e.ID, "event %d", i+1)
				if tc.length > 0 {
					require.Len(t, e.ID, tc.length, "event %d", i+1)
				}
				require.False(t, seen[e.ID], "event %d repeats id %s", i+1, e.ID)
				seen[e.ID] = true
			}
			if tc.name == "noid" {
				assert.NotContains(t, string(c.Data), "id:", "no id line")
			}
		})
	}

	large := byName(cs, "large")
	for _, e := range large.Events[:len(large.Events)-2] {
		require.Greater(t, len(e.Data), 256<<10-200, "a large event")
	}
	a := byName(cs, "answer10m")
	require.Len(t, a.Events, 3, "task, answer, status")
	want := 10 << 20
	if testing.Short() {
		want = 512 << 10
	}
	assert.GreaterOrEqual(t, len(a.Answer), want, "the consolidated answer")
	assert.Equal(t, a.Answer, a.Decoded[1].Text)

	again := buildCorpora(testing.Short())
	for i, c := range cs {
		assert.True(t, bytes.Equal(c.Data, again[i].Data), "%s is built the same twice", c.Name)
	}
}

// TestMatrix checks every implementation event by event on every corpus.
// a2astream's own implementations must be right everywhere; the peers'
// verdicts are logged (a wrong peer is a finding about the peer, shown in
// the table, not a failure of this module).
func TestMatrix(t *testing.T) {
	cs := corporaUnderTest()
	got := map[string]bool{}
	for _, v := range Matrix(cs) {
		got[v.Impl+"/"+v.Corpus] = true
		im, ok := ImplByName(v.Impl)
		require.True(t, ok, v.Impl)
		switch {
		case im.Ours:
			assert.True(t, v.OK, "%s on %s: %s", v.Impl, v.Corpus, v.Detail)
		case v.NA:
		default:
			t.Logf("%-32s %-9s ok=%-5v %s", v.Impl, v.Corpus, v.OK, v.Detail)
		}
	}
	for _, im := range Impls() {
		for _, c := range cs {
			assert.True(t, got[im.Name+"/"+c.Name], "%s on %s checked", im.Name, c.Name)
		}
	}
	assert.Len(t, got, len(Impls())*len(cs), "one verdict per implementation and corpus")
}

// TestKeepTextKeepsTheText checks the references limit-keep (runKeepText),
// limit-pieces (runPieceText) and limit-own (runOwnText): each keeps the
// text of every artifact update, in order, and nothing else, read in 4 KiB
// reads and a byte at a time; limit-own's buffer is sized by textsSize,
// the texts' length.
func TestKeepTextKeepsTheText(t *testing.T) {
	for _, c := range corporaUnderTest() {
		var want []byte
		for _, d := range c.Decoded {
			if d.Kind == "artifact" {
				want = append(want, d.Text...)
			}
		}
		assert.Equal(t, len(want), textsSize(c), c.Name)
		for _, run := range []func(io.Reader, *Corpus, *Sink) error{runKeepText, runOwnText, runPieceText} {
			for _, n := range []int{4096, 1} {
				s := &Sink{Record: true}
				require.NoError(t, run(&readerN{r: bytes.NewReader(c.Data), n: n}, c, s), c.Name)
				assert.Equal(t, string(want), s.Answer, "%s, %d-byte reads", c.Name, n)
				assert.Equal(t, len(c.Events), s.Events, "%s: events", c.Name)
			}
		}
	}
}
