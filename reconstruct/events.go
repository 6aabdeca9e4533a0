package reconstruct

// This file applies the events: the handler of each event kind (task,
// message, status update, artifact update), and the artifact operations
// they share: finding or adding an artifact, appending or replacing its
// parts within the size limits (fits), sealing it on its last chunk. The
// text of an appended part goes to text.go's leaf (appendParts calls
// Artifact.extendText), what is handed out live to live.go (emitText).

import (
	"bytes"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/utf8buf"
)

// smallRun is the number of artifacts up to which find looks an id up
// through res.Artifacts rather than in a map.
const smallRun = 8

// find returns the run's artifact with the given id, or nil.
func (r *Reducer) find(id []byte) *Artifact {
	if r.index != nil {
		return r.index[string(id)]
	}
	for _, a := range r.res.Artifacts {
		if bytes.Equal(a.ArtifactID, id) {
			return a
		}
	}
	return nil
}

// add appends a, a new artifact, to the run.
func (r *Reducer) add(a *Artifact) {
	r.res.Artifacts = append(r.res.Artifacts, a)
	switch n := len(r.res.Artifacts); {
	case r.index != nil:
		r.index[string(a.ArtifactID)] = a
	case n > smallRun:
		r.index = make(map[string]*Artifact, 2*n)
		for _, a := range r.res.Artifacts {
			r.index[string(a.ArtifactID)] = a
		}
	}
}

// sameTask checks the task id an event names against the run's, adopting it
// when the run has none yet. It reports whether to apply the event.
func (r *Reducer) sameTask(f *sse.Frame, id, ctx []byte) bool {
	if len(id) > 0 {
		if r.res.TaskID == "" {
			r.res.TaskID = string(id)
		} else if r.res.TaskID != string(id) {
			r.diag(f, Diagnostic{TaskID: ownID(id), Err: ErrOtherTask})
			return false
		}
	}
	if len(ctx) > 0 && r.res.ContextID != string(ctx) {
		r.res.ContextID = string(ctx)
	}
	return true
}

// afterTerminal reports an event that arrived after a terminal state; it
// returns false when the event must not be applied.
func (r *Reducer) afterTerminal(f *sse.Frame, to parser.TaskState) bool {
	if !r.terminal {
		return true
	}
	r.diag(f, Diagnostic{From: r.res.State, To: to, Err: ErrAfterFinal})
	return false
}

func (r *Reducer) task(f *sse.Frame, t *parser.Task) {
	if !r.sameTask(f, t.ID, t.ContextID) || !r.afterTerminal(f, t.Status.State) {
		return
	}
	if t.Metadata.Usage.Fields != 0 {
		r.res.Usage = copyUsage(&t.Metadata.Usage)
	}
	seal := t.Status.State.Terminal()
	for i := range t.Artifacts {
		a := &t.Artifacts[i]
		if old := r.find(a.ArtifactID); old != nil && old.Sealed {
			continue
		}
		// A thinking artifact in a snapshot was closed: its tag comes
		// only with its close.
		if !r.applyArtifact(f, a, false, seal || a.Metadata.IntermediateThinking()) {
			return
		}
	}
	if t.Status.State != parser.TaskStateUnspecified {
		r.setStatus(f, &t.Status, false)
	}
}

func (r *Reducer) message(f *sse.Frame, m *parser.Message) {
	if !r.afterTerminal(f, r.res.State) {
		return
	}
	msg := copyMessage(m)
	r.res.Message = msg
	if r.res.TaskID != "" {
		return
	}
	// A direct reply: the message is the answer and ends the run.
	if len(m.ContextID) > 0 {
		r.res.ContextID = string(msg.ContextID)
	}
	a := &Artifact{Artifact: parser.Artifact{ArtifactID: msg.MessageID, Parts: msg.Parts, Metadata: msg.Metadata}, Sealed: true}
	r.resolve(a)
	r.res.Answer = a
	r.final = true
	seq := seqOf(f)
	if text := a.Text(); len(text) > 0 {
		r.updates = append(r.updates, Update{Kind: UpdateText, Seq: seq, Artifact: a, Text: text})
	}
	r.updates = append(r.updates, Update{Kind: UpdateSealed, Seq: seq, Artifact: a})
}

func (r *Reducer) statusUpdate(f *sse.Frame, u *parser.StatusUpdate) {
	if u.LegacyFinal && !r.legacy {
		r.legacy = true
		if !r.diag(f, Diagnostic{JSONPointer: "/statusUpdate/final", Err: ErrLegacyField}) {
			return
		}
	}
	if !r.sameTask(f, u.TaskID, u.ContextID) || !r.afterTerminal(f, u.Status.State) {
		return
	}
	if u.Metadata.Usage.Fields != 0 {
		r.res.Usage = copyUsage(&u.Metadata.Usage)
	}
	r.setStatus(f, &u.Status, true)
}

// setStatus takes a new status; check says whether to check the
// transition (a snapshot is taken as it is).
func (r *Reducer) setStatus(f *sse.Frame, s *parser.Status, check bool) {
	from, to := r.res.State, s.State
	if check && !parser.CanTransition(from, to) {
		if !r.diag(f, Diagnostic{From: from, To: to, Err: ErrTransition}) {
			return
		}
	}
	r.res.State = to
	r.res.StatusMessage = nil
	if s.HasMessage {
		r.res.StatusMessage = copyMessage(&s.Message)
	}
	r.updates = append(r.updates, Update{Kind: UpdateState, Seq: seqOf(f), State: to, Message: r.res.StatusMessage})
	if !to.Terminal() && !to.Interrupted() {
		// The task works again (after an interrupted state, on a
		// resumed stream): the run is not over until its next final
		// status.
		r.final = false
		return
	}
	r.terminal = to.Terminal()
	r.final = true
	r.res.Answer = r.candidate
	r.candidate = nil
	if to == parser.TaskStateCompleted && r.res.Answer == nil {
		r.diag(f, Diagnostic{Err: ErrNoAnswer})
	}
}

func (r *Reducer) artifactUpdate(f *sse.Frame, u *parser.ArtifactUpdate) {
	if !r.sameTask(f, u.TaskID, u.ContextID) {
		return
	}
	if r.terminal && !r.diag(f, Diagnostic{ArtifactID: ownID(u.Artifact.ArtifactID), From: r.res.State, Err: ErrAfterFinal}) {
		return
	}
	if a := r.deltaTarget(u); a != nil {
		r.appendDelta(f, a, u.Artifact.Parts[0].Text)
		return
	}
	r.applyArtifact(f, &u.Artifact, u.Append, u.LastChunk)
}

// fits reports whether an artifact may grow to grow bytes, and the run to
// run bytes: within MaxArtifactSize and MaxRunSize. Otherwise it ends the
// run.
func (r *Reducer) fits(f *sse.Frame, grow, run int) bool {
	if r.within(grow, run) {
		return true
	}
	r.tooLarge(f, grow)
	return false
}

// within reports whether an artifact of grow bytes, in a run of run
// bytes, is within MaxArtifactSize and MaxRunSize.
func (r *Reducer) within(grow, run int) bool {
	return grow <= r.opts.MaxArtifactSize && run <= r.opts.MaxRunSize
}

// room returns the bytes an artifact that fits (fits) with grow bytes, in
// a run of run bytes, may still gain within both limits: the most room a
// text's buffer gets past the bytes it holds.
func (r *Reducer) room(grow, run int) int {
	return min(r.opts.MaxArtifactSize-grow, r.opts.MaxRunSize-run)
}

// tooLarge ends the run for an artifact that would grow to grow bytes
// past MaxArtifactSize, or for the run past MaxRunSize.
func (r *Reducer) tooLarge(f *sse.Frame, grow int) {
	if grow > r.opts.MaxArtifactSize {
		r.fail(f, ErrArtifactTooLarge)
		return
	}
	r.fail(f, ErrRunTooLarge)
}

// applyArtifact appends or replaces the parts of one artifact and seals it
// on its last chunk. It returns false when the run ended.
func (r *Reducer) applyArtifact(f *sse.Frame, in *parser.Artifact, appendParts, last bool) bool {
	// The lookup converts the id without allocating; only a new
	// artifact makes a copy of it.
	a := r.recent
	if a == nil || !bytes.Equal(a.ArtifactID, in.ArtifactID) {
		a = r.find(in.ArtifactID)
	}
	if a != nil && a == r.pieces.of {
		r.pieces.join(0)
	}
	switch {
	case a == nil:
		if appendParts && !r.diag(f, Diagnostic{ArtifactID: ownID(in.ArtifactID), Err: ErrUnknownArtifact}) {
			return false
		}
		if len(r.res.Artifacts) >= r.opts.MaxArtifacts {
			r.fail(f, ErrTooManyArtifacts)
			return false
		}
		a = &Artifact{Artifact: parser.Artifact{ArtifactID: ownID(in.ArtifactID)}}
		r.add(a)
	case a.Sealed:
		if !r.diag(f, Diagnostic{ArtifactID: a.ArtifactID, Err: ErrSealedArtifact}) {
			return false
		}
		a.Sealed = false
		if r.candidate == a {
			r.candidate = nil
		}
	}
	grow := partsSize(in.Parts) + len(in.Metadata.Raw)
	if appendParts {
		grow += a.size
	}
	r.recent = a
	if !r.fits(f, grow, r.held-a.size+grow) {
		return false
	}
	if len(in.Name) > 0 {
		a.Name = bytes.Clone(in.Name)
	}
	if len(in.Description) > 0 {
		a.Description = bytes.Clone(in.Description)
	}
	if len(in.Extensions) > 0 {
		var o owner
		n := 0
		for _, e := range in.Extensions {
			n += len(e)
		}
		o.grow(n)
		a.Extensions = o.ownAll(in.Extensions)
	}
	if in.Metadata.Raw != nil {
		a.Metadata = copyMetadata(&in.Metadata)
		a.Thinking = in.Metadata.IntermediateThinking()
	}
	seq := seqOf(f)
	if appendParts {
		if r.appendParts(a, in.Parts, r.room(grow, r.held-a.size+grow)) {
			r.replaced(a, seq)
		}
	} else {
		r.replaceParts(a, in.Parts, seq)
	}
	r.held += grow - a.size
	a.size = grow
	r.emitText(a, seq, last)
	if last {
		r.seal(a, seq)
	}
	return true
}

func partsSize(parts []parser.Part) int {
	n := 0
	for i := range parts {
		p := &parts[i]
		n += len(p.Text) + len(p.Raw) + len(p.URL) + len(p.Data) + len(p.Metadata.Raw) + len(p.Filename) + len(p.MediaType)
	}
	return n
}

// appendParts appends parts to a, each where the append rule puts it
// (appendRule): a text that extends the text part ending a joins a
// surrogate pair split at the seam (Artifact.extendText).
//
// It reports whether the append rewrote text already handed out live. That
// happens only to an artifact reopened after its seal handed out an
// incomplete character (a high surrogate that the next delta pairs): the
// live text must then be replaced. Otherwise the text handed out ends on a
// complete character, which utf8buf.Append never rewrites.
func (r *Reducer) appendParts(a *Artifact, parts []parser.Part, room int) (rewrote bool) {
	// Keep the handed-out bytes that Append may rewrite (at most MaxHeld).
	var keep [utf8buf.MaxHeld]byte
	live := a.liveText()
	cp := utf8buf.CompletePrefix(live)
	k := 0
	if a.shown > cp {
		k = copy(keep[:], live[cp:a.shown])
	}
	for i := range parts {
		p := &parts[i]
		if to := appendRule(a, p); to != asPart {
			if to == asText {
				a.extendText(p.Text, room, nil)
			}
			continue
		}
		a.Parts = append(a.Parts, copyPart(p))
		if p.Kind != parser.PartText {
			continue
		}
		a.textAt = len(a.Parts) - 1
		switch a.texts++; {
		case a.texts == 2:
			a.joined = appendText(nil, a.Parts)
		case a.texts > 2:
			a.joined = utf8buf.Append(a.joined, p.Text)
		}
	}
	if k > 0 {
		rewrote = follows(a.liveText()[cp:], keep[:k], false) != extends
	}
	return rewrote
}

// replaceParts replaces the parts of a. The new text is compared with the
// text handed out live (follows): when it begins with it, the live text
// carries on from there; when it departs from it, an UpdateReplaced hands
// out the new text; when it is a start of it, as a replay from the
// artifact's start is, the text handed out is kept (r.past), and show
// hands out nothing until the text passes it (catchUp).
func (r *Reducer) replaceParts(a *Artifact, parts []parser.Part, seq int64) {
	shown := r.shownText(a)
	if old := a.Parts; len(parts) == 1 && len(old) == 1 && a.texts == 1 && parts[0].Kind == parser.PartText &&
		len(parts[0].Text) > 0 && len(parts[0].Text) <= cap(old[0].Text) && !roomy(old[0].Text[:len(parts[0].Text)]) {
		// One text for one text, as the last chunk that consolidates a
		// streamed answer sends: the new text takes the old one's buffer
		// when it leaves no more room than trim keeps, once it is
		// compared with what was shown, unless it is behind it (shown
		// must then be kept).
		if st := follows(parts[0].Text[:utf8buf.CompletePrefix(parts[0].Text)], shown, false); st != behind {
			// a.texts, a.textAt and a.joined stay 1, 0 and nil.
			old[0] = copyPartText(&parts[0], append(old[0].Text[:0], parts[0].Text...))
			r.past.drop(a)
			a.shown = len(shown)
			if st == diverges {
				r.replaced(a, seq)
			}
			return
		}
	}
	// Otherwise the old buffers are not reused, so shown stays valid.
	a.Parts = copyParts(make([]parser.Part, 0, len(parts)), parts)
	a.texts, a.textAt, a.joined = 0, 0, nil
	for i := range a.Parts {
		if a.Parts[i].Kind == parser.PartText {
			a.texts, a.textAt = a.texts+1, i
		}
	}
	if a.texts > 1 {
		a.joined = appendText(nil, a.Parts)
	}
	r.keepShown(a, shown, seq)
}

// seal closes a on its last chunk: its texts give back their room (trim),
// a thinking artifact is done, any other one becomes the answer candidate
// and has its citations resolved.
func (r *Reducer) seal(a *Artifact, seq int64) {
	a.Sealed = true
	a.trim()
	if a.Thinking {
		if r.candidate == a {
			r.candidate = nil
		}
	} else {
		r.resolve(a)
		r.candidate = a
	}
	r.updates = append(r.updates, Update{Kind: UpdateSealed, Seq: seq, Artifact: a})
}

// resolve computes a's citations, once, into slices that a owns.
func (r *Reducer) resolve(a *Artifact) {
	cited := false
	for i := range a.Parts {
		cited = cited || a.Parts[i].Kind == parser.PartText && a.Parts[i].Metadata.Raw != nil
	}
	a.Citations, a.CitationDiagnostics = nil, nil
	if !cited {
		return
	}
	if r.resolver == nil {
		r.resolver = new(citations.Resolver)
		r.resolver.Reset(&r.opts.Citations)
	}
	res := r.resolver.Resolve(a.Parts)
	if len(res.Citations) > 0 {
		a.Citations = make([]citations.Resolved, len(res.Citations))
		for i, c := range res.Citations {
			c.ID = bytes.Clone(c.ID)
			c.Locator.Pointer = bytes.Clone(c.Locator.Pointer)
			c.Locator.Raw = bytes.Clone(c.Locator.Raw)
			c.Target = bytes.Clone(c.Target)
			a.Citations[i] = c
		}
	}
	if len(res.Diagnostics) > 0 {
		a.CitationDiagnostics = make([]citations.Diagnostic, len(res.Diagnostics))
		for i, d := range res.Diagnostics {
			d.ID = bytes.Clone(d.ID)
			a.CitationDiagnostics[i] = d
		}
	}
}
