package reconstruct_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
)

// withFinal adds A2A 0.3's "final" to every status update of in, true on
// a terminal or interrupted state and false otherwise, as 0.3 servers send
// it.
func withFinal(in string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(in, "\n") {
		if strings.HasPrefix(line, `data: {"statusUpdate":{`) {
			final := "false"
			for _, s := range []string{"COMPLETED", "FAILED", "CANCELED", "REJECTED", "INPUT_REQUIRED", "AUTH_REQUIRED"} {
				if strings.Contains(line, `"TASK_STATE_`+s+`"`) {
					final = "true"
				}
			}
			line = strings.Replace(line, `{"statusUpdate":{`, `{"statusUpdate":{"final":`+final+`,`, 1)
		}
		b.WriteString(line)
	}
	return b.String()
}

// A status update that still carries A2A 0.3's "final" gives the run of the
// same stream without it, and one ErrLegacyField diagnostic naming the
// member (once per run, however many updates carry it). Under Strict the
// diagnostic ends the run, as any diagnostic does.
func TestLegacyFinal(t *testing.T) {
	for _, c := range []struct{ name, in string }{{"specCompleted", specCompleted}, {"thinkingToolAnswer", thinkingToolAnswer}, {"inputRequired", inputRequired}, {"failed", failed}} {
		t.Run(c.name, func(t *testing.T) {
			legacy := withFinal(c.in)
			require.NotEqual(t, c.in, legacy)
			want, wantErr := reconstruct.Read(strings.NewReader(c.in), nil)
			got, err := reconstruct.Read(strings.NewReader(legacy), nil)
			assert.Equal(t, wantErr, err)
			assert.Equal(t, want.State, got.State)
			require.Equal(t, want.Answer != nil, got.Answer != nil)
			if want.Answer != nil {
				assert.Equal(t, string(want.Answer.Text()), string(got.Answer.Text()))
			}
			if want.StatusMessage != nil {
				require.NotNil(t, got.StatusMessage)
				assert.Equal(t, string(reconstruct.MessageText(want.StatusMessage)), string(reconstruct.MessageText(got.StatusMessage)))
			}
			require.Len(t, got.Diagnostics, len(want.Diagnostics)+1)
			d := got.Diagnostics[len(want.Diagnostics)]
			assert.ErrorIs(t, &d, reconstruct.ErrLegacyField)
			assert.Equal(t, "/statusUpdate/final", d.JSONPointer)
			assert.Contains(t, d.Error(), `member /statusUpdate/final`)
			assert.Positive(t, d.Seq)

			_, err = reconstruct.Read(strings.NewReader(legacy), &reconstruct.Options{Strict: true})
			assert.ErrorIs(t, err, reconstruct.ErrLegacyField)
		})
	}
}

// The repro: the spec's completed example with "final":true added
// inside the terminal statusUpdate completes with its answer.
func TestLegacyFinalCompletes(t *testing.T) {
	in := strings.Replace(specCompleted, `"status":{"state":"TASK_STATE_COMPLETED"`, `"final":true,"status":{"state":"TASK_STATE_COMPLETED"`, 1)
	res, err := reconstruct.Read(strings.NewReader(in), nil)
	require.NoError(t, err)
	assert.Equal(t, parser.TaskStateCompleted, res.State)
	assert.Equal(t, "The contract answer.", answerText(res))
	require.Len(t, res.Diagnostics, 1)
	assert.ErrorIs(t, &res.Diagnostics[0], reconstruct.ErrLegacyField)
}

// A 0.3 status message with its parts under "content" is refused loudly:
// the run ends with ErrLegacyShape at that event, never with the question
// silently gone.
func TestLegacyContentRefused(t *testing.T) {
	in := sseStream("c", task("TASK_STATE_WORKING")) + "id: c-2\ndata: " +
		`{"statusUpdate":{"taskId":"` + taskID + `","contextId":"ctx","status":{"state":"TASK_STATE_INPUT_REQUIRED","message":{"messageId":"msg.019a8f30-1111-7aaa-8bbb-0123456789ad","role":"ROLE_AGENT","content":[{"text":"Which patient?"}]}}}}` + "\n\n"
	for _, strict := range []bool{false, true} {
		res, err := reconstruct.Read(strings.NewReader(in), &reconstruct.Options{Strict: strict})
		require.ErrorIs(t, err, parser.ErrLegacyShape)
		var se *parser.DecodeError
		require.ErrorAs(t, err, &se)
		assert.Equal(t, "/statusUpdate/status/message/content", se.JSONPointer)
		assert.Equal(t, "c-2", string(se.ID))
		assert.Equal(t, parser.TaskStateWorking, res.State)
	}
}
