package errtext_test

import (
	"errors"
	"fmt"

	"github.com/a2astream/a2astream/internal/errtext"
)

// An error of package reconstruct that wraps its own sentinel, then one
// of package parser: the first loses the repeated prefix, the second
// keeps its own.
func ExampleAppendCause() {
	errUnknown := errors.New("reconstruct: append to an unknown artifact")
	errJSON := errors.New("parser: invalid JSON")
	place := []byte(`reconstruct: frame 2 at byte 179 artifact "a": `)
	fmt.Println(string(errtext.AppendCause(place, "reconstruct", errUnknown)))
	fmt.Println(string(errtext.AppendCause([]byte("reconstruct: frame 3 at byte 240: "), "reconstruct", errJSON)))
	fmt.Println(errtext.EndsWith(`reconstruct: frame 2 at byte 179 artifact "a": append to an unknown artifact`, errUnknown))
	// Output:
	// reconstruct: frame 2 at byte 179 artifact "a": append to an unknown artifact
	// reconstruct: frame 3 at byte 240: parser: invalid JSON
	// true
}

// As finds an error of a given type in a chain, as errors.As does.
func ExampleAs() {
	var cause *syntaxError
	err := fmt.Errorf("reconstruct: frame 2: %w", &syntaxError{"bad number"})
	if errtext.As(err, &cause) {
		fmt.Println(cause.msg)
	}
	// Output:
	// bad number
}

type syntaxError struct{ msg string }

func (e *syntaxError) Error() string { return e.msg }

// A server's message with a terminal title sequence and a right-to-left
// override, as an error's text quotes it.
func ExampleAppendText() {
	msg := "no such task \x1b]0;PWNED\x07 5\u202e01"
	fmt.Println(string(errtext.AppendText([]byte("parser: server error 404: "), msg)))
	// Output:
	// parser: server error 404: no such task \x1b]0;PWNED\a 5\u202e01
}
