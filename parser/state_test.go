package parser

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTaskStateNumbersAndNames(t *testing.T) {
	// The numbers of a2a.proto (A2A 1.0).
	tests := []struct {
		state       TaskState
		number      int32
		name        string
		terminal    bool
		interrupted bool
	}{
		{TaskStateUnspecified, 0, "TASK_STATE_UNSPECIFIED", false, false},
		{TaskStateSubmitted, 1, "TASK_STATE_SUBMITTED", false, false},
		{TaskStateWorking, 2, "TASK_STATE_WORKING", false, false},
		{TaskStateCompleted, 3, "TASK_STATE_COMPLETED", true, false},
		{TaskStateFailed, 4, "TASK_STATE_FAILED", true, false},
		{TaskStateCanceled, 5, "TASK_STATE_CANCELED", true, false},
		{TaskStateInputRequired, 6, "TASK_STATE_INPUT_REQUIRED", false, true},
		{TaskStateRejected, 7, "TASK_STATE_REJECTED", true, false},
		{TaskStateAuthRequired, 8, "TASK_STATE_AUTH_REQUIRED", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.number, int32(tt.state), "number")
			assert.Equal(t, tt.name, tt.state.String(), "String()")
			assert.Equal(t, tt.terminal, tt.state.Terminal(), "Terminal()")
			assert.Equal(t, tt.interrupted, tt.state.Interrupted(), "Interrupted()")
			for _, in := range []string{tt.name, string(rune('0' + tt.number))} {
				got, err := ParseTaskState(in)
				if assert.NoError(t, err, "ParseTaskState(%q)", in) {
					assert.Equal(t, tt.state, got, "ParseTaskState(%q)", in)
				}
			}
		})
	}
	assert.Equal(t, "Invalid(9)", TaskState(9).String(), "TaskState(9).String()")
	assert.Equal(t, "Invalid(-1)", TaskState(-1).String(), "TaskState(-1).String()")
}

func TestParseTaskStateErrors(t *testing.T) {
	tests := []struct {
		in   string
		want error
	}{
		{"completed", ErrLegacyShape},
		{"input-required", ErrLegacyShape},
		{"auth-required", ErrLegacyShape},
		{"canceled", ErrLegacyShape},
		{"unknown", ErrLegacyShape},
		{"COMPLETED", ErrFieldValue},
		{"task_state_completed", ErrFieldValue},
		{"9", ErrFieldValue},
		{"-1", ErrFieldValue},
		{"", ErrFieldValue},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ParseTaskState(tt.in)
			assert.ErrorIs(t, err, tt.want, "ParseTaskState(%q)", tt.in)
		})
	}
}

func TestCanTransition(t *testing.T) {
	const (
		U = TaskStateUnspecified
		S = TaskStateSubmitted
		W = TaskStateWorking
		C = TaskStateCompleted
		F = TaskStateFailed
		X = TaskStateCanceled
		I = TaskStateInputRequired
		R = TaskStateRejected
		A = TaskStateAuthRequired
	)
	// allowed lists every permitted transition; every other pair of valid
	// states must be refused. The spec's table, plus: a non-terminal state
	// may repeat, and UNSPECIFIED (no state yet) may enter what SUBMITTED
	// may enter, and SUBMITTED itself.
	allowed := map[[2]TaskState]bool{
		{S, W}: true, {S, R}: true, {S, A}: true, // SUBMITTED → WORKING, REJECTED, AUTH_REQUIRED
		{W, C}: true, {W, F}: true, {W, I}: true, {W, A}: true, // WORKING → COMPLETED, FAILED, INPUT_REQUIRED, AUTH_REQUIRED
		{A, W}: true,                                                         // AUTH_REQUIRED → WORKING
		{I, W}: true,                                                         // INPUT_REQUIRED → WORKING
		{S, X}: true, {W, X}: true, {I, X}: true, {A, X}: true, {U, X}: true, // any non-terminal → CANCELED
		{U, S}: true, {U, W}: true, {U, R}: true, {U, A}: true, // start
		{S, S}: true, {W, W}: true, {I, I}: true, {A, A}: true, // repeats
	}
	all := []TaskState{U, S, W, C, F, X, I, R, A}
	for _, from := range all {
		for _, to := range all {
			want := allowed[[2]TaskState{from, to}]
			assert.Equal(t, want, CanTransition(from, to), "CanTransition(%v, %v)", from, to)
		}
	}
	assert.False(t, CanTransition(W, TaskState(9)), "CanTransition accepts a state with no name")
	assert.False(t, CanTransition(TaskState(-3), W), "CanTransition accepts a state with no name")
}
