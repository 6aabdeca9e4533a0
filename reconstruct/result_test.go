package reconstruct_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
)

// TestRunWithoutAnswer reads runs that end without an answer artifact, as
// FAILED and INPUT_REQUIRED runs do: their Answer is nil, and reading its
// text, as the README's program does, gives nothing instead of a panic.
func TestRunWithoutAnswer(t *testing.T) {
	tests := []struct {
		file  string
		state parser.TaskState
	}{
		{"failed.sse", parser.TaskStateFailed},
		{"input-required.sse", parser.TaskStateInputRequired},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := os.Open("../internal/samples/" + tt.file)
			require.NoError(t, err)
			defer f.Close()
			res, err := reconstruct.Read(f, nil)
			require.NoError(t, err)
			require.Equal(t, tt.state, res.State)
			require.Nil(t, res.Answer)
			assert.Nil(t, res.Answer.Text())
			assert.Equal(t, []byte("kept"), res.Answer.AppendText([]byte("kept")))
			assert.NotEmpty(t, reconstruct.MessageText(res.StatusMessage), "the status message carries the question or the failure")
		})
	}
	assert.Nil(t, reconstruct.MessageText(nil))
}
