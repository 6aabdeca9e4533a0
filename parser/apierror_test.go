package parser

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAPIErrorSaysItOnce checks the message of a server error: each of
// code, status, reason and message at most once, and a reason that repeats
// the status not repeated.
func TestAPIErrorSaysItOnce(t *testing.T) {
	tests := []struct {
		name string
		err  APIError
		want string
	}{
		{"reason repeats the status", APIError{Code: 401, Status: "UNAUTHENTICATED", Reason: "UNAUTHENTICATED", Message: "Missing bearer token."},
			"parser: server error 401 UNAUTHENTICATED: Missing bearer token."},
		{"reason differs from the status", APIError{Code: 404, Status: "NOT_FOUND", Reason: "TASK_NOT_FOUND", Message: "Task not found."},
			"parser: server error 404 NOT_FOUND (TASK_NOT_FOUND): Task not found."},
		{"reason without a status", APIError{Code: -32001, Reason: "TASK_NOT_FOUND"},
			"parser: server error -32001 (TASK_NOT_FOUND)"},
		{"nothing but a message", APIError{Message: "boom"}, "parser: server error: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.err.Error())
		})
	}
}
