package parser

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLegacyShapes lists every A2A 0.3 shape the decoder can meet and what
// it makes of it. The policy is to never lose what the agent said: a member
// A2A 1.0 removed whose meaning is unambiguous ("final": clients infer
// finality from the state) is ignored and reported (StatusUpdate.LegacyFinal,
// which package reconstruct turns into a diagnostic); a shape whose text or
// meaning this decoder would lose or misread is refused with ErrLegacyShape,
// at the member that shows it (§ marks the position). A shape that is also
// valid A2A 1.0 is read as A2A 1.0, with nothing lost.
func TestLegacyShapes(t *testing.T) {
	const msg = `"messageId":"msg.019a8f30-1111-7aaa-8bbb-0123456789ad","role":"ROLE_AGENT"`
	tests := []struct {
		name string
		data string
		// err and pointer: the refusal; nil when the event is accepted.
		err     error
		pointer string
		// check looks at an accepted event.
		check func(t *testing.T, ev *Event)
	}{
		// "kind", the 0.3 discriminator: the 0.3 JSON shape has it on every
		// event, object and part, and without a 1.0 payload key around it
		// nothing can be read.
		{name: "kind at the root", data: `{"kind":§"status-update","taskId":"t","status":{"state":"completed"},"final":true}`, err: ErrLegacyShape},
		{name: "kind in a JSON-RPC result", data: `{"jsonrpc":"2.0","id":1,"result":{"kind":§"artifact-update","taskId":"t"}}`, err: ErrLegacyShape, pointer: "/result"},
		{name: "kind in a task", data: `{"task":{"kind":§"task","id":"t"}}`, err: ErrLegacyShape, pointer: "/task/kind"},
		{name: "kind in a message", data: `{"message":{"kind":§"message","parts":[{"text":"hi"}]}}`, err: ErrLegacyShape, pointer: "/message/kind"},
		{name: "kind in a status update", data: `{"statusUpdate":{"kind":§"status-update","taskId":"t"}}`, err: ErrLegacyShape, pointer: "/statusUpdate/kind"},
		{name: "kind in an artifact update", data: `{"artifactUpdate":{"kind":§"artifact-update","taskId":"t"}}`, err: ErrLegacyShape, pointer: "/artifactUpdate/kind"},
		{name: "kind in a message part", data: `{"message":{"parts":[{"kind":§"text","text":"hi"}]}}`, err: ErrLegacyShape, pointer: "/message/parts/0/kind"},
		{name: "kind in an artifact part", data: `{"artifactUpdate":{"artifact":{"parts":[{"kind":§"text","text":"hi"}]}}}`, err: ErrLegacyShape, pointer: "/artifactUpdate/artifact/parts/0/kind"},
		// File parts: 0.3 wrapped the file in a "file" object (JSON: uri or
		// bytes and mimeType; ProtoJSON: fileWithUri or fileWithBytes).
		{name: "file part, 0.3 JSON", data: `{"message":{"parts":[{"file":§{"uri":"https://x/y.pdf","mimeType":"application/pdf"}}]}}`, err: ErrLegacyShape, pointer: "/message/parts/0/file"},
		{name: "file part, 0.3 ProtoJSON", data: `{"artifactUpdate":{"artifact":{"parts":[{"file":§{"fileWithUri":"https://x/y.pdf"}}]}}}`, err: ErrLegacyShape, pointer: "/artifactUpdate/artifact/parts/0/file"},
		// Lowercase enum names.
		{name: "lowercase state", data: `{"statusUpdate":{"status":{"state":§"completed"}}}`, err: ErrLegacyShape, pointer: "/statusUpdate/status/state"},
		{name: "lowercase hyphenated state", data: `{"task":{"status":{"state":§"input-required"}}}`, err: ErrLegacyShape, pointer: "/task/status/state"},
		{name: "lowercase role", data: `{"message":{"role":§"agent"}}`, err: ErrLegacyShape, pointer: "/message/role"},
		// The 0.3 ProtoJSON names that 1.0 renamed: their text would be
		// lost under an unknown member, so they are refused.
		{name: "message parts under content, in a status", data: `{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_INPUT_REQUIRED","message":{` + msg + `,"content":§[{"text":"Which patient?"}]}}}}`,
			err: ErrLegacyShape, pointer: "/statusUpdate/status/message/content"},
		{name: "message parts under content, a direct reply", data: `{"message":{` + msg + `,"content":§[{"text":"Hello"}]}}`, err: ErrLegacyShape, pointer: "/message/content"},
		{name: "message parts under content, in a task's history", data: `{"task":{"id":"t","history":[{` + msg + `,"content":§[{"text":"Hello"}]}]}}`, err: ErrLegacyShape, pointer: "/task/history/0/content"},
		{name: "status message under update", data: `{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_WORKING","update":§{` + msg + `,"parts":[{"text":"Looking"}]}}}}`,
			err: ErrLegacyShape, pointer: "/statusUpdate/status/update"},
		{name: "message payload under msg", data: `{"msg":§{` + msg + `,"parts":[{"text":"Hello"}]}}`, err: ErrLegacyShape, pointer: "/msg"},
		{name: "msg in a JSON-RPC result", data: `{"jsonrpc":"2.0","id":1,"result":{"msg":§{"parts":[{"text":"Hello"}]}}}`, err: ErrLegacyShape, pointer: "/result/msg"},
		// "final" beside the payload instead of inside the status update:
		// not a shape any version sends.
		{name: "final at the root", data: `{"statusUpdate":{"taskId":"t"},"final":§true}`, err: ErrLegacyShape},
		// "final" inside a status update, where 0.3 put it: ignored,
		// reported, nothing else changes.
		{name: "final true on a terminal status", data: `{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"final":true}}`,
			check: func(t *testing.T, ev *Event) {
				assert.True(t, ev.StatusUpdate.LegacyFinal)
				assert.Equal(t, TaskStateCompleted, ev.StatusUpdate.Status.State)
				assert.Equal(t, "t", string(ev.StatusUpdate.TaskID))
			}},
		{name: "final false before the status, its text kept", data: `{"statusUpdate":{"final":false,"taskId":"t","status":{"state":"TASK_STATE_WORKING","message":{` + msg + `,"parts":[{"text":"Looking it up"}]}}}}`,
			check: func(t *testing.T, ev *Event) {
				assert.True(t, ev.StatusUpdate.LegacyFinal)
				require.Len(t, ev.StatusUpdate.Status.Message.Parts, 1)
				assert.Equal(t, "Looking it up", string(ev.StatusUpdate.Status.Message.Parts[0].Text))
			}},
		{name: "final in a JSON-RPC status update, snake_case", data: `{"jsonrpc":"2.0","id":1,"result":{"status_update":{"task_id":"t","status":{"state":"TASK_STATE_FAILED"},"final":true}}}`,
			check: func(t *testing.T, ev *Event) {
				assert.True(t, ev.StatusUpdate.LegacyFinal)
				assert.Equal(t, TaskStateFailed, ev.StatusUpdate.Status.State)
			}},
		{name: "no final, no flag", data: `{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_COMPLETED"}}}`,
			check: func(t *testing.T, ev *Event) { assert.False(t, ev.StatusUpdate.LegacyFinal) }},
		// A 0.3 ProtoJSON data part is also a 1.0 data part whose value
		// is an object with a "data" member: read as such, its JSON kept.
		{name: "data part, 0.3 ProtoJSON", data: `{"message":{"parts":[{"data":{"data":{"k":1}}}]}}`,
			check: func(t *testing.T, ev *Event) {
				require.Len(t, ev.Message.Parts, 1)
				assert.Equal(t, PartData, ev.Message.Parts[0].Kind)
				assert.Equal(t, `{"data":{"k":1}}`, string(ev.Message.Parts[0].Data))
			}},
	}
	var d Decoder
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, pos := marked(tt.data)
			ev, err := decodeData(t, &d, data)
			if tt.err != nil {
				require.Error(t, err, "event %+v", ev)
				checkDecodeError(t, err, tt.err, pos, tt.pointer)
				return
			}
			require.NoError(t, err)
			tt.check(t, ev)
		})
	}
}
