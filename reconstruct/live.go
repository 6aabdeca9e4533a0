package reconstruct

// This file holds the live updates that a typing UI is handed: show hands
// out the new whole characters of a text, and one rule, follows, decides
// what is handed out when a text changes other than by a plain append (a
// replace, a replay from the artifact's start after a resubscription, an
// append that rewrites bytes handed out): show (through catchUp),
// replaceParts and appendParts call it. A replay catching up keeps the
// text it catches up with in Reducer.past (pastText); done ends it with
// the run.

import (
	"bytes"

	"github.com/a2astream/a2astream/utf8buf"
)

// done hands out the run's UpdateDone, the error (or nil) in r.err. A
// replace that left an artifact's text shorter than what was handed out,
// with no replay to catch up with it any more (r.past), is handed out first
// in an UpdateReplaced: whichever way the run ends, its live text ends as
// the Result's.
func (r *Reducer) done(seq int64) {
	if c := r.past.of; c != nil {
		r.replaced(c, seq)
	}
	r.syncLastID()
	r.updates = append(r.updates, Update{Kind: UpdateDone, Seq: seq, State: r.res.State, Result: r.res, Err: r.err})
}

// pastText is the text handed out live of one artifact, kept when a
// replace made the artifact's text shorter than it (a replay from the
// artifact's start catching up, see Reducer.catchUp): of is the artifact,
// nil when none, and text what its live updates handed out, while
// of.liveText()[:of.shown] equals text[:of.shown] and of.shown < len(text).
// It is dropped once the text passes it, departs from it, or is sealed,
// and at the end of the run.
type pastText struct {
	of   *Artifact
	text []byte
}

// drop forgets the text kept for a, if any.
func (p *pastText) drop(a *Artifact) {
	if p.of == a {
		*p = pastText{}
	}
}

// shownText returns the text of a handed out live.
func (r *Reducer) shownText(a *Artifact) []byte {
	if r.past.of == a {
		return r.past.text
	}
	return a.liveText()[:a.shown]
}

// keepShown keeps shown, the text of a handed out live before a replace
// that did not reuse its buffer, in r.past, for show to compare the new
// text with (catchUp). Another artifact catching up is done with: its text
// is handed out as it is, in an UpdateReplaced. A muted Reducer handed
// nothing out: it keeps nothing.
func (r *Reducer) keepShown(a *Artifact, shown []byte, seq int64) {
	r.past.drop(a)
	a.shown = 0
	if r.mute || len(shown) == 0 {
		return
	}
	if c := r.past.of; c != nil {
		r.replaced(c, seq)
	}
	r.past = pastText{a, shown}
}

// standing is how an artifact's text stands to the text handed out live.
type standing uint8

const (
	// extends: the text begins with the text handed out; what follows is
	// new text.
	extends standing = iota
	// behind: the text is shorter than the text handed out and a start of
	// it, as a replay from the artifact's start is until it catches up.
	behind
	// diverges: neither; the text replaced the text handed out.
	diverges
)

// follows is the rule that decides what the live updates hand out when an
// artifact's text changes other than by a plain append: it returns how
// text, the whole characters of the artifact's text (all of it when final),
// stands to shown, the text handed out. A text that is final (the artifact
// is sealed with it) is never behind: shorter, it diverges. The text of
// every route a delta takes (appendDelta, appendParts, replaceParts) is
// compared by it, in show and replaceParts, and in appendParts for the
// bytes an append rewrites.
func follows(text, shown []byte, final bool) standing {
	switch {
	case bytes.HasPrefix(text, shown):
		return extends
	case !final && bytes.HasPrefix(shown, text):
		return behind
	}
	return diverges
}

// catchUp compares text[:end], the live text of a, whose text handed out
// is kept in r.past, with that text (follows), and reports whether
// text[a.shown:end] may be handed out as new text: a text that extends it
// carries on from its end, and r.past is dropped; one behind it hands out
// nothing (a.shown counts how much of it matched); one that diverges is
// handed out in an UpdateReplaced.
//
// Only the bytes past a.shown are compared, the text before them having
// matched already: a delta rewrites no byte before the text's complete
// prefix, which a.shown never passes, so that a replay costs no more per
// delta than the delta's length.
func (r *Reducer) catchUp(a *Artifact, seq int64, text []byte, end int, final bool) bool {
	past := r.past.text
	from := min(a.shown, end)
	switch follows(text[from:end], past[from:], final) {
	case extends:
		a.shown, r.past = len(past), pastText{}
		return true
	case behind:
		a.shown = end
		return false
	}
	r.replaced(a, seq)
	return true
}

// replaced hands out the whole characters of a's text in an
// UpdateReplaced, the text having changed from what was shown.
func (r *Reducer) replaced(a *Artifact, seq int64) {
	text := a.liveText()
	a.shown = utf8buf.CompletePrefix(text)
	r.past.drop(a)
	r.updates = append(r.updates, Update{Kind: UpdateReplaced, Seq: seq, Artifact: a, Text: text[:a.shown]})
}

// emitText hands out the text of a not handed out yet, in whole characters
// unless the artifact is being sealed.
func (r *Reducer) emitText(a *Artifact, seq int64, sealing bool) {
	text := a.liveText()
	end := len(text)
	if !sealing {
		end = utf8buf.CompletePrefix(text)
	}
	r.show(a, seq, text, 0, end, sealing)
}

// show hands out the bytes of a's live text from a.shown to at+end in an
// UpdateText, when at+end is past a.shown, where text holds the live text
// from byte at: at is 0, or, for a text in pieces (see pieces), the length
// of the pieces before text, the last one, which a.shown never falls short
// of. a.shown moves to at+end even when r.mute drops the update. final
// says that a is being sealed. While a's text catches up with the text
// handed out (r.past), which it does as one buffer (at is 0), catchUp
// decides.
func (r *Reducer) show(a *Artifact, seq int64, text []byte, at, end int, final bool) {
	if r.past.of == a && !r.catchUp(a, seq, text, end, final) {
		return
	}
	if at+end <= a.shown {
		return
	}
	if !r.mute {
		r.textUpdate(a, seq, text[a.shown-at:end])
	}
	a.shown = at + end
}

// textUpdate hands out text, new text of a, in an UpdateText.
func (r *Reducer) textUpdate(a *Artifact, seq int64, text []byte) {
	// Field by field, every field: a composite literal would be built on
	// the stack and copied, which stalls on store forwarding.
	n := len(r.updates)
	if n == cap(r.updates) {
		r.updates = append(r.updates, Update{})
	} else {
		r.updates = r.updates[:n+1]
	}
	u := &r.updates[n]
	u.Kind, u.Seq, u.Artifact, u.Text = UpdateText, seq, a, text
	u.State, u.Message, u.Result, u.Err = 0, nil, nil, nil
}
