package reconstruct

// This file is structured as: the options and the Reducer with its state;
// Apply and the handler of each event kind; the delta route (deltaTarget,
// appendDelta, and repeat, the Stream's shortcut to it); the artifact
// operations (append, replace, seal) with the live text that a typing UI is
// handed; Finish.
//
// Every text delta, whichever path it takes, is appended to its text by
// one leaf, Artifact.extendText (utf8buf's whole characters, the text's
// growth), within the size limits checked by fits, and its new whole
// characters are handed out by show. A plain delta to the open artifact
// touched last, nearly every event of a run, takes the delta route,
// appendDelta, which is those three calls; applyArtifact takes every other
// artifact event, with appendParts calling the same leaf for each plain text
// part. What the live updates hand out when a text changes otherwise (a
// replace, a replay from the artifact's start after a resubscription, an
// append that rewrites bytes handed out) is decided by one rule, follows,
// which show (through catchUp), replaceParts and appendParts call. A text
// that grows past pieceMax on the delta route is kept in pieces, whoever
// drives the Reducer (Read, a Stream, Apply), and joined once before
// anything else reads it (see pieces).

import (
	"bytes"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/utf8buf"
)

// The limits used when Options leaves them at 0.
const (
	// DefaultMaxArtifactSize caps the bytes of one artifact's parts: 64 MiB.
	DefaultMaxArtifactSize = 64 << 20
	// DefaultMaxRunSize caps the bytes of all the artifacts of a run
	// together: 256 MiB.
	DefaultMaxRunSize = 256 << 20
	// DefaultMaxArtifacts caps the artifacts of one run.
	DefaultMaxArtifacts = 4096
	// DefaultMaxDiagnostics caps the diagnostics of one run.
	DefaultMaxDiagnostics = 1024
)

// Options configures a [Reducer] or a [Stream]. The zero value, like a nil
// *Options, selects every default.
type Options struct {
	// Strict turns every Diagnostic into an error that ends the run.
	Strict bool
	// MaxEventSize caps one SSE event (see sse.Options.MaxEventSize);
	// 0 means sse.DefaultMaxEventSize.
	MaxEventSize int
	// MaxArtifactSize caps the bytes held for one artifact (text, data,
	// raw content, URLs and metadata of its parts); a run whose artifact
	// grows past it stops with ErrArtifactTooLarge. 0 means
	// DefaultMaxArtifactSize, never unlimited.
	MaxArtifactSize int
	// MaxRunSize caps the bytes held for all the artifacts of a run
	// together, each counted as MaxArtifactSize counts it (an artifact
	// replaced by a smaller one gives the difference back); a run that
	// grows past it stops with ErrRunTooLarge. MaxArtifactSize times
	// MaxArtifacts would allow far more than a process can hold. 0 means
	// DefaultMaxRunSize, never unlimited.
	MaxRunSize int
	// MaxArtifacts caps the number of artifacts of a run; 0 means
	// DefaultMaxArtifacts, never unlimited.
	MaxArtifacts int
	// MaxDiagnostics caps the number of diagnostics of a run: a stream
	// that breaks the rules more often than that stops with
	// ErrTooManyDiagnostics, so that no input makes Result.Diagnostics grow
	// without bound. 0 means DefaultMaxDiagnostics, never unlimited.
	MaxDiagnostics int
	// Citations configures how the answer's citations are resolved; its
	// Unit is the unit of the entries' offsets (code points by default).
	Citations citations.Options
}

func (o *Options) withDefaults() Options {
	var v Options
	if o != nil {
		v = *o
	}
	if v.MaxArtifactSize <= 0 {
		v.MaxArtifactSize = DefaultMaxArtifactSize
	}
	if v.MaxRunSize <= 0 {
		v.MaxRunSize = DefaultMaxRunSize
	}
	if v.MaxArtifacts <= 0 {
		v.MaxArtifacts = DefaultMaxArtifacts
	}
	if v.MaxDiagnostics <= 0 {
		v.MaxDiagnostics = DefaultMaxDiagnostics
	}
	return v
}

// Reducer rebuilds a run from its decoded events, applied one at a time
// in stream order with Apply, and ends with Finish. It follows the rules of
// A2A 1.0 streaming as Corti documents them:
//
//   - a task event sets the run's ids, state and status message from the
//     snapshot, and its artifacts (see [Reducer.Apply] for resubscription);
//   - a message event is a direct reply without a task: it is the answer;
//   - an artifact update with append true appends its parts to the artifact
//     with its id; with append false (or absent) it creates or replaces the
//     whole artifact, so a consolidating close never duplicates text;
//   - lastChunk seals that artifact only; one tagged
//     metadata.type "intermediate-thinking" is thinking, not the answer, and
//     the empty text part of its close is not text;
//   - a status update sets the state and the status message (narration,
//     question or failure) and $usage;
//   - the answer is the last artifact sealed before the terminal or
//     interrupted status and not tagged thinking, never the COMPLETED status
//     message.
//
// Events that break these rules are kept (or skipped, for another task) and
// reported as Diagnostics, or end the run under Options.Strict.
//
// Each call to Apply leaves the updates it caused in [Reducer.Pending], for
// a typing UI. A Reducer must not be used from multiple goroutines at once.
type Reducer struct {
	opts Options
	// res is allocated apart, so that a Result kept by the caller keeps
	// nothing of the Reducer (nor of the Stream that holds it) alive, and
	// each run has its own: Reset leaves the last run's as it was.
	res *Result
	// index maps an artifact id to its artifact once the run has more
	// than smallRun artifacts; nil before, when find looks through
	// res.Artifacts (a map of one artifact, as most runs have, is about
	// 250 bytes that an open stream would hold).
	index map[string]*Artifact
	// recent is the artifact of the last artifact update, found without
	// a map lookup when the next update is for it too (the usual case).
	recent *Artifact
	// candidate is the last non-thinking artifact sealed since the last
	// final status: the answer if the next final status comes now.
	candidate *Artifact
	terminal  bool // a terminal state was reached: the state is frozen
	legacy    bool // an ErrLegacyField diagnostic was recorded
	final     bool // the run ended: terminal, interrupted or a direct reply
	finished  bool // Finish was called
	err       error
	// held is the sum of the artifacts' sizes, which MaxRunSize caps.
	held int

	updates []Update
	// resolver is made when an artifact has citations to resolve, and
	// kept across Reset.
	resolver *citations.Resolver
	// lastID is the SSE id of the last event applied, the Reducer's own
	// copy (setID): no view into a lexer's buffers, which move or go back
	// to a pool that other lexers share.
	lastID []byte

	// past is the text handed out of the artifact whose text catches up
	// with it: one at a time, so that the text kept stays within
	// MaxArtifactSize.
	past pastText

	// delta is the artifact the last event extended on the delta route
	// (appendDelta), nil when the last event took another route: a
	// Stream hands the next delta of the same envelope to repeat.
	delta *Artifact
	// mute drops the UpdateText updates (a.shown still moves): Read sets
	// it, as nothing reads them.
	mute bool
	// pieces holds the text that the delta route keeps in pieces, joined
	// before anything else reads it (Result, applyArtifact, Finish,
	// Reset).
	pieces pieces
}

// NewReducer returns a Reducer configured by opts; nil opts selects the
// defaults. The options are copied.
func NewReducer(opts *Options) *Reducer {
	r := new(Reducer)
	r.Reset(opts)
	return r
}

// Reset forgets the run so that the Reducer can rebuild another, with the
// given options (nil for the defaults).
func (r *Reducer) Reset(opts *Options) {
	r.pieces.join(0)
	*r = Reducer{
		opts:     opts.withDefaults(),
		res:      new(Result),
		updates:  r.updates[:0],
		resolver: r.resolver,
		lastID:   r.lastID[:0],
		pieces:   pieces{done: r.pieces.done},
	}
	if r.resolver != nil {
		r.resolver.Reset(&r.opts.Citations)
	}
}

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

// Result returns the run as rebuilt so far. It changes with the next Apply;
// after Finish it no longer changes. It is a value of its own, apart from
// the Reducer: once Finish has run, it holds only its ids, texts, parts,
// metadata and diagnostics (Finish gives back the room its texts grew
// into), so that keeping it keeps nothing else alive; Reset starts a new
// Result and leaves this one as it was. Called while a text longer than
// 64 KiB streams, it joins the pieces that text is kept in (a copy of it,
// with a quarter of its length as room to grow).
func (r *Reducer) Result() *Result {
	if a := r.pieces.of; a != nil {
		// Read while it streams: the text gets a quarter of its length
		// as room, to grow by deltas in one buffer, so that a caller who
		// reads the Result after each event copies the text each time it
		// grows by a quarter, not after each event.
		r.pieces.join(min((r.pieces.n+len(a.Parts[a.textAt].Text))/4, r.room(a.size, r.held)))
	}
	r.syncLastID()
	return r.res
}

// syncLastID brings Result.LastEventID up to date; the id is kept in the
// Reducer's buffer while events are applied so that a new id costs no
// allocation.
func (r *Reducer) syncLastID() {
	if r.res.LastEventID != string(r.lastID) {
		r.res.LastEventID = string(r.lastID)
	}
}

// ownID returns a copy of id, nil when it is empty.
func ownID(id []byte) []byte {
	if len(id) == 0 {
		return nil
	}
	return bytes.Clone(id)
}

// LastEventID returns the SSE id of the last event applied, the value for
// a resubscription's Last-Event-ID header. The slice is valid until the
// next call to Apply or Reset.
func (r *Reducer) LastEventID() []byte { return r.lastID }

// Pending returns the updates caused by the last call to Apply, Fail or
// Finish, in order. The slice and the views in it are valid only until the
// next call to Apply, Fail, Finish or Reset.
func (r *Reducer) Pending() []Update { return r.updates }

// Err returns the error that ended the run, or nil; it is also Result().Err.
func (r *Reducer) Err() error { return r.err }

// Done reports whether the run has ended: a terminal or interrupted state,
// a direct reply, or an error. More events may still be applied after an
// interrupted state (the task resumes) and are reported as Diagnostics after
// a terminal one.
func (r *Reducer) Done() bool { return r.final || r.err != nil }

// Apply applies one decoded event, received in frame f (nil when it did not
// come from a stream: f only locates the event in diagnostics and errors and
// gives the last event id).
//
// A task snapshot for the run's task (after a reconnection,
// tasks/{id}:subscribe sends one and then replays the current artifact from
// its start) updates the state, and takes each snapshot artifact that the
// Reducer has not sealed: sealed artifacts are kept, unknown ones are added,
// and artifacts the snapshot leaves out are kept. The snapshot's artifacts
// are sealed when its state is terminal, and so is one tagged
// intermediate-thinking, whose tag comes only with its close. Feeding the same Reducer
// the subscription after a cut therefore gives the result of the uncut
// stream, and the same live updates: the replay of an artifact hands out
// nothing until it passes the text shown before the cut (see
// [UpdateText]).
//
// Apply returns the error that ended the run, if it did: the server's error
// sent in the stream, a limit exceeded, or a rule broken under
// Options.Strict. After that, Apply does nothing and returns the same error.
func (r *Reducer) Apply(f *sse.Frame, ev *parser.Event) error {
	r.updates, r.delta = r.updates[:0], nil
	if r.err != nil {
		return r.err
	}
	if r.finished {
		return ErrClosed
	}
	if f != nil {
		r.setID(f.ID)
	}
	switch ev.Kind {
	case parser.KindTask:
		r.task(f, &ev.Task)
	case parser.KindMessage:
		r.message(f, &ev.Message)
	case parser.KindStatusUpdate:
		r.statusUpdate(f, &ev.StatusUpdate)
	case parser.KindArtifactUpdate:
		r.artifactUpdate(f, &ev.ArtifactUpdate)
	case parser.KindError:
		r.fail(f, &serverError{api: ev.Err})
	default:
		r.diag(f, Diagnostic{Err: ErrUnknownEvent})
	}
	return r.err
}

// Fail ends the run with err, an error that happened outside the events
// (a frame that could not be lexed or decoded, a failed read), and reports
// it with an UpdateDone. Everything received before stays in the Result.
func (r *Reducer) Fail(err error) {
	r.updates, r.delta = r.updates[:0], nil
	r.stop(0, err)
}

// stop ends the run with err, unless it has already ended.
func (r *Reducer) stop(seq int64, err error) {
	if r.err != nil || r.finished {
		return
	}
	r.err = err
	r.res.Err = err
	r.done(seq)
}

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

func (r *Reducer) fail(f *sse.Frame, err error) {
	r.stop(seqOf(f), &EventError{Position: positionOf(f), Err: err})
}

// diag records a diagnostic; it returns false when Options.Strict made it
// end the run, or there were too many.
func (r *Reducer) diag(f *sse.Frame, d Diagnostic) bool {
	if len(r.res.Diagnostics) >= r.opts.MaxDiagnostics {
		r.fail(f, ErrTooManyDiagnostics)
		return false
	}
	d.Position = positionOf(f)
	r.res.Diagnostics = append(r.res.Diagnostics, d)
	if r.opts.Strict {
		r.stop(seqOf(f), &r.res.Diagnostics[len(r.res.Diagnostics)-1])
		return false
	}
	return true
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
		if !r.diag(f, Diagnostic{Field: "statusUpdate.final", Err: ErrLegacyField}) {
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

// deltaTarget returns the artifact that u extends with a text delta, the
// usual event of a token stream, or nil for any other event: u appends one
// plain text part, without lastChunk or artifact fields, to the open
// artifact r touched last (r.recent), whose last part is its only text part
// and plain, and whose text handed out ends on a whole character (only a
// reopened artifact's may not: appendParts checks what its deltas rewrite).
// Such a delta takes the delta route, appendDelta, and is applied exactly as
// applyArtifact would apply it; applyArtifact takes every other event.
func (r *Reducer) deltaTarget(u *parser.ArtifactUpdate) *Artifact {
	in := &u.Artifact
	if !u.Append || u.LastChunk || len(in.Parts) != 1 || in.Metadata.Raw != nil ||
		len(in.Name) > 0 || len(in.Description) > 0 || len(in.Extensions) > 0 {
		return nil
	}
	p := &in.Parts[0]
	if p.Kind != parser.PartText || p.Metadata.Raw != nil || p.Filename != nil || p.MediaType != nil {
		return nil
	}
	a := r.recent
	if a == nil || a.Sealed || a.texts != 1 || !bytes.Equal(a.ArtifactID, in.ArtifactID) {
		return nil
	}
	// With one text part, the last part when plain is that part, and its
	// text is the live text.
	if text := &a.Parts[len(a.Parts)-1]; !isPlain(text) || a.shown > r.pieces.before(a)+utf8buf.CompletePrefix(text.Text) {
		return nil
	}
	return a
}

// appendDelta is the delta route: it appends delta, the text of one plain
// text part, to a, an open artifact whose last part is its only text part
// (see deltaTarget), as applyArtifact would: within the size limits (fits),
// through the leaf every text delta reaches (Artifact.extendText), with the
// new whole characters handed out live (show).
func (r *Reducer) appendDelta(f *sse.Frame, a *Artifact, delta []byte) {
	grow := a.size + len(delta)
	if !r.fits(f, grow, r.held+len(delta)) {
		return
	}
	// A text catching up with the text handed out (r.past) is compared
	// with it as one buffer: it grows so until it has caught up.
	var in *pieces
	if r.past.of != a {
		in = &r.pieces
	}
	text, end := a.extendText(delta, r.room(grow, r.held+len(delta)), in)
	r.held += grow - a.size
	a.size = grow
	r.show(a, seqOf(f), text, r.pieces.before(a), end, false)
	r.delta = a
}

// repeat applies ev as Apply would when ev has the envelope of the last
// event applied (the Stream knows it from parser.Decoder.SameEnvelope) and
// that event took the delta route: ev is then another delta for the same task
// and artifact, and only what its text can change is checked again, by
// appendDelta. repeat reports whether it applied ev: false when the last
// event did not take the delta route.
func (r *Reducer) repeat(f *sse.Frame, ev *parser.Event) bool {
	a := r.delta
	if a == nil {
		return false
	}
	r.updates, r.delta = r.updates[:0], nil
	r.setID(f.ID)
	r.appendDelta(f, a, ev.ArtifactUpdate.Artifact.Parts[0].Text)
	return true
}

// extended reports whether the last event took the delta route.
func (r *Reducer) extended() bool { return r.delta != nil }

// muteText makes r build no UpdateText, for a caller that reads none.
func (r *Reducer) muteText() { r.mute = true }

// taskID returns the run's task id, without the LastEventID update that
// Result makes (a copy of the id, when it changed).
func (r *Reducer) taskID() string { return r.res.TaskID }

// closed reports whether Finish was called.
func (r *Reducer) closed() bool { return r.finished }

// setID makes id, the id of the frame of the event being applied, the
// last event id: a copy, in the Reducer's buffer, so that it outlives the
// frame and allocates nothing once the buffer fits an id.
func (r *Reducer) setID(id []byte) { r.lastID = append(r.lastID[:0], id...) }

// fits reports whether an artifact may grow to grow bytes, and the run to
// run bytes: within MaxArtifactSize and MaxRunSize. Otherwise it ends the
// run.
func (r *Reducer) fits(f *sse.Frame, grow, run int) bool {
	if grow <= r.opts.MaxArtifactSize && run <= r.opts.MaxRunSize {
		return true
	}
	r.tooLarge(f, grow)
	return false
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

// minTextCap is the least room a text extended by deltas starts with.
const minTextCap = 512

func partsSize(parts []parser.Part) int {
	n := 0
	for i := range parts {
		p := &parts[i]
		n += len(p.Text) + len(p.Raw) + len(p.URL) + len(p.Data) + len(p.Metadata.Raw) + len(p.Filename) + len(p.MediaType)
	}
	return n
}

// appendParts appends parts to a. A plain text part extends a plain text
// part that ends the artifact, joining a surrogate pair split at the seam;
// an empty plain text part (the intermediate-thinking close) adds nothing.
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
		plain := isPlain(p)
		if plain && len(p.Text) == 0 {
			continue
		}
		if n := len(a.Parts); plain && n > 0 && isPlain(&a.Parts[n-1]) {
			a.extendText(p.Text, room, nil)
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

// extendText appends delta, the text of a plain text part, to the plain
// text part that ends a, and to a.joined when a has several text parts:
// the leaf every text delta reaches, on the delta route or through
// appendParts. It joins a surrogate pair split at the seam and returns the
// live text (liveText) and the length of its whole characters
// (utf8buf.AppendComplete).
//
// With in (the delta route), a text part that is a's only one, has no
// room for delta and would grow past pieceMax goes on in a new piece
// (pieces.add), as does one already in pieces: live is then that piece,
// and end counts in it. A shorter text grows in one buffer (growText).
func (a *Artifact) extendText(delta []byte, room int, in *pieces) (live []byte, end int) {
	p := &a.Parts[len(a.Parts)-1]
	if native && a.texts == 1 && in != nil && len(p.Text)+len(delta) > cap(p.Text) &&
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
	c := need
	if need <= pieceMax/16 {
		c = max(min(max(in.n+cp, minTextCap), pieceMax, need+room), need)
	}
	in.done = append(in.done, text[:cp:cp])
	in.n += cp
	p.Text, end = utf8buf.AppendComplete(append(make([]byte, 0, c), text[cp:]...), delta)
	return p.Text, end
}

// join makes the text in pieces, if any, one buffer again, before anything
// but the delta route reads it: of the text's size, with room for spare
// more bytes (a text read while it streams).
func (in *pieces) join(spare int) {
	if !native || in.of == nil {
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
		// Field by field, every field: a composite literal would be built
		// on the stack and copied, which stalls on store forwarding.
		n := len(r.updates)
		if n == cap(r.updates) {
			r.updates = append(r.updates, Update{})
		} else {
			r.updates = r.updates[:n+1]
		}
		u := &r.updates[n]
		u.Kind, u.Seq, u.Artifact, u.Text = UpdateText, seq, a, text[a.shown-at:end]
		u.State, u.Message, u.Result, u.Err = 0, nil, nil, nil
	}
	a.shown = at + end
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

// Finish ends the run at the end of the input: offset is the number of
// bytes of the stream consumed (-1 when the source counts none), and cut the lexer's error for a stream that
// ended inside an event (a *sse.SyntaxError wrapping io.ErrUnexpectedEOF,
// which becomes TruncatedError.Cut), the error of a failed read (its
// Cause), both joined with errors.Join, or nil (or io.EOF) for an input
// that simply ended. A run that had not reached a terminal or interrupted
// state ends with a *TruncatedError. Finish returns the run's error and leaves an UpdateDone
// in Pending, unless the run had already ended with an error (whose
// UpdateDone was left by the Apply or Fail that ended it): a run has one
// UpdateDone. Calling Finish again does nothing more.
func (r *Reducer) Finish(offset int64, cut error) error {
	r.updates, r.delta = r.updates[:0], nil
	if r.finished {
		return r.err
	}
	r.pieces.join(0)
	if r.err != nil {
		r.trim()
		r.finished = true
		return r.err
	}
	if !r.final {
		r.holdBack()
		te := &TruncatedError{
			TaskID:      r.res.TaskID,
			ContextID:   r.res.ContextID,
			State:       r.res.State,
			LastEventID: string(r.lastID),
			Offset:      offset,
		}
		te.Cut, te.Cause = splitEnd(cut)
		if te.Cut != nil {
			te.Dropped = te.Cut.(*sse.SyntaxError).Size
		}
		r.err = te
		r.res.Err = r.err
	}
	r.trim()
	r.finished = true
	r.done(0)
	return r.err
}

// holdBack drops, at the end of the text of each artifact that was still
// streaming (not sealed) when the stream was cut, an incomplete UTF-8
// sequence or a lone high surrogate: the bytes the live text holds back,
// which the rest of the stream (or the replay after a resubscription)
// completes. They are taken off the end of the last text parts (a
// character may be split between two parts). Every text of a cut Result is
// then a prefix of the text of the uncut stream.
func (r *Reducer) holdBack() {
	for _, a := range r.res.Artifacts {
		if a.Sealed || a.texts == 0 {
			continue
		}
		text := a.liveText()
		k := len(text) - utf8buf.CompletePrefix(text)
		if k == 0 {
			continue
		}
		for i := len(a.Parts) - 1; i >= 0 && k > 0; i-- {
			if p := &a.Parts[i]; p.Kind == parser.PartText {
				n := min(k, len(p.Text))
				p.Text = p.Text[:len(p.Text)-n]
				k -= n
			}
		}
		if a.texts > 1 {
			a.joined = appendText(nil, a.Parts)
		}
	}
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

func seqOf(f *sse.Frame) int64 {
	if f == nil {
		return 0
	}
	return f.Seq
}
