package samples_test

import (
	"bytes"
	"fmt"
	"io/fs"

	"github.com/a2astream/a2astream/internal/samples"
)

// ExampleStreams lists the recorded streams and the start of one: the
// first event of a run is its task.
func ExampleStreams() {
	names, _ := fs.Glob(samples.Streams, "*.sse")
	for _, name := range names {
		fmt.Println(name)
	}
	b, _ := samples.Streams.ReadFile("completed.sse")
	for _, line := range bytes.SplitN(b, []byte("\n"), 3)[:2] {
		fmt.Printf("%.20s\n", line)
	}
	// Output:
	// citations.sse
	// completed.sse
	// failed.sse
	// input-required.sse
	// thinking-tool-answer.sse
	// id: 1
	// data: {"task":{"id":
}
