package parser

import "strconv"

// TaskState is the state of an A2A task, numbered as in a2a.proto (A2A 1.0).
type TaskState int32

// The task states of A2A 1.0. On the wire they are the names
// ("TASK_STATE_COMPLETED") or, as ProtoJSON allows, the numbers.
const (
	TaskStateUnspecified   TaskState = 0
	TaskStateSubmitted     TaskState = 1
	TaskStateWorking       TaskState = 2
	TaskStateCompleted     TaskState = 3
	TaskStateFailed        TaskState = 4
	TaskStateCanceled      TaskState = 5
	TaskStateInputRequired TaskState = 6
	TaskStateRejected      TaskState = 7
	TaskStateAuthRequired  TaskState = 8
)

var taskStateNames = [...]string{
	"TASK_STATE_UNSPECIFIED",
	"TASK_STATE_SUBMITTED",
	"TASK_STATE_WORKING",
	"TASK_STATE_COMPLETED",
	"TASK_STATE_FAILED",
	"TASK_STATE_CANCELED",
	"TASK_STATE_INPUT_REQUIRED",
	"TASK_STATE_REJECTED",
	"TASK_STATE_AUTH_REQUIRED",
}

// String returns the state's a2a.proto name, such as
// "TASK_STATE_COMPLETED", or "Invalid(n)" for a number with no name.
func (s TaskState) String() string {
	if s >= 0 && int(s) < len(taskStateNames) {
		return taskStateNames[s]
	}
	return "Invalid(" + strconv.Itoa(int(s)) + ")"
}

// Terminal reports whether s is final: COMPLETED, FAILED, CANCELED or
// REJECTED.
func (s TaskState) Terminal() bool {
	switch s {
	case TaskStateCompleted, TaskStateFailed, TaskStateCanceled, TaskStateRejected:
		return true
	}
	return false
}

// Interrupted reports whether s pauses the task until the client acts:
// INPUT_REQUIRED or AUTH_REQUIRED. The stream ends there although the task
// is not terminal.
func (s TaskState) Interrupted() bool {
	return s == TaskStateInputRequired || s == TaskStateAuthRequired
}

// ParseTaskState parses a task state as ProtoJSON writes it: the a2a.proto
// name ("TASK_STATE_WORKING") or its number ("2"). The lowercase names of
// A2A 0.3 ("working", "input-required") give
// ErrLegacyShape; anything else ErrFieldValue.
func ParseTaskState(s string) (TaskState, error) { return parseTaskState(s) }

// parseTaskState is ParseTaskState for string or []byte, so that the
// decoder converts nothing.
func parseTaskState[T string | []byte](s T) (TaskState, error) {
	switch string(s) {
	case "TASK_STATE_UNSPECIFIED", "0":
		return TaskStateUnspecified, nil
	case "TASK_STATE_SUBMITTED", "1":
		return TaskStateSubmitted, nil
	case "TASK_STATE_WORKING", "2":
		return TaskStateWorking, nil
	case "TASK_STATE_COMPLETED", "3":
		return TaskStateCompleted, nil
	case "TASK_STATE_FAILED", "4":
		return TaskStateFailed, nil
	case "TASK_STATE_CANCELED", "5":
		return TaskStateCanceled, nil
	case "TASK_STATE_INPUT_REQUIRED", "6":
		return TaskStateInputRequired, nil
	case "TASK_STATE_REJECTED", "7":
		return TaskStateRejected, nil
	case "TASK_STATE_AUTH_REQUIRED", "8":
		return TaskStateAuthRequired, nil
	case "submitted", "working", "input-required", "completed", "canceled",
		"failed", "rejected", "auth-required", "unknown":
		return 0, ErrLegacyShape
	}
	return 0, ErrFieldValue
}

// CanTransition reports whether a task may go from state from to state to,
// following the transition table of the A2A task lifecycle:
//
//	SUBMITTED      → WORKING, REJECTED, AUTH_REQUIRED
//	WORKING        → COMPLETED, FAILED, INPUT_REQUIRED, AUTH_REQUIRED
//	AUTH_REQUIRED  → WORKING
//	INPUT_REQUIRED → WORKING
//	any non-terminal state → CANCELED
//
// A state may also repeat itself while it is not terminal (a WORKING status
// update that only carries narration or usage). UNSPECIFIED stands for "no
// state seen yet": from it a task may enter SUBMITTED or any state SUBMITTED
// may enter, as well as WORKING directly (a stream that starts with a task
// already working). Nothing leaves a terminal state, and nothing enters
// UNSPECIFIED.
func CanTransition(from, to TaskState) bool {
	if from.Terminal() || to == TaskStateUnspecified || !valid(from) || !valid(to) {
		return false
	}
	if from == to {
		return true
	}
	if to == TaskStateCanceled {
		return true
	}
	switch from {
	case TaskStateUnspecified:
		return to == TaskStateSubmitted || CanTransition(TaskStateSubmitted, to)
	case TaskStateSubmitted:
		return to == TaskStateWorking || to == TaskStateRejected || to == TaskStateAuthRequired
	case TaskStateWorking:
		return to == TaskStateCompleted || to == TaskStateFailed ||
			to == TaskStateInputRequired || to == TaskStateAuthRequired
	case TaskStateAuthRequired, TaskStateInputRequired:
		return to == TaskStateWorking
	}
	return false
}

func valid(s TaskState) bool { return s >= 0 && int(s) < len(taskStateNames) }

// Role says who sent a message, numbered as in a2a.proto.
type Role int32

// The roles of A2A 1.0.
const (
	RoleUnspecified Role = 0
	RoleUser        Role = 1
	RoleAgent       Role = 2
)

// String returns the role's a2a.proto name, such as "ROLE_AGENT", or
// "Invalid(n)".
func (r Role) String() string {
	switch r {
	case RoleUnspecified:
		return "ROLE_UNSPECIFIED"
	case RoleUser:
		return "ROLE_USER"
	case RoleAgent:
		return "ROLE_AGENT"
	}
	return "Invalid(" + strconv.Itoa(int(r)) + ")"
}

func parseRole(s []byte) (Role, error) {
	switch string(s) {
	case "ROLE_UNSPECIFIED", "0":
		return RoleUnspecified, nil
	case "ROLE_USER", "1":
		return RoleUser, nil
	case "ROLE_AGENT", "2":
		return RoleAgent, nil
	case "user", "agent":
		return 0, ErrLegacyShape
	}
	return 0, ErrFieldValue
}
