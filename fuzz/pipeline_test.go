package fuzz

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/utf8buf"
)

// viewOf puts a reconstruct Result in the reference's terms.
func viewOf(res *reconstruct.Result) runView {
	v := runView{TaskID: string(res.TaskID), Final: res.Err == nil}
	if res.State != parser.TaskStateUnspecified {
		v.State = res.State.String()
	}
	if res.Answer != nil {
		v.Answer = string(res.Answer.ArtifactID)
	}
	if res.StatusMessage != nil {
		v.Status = string(reconstruct.MessageText(res.StatusMessage))
	}
	if u := res.Usage; u != nil {
		v.Usage = usageString(u.InputTokens, u.OutputTokens, u.Credits)
	}
	for _, a := range res.Artifacts {
		v.Artifacts = append(v.Artifacts, genArtifact{ID: string(a.ArtifactID), Text: string(a.Text()), Thinking: a.Thinking, Sealed: a.Sealed})
	}
	return v
}

// streamRun pushes chunks through a reconstruct.Stream and checks the
// updates on the way: every update's artifact text is what the UI shows
// when it appends UpdateText and replaces on UpdateReplaced, one
// UpdateDone comes last and carries the run's error.
func streamRun(t *testing.T, chunks [][]byte) (*reconstruct.Result, error) {
	t.Helper()
	s := reconstruct.NewStream(nil)
	shown := map[*reconstruct.Artifact][]byte{}
	var done *reconstruct.Update
	// take runs once per update, up to one per input byte: its check
	// calls require only on failure, as a testify call boxes its arguments
	// on every run and would slow the fuzzing; so does the Write check.
	take := func() {
		for s.Next() {
			u := s.Update()
			if done != nil {
				require.Failf(t, "update after UpdateDone", "update %v after UpdateDone", u.Kind)
			}
			switch u.Kind {
			case reconstruct.UpdateText:
				shown[u.Artifact] = append(shown[u.Artifact], u.Text...)
			case reconstruct.UpdateReplaced:
				shown[u.Artifact] = append(shown[u.Artifact][:0], u.Text...)
			case reconstruct.UpdateDone:
				cp := *u
				done = &cp
			}
		}
	}
	for _, c := range chunks {
		if n, err := s.Write(c); n != len(c) || err != nil {
			require.Failf(t, "Stream.Write failed", "Stream.Write = %d, %v; want %d, nil", n, err, len(c))
		}
		take()
	}
	err := s.Close()
	take()
	require.NotNil(t, done, "no UpdateDone")
	require.True(t, done.Err == err, "UpdateDone carries %v, Close returned %v", done.Err, err)
	require.Same(t, s.Result(), done.Result, "UpdateDone's Result")
	res := s.Result()
	for _, a := range res.Artifacts {
		got, text := string(shown[a]), string(a.Text())
		if a.Sealed {
			require.Equal(t, text, got, "artifact %s: the updates show its text", string(a.ArtifactID))
			continue
		}
		require.True(t, strings.HasPrefix(text, got), "open artifact %s: the updates show %q, its text is %q", string(a.ArtifactID), got, text)
		require.LessOrEqual(t, len(text)-len(got), utf8buf.MaxHeld, "open artifact %s: the updates show %q, its text is %q", string(a.ArtifactID), got, text)
	}
	return res, err
}

// checkRunErr checks that a run's error is one of the documented shapes.
func checkRunErr(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var te *reconstruct.TruncatedError
	var ee *reconstruct.EventError
	var pe *parser.DecodeError
	var se *sse.SyntaxError
	var de *reconstruct.Diagnostic
	var ne *reconstruct.NotEventStreamError
	switch {
	case errors.As(err, &ne):
		require.ErrorIs(t, err, reconstruct.ErrNotEventStream, "a *NotEventStreamError")
	case errors.As(err, &te):
		require.ErrorIs(t, err, reconstruct.ErrTruncated, "a *TruncatedError")
		if te.Cut != nil {
			require.ErrorIs(t, err, io.ErrUnexpectedEOF, "a cut")
		}
	case errors.As(err, &ee):
		require.True(t, matchesAny(err, reconstruct.ErrServer, reconstruct.ErrArtifactTooLarge, reconstruct.ErrRunTooLarge, reconstruct.ErrTooManyArtifacts),
			"%v: an *EventError with an undocumented cause", err)
		if errors.Is(err, reconstruct.ErrServer) {
			var ae *parser.APIError
			require.ErrorAs(t, err, &ae, "ErrServer without the *parser.APIError")
		}
	case errors.As(err, &pe):
		require.GreaterOrEqual(t, pe.JSONOffset, -1, "%v: bad position", err)
		require.GreaterOrEqual(t, pe.Offset, int64(0), "%v: bad position", err)
		require.True(t, matchesAny(err, parser.ErrInvalidJSON, parser.ErrTooDeep, parser.ErrFieldType, parser.ErrFieldValue,
			parser.ErrNoPayload, parser.ErrTwoPayloads, parser.ErrLegacyShape), "%v: a *parser.DecodeError with an undocumented cause", err)
	case errors.As(err, &se):
		require.GreaterOrEqual(t, se.Offset, int64(0), "%v: bad position", err)
		require.True(t, matchesAny(err, sse.ErrEventTooLarge, io.ErrUnexpectedEOF), "%v: a *sse.SyntaxError with an undocumented cause", err)
	case errors.As(err, &de):
		require.Failf(t, "a Diagnostic ended a lenient run", "%v", err)
	default:
		require.Failf(t, "undocumented run error", "%v (%T)", err, err)
	}
}

func matchesAny(err error, targets ...error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}

// FuzzReducerVsNaive generates an A2A run from seed (see generate), optionally
// cuts its bytes at a random place, and checks that reconstruct, fed by a
// Stream in random chunks and by Read over random-sized reads, rebuilds
// what the naive reducer rebuilds from the same bytes (every artifact's
// text, order, thinking and sealed flags, the answer, the state, the last
// status message, the usage, whether the run ended), and, for an uncut run,
// what the generator meant. The
// updates a typing UI shows add up to each sealed artifact's text.
func FuzzReducerVsNaive(f *testing.F) {
	for i := range 40 {
		f.Add(uint64(i), uint16(0))
	}
	f.Add(uint64(7), uint16(333))
	f.Fuzz(func(t *testing.T, seed uint64, cut uint16) {
		rng := rand.New(rand.NewPCG(seed, 3))
		run := generate(rng)
		in := run.SSE
		if cut > 0 {
			in = in[:int(cut)%(len(in)+1)]
		}
		want := naiveReduce(in)
		if cut == 0 {
			meant := runView{TaskID: want.TaskID, State: run.State, Answer: run.Answer, Status: run.Status, Usage: run.Usage, Artifacts: run.Artifacts, Final: run.Final}
			require.Empty(t, cmp.Diff(meant, want), "the naive reducer differs from the generator (-generated +naive); stream:\n%s", in)
		}
		pushed, perr := streamRun(t, split(in, rng, 1+rng.IntN(512)))
		checkRunErr(t, perr)
		require.Empty(t, cmp.Diff(want, viewOf(pushed)), "Stream differs from the naive reducer (-naive +Stream); err: %v; stream:\n%q", perr, in)
		pulled, rerr := reconstruct.Read(&randReader{in: in, rng: rng, maxRead: 1 + rng.IntN(4096)}, nil)
		require.Empty(t, cmp.Diff(want, viewOf(pulled)), "Read differs from the naive reducer (-naive +Read); err: %v", rerr)
		require.Equal(t, fmt.Sprint(perr), fmt.Sprint(rerr), "Stream's error and Read's")
	})
}

// summary is a chunking-independent description of a Result.
func summary(res *reconstruct.Result, err error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "task=%q ctx=%q state=%v last=%q err=%v\n", res.TaskID, res.ContextID, res.State, res.LastEventID, err)
	if res.Answer != nil {
		fmt.Fprintf(&b, "answer=%q\n", string(res.Answer.ArtifactID))
	}
	if res.StatusMessage != nil {
		fmt.Fprintf(&b, "status=%q\n", reconstruct.MessageText(res.StatusMessage))
	}
	if res.Usage != nil {
		fmt.Fprintf(&b, "usage=%+v\n", *res.Usage)
	}
	for _, a := range res.Artifacts {
		fmt.Fprintf(&b, "art %q thinking=%v sealed=%v parts=%d text=%q cites=%d\n", string(a.ArtifactID), a.Thinking, a.Sealed, len(a.Parts), a.Text(), len(a.Citations))
	}
	for _, d := range res.Diagnostics {
		fmt.Fprintf(&b, "diag %v\n", &d)
	}
	return b.String()
}

// FuzzPipelineBytes feeds arbitrary bytes to the whole pipeline. Properties:
// no panic; the run's error is a documented one; the same Result (ids,
// state, answer, every artifact, usage, diagnostics, error) whether the
// bytes are pushed whole, in 1-byte chunks, in random chunks, or read with
// Read over random-sized reads; the answer is a sealed artifact of the run
// that is not thinking; under a small MaxArtifactSize and MaxEventSize no
// artifact holds more than its limit, and Stream and Read still agree.
func FuzzPipelineBytes(f *testing.F) {
	for _, s := range testdataStreams(f) {
		f.Add(s, int64(1))
	}
	for i := range 8 {
		f.Add(generate(rand.New(rand.NewPCG(uint64(i), 3))).SSE, int64(i))
	}
	f.Fuzz(pipelineBytes)
}

// pipelineBytes is the body of FuzzPipelineBytes.
func pipelineBytes(t *testing.T, in []byte, seed int64) {
	{
		if len(in) > 1<<16 {
			return
		}
		rng := rand.New(rand.NewPCG(uint64(seed), 4))
		res, err := streamRun(t, [][]byte{in})
		checkRunErr(t, err)
		want := summary(res, err)
		if res.Answer != nil {
			found := false
			for _, a := range res.Artifacts {
				found = found || a == res.Answer
			}
			if res.Message == nil { // a direct reply's answer is made of its parts
				require.True(t, found && res.Answer.Sealed && !res.Answer.Thinking, "answer %q is not a sealed non-thinking artifact of the run", string(res.Answer.ArtifactID))
			}
		}
		check := func(how string, res *reconstruct.Result, err error) {
			t.Helper()
			require.Equal(t, want, summary(res, err), "%s differs from whole", how)
		}
		if len(in) <= 4096 {
			res, err := streamRun(t, split(in, rng, 1))
			check("1-byte", res, err)
		}
		res, err = streamRun(t, split(in, rng, 1+rng.IntN(256)))
		check("random", res, err)
		res, err = reconstruct.Read(&randReader{in: in, rng: rng, maxRead: 1 + rng.IntN(4096)}, nil)
		check("Read", res, err)

		// Small limits bound what a run holds, whatever the chunking.
		opts := &reconstruct.Options{MaxArtifactSize: 1 + rng.IntN(2048), MaxEventSize: 1 + rng.IntN(4096), MaxRunSize: 1 + rng.IntN(4096)}
		lres, lerr := reconstruct.Read(&randReader{in: in, rng: rng, maxRead: 1 + rng.IntN(64)}, opts)
		checkRunErr(t, lerr)
		total := 0
		for _, a := range lres.Artifacts {
			held := 0
			for _, p := range a.Parts {
				held += len(p.Text) + len(p.Raw) + len(p.URL) + len(p.Data) + len(p.Metadata.Raw)
			}
			require.LessOrEqual(t, held, opts.MaxArtifactSize, "artifact %q: bytes held over MaxArtifactSize", string(a.ArtifactID))
			total += held
		}
		require.LessOrEqual(t, total, opts.MaxRunSize, "the artifacts' bytes over MaxRunSize")
		s := reconstruct.NewStream(opts)
		for _, c := range split(in, rng, 1+rng.IntN(256)) {
			s.Write(c)
			for s.Next() {
			}
		}
		serr := s.Close()
		for s.Next() {
		}
		require.Equal(t, summary(lres, lerr), summary(s.Result(), serr), "with limits %+v, Stream and Read differ (-Read +Stream)", *opts)
	}
}
