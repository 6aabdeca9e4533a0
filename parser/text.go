package parser

// This file gives the enums their text form (encoding.TextMarshaler and
// encoding.TextUnmarshaler), so that encoding/json and other encoders
// write their names, never their numbers.

import (
	"errors"
	"strconv"

	"github.com/a2astream/a2astream/internal/errtext"
)

// ErrUnknownName means a text is no name of a value of the enum it was
// read into, or a value has no name to write, seen through a *NameError.
var ErrUnknownName = errors.New("parser: no value of the enum has this name")

// NameError reports a text that an enum's UnmarshalText does not read, or
// a value that its MarshalText cannot name.
type NameError struct {
	// Type is the enum's type, such as "TaskState" or
	// "reconstruct.UpdateKind".
	Type string
	// Name is the text, or the value's String ("Invalid(9)").
	Name string
	// Err is ErrUnknownName, or ErrLegacyShape for a name of A2A 0.3
	// (TaskState, Role).
	Err error
}

// Error describes the error as `parser: TaskState "X": reason`.
func (e *NameError) Error() string {
	return string(errtext.AppendCause([]byte("parser: "+e.Type+" "+strconv.Quote(e.Name)+": "), "parser", e.Err))
}

// Unwrap returns Err.
func (e *NameError) Unwrap() error { return e.Err }

// nameText returns names[v], the text of the value v of the enum typ; ""
// for 0 when names[0] is "" (an enum whose zero value has no name); a
// *NameError when v has no name.
func nameText(typ string, names []string, v int) ([]byte, error) {
	if v >= 0 && v < len(names) && (v == 0 || names[v] != "") {
		return []byte(names[v]), nil
	}
	return nil, &NameError{Type: typ, Name: "Invalid(" + strconv.Itoa(v) + ")", Err: ErrUnknownName}
}

// nameValue returns the index of text in names, or a *NameError.
func nameValue(typ string, names []string, text []byte) (int, error) {
	for i, n := range names {
		if n == string(text) {
			return i, nil
		}
	}
	return 0, &NameError{Type: typ, Name: string(text), Err: ErrUnknownName}
}

// MarshalText returns the state's a2a.proto name, such as
// "TASK_STATE_COMPLETED" (TASK_STATE_UNSPECIFIED for the zero value), or
// a *NameError for a number with no name.
func (s TaskState) MarshalText() ([]byte, error) {
	return nameText("TaskState", taskStateNames[:], int(s))
}

// UnmarshalText reads a state as [ParseTaskState] does: its a2a.proto
// name or, as ProtoJSON allows, its number. Anything else is a *NameError
// (wrapping ErrLegacyShape for a lowercase name of A2A 0.3).
func (s *TaskState) UnmarshalText(text []byte) error {
	v, err := parseTaskState(text)
	if err != nil {
		return &NameError{Type: "TaskState", Name: string(text), Err: nameCause(err)}
	}
	*s = v
	return nil
}

// nameCause maps the decoder's error for an enum's text to NameError.Err.
func nameCause(err error) error {
	if err == ErrLegacyShape {
		return err
	}
	return ErrUnknownName
}

var roleNames = [...]string{"ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"}

// MarshalText returns the role's a2a.proto name, such as "ROLE_AGENT", or
// a *NameError for a number with no name.
func (r Role) MarshalText() ([]byte, error) { return nameText("Role", roleNames[:], int(r)) }

// UnmarshalText reads a role's a2a.proto name or, as ProtoJSON allows,
// its number. Anything else is a *NameError (wrapping ErrLegacyShape for
// "user" or "agent" of A2A 0.3).
func (r *Role) UnmarshalText(text []byte) error {
	v, err := parseRole(text)
	if err != nil {
		return &NameError{Type: "Role", Name: string(text), Err: nameCause(err)}
	}
	*r = v
	return nil
}

// partKindNames are the members of a part that hold its content.
var partKindNames = [...]string{"", "text", "raw", "url", "data"}

// MarshalText returns the member that holds a part of this kind on the
// wire: "text", "raw", "url" or "data"; "" for the zero value; a
// *NameError for any other number.
func (k PartKind) MarshalText() ([]byte, error) {
	return nameText("PartKind", partKindNames[:], int(k))
}

// UnmarshalText reads what MarshalText writes; anything else is a
// *NameError.
func (k *PartKind) UnmarshalText(text []byte) error {
	v, err := nameValue("PartKind", partKindNames[:], text)
	*k = PartKind(v)
	return err
}

var bindingNames = [...]string{"", "REST", "JSON-RPC"}

// MarshalText returns "REST" or "JSON-RPC"; "" for the zero value (the
// binding is unknown); a *NameError for any other number.
func (b Binding) MarshalText() ([]byte, error) {
	return nameText("Binding", bindingNames[:], int(b))
}

// UnmarshalText reads what MarshalText writes; anything else is a
// *NameError.
func (b *Binding) UnmarshalText(text []byte) error {
	v, err := nameValue("Binding", bindingNames[:], text)
	*b = Binding(v)
	return err
}

// kindTextNames are the members of a stream response that hold each kind
// of payload, with "error" and "unknown" for the last two kinds.
var kindTextNames = [...]string{"", "task", "message", "statusUpdate", "artifactUpdate", "error", "unknown"}

// MarshalText returns the member of a stream response that holds an event
// of this kind: "task", "message", "statusUpdate", "artifactUpdate", and
// "error" or "unknown" for KindError and KindUnknown; "" for the zero
// value; a *NameError for any other number.
func (k Kind) MarshalText() ([]byte, error) { return nameText("Kind", kindTextNames[:], int(k)) }

// UnmarshalText reads what MarshalText writes; anything else is a
// *NameError.
func (k *Kind) UnmarshalText(text []byte) error {
	v, err := nameValue("Kind", kindTextNames[:], text)
	*k = Kind(v)
	return err
}
