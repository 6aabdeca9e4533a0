package reconstruct

import (
	"math"

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

// PieceMax is pieceMax: a text longer than that is kept in pieces.
const PieceMax = pieceMax

// ExtendInPieces extends the one text part of an open artifact, text
// (with its capacity), by each delta as the delta route of Read does,
// keeping the text in pieces, and returns the text joined, the number of
// pieces it was kept in, and the length of its whole characters, counted
// over the whole text, after each delta.
func ExtendInPieces(text []byte, deltas [][]byte) (joined []byte, n int, ends []int) {
	a := &Artifact{Artifact: parser.Artifact{Parts: []parser.Part{{Kind: parser.PartText, Text: text}}}, texts: 1}
	var in pieces
	for _, d := range deltas {
		_, end := a.extendText(d, math.MaxInt, &in)
		ends = append(ends, in.before(a)+end)
	}
	n = len(in.done) + 1
	in.join(0)
	return a.Parts[0].Text, n, ends
}
