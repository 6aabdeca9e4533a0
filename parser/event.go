package parser

import "strconv"

// Kind is the kind of a decoded [Event]: which payload its stream response
// carried.
type Kind uint8

// The event kinds.
const (
	// KindTask is a full task (Event.Task).
	KindTask Kind = iota + 1
	// KindMessage is a direct message (Event.Message).
	KindMessage
	// KindStatusUpdate is a task status update (Event.StatusUpdate).
	KindStatusUpdate
	// KindArtifactUpdate is a task artifact update (Event.ArtifactUpdate).
	KindArtifactUpdate
	// KindError is an error sent inside the stream, as a REST error
	// document or a JSON-RPC error response (Event.Err). It ends the run.
	KindError
	// KindUnknown is a stream response whose single payload key this
	// package does not know (Event.UnknownKey, Event.UnknownRaw): a newer
	// protocol version, surfaced rather than refused.
	KindUnknown
)

var kindNames = [...]string{"", "Task", "Message", "StatusUpdate", "ArtifactUpdate", "Error", "Unknown"}

// String returns the kind's name, such as "ArtifactUpdate", or "Invalid(n)".
func (k Kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Invalid(" + strconv.Itoa(int(k)) + ")"
}

// Binding is the A2A protocol binding a frame or document used.
type Binding uint8

// The bindings.
const (
	// BindingREST is HTTP+JSON: the data is the stream response itself.
	BindingREST Binding = iota + 1
	// BindingJSONRPC is JSON-RPC 2.0: the data is a response envelope whose
	// result is the stream response.
	BindingJSONRPC
)

// String returns "REST", "JSON-RPC" or "Invalid(n)".
func (b Binding) String() string {
	switch b {
	case BindingREST:
		return "REST"
	case BindingJSONRPC:
		return "JSON-RPC"
	}
	return "Invalid(" + strconv.Itoa(int(b)) + ")"
}

// RPCIDKind is the JSON type of a JSON-RPC response id.
type RPCIDKind uint8

// The JSON-RPC id kinds.
const (
	// RPCIDAbsent means the response had no id member (or the binding is
	// REST).
	RPCIDAbsent RPCIDKind = iota
	// RPCIDNumber is a numeric id.
	RPCIDNumber
	// RPCIDString is a string id.
	RPCIDString
	// RPCIDNull is a null id, which servers send when they could not read
	// the request's id.
	RPCIDNull
)

// String returns "Absent", "Number", "String", "Null" or "Invalid(n)".
func (k RPCIDKind) String() string {
	switch k {
	case RPCIDAbsent:
		return "Absent"
	case RPCIDNumber:
		return "Number"
	case RPCIDString:
		return "String"
	case RPCIDNull:
		return "Null"
	}
	return "Invalid(" + strconv.Itoa(int(k)) + ")"
}

// RPCID is the id of a JSON-RPC response.
type RPCID struct {
	// Kind is the id's JSON type.
	Kind RPCIDKind
	// Raw is the id's exact JSON text (7, "msg-001", null); nil when
	// absent.
	Raw []byte
	// Value is the number's text or the string's unescaped bytes; nil for
	// null or absent.
	Value []byte
}

// Event is one decoded stream response. Kind says which of its payload
// fields is set; the others are zero.
//
// An Event returned by [Decoder.Decode] is a view: its byte slices alias the
// frame's data and the Decoder's buffers, and it is valid only until the
// next call to Decode or Reset on that Decoder, or until the frame's data
// changes; it must not be modified. Copy what must be kept. Err is the
// exception: the *APIError is owned by the caller.
type Event struct {
	// Kind is the payload's kind.
	Kind Kind
	// Binding is the binding of the frame.
	Binding Binding
	// RPCID is the JSON-RPC response id (BindingJSONRPC only).
	RPCID RPCID

	// Task is set for KindTask.
	Task Task
	// Message is set for KindMessage.
	Message Message
	// StatusUpdate is set for KindStatusUpdate.
	StatusUpdate StatusUpdate
	// ArtifactUpdate is set for KindArtifactUpdate.
	ArtifactUpdate ArtifactUpdate
	// Err is set for KindError. It is owned by the caller and stays valid
	// after the next Decode.
	Err *APIError
	// UnknownKey is the payload key of a KindUnknown event (unescaped).
	UnknownKey []byte
	// UnknownRaw is the exact JSON of the payload of a KindUnknown event.
	UnknownRaw []byte
}

// TaskID returns the task id the event concerns: the task's id, the
// message's or update's taskId; nil when there is none.
func (e *Event) TaskID() []byte {
	switch e.Kind {
	case KindTask:
		return e.Task.ID
	case KindMessage:
		return e.Message.TaskID
	case KindStatusUpdate:
		return e.StatusUpdate.TaskID
	case KindArtifactUpdate:
		return e.ArtifactUpdate.TaskID
	}
	return nil
}

// ContextID returns the context id of the event's payload; nil when there is
// none.
func (e *Event) ContextID() []byte {
	switch e.Kind {
	case KindTask:
		return e.Task.ContextID
	case KindMessage:
		return e.Message.ContextID
	case KindStatusUpdate:
		return e.StatusUpdate.ContextID
	case KindArtifactUpdate:
		return e.ArtifactUpdate.ContextID
	}
	return nil
}

// Task is an A2A task. Every byte slice is nil when its field was absent
// (or empty, which ProtoJSON does not tell apart).
type Task struct {
	// ID is the task id ("task.…" on Corti; any string elsewhere).
	ID []byte
	// ContextID is the context id.
	ContextID []byte
	// Status is the task's current status.
	Status Status
	// Artifacts are the task's artifacts, in order.
	Artifacts []Artifact
	// History are the messages of the task, oldest first.
	History []Message
	// Metadata is the task's metadata (Corti puts $usage here).
	Metadata Metadata
}

// Status is a task status.
type Status struct {
	// State is the task state; TaskStateUnspecified when absent.
	State TaskState
	// Message is the status message (a question for INPUT_REQUIRED, the
	// failure text for FAILED); meaningful only when HasMessage.
	Message Message
	// HasMessage reports whether the status carried a message.
	HasMessage bool
	// Timestamp is the ISO 8601 timestamp as sent; nil when absent.
	Timestamp []byte
}

// Message is an A2A message.
type Message struct {
	// MessageID is the message id.
	MessageID []byte
	// ContextID is the context id.
	ContextID []byte
	// TaskID is the task id.
	TaskID []byte
	// Role says who sent the message.
	Role Role
	// Parts are the message's content parts, in order.
	Parts []Part
	// Metadata is the message's metadata (Corti puts $timestamp here).
	Metadata Metadata
	// Extensions are the URIs of the extensions the message uses.
	Extensions [][]byte
	// ReferenceTaskIDs are the ids of tasks the message refers to.
	ReferenceTaskIDs [][]byte
}

// Artifact is an A2A artifact, whole or one chunk of it.
type Artifact struct {
	// ArtifactID is the artifact id, stable across its chunks.
	ArtifactID []byte
	// Name is the optional human-readable name.
	Name []byte
	// Description is the optional description.
	Description []byte
	// Parts are the artifact's (or chunk's) content parts, in order.
	Parts []Part
	// Metadata is the artifact's metadata; Metadata.Type is
	// "intermediate-thinking" on the close of pre-tool narration.
	Metadata Metadata
	// Extensions are the URIs of the extensions the artifact uses.
	Extensions [][]byte
}

// StatusUpdate is a task status update event.
type StatusUpdate struct {
	// TaskID is the task id.
	TaskID []byte
	// ContextID is the context id.
	ContextID []byte
	// Status is the new status.
	Status Status
	// Metadata is the update's metadata (Corti's $usage rides here).
	Metadata Metadata
	// LegacyFinal reports that the update carried A2A 0.3's "final"
	// member, which A2A 1.0 removed: clients infer finality from the
	// state. Its value is ignored; package reconstruct reports it as a
	// diagnostic.
	LegacyFinal bool
}

// ArtifactUpdate is a task artifact update event: one chunk of an artifact.
type ArtifactUpdate struct {
	// TaskID is the task id.
	TaskID []byte
	// ContextID is the context id.
	ContextID []byte
	// Artifact is the chunk.
	Artifact Artifact
	// Append reports whether the chunk's parts extend the artifact (true)
	// or replace it (false, the default).
	Append bool
	// LastChunk reports whether this chunk closes the artifact (not the
	// run).
	LastChunk bool
	// Metadata is the update's metadata.
	Metadata Metadata
}
