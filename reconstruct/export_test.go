package reconstruct

import "github.com/a2astream/a2astream/parser"

// GeneralPathOnly makes the Reducer of s take applyArtifact's general path
// for every artifact update, never the delta fast path (appendToken), so
// that tests can compare the two. Call it after NewStream or Reset, which
// clear it.
func GeneralPathOnly(s *Stream) { s.red.generalOnly = true }

// ApplyDeltaFast offers ev, an artifact update, to the delta fast path of
// r alone and reports whether the fast path applied it.
func ApplyDeltaFast(r *Reducer, f *parser.Frame, ev *parser.Event) bool {
	r.updates = r.updates[:0]
	return r.appendToken(f, &ev.ArtifactUpdate)
}

// RepeatShape returns the decoder Shape with which the next delta of s
// takes Reducer.repeat, or 0 when none does.
func RepeatShape(s *Stream) uint64 { return s.shape }
