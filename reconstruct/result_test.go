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

// Every UpdateKind writes its text form and reads back from it; others
// are *parser.NameErrors.
func TestUpdateKindText(t *testing.T) {
	for k, name := range map[reconstruct.UpdateKind]string{0: "", reconstruct.UpdateText: "text", reconstruct.UpdateReplaced: "replaced", reconstruct.UpdateSealed: "sealed", reconstruct.UpdateState: "state", reconstruct.UpdateDone: "done"} {
		text, err := k.MarshalText()
		require.NoError(t, err)
		assert.Equal(t, name, string(text))
		var back reconstruct.UpdateKind
		require.NoError(t, back.UnmarshalText(text))
		assert.Equal(t, k, back)
	}
	_, err := reconstruct.UpdateKind(6).MarshalText()
	assert.ErrorIs(t, err, parser.ErrUnknownName)
	var k reconstruct.UpdateKind
	assert.ErrorIs(t, k.UnmarshalText([]byte("Text")), parser.ErrUnknownName)
}
