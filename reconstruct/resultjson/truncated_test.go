package resultjson

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/reconstruct"
)

// truncatedDoc is the "error" member of a truncated run, with pointers so
// that a missing member shows.
type truncatedDoc struct {
	Type        *string `json:"type"`
	Message     *string `json:"message"`
	TaskID      *string `json:"taskId"`
	LastEventID *string `json:"lastEventId"`
	State       *string `json:"state"`
	Offset      *int64  `json:"offset"`
	InsideEvent *bool   `json:"insideEvent"`
	Dropped     *int64  `json:"dropped"`
	Cause       *string `json:"cause"`
}

// The truncated error document always holds taskId, lastEventId, state,
// offset, insideEvent and dropped ("" or 0 when none), and cause only when
// the input failed, with the failure's message.
func TestTruncatedDocument(t *testing.T) {
	const task = `data: {"statusUpdate":{"taskId":"task.019a8f30-1111-7aaa-8bbb-0123456789ab","status":{"state":"TASK_STATE_WORKING"}}}` + "\n\n"
	tests := []struct {
		name        string
		in          string
		cause       error
		taskID      string
		lastEventID string
		state       string
		inside      bool
		dropped     int64
	}{
		{"nothing received", "", nil, "", "", "", false, 0},
		{"cut inside the first event", "data: {\"sta", nil, "", "", "", true, 11},
		{"no id, a task", task, context.DeadlineExceeded, "task.019a8f30-1111-7aaa-8bbb-0123456789ab", "", "TASK_STATE_WORKING", false, 0},
		{"an id, cut inside an event", "id: 7\n" + task + "data: {", errors.New("connection reset"), "task.019a8f30-1111-7aaa-8bbb-0123456789ab", "7", "TASK_STATE_WORKING", true, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := reconstruct.NewStream(nil)
			_, err := s.Write([]byte(tt.in))
			require.NoError(t, err)
			for s.Next() {
			}
			err = s.CloseWithError(tt.cause)
			require.ErrorIs(t, err, reconstruct.ErrTruncated)
			for _, indent := range []bool{false, true} {
				var doc struct{ Error truncatedDoc }
				require.NoError(t, json.Unmarshal(Append(nil, s.Result(), err, &Options{Indent: indent}), &doc))
				e := doc.Error
				require.NotNil(t, e.Type)
				assert.Equal(t, "truncated", *e.Type)
				require.NotNil(t, e.Message)
				assert.Equal(t, err.Error(), *e.Message)
				require.NotNil(t, e.TaskID, "taskId is always present")
				assert.Equal(t, tt.taskID, *e.TaskID)
				require.NotNil(t, e.LastEventID, "lastEventId is always present")
				assert.Equal(t, tt.lastEventID, *e.LastEventID)
				require.NotNil(t, e.State, "state is always present")
				assert.Equal(t, tt.state, *e.State)
				require.NotNil(t, e.Offset)
				assert.Equal(t, int64(len(tt.in)), *e.Offset)
				require.NotNil(t, e.InsideEvent)
				assert.Equal(t, tt.inside, *e.InsideEvent)
				require.NotNil(t, e.Dropped)
				assert.Equal(t, tt.dropped, *e.Dropped)
				if tt.cause == nil {
					assert.Nil(t, e.Cause, "no cause for a plain end of input")
				} else {
					require.NotNil(t, e.Cause)
					assert.Equal(t, tt.cause.Error(), *e.Cause)
					assert.True(t, strings.Contains(*e.Message, tt.cause.Error()))
				}
			}
		})
	}
}

// A status update with A2A 0.3's "final" shows in the diagnostics with the
// member it names; under Strict it is the run's error, of type "rule".
func TestLegacyFieldDiagnostic(t *testing.T) {
	in := `data: {"task":{"id":"t","status":{"state":"TASK_STATE_WORKING"}}}` + "\n\n" +
		`data: {"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_INPUT_REQUIRED"},"final":true}}` + "\n\n"
	res, err := reconstruct.Read(strings.NewReader(in), nil)
	require.NoError(t, err)
	var doc struct {
		Diagnostics []struct{ JSONPointer, Error string }
		Error       *struct{ Type string }
	}
	require.NoError(t, json.Unmarshal(Append(nil, res, err, nil), &doc))
	require.Len(t, doc.Diagnostics, 1)
	assert.Equal(t, "/statusUpdate/final", doc.Diagnostics[0].JSONPointer)
	assert.Contains(t, doc.Diagnostics[0].Error, strings.TrimPrefix(reconstruct.ErrLegacyField.Error(), "reconstruct: "))
	assert.Nil(t, doc.Error)

	res, err = reconstruct.Read(strings.NewReader(in), &reconstruct.Options{Strict: true})
	require.ErrorIs(t, err, reconstruct.ErrLegacyField)
	require.NoError(t, json.Unmarshal(Append(nil, res, err, nil), &doc))
	require.NotNil(t, doc.Error)
	assert.Equal(t, "rule", doc.Error.Type)
}
