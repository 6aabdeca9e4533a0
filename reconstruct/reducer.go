package reconstruct

// The Reducer is written in five files, one job each:
//
//   - reducer.go: the options, the Reducer and its state, Apply, Fail,
//     Finish and the end of a run;
//   - events.go: the handler of each event kind, and the artifact
//     operations (find, append, replace, seal);
//   - text.go: an artifact's text: the append rule (appendRule), the one
//     route of a text delta to its leaf (appendDelta, utf8buf.AppendComplete),
//     and the text's growth (extendText, pieces, growText, trim);
//   - live.go: the live updates a typing UI is handed (show) and the
//     replay rule (follows);
//   - seam.go: what a Stream calls on its Reducer (streamReducer).

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

// Result returns the run as rebuilt so far. It changes with the next Apply;
// after Finish it no longer changes. It is a value of its own, apart from
// the Reducer: once Finish has run, it holds only its ids, texts, parts,
// metadata and diagnostics (Finish gives back the room its texts grew
// into), so that keeping it keeps nothing else alive; Reset starts a new
// Result and leaves this one as it was. Called while a text longer than
// 64 KiB streams, it joins the pieces that text is kept in (joinPieces).
func (r *Reducer) Result() *Result {
	r.joinPieces()
	r.syncLastID()
	return r.res
}

// joinPieces joins the pieces of the text kept in pieces, if any, for a
// caller who reads it while it streams (Result, Artifact.Text): a copy of
// it, with a quarter of its length as room, to grow by deltas in one
// buffer, so that a caller who reads it after each event copies the text
// each time it grows by a quarter, not after each event.
func (r *Reducer) joinPieces() {
	if a := r.pieces.of; a != nil {
		r.pieces.join(min((r.pieces.n+len(a.Parts[a.textAt].Text))/4, r.room(a.size, r.held)))
	}
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

func seqOf(f *sse.Frame) int64 {
	if f == nil {
		return 0
	}
	return f.Seq
}
