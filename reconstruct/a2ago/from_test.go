package a2ago

import (
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2astream/a2astream/parser"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// converterEvents are events of every kind and part kind, with and without
// the values that send an event through JSON.
func converterEvents() map[string]a2a.Event {
	info := a2a.TaskInfo{TaskID: "task-1", ContextID: "ctx-1"}
	ts := time.Date(2026, 5, 19, 12, 40, 0, 123456789, time.FixedZone("CEST", 2*3600))
	msg := &a2a.Message{ID: "m1", ContextID: "ctx-1", TaskID: "task-1", Role: a2a.MessageRoleAgent,
		Parts: a2a.ContentParts{a2a.NewTextPart("Bonjour é 日本 🦶")}, Extensions: []string{"urn:x"}, ReferenceTasks: []a2a.TaskID{"t0"}}
	delta := a2a.NewArtifactUpdateEvent(info, "art-1", a2a.NewTextPart("日本"))
	rich := a2a.NewArtifactUpdateEvent(info, "art-2",
		&a2a.Part{Content: a2a.Raw{0, 1, 2}, Filename: "f.bin", MediaType: "application/octet-stream"},
		a2a.NewFileURLPart("https://example.com/a?b=<c>", "text/html"),
		a2a.NewDataPart(map[string]any{"b": 1.5, "a": []any{"x<y", nil, true}}),
		a2a.NewTextPart(""))
	rich.LastChunk = true
	rich.Artifact.Name, rich.Artifact.Description = "Name é", "Description"
	rich.Artifact.Extensions = []string{"urn:y"}
	withMeta := a2a.NewArtifactUpdateEvent(info, "art-3", a2a.NewTextPart(""))
	withMeta.Artifact.Metadata = map[string]any{"type": "intermediate-thinking"}
	badText := a2a.NewArtifactUpdateEvent(info, "art-4", a2a.NewTextPart("\xe6\x97"))
	cited := a2a.NewTextPart("Dose: 5 mg 🦶.")
	cited.Metadata = map[string]any{"citations": []any{map[string]any{"data_part_id": "gid-1", "offset": 7, "locator": "/dose"}}}
	data := a2a.NewDataPart(map[string]any{"dose": "5 mg"})
	data.Metadata = map[string]any{"dataPartId": "gid-1", "x": []any{1e300, -0.5}}
	closing := a2a.NewArtifactUpdateEvent(info, "art-5", cited, data)
	closing.Append, closing.LastChunk = false, true
	closing.Metadata = map[string]any{"k": "v"}
	stamped := *msg
	stamped.Metadata = map[string]any{"$timestamp": 1747656600.5}
	return map[string]a2a.Event{
		"task": &a2a.Task{ID: "task-1", ContextID: "ctx-1",
			Status:    a2a.TaskStatus{State: a2a.TaskStateInputRequired, Message: msg, Timestamp: &ts},
			Artifacts: []*a2a.Artifact{rich.Artifact, delta.Artifact}, History: []*a2a.Message{msg}},
		"bare task":          &a2a.Task{ID: "task-1"},
		"message":            msg,
		"status":             &a2a.TaskStatusUpdateEvent{TaskID: "task-1", ContextID: "ctx-1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking, Timestamp: &ts}},
		"unspecified state":  &a2a.TaskStatusUpdateEvent{TaskID: "task-1"},
		"delta":              delta,
		"rich":               rich,
		"metadata":           withMeta,
		"status metadata":    &a2a.TaskStatusUpdateEvent{TaskID: "task-1", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted}, Metadata: map[string]any{"$usage": map[string]any{"inputTokens": 3}}},
		"invalid UTF-8 text": badText,
		"citations":          closing,
		"message timestamp":  &stamped,
		"task usage": &a2a.Task{ID: "task-1", ContextID: "ctx-1", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted},
			Metadata: map[string]any{"$usage": map[string]any{"model": "m\u00e9<", "inputTokens": 5120, "credits": 53.08}}},
	}
}

// TestConverterPaths checks that the field-by-field conversion gives the
// event that a2a-go's JSON read back by parser.Decoder gives.
func TestConverterPaths(t *testing.T) {
	for name, ev := range converterEvents() {
		t.Run(name, func(t *testing.T) {
			var direct, viaJSON Converter
			got, err := direct.Event(ev, 7)
			require.NoError(t, err)
			want, err := viaJSON.viaJSON(ev, 7)
			require.NoError(t, err)
			assert.Empty(t, cmp.Diff(want, got, cmpopts.EquateEmpty()))
		})
	}
}

// TestConverterRefusedMetadata checks that metadata the decoder refuses
// gives the decoder's error for the whole event, as on the byte path.
func TestConverterRefusedMetadata(t *testing.T) {
	ev := &a2a.TaskStatusUpdateEvent{TaskID: "t", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted},
		Metadata: map[string]any{"$usage": map[string]any{"inputTokens": "many"}}}
	var c, j Converter
	_, err := c.Event(ev, 3)
	_, want := j.viaJSON(ev, 3)
	require.Error(t, want)
	var de *parser.DecodeError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, want.Error(), err.Error())
	assert.Equal(t, int64(3), de.Seq)
}

// TestConverterOrdinal checks that a decoding error on the JSON path names
// the event's ordinal.
func TestConverterOrdinal(t *testing.T) {
	var c Converter
	_, err := c.Event(&a2a.TaskStatusUpdateEvent{TaskID: "t", Status: a2a.TaskStatus{State: "TASK_STATE_DONE"}}, 42)
	var de *parser.DecodeError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, int64(42), de.Seq)
}
