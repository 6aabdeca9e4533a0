package reconstruct

import (
	"io"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
)

// GeneralPathOnly makes the Reducer of s take applyArtifact's general path
// for every artifact update, never the delta fast path (appendToken), so
// that tests can compare the two. Call it after NewStream or Reset, which
// clear it.
func GeneralPathOnly(s *Stream) { s.red.generalOnly = true }

// ApplyDeltaFast offers ev, an artifact update, to the delta fast path of
// r alone and reports whether the fast path applied it.
func ApplyDeltaFast(r *Reducer, f *sse.Frame, ev *parser.Event) bool {
	r.updates = r.updates[:0]
	return r.appendToken(f, &ev.ArtifactUpdate)
}

// RepeatShape returns the decoder Shape with which the next delta of s
// takes Reducer.repeat, or 0 when none does.
func RepeatShape(s *Stream) uint64 { return s.shape }

// MaxPend is the most text of repeated deltas Read gathers before
// appending it.
const MaxPend = maxPend

// ReadGathering runs in through the Stream that Read runs and returns the
// text of the first artifact in the Result that the run's UpdateDone
// points at, copied when the UpdateDone is handed out.
func ReadGathering(in io.Reader, opts *Options) (doneText string) {
	s := newReadStream(opts)
	s.readFrom(in, func(u *Update) bool {
		if u.Kind == UpdateDone && len(u.Result.Artifacts) > 0 {
			doneText = string(u.Result.Artifacts[0].Text())
		}
		return true
	})
	return doneText
}

// GrowText is growText: the room a text extended by deltas gets.
var GrowText = growText

// MaxDoubling is the capacity up to which GrowText doubles.
const MaxDoubling = maxDoubling
