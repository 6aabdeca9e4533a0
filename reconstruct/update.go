package reconstruct

import (
	"strconv"

	"github.com/a2astream/a2astream/parser"
)

// UpdateKind says what an [Update] reports.
type UpdateKind uint8

// The kinds of updates.
const (
	// UpdateText hands out new text of an artifact, in whole characters:
	// append Text to what the artifact showed so far. A replace whose
	// text begins with what was shown hands out only what it adds, and
	// nothing when it adds nothing; so does a replay of the artifact from
	// its start after a resubscription, which hands out nothing until it
	// passes what was shown. Each character is handed out once.
	UpdateText UpdateKind = iota + 1
	// UpdateReplaced says the artifact's text was replaced by text that
	// does not continue what was shown: show Text instead (whole
	// characters; more may follow in UpdateText). It comes for a
	// consolidating close that differs from the streamed text (or is
	// shorter), and for a replay that departs from what was shown; never
	// for one that repeats it.
	UpdateReplaced
	// UpdateSealed says a lastChunk closed the artifact: as thinking when
	// Artifact.Thinking, otherwise as the answer so far (the final status
	// confirms it).
	UpdateSealed
	// UpdateState says the task entered State, with the status message
	// (narration, a question, a failure) in Message.
	UpdateState
	// UpdateDone ends the run: Result holds everything, State the run's
	// last state, Err why the run did not end normally (nil when it did).
	UpdateDone
)

var updateKindNames = [...]string{"", "Text", "Replaced", "Sealed", "State", "Done"}

// String returns the kind's name, such as "Text", or "Invalid(n)".
func (k UpdateKind) String() string {
	if k > 0 && int(k) < len(updateKindNames) {
		return updateKindNames[k]
	}
	return "Invalid(" + strconv.Itoa(int(k)) + ")"
}

// updateKindTexts are the kinds' text forms, as the WebAssembly module's
// updates name them.
var updateKindTexts = [...]string{"", "text", "replaced", "sealed", "state", "done"}

// MarshalText returns the kind's text form: "text", "replaced", "sealed",
// "state" or "done"; "" for the zero value; a *parser.NameError for any
// other number.
func (k UpdateKind) MarshalText() ([]byte, error) {
	if int(k) < len(updateKindTexts) {
		return []byte(updateKindTexts[k]), nil
	}
	return nil, &parser.NameError{Type: "reconstruct.UpdateKind", Name: k.String(), Err: parser.ErrUnknownName}
}

// UnmarshalText reads what MarshalText writes; anything else is a
// *parser.NameError.
func (k *UpdateKind) UnmarshalText(text []byte) error {
	for i, n := range updateKindTexts {
		if n == string(text) {
			*k = UpdateKind(i)
			return nil
		}
	}
	return &parser.NameError{Type: "reconstruct.UpdateKind", Name: string(text), Err: parser.ErrUnknownName}
}

// Update is one thing a typing UI shows as the stream goes: new text,
// replaced text, a sealed artifact, a state change, the end.
//
// Text is a view into the Reducer's buffers, valid only until the next
// call that applies an event; copy it to keep it. Artifact, Message and
// Result point to the Reducer's own values, see [Reducer.Result]; while an
// artifact's text longer than 64 KiB is streamed by deltas, its text part
// holds the text's last piece only: [Artifact.Text] and
// [Artifact.AppendText] (and Reducer.Result, Stream.Result) join the
// pieces first and give the whole text.
type Update struct {
	// Kind says what the update reports.
	Kind UpdateKind
	// Seq is the 1-based ordinal of the frame that caused the update; 0
	// when no frame did (the end of the input).
	Seq int64
	// Artifact is the artifact concerned (UpdateText, UpdateReplaced,
	// UpdateSealed).
	Artifact *Artifact
	// Text is the new text (UpdateText) or the replacing text
	// (UpdateReplaced).
	Text []byte
	// State is the new state (UpdateState), or the run's last state, as
	// Result.State holds it (UpdateDone); parser.TaskStateUnspecified for
	// the other kinds.
	State parser.TaskState
	// Message is the status message of the new state, nil when none
	// (UpdateState).
	Message *parser.Message
	// Result is the run (UpdateDone).
	Result *Result
	// Err is why the run did not end normally (UpdateDone).
	Err error
}
