package reconstruct

import (
	"github.com/a2astream/a2astream/parser"
)

// TakesDeltaRoute reports whether r, applying ev (an artifact update) now,
// would take the delta route (appendDelta) rather than applyArtifact.
func TakesDeltaRoute(r *Reducer, ev *parser.Event) bool {
	return r.deltaTarget(&ev.ArtifactUpdate) != nil
}

// Repeatable reports whether the next delta of s, when the decoder
// reports it in the same envelope as the last event, takes Reducer.repeat.
func Repeatable(s *Stream) bool { return s.repeatable }

// GrowText is growText: the room a text extended by deltas gets.
var GrowText = growText
