package corpus_test

import (
	"bytes"
	"fmt"

	"github.com/a2astream/a2astream/parser/internal/corpus"
)

// ExampleTokens shows the first event of a generated stream and counts its
// blank lines, one per event plus one per keep-alive comment.
func ExampleTokens() {
	b := corpus.Tokens(100)
	fmt.Printf("%s\n", b[:bytes.Index(b, []byte("\n\n"))])
	fmt.Println(bytes.Count(b, []byte("\n\n")))
	// Output:
	// id: 1
	// data: {"task":{"id":"task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62","contextId":"ctx.0192f4c8-3d6b-7c4f-a02b-4d9e7f3c8b51","status":{"state":"TASK_STATE_WORKING","timestamp":"2026-05-19T12:00:00Z"}}}
	// 102
}
