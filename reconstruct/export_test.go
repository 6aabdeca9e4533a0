package reconstruct

import (
	"github.com/a2astream/a2astream/parser"
)

// TakesDeltaRoute reports whether r, applying ev (an artifact update) now,
// would take the delta route (appendDelta) rather than applyArtifact.
func TakesDeltaRoute(r *Reducer, ev *parser.Event) bool {
	return r.deltaTarget(&ev.ArtifactUpdate) != nil
}

// RepeatShape returns the decoder Shape with which the next delta of s
// takes Reducer.repeat, or 0 when none does.
func RepeatShape(s *Stream) uint64 { return s.shape }

// GrowText is growText: the room a text extended by deltas gets.
var GrowText = growText

// MaxDoubling is the capacity up to which GrowText doubles.
const MaxDoubling = maxDoubling
