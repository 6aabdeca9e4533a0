package reconstruct

// This file holds an artifact's text: which appended part extends it
// (appendRule, the append rule), how a text delta reaches it, and how it
// grows.
//
// Every text delta, whatever drives the Reducer (Read, a Stream, Apply),
// is appended by one leaf, utf8buf.AppendComplete (whole characters, a
// surrogate pair split at the seam joined), in a buffer that
// Artifact.extendText grows. Two callers reach it: appendDelta, the delta
// route, for a plain delta to the open artifact touched last (nearly every
// event of a run), which Apply takes when deltaTarget finds its artifact
// and a Stream through repeat; and appendParts, for every other append,
// through extendText. The delta route calls the leaf itself when the text
// has room for the delta (the usual case), and extendText otherwise: a
// text that grows past pieceMax on the delta route, where nothing reads it
// between deltas, is kept in pieces, joined once before anything else
// reads it (see pieces).

import (
	"bytes"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/utf8buf"
)

// appending is what an append does with one of its parts (appendRule).
type appending uint8

const (
	// asPart: the part follows the artifact's parts as a part of its own.
	asPart appending = iota
	// asText: the part's text extends the text part that ends the
	// artifact (Artifact.extendText).
	asText
	// asNothing: the part adds nothing.
	asNothing
)

// appendRule is the append rule, the one place it is written: it returns
// what an append to a does with p, one of the parts it appends. A plain
// text part (isPlain: nothing but text, as a token delta carries) extends
// the plain text part that ends a, so that the deltas of a narration make
// one text part, as the server's consolidating close sends it; an empty
// one adds nothing when no plain text part ends a (the
// intermediate-thinking close carries one); any other part follows a's
// parts as its own.
//
// Every route an append takes asks it: deltaTarget (the delta route takes
// a delta that extends the text) and appendParts. The package
// documentation ("How a run is rebuilt") states it for users.
func appendRule(a *Artifact, p *parser.Part) appending {
	switch n := len(a.Parts); {
	case !isPlain(p):
		return asPart
	case n > 0 && isPlain(&a.Parts[n-1]):
		return asText
	case len(p.Text) == 0:
		return asNothing
	}
	return asPart
}

// isPlain reports whether p is a text part with nothing but text: no
// metadata, file name or media type (see appendRule).
func isPlain(p *parser.Part) bool {
	return p.Kind == parser.PartText && p.Metadata.Raw == nil && p.Filename == nil && p.MediaType == nil
}

// deltaTarget returns the artifact that u extends with a text delta, the
// usual event of a token stream, or nil for any other event: u appends,
// without lastChunk or artifact fields, one part that extends the text of
// the artifact r touched last (r.recent) by the append rule (appendRule),
// that artifact being open, with one text part, and its text handed out
// ending on a whole character (only a reopened artifact's may not:
// appendParts checks what its deltas rewrite). Such a delta takes the
// delta route, appendDelta, and is applied exactly as applyArtifact would
// apply it; applyArtifact takes every other event.
func (r *Reducer) deltaTarget(u *parser.ArtifactUpdate) *Artifact {
	in := &u.Artifact
	if !u.Append || u.LastChunk || len(in.Parts) != 1 || in.Metadata.Raw != nil ||
		len(in.Name) > 0 || len(in.Description) > 0 || len(in.Extensions) > 0 {
		return nil
	}
	a := r.recent
	if a == nil || a.Sealed || a.texts != 1 || !bytes.Equal(a.ArtifactID, in.ArtifactID) {
		return nil
	}
	// Extended, the text part that ends a, its only one, holds the live
	// text.
	if appendRule(a, &in.Parts[0]) != asText || a.shown > r.pieces.before(a)+utf8buf.CompletePrefix(a.Parts[a.textAt].Text) {
		return nil
	}
	return a
}

// appendDelta is the delta route: it appends delta, the text of one plain
// text part, to a, an open artifact whose last part is its only text part
// (see deltaTarget), as applyArtifact would: within the size limits (within),
// by the leaf every text delta reaches (utf8buf.AppendComplete), with the
// new whole characters handed out live. It leaves r.delta at a, or nil
// when a limit ended the run: delta's frame is then the last event applied
// (setID, which repeat leaves to the Stream otherwise), as Apply counts it.
//
// The usual case, a text with room for delta that is not catching up with
// the text handed out (r.past), calls the leaf and textUpdate itself: it
// is the first case of extendText (no growth) and of show (no catch-up),
// without the calls that would find it, which cost the Stream 3–5% of its
// time on a token stream. Any other delta takes them.
func (r *Reducer) appendDelta(f *sse.Frame, a *Artifact, delta []byte) {
	grow := a.size + len(delta)
	if !r.within(grow, r.held+len(delta)) {
		r.setID(f.ID)
		r.tooLarge(f, grow)
		r.delta = nil
		return
	}
	r.held += len(delta)
	a.size = grow
	r.delta = a
	p := &a.Parts[a.textAt]
	if len(p.Text)+len(delta) <= cap(p.Text) && r.past.of != a {
		at := r.pieces.before(a)
		text, end := utf8buf.AppendComplete(p.Text, delta)
		p.Text = text
		if at+end > a.shown {
			if !r.mute {
				r.textUpdate(a, seqOf(f), text[a.shown-at:end])
			}
			a.shown = at + end
		}
		return
	}
	// A text catching up with the text handed out (r.past) is compared
	// with it as one buffer: it grows so until it has caught up.
	var in *pieces
	if r.past.of != a {
		in = &r.pieces
	}
	text, end := a.extendText(delta, r.room(grow, r.held), in)
	if r.pieces.of == a {
		// Artifact.Text, on an Update's Artifact, joins them.
		a.live = r
	}
	r.show(a, seqOf(f), text, r.pieces.before(a), end, false)
}

// repeat applies ev as Apply would when ev has the envelope of the last
// event applied and that event took the delta route: ev is then another
// delta for the same task and artifact, and only what its text can change
// is checked again, by appendDelta. The Stream knows the envelope from
// parser.Decoder.SameEnvelope, which compares envelopes, not the append
// rule: the rule's answer for the last event (appendRule) stands because
// what it reads of an event, its one part's kind, metadata, file name and
// media type, is in the envelope, and whether the artifact's last part is
// plain, the delta route leaves as it was. repeat reports whether it
// applied ev: false when the last event did not take the delta route.
//
// Unlike Apply, repeat does not copy f's id as the last event id: the
// Stream keeps it in its lexer's Frame and hands it to setID before the
// Reducer reads it (see streamReducer). Only a delta that ends the run,
// past a size limit, has its id copied, by appendDelta, since the run's
// end reads it.
func (r *Reducer) repeat(f *sse.Frame, ev *parser.Event) bool {
	a := r.delta
	if a == nil {
		return false
	}
	r.updates = r.updates[:0]
	r.appendDelta(f, a, ev.ArtifactUpdate.Artifact.Parts[0].Text)
	return true
}

// minTextCap is the least room a text extended by deltas starts with.
const minTextCap = 512

// extendText appends delta, the text of a part that extends a's text
// (appendRule), to the plain text part that ends a, and to a.joined when a
// has several text parts, by the leaf every text delta reaches
// (utf8buf.AppendComplete), growing the text's buffer when it has no room:
// for appendParts, and for the delta route when the text has no room or
// catches up with a replay. It joins a surrogate pair split at the seam
// and returns the live text (liveText) and the length of its whole
// characters.
//
// Given in (the delta route, which nothing reads the text behind), a text
// part that is a's only one, has no room for delta and would grow past
// pieceMax goes on in a new piece (pieces.add), as does one already in
// pieces: live is then that piece, and end counts in it. Otherwise the
// text grows in one buffer (growText).
func (a *Artifact) extendText(delta []byte, room int, in *pieces) (live []byte, end int) {
	p := &a.Parts[len(a.Parts)-1]
	if a.texts == 1 && in != nil && len(p.Text)+len(delta) > cap(p.Text) &&
		(in.of == a || len(p.Text)+len(delta) > pieceMax) {
		return in.add(a, delta, room)
	}
	p.Text, end = appendComplete(p.Text, delta, room)
	if a.texts == 1 {
		return p.Text, end
	}
	a.joined, end = appendComplete(a.joined, delta, room)
	return a.joined, end
}

// pieces is the text of one artifact kept in pieces: the pieces before
// the last, done, of n bytes in all, and the last, the Text of the
// artifact's one text part, which the live updates hand out of. A text
// that the delta route grows past pieceMax grows so, rather than as one
// buffer (appendComplete): pieces never copied add up to the text and the
// unused room of the pieces, and join copies them once, into a buffer of
// the text's size that the Result then keeps as it is, so the text
// allocates about twice its size. One buffer has to be copied as it grows:
// its buffers add up to 2 to 4 times the text, plus its trim (growText).
type pieces struct {
	of   *Artifact // the artifact whose text is in pieces; nil when none
	done [][]byte
	n    int
}

// pieceMax is the length past which a text the delta route extends goes
// into pieces, and the size of the pieces it then grows by.
const pieceMax = 64 << 10

// before returns the length of a's text before its last piece.
func (in *pieces) before(a *Artifact) int {
	if in.of != a {
		return 0
	}
	return in.n
}

// add appends delta to a's one text part p, without room for it, as a
// text in pieces (a text that another artifact had in pieces is joined
// first). The piece p.Text is set aside but for its incomplete last
// character, which starts a new piece that gets delta: the whole
// characters delta completes are then in one piece, for an update to hand
// out. The pieces are as large as the text before them, from minTextCap up
// to pieceMax, within room, and hold the deltas that fit in them; a delta
// over pieceMax/16 gets a piece of its size, so that the room a piece is
// set aside with stays under a sixteenth of it.
//
// The bytes are those appendComplete would give: utf8buf.AppendComplete
// gives the same text for any split of its input, and rewrites only bytes
// past the text's complete prefix, which move to the new piece with it.
func (in *pieces) add(a *Artifact, delta []byte, room int) (live []byte, end int) {
	if in.of != a {
		in.join(0)
		in.of = a
	}
	p := &a.Parts[a.textAt]
	text := p.Text
	cp := utf8buf.CompletePrefix(text)
	need := len(text) - cp + len(delta)
	in.done = append(in.done, text[:cp:cp])
	in.n += cp
	// The last character's bytes are the new piece's start, with no room
	// past them: the piece is allocated as delta is appended.
	tail := text[cp:len(text):len(text)]
	if need <= pieceMax/16 {
		// Room for the deltas that come next.
		c := max(min(max(in.n, minTextCap), pieceMax, need+room), need)
		tail = append(make([]byte, 0, c), tail...)
	}
	// A piece of delta's size is not cleared first: append allocates it
	// and clears only the room past the bytes it copies (a large delta's
	// clearing cost a tenth of what Read adds on large).
	p.Text, end = utf8buf.AppendComplete(tail, delta)
	return p.Text, end
}

// join makes the text in pieces, if any, one buffer again, before anything
// but the delta route reads it: of the text's size, with room for spare
// more bytes (a text read while it streams).
func (in *pieces) join(spare int) {
	if in.of == nil {
		return
	}
	p := &in.of.Parts[in.of.textAt]
	if spare > 0 {
		text := make([]byte, 0, in.n+len(p.Text)+spare)
		for _, b := range in.done {
			text = append(text, b...)
		}
		p.Text = append(text, p.Text...)
	} else {
		in.done = append(in.done, p.Text)
		p.Text = bytes.Join(in.done, nil)
	}
	clear(in.done)
	in.of.live = nil
	*in = pieces{done: in.done[:0]}
}

// appendComplete is utf8buf.AppendComplete into text grown, when full, as
// growText describes, with at most room bytes of room past delta.
func appendComplete(text, delta []byte, room int) ([]byte, int) {
	if len(text)+len(delta) > cap(text) {
		text = growText(text, len(delta), room)
	}
	return utf8buf.AppendComplete(text, delta)
}

// growText returns text with room for n more bytes, and at most room
// bytes past them: the artifact's bytes left within MaxArtifactSize and
// MaxRunSize, so that no buffer grows past what the limits let the text
// reach. A text that starts growing by deltas gets room for many at once,
// rather than doubling from a token's size, and then doubles, however long
// it is (twice its room: twice the bytes it holds with the delta would grow
// by more than twice when the deltas are large).
//
// The buffers of a text that ends at L bytes in a last buffer of C then
// add up to about 2C, and the Result keeps at most a fifth of L as room
// (trim copies the text into a buffer of its size when C is larger): the
// answer allocates 2C/L times its size, plus one when trimmed, 2 to 2.4
// times when it ends within a fifth of its buffer and 3.4 to 5 times
// otherwise. Growing by a quarter (append's growth on long slices) makes
// the buffers add up to 5C, 5 to 7.25 times the text: a growth by a
// smaller factor is trimmed less often but copies the text more often.
// No contiguous text grown without knowing its final length does better
// than 4 times in the worst case: the text may end just past a buffer
// that was full.
func growText(text []byte, n, room int) []byte {
	need := len(text) + n
	c := max(min(max(minTextCap, 2*cap(text)), need+room), need)
	if c > 2*len(text) {
		// append extends a slice of len(text) bytes of capacity to c
		// bytes, c being more than twice its capacity, into a buffer
		// of c bytes (rounded up to the allocator's size), clearing
		// only the bytes past text: make would clear the bytes that
		// text overwrites too (a sixth of the time of a run of large
		// appends).
		return append(text[:len(text):len(text)], make([]byte, c-len(text))...)[:len(text)]
	}
	// A text that filled its buffer exactly, or one the limits leave
	// less room: append would grow the buffer by quarters past c, to up
	// to 2.4 times the text.
	return append(make([]byte, 0, c), text...)
}

// trim gives back, once the run is over, the room that the texts of its
// artifacts grew into as deltas extended them (up to as much again as the
// text): a Result kept after the run would hold it for nothing. A text with
// no more than a fifth of its length left over, one that nearly fills its
// buffer, is kept as it is: its copy would cost more, while the buffers are
// both alive, than the room it gives back.
//
// An artifact sealed on its last chunk has given its room back then: a run
// of several large artifacts does not hold the room of each until it ends.
func (r *Reducer) trim() {
	for _, a := range r.res.Artifacts {
		a.trim()
	}
}

// trim gives back the room of a's texts (trimmed).
func (a *Artifact) trim() {
	for i := range a.Parts {
		a.Parts[i].Text = trimmed(a.Parts[i].Text)
	}
	a.joined = trimmed(a.joined)
}

// roomy reports whether b has more room past its length than a fifth of
// its length.
func roomy(b []byte) bool { return cap(b)-len(b) > len(b)/5 }

// trimmed returns b, or a copy of b without its room past its length when
// that room is more than a fifth of its length (roomy).
func trimmed(b []byte) []byte {
	if !roomy(b) {
		return b
	}
	// Not make and append: make clears the bytes that b overwrites.
	return bytes.Clone(b)
}
