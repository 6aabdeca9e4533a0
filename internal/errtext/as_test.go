package errtext_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/a2astream/a2astream/internal/errtext"
)

// posError is the error type the tests look for.
type posError struct{ pos int }

func (e *posError) Error() string { return fmt.Sprintf("at %d", e.pos) }

// wrapError wraps one error.
type wrapError struct{ err error }

func (e wrapError) Error() string { return "wrap: " + e.err.Error() }
func (e wrapError) Unwrap() error { return e.err }

// asError says it is a *posError at its own pos.
type asError struct{ pos int }

func (e asError) Error() string { return "as" }
func (e asError) As(target any) bool {
	p, ok := target.(**posError)
	if ok {
		*p = &posError{pos: e.pos}
	}
	return ok
}

// nilUnwrap is an error whose Unwrap returns nil.
type nilUnwrap struct{}

func (nilUnwrap) Error() string { return "nil unwrap" }
func (nilUnwrap) Unwrap() error { return nil }

// TestAs checks that errtext.As finds what errors.As finds, on every shape
// of error tree: itself, a chain, a join (depth first, first match wins),
// an As method, and none.
func TestAs(t *testing.T) {
	p1, p2 := &posError{pos: 1}, &posError{pos: 2}
	plain := errors.New("plain")
	tests := []struct {
		name string
		err  error
		want *posError // nil: not found
	}{
		{"nil", nil, nil},
		{"itself", p1, p1},
		{"wrapped twice", wrapError{fmt.Errorf("b: %w", p1)}, p1},
		{"joined, first match", errors.Join(plain, wrapError{p1}, p2), p1},
		{"joined inside a chain", wrapError{errors.Join(nil, plain, p2)}, p2},
		{"two %w", fmt.Errorf("%w and %w", plain, p2), p2},
		{"As method", wrapError{asError{pos: 7}}, &posError{pos: 7}},
		{"none", wrapError{errors.Join(plain, nilUnwrap{})}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got, ref *posError
			found := errtext.As(tt.err, &got)
			assert.Equal(t, errors.As(tt.err, &ref), found, "errors.As agrees")
			assert.Equal(t, ref, got, "errors.As finds the same")
			assert.Equal(t, tt.want != nil, found)
			assert.Equal(t, tt.want, got)
		})
	}
}

// As leaves the target as it was when nothing matches.
func TestAsLeavesTargetWhenNotFound(t *testing.T) {
	kept := &posError{pos: 9}
	got := kept
	assert.False(t, errtext.As(errors.New("plain"), &got))
	assert.Same(t, kept, got)
}
