package reconstruct_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
)

// reconstructSentinels are the documented sentinels a Diagnostic carries.
var reconstructSentinels = []error{
	reconstruct.ErrUnknownArtifact, reconstruct.ErrAfterFinal, reconstruct.ErrTransition,
	reconstruct.ErrOtherTask, reconstruct.ErrSealedArtifact, reconstruct.ErrUnknownEvent,
	reconstruct.ErrNoAnswer, reconstruct.ErrLegacyField,
}

// documented reports whether err is one of the documented errors of a run.
func documented(err error) bool {
	var te *reconstruct.TruncatedError
	var ee *reconstruct.EventError
	var d *reconstruct.Diagnostic
	var de *parser.DecodeError
	var se *sse.SyntaxError
	var ne *reconstruct.NotEventStreamError
	switch {
	case errors.As(err, &ne):
		return errors.Is(err, reconstruct.ErrNotEventStream)
	case errors.As(err, &te):
		return errors.Is(err, reconstruct.ErrTruncated)
	case errors.As(err, &ee):
		var api *parser.APIError
		return errors.As(err, &api) && errors.Is(err, reconstruct.ErrServer) ||
			errors.Is(err, reconstruct.ErrArtifactTooLarge) || errors.Is(err, reconstruct.ErrRunTooLarge) || errors.Is(err, reconstruct.ErrTooManyArtifacts) ||
			errors.Is(err, reconstruct.ErrTooManyDiagnostics)
	case errors.As(err, &d):
		for _, s := range reconstructSentinels {
			if errors.Is(err, s) {
				return true
			}
		}
		return false
	case errors.As(err, &de):
		return de.Err != nil
	case errors.As(err, &se):
		return se.Err != nil
	}
	return false
}

// FuzzPipeline feeds arbitrary bytes through the whole pipeline, whole, in
// chunks chosen by seed and one byte at a time: it never panics, gives the
// same Result and updates however the input is chunked and whether or not
// deltas take the Reducer's delta route and the Stream's shortcut to it, reports only documented
// errors, and its live text is whole characters that end as the stored text
// of each sealed artifact.
func FuzzPipeline(f *testing.F) {
	for _, c := range corpus(f) {
		f.Add([]byte(c.in), int64(len(c.in)))
	}
	for i, e := range errorStreams {
		f.Add([]byte(e.in), int64(i))
	}
	f.Add([]byte(directReply), int64(3))
	f.Fuzz(func(t *testing.T, in []byte, seed int64) {
		if len(in) > 32<<10 {
			return // the 1-byte run is quadratic in nothing, but slow to fuzz
		}
		opts := &reconstruct.Options{Strict: seed&1 == 1}
		if seed&2 == 2 {
			opts.MaxEventSize = 1 << 10
			opts.MaxArtifactSize = 2 << 10
			opts.MaxRunSize = 3 << 10
			opts.MaxArtifacts = 3
			opts.MaxDiagnostics = 4
		}
		s := string(in)
		want := runStream(s, whole, opts)
		for name, split := range map[string]splitter{"seed": randomSplits(uint64(seed)), "1-byte": oneByte} {
			got := runStream(s, split, opts)
			require.Empty(t, cmp.Diff(want.res, got.res, cmpResult), "%s writes: Result differs (-whole +split)", name)
			require.Equal(t, want.texts, got.texts, "%s writes: update texts", name)
			require.Equal(t, want.kinds, got.kinds, "%s writes: update kinds", name)
		}
		var ne *reconstruct.NotEventStreamError
		if !errors.As(want.err, &ne) {
			// Apply one event at a time, every delta off the delta route
			// (a Stream tells an input that is no event stream, the
			// Reducer alone does not).
			generalUpdates, general := applyEach(s, whole, opts, true)
			streamUpdates, stream := runUpdates(reconstruct.NewStream(opts), s, whole)
			require.Empty(t, cmp.Diff(general, stream, cmpExact), "Apply off the delta route gives another Result (-general +Stream)")
			require.Empty(t, cmp.Diff(generalUpdates, streamUpdates), "Apply off the delta route gives other updates (-general +Stream)")
		}
		require.Equal(t, 1, want.dones, "UpdateDone")
		require.Equal(t, want.err, want.res.Err, "Close's error and Result.Err")
		if want.err != nil {
			require.True(t, documented(want.err), "undocumented error %T: %v", want.err, want.err)
		}
		var te *reconstruct.TruncatedError
		if errors.As(want.err, &te) {
			require.Equal(t, want.res.LastEventID, te.LastEventID, "TruncatedError.LastEventID")
		}
		for i := range want.res.Diagnostics {
			require.True(t, documented(&want.res.Diagnostics[i]), "undocumented diagnostic %v", want.res.Diagnostics[i].Err)
		}
		for _, a := range want.res.Artifacts {
			live, stored := want.live[string(a.ArtifactID)], string(a.Text())
			if a.Sealed {
				require.Equal(t, stored, live, "artifact %q, sealed: live text and stored", string(a.ArtifactID))
			}
			require.True(t, strings.HasPrefix(stored, live), "artifact %q: live text %q, stored %q", string(a.ArtifactID), live, stored)
		}
	})
}
