package parser

// Conformance tests: every JSON example of the protocol pages (Corti's
// "Stream agent responses", "Task lifecycle" and "Get a task"), copied
// verbatim, decodes to what the page says it means.

import (
	"testing"

	"github.com/a2astream/a2astream/parser/sse"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func bs(s string) []byte { return []byte(s) }

// decodeData decodes data as the n-th frame of a stream.
func decodeData(t *testing.T, d *Decoder, data string) (*Event, error) {
	t.Helper()
	return d.Decode(&sse.Frame{Offset: 100, Seq: 3, ID: bs("ev-3"), Event: bs("message"), Data: bs(data)})
}

var eventOpts = cmp.Options{cmpopts.EquateEmpty()}

func TestDecodeSpecExamples(t *testing.T) {
	const (
		task = "task.0192f4c8-..."
		ctx  = "ctx.0192f4c8-..."
		art  = "art.0192f4c8-..."
	)
	textPart := func(s string) []Part { return []Part{{Kind: PartText, Text: bs(s)}} }
	artifactUpdate := func(appendFlag, last bool, text string) Event {
		return Event{Kind: KindArtifactUpdate, Binding: BindingREST, ArtifactUpdate: ArtifactUpdate{
			TaskID: bs(task), ContextID: bs(ctx), Append: appendFlag, LastChunk: last,
			Artifact: Artifact{ArtifactID: bs(art), Parts: textPart(text)},
		}}
	}
	taskEvent := func(state TaskState, ts string) Event {
		return Event{Kind: KindTask, Binding: BindingREST, Task: Task{
			ID: bs(task), ContextID: bs(ctx), Status: Status{State: state, Timestamp: bs(ts)},
		}}
	}
	statusEvent := func(state TaskState, ts string) Event {
		return Event{Kind: KindStatusUpdate, Binding: BindingREST, StatusUpdate: StatusUpdate{
			TaskID: bs(task), ContextID: bs(ctx), Status: Status{State: state, Timestamp: bs(ts)},
		}}
	}

	tests := []struct {
		name string
		data string
		want Event
	}{
		// stream-responses: "SSE event format".
		{
			name: "sse format/task working",
			data: `{"task":{"id":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","status":{"state":"TASK_STATE_WORKING","timestamp":"2026-05-19T12:00:00Z"}}}`,
			want: taskEvent(TaskStateWorking, "2026-05-19T12:00:00Z"),
		},
		{
			name: "sse format/artifact last chunk",
			data: `{"artifactUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","artifact":{"artifactId":"art.0192f4c8-...","parts":[{"text":"SOAP Note..."}]},"lastChunk":true}}`,
			want: artifactUpdate(false, true, "SOAP Note..."),
		},
		{
			name: "sse format/status completed",
			data: `{"statusUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","status":{"state":"TASK_STATE_COMPLETED","timestamp":"2026-05-19T12:00:01Z"}}}`,
			want: statusEvent(TaskStateCompleted, "2026-05-19T12:00:01Z"),
		},
		// stream-responses: "The delta event" (pretty-printed, as on the page).
		{
			name: "delta event",
			data: `{
  "artifactUpdate": {
    "taskId": "task.0192f4c8-...",
    "contextId": "ctx.0192f4c8-...",
    "append": true,
    "lastChunk": false,
    "artifact": {
      "artifactId": "art.0192f4c8-...",
      "parts": [
        { "text": "The " }
      ]
    }
  }
}`,
			want: artifactUpdate(true, false, "The "),
		},
		// stream-responses: "Full event sequence for a completed answer".
		{
			name: "full sequence/task",
			data: `{"task":{"id":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","status":{"state":"TASK_STATE_WORKING","timestamp":"2026-09-01T12:00:00Z"}}}`,
			want: taskEvent(TaskStateWorking, "2026-09-01T12:00:00Z"),
		},
		{
			name: "full sequence/first delta omits append",
			data: `{"artifactUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","artifact":{"artifactId":"art.0192f4c8-...","parts":[{"text":"The "}]}}}`,
			want: artifactUpdate(false, false, "The "),
		},
		{
			name: "full sequence/second delta",
			data: `{"artifactUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","append":true,"artifact":{"artifactId":"art.0192f4c8-...","parts":[{"text":"contract "}]}}}`,
			want: artifactUpdate(true, false, "contract "),
		},
		{
			name: "full sequence/third delta",
			data: `{"artifactUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","append":true,"artifact":{"artifactId":"art.0192f4c8-...","parts":[{"text":"answer."}]}}}`,
			want: artifactUpdate(true, false, "answer."),
		},
		{
			name: "full sequence/closing replace",
			data: `{"artifactUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","lastChunk":true,"artifact":{"artifactId":"art.0192f4c8-...","parts":[{"text":"The contract answer."}]}}}`,
			want: artifactUpdate(false, true, "The contract answer."),
		},
		{
			name: "full sequence/completed",
			data: `{"statusUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","status":{"state":"TASK_STATE_COMPLETED","timestamp":"2026-09-01T12:00:01Z"}}}`,
			want: statusEvent(TaskStateCompleted, "2026-09-01T12:00:01Z"),
		},
		// stream-responses: "Intermediate thinking". The page elides taskId
		// and contextId as a bare "..." (not JSON: see
		// TestDecodeSpecElidedExamples); here they are filled in.
		{
			name: "intermediate thinking/narration",
			data: `{"artifactUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","artifact":{"artifactId":"art-A","parts":[{"text":"Let me think..."}]}}}`,
			want: Event{Kind: KindArtifactUpdate, Binding: BindingREST, ArtifactUpdate: ArtifactUpdate{
				TaskID: bs(task), ContextID: bs(ctx),
				Artifact: Artifact{ArtifactID: bs("art-A"), Parts: textPart("Let me think...")},
			}},
		},
		{
			name: "intermediate thinking/close",
			data: `{"artifactUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","append":true,"lastChunk":true,"artifact":{"artifactId":"art-A","parts":[{"text":""}],"metadata":{"type":"intermediate-thinking"}}}}`,
			want: Event{Kind: KindArtifactUpdate, Binding: BindingREST, ArtifactUpdate: ArtifactUpdate{
				TaskID: bs(task), ContextID: bs(ctx), Append: true, LastChunk: true,
				Artifact: Artifact{ArtifactID: bs("art-A"), Parts: textPart(""), Metadata: Metadata{
					Raw: bs(`{"type":"intermediate-thinking"}`), Type: bs("intermediate-thinking"),
				}},
			}},
		},
		{
			name: "intermediate thinking/answer",
			data: `{"artifactUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","lastChunk":true,"artifact":{"artifactId":"art-B","parts":[{"text":"the answer"}]}}}`,
			want: Event{Kind: KindArtifactUpdate, Binding: BindingREST, ArtifactUpdate: ArtifactUpdate{
				TaskID: bs(task), ContextID: bs(ctx), LastChunk: true,
				Artifact: Artifact{ArtifactID: bs("art-B"), Parts: textPart("the answer")},
			}},
		},
		{
			name: "intermediate thinking/completed without timestamp",
			data: `{"statusUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","status":{"state":"TASK_STATE_COMPLETED"}}}`,
			want: Event{Kind: KindStatusUpdate, Binding: BindingREST, StatusUpdate: StatusUpdate{
				TaskID: bs(task), ContextID: bs(ctx), Status: Status{State: TaskStateCompleted},
			}},
		},
		// stream-responses: the message:stream request body has the shape of
		// a stream response carrying a message.
		{
			name: "message stream request body",
			data: `{
    "message": {
      "role": "ROLE_USER",
      "parts": [{ "text": "Generate a clinical note for this encounter." }]
    }
  }`,
			want: Event{Kind: KindMessage, Binding: BindingREST, Message: Message{
				Role: RoleUser, Parts: textPart("Generate a clinical note for this encounter."),
			}},
		},
		// task-lifecycle: "Example SSE event".
		{
			name: "lifecycle/task working",
			data: `{"task":{"id":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","status":{"state":"TASK_STATE_WORKING","timestamp":"2026-05-19T12:00:00Z"}}}`,
			want: taskEvent(TaskStateWorking, "2026-05-19T12:00:00Z"),
		},
		{
			name: "lifecycle/first delta",
			data: `{"artifactUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","artifact":{"artifactId":"art.0192f4c8-...","parts":[{"text":"J45.909"}]}}}`,
			want: artifactUpdate(false, false, "J45.909"),
		},
		{
			name: "lifecycle/non-ASCII delta",
			data: `{"artifactUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","append":true,"artifact":{"artifactId":"art.0192f4c8-...","parts":[{"text":" — mild intermittent asthma."}]}}}`,
			want: artifactUpdate(true, false, " — mild intermittent asthma."),
		},
		{
			name: "lifecycle/closing replace",
			data: `{"artifactUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","lastChunk":true,"artifact":{"artifactId":"art.0192f4c8-...","parts":[{"text":"J45.909 — mild intermittent asthma."}]}}}`,
			want: artifactUpdate(false, true, "J45.909 — mild intermittent asthma."),
		},
		{
			name: "lifecycle/completed",
			data: `{"statusUpdate":{"taskId":"task.0192f4c8-...","contextId":"ctx.0192f4c8-...","status":{"state":"TASK_STATE_COMPLETED","timestamp":"2026-05-19T12:00:01Z"}}}`,
			want: statusEvent(TaskStateCompleted, "2026-05-19T12:00:01Z"),
		},
	}
	var d Decoder
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := decodeData(t, &d, tt.data)
			require.NoError(t, err, "Decode")
			assert.Empty(t, cmp.Diff(&tt.want, ev, eventOpts), "event mismatch (-want +got)")
		})
	}
}

// TestDecodeSpecElidedExamples checks that the "Intermediate thinking"
// frames exactly as the page prints them, with a bare "..." standing for
// the ids, are refused as invalid JSON at the byte after the "...", inside
// the payload.
func TestDecodeSpecElidedExamples(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		pointer string
	}{
		{"narration", `{"artifactUpdate":{"..."§,"artifact":{"artifactId":"art-A","parts":[{"text":"Let me think..."}]}}}`, "/artifactUpdate"},
		{"close", `{"artifactUpdate":{"..."§,"append":true,"lastChunk":true,"artifact":{"artifactId":"art-A","parts":[{"text":""}],"metadata":{"type":"intermediate-thinking"}}}}`, "/artifactUpdate"},
		{"answer", `{"artifactUpdate":{"..."§,"lastChunk":true,"artifact":{"artifactId":"art-B","parts":[{"text":"the answer"}]}}}`, "/artifactUpdate"},
		{"completed", `{"statusUpdate":{"..."§,"status":{"state":"TASK_STATE_COMPLETED"}}}`, "/statusUpdate"},
	}
	var d Decoder
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, pos := marked(tt.data)
			_, err := decodeData(t, &d, data)
			checkDecodeError(t, err, ErrInvalidJSON, pos, tt.pointer)
		})
	}
}

// TestDecodeSpecTaskDocuments decodes the task documents of "Get a task"
// and "Task lifecycle".
func TestDecodeSpecTaskDocuments(t *testing.T) {
	t.Run("get task response", func(t *testing.T) {
		got, err := DecodeTask(bs(`{
  "id": "task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62",
  "contextId": "ctx.0192f4c8-3d6b-7c4f-a02b-4d9e7f3c8b51",
  "status": {
    "state": "TASK_STATE_COMPLETED",
    "timestamp": "2026-05-19T12:00:01Z"
  }
}`))
		require.NoError(t, err)
		want := &Task{
			ID:        bs("task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62"),
			ContextID: bs("ctx.0192f4c8-3d6b-7c4f-a02b-4d9e7f3c8b51"),
			Status:    Status{State: TaskStateCompleted, Timestamp: bs("2026-05-19T12:00:01Z")},
		}
		assert.Empty(t, cmp.Diff(want, got, eventOpts), "task mismatch (-want +got)")
	})
	// The field examples of the Task schema, put together in one document.
	t.Run("task schema examples", func(t *testing.T) {
		const usage = `{
  "$usage": {
    "model": "corti-default",
    "inputTokens": 100,
    "outputTokens": 20,
    "totalTokens": 120,
    "credits": 1.2
  }
}`
		doc := `{"id":"task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62","contextId":"ctx.0192f4c8-3d6b-7c4f-a02b-4d9e7f3c8b51",
"status": {
  "state": "TASK_STATE_COMPLETED",
  "timestamp": "2026-05-19T12:00:00Z"
},
"history": [
  {
    "messageId": "msg.0192f4c8-5f8d-7e61-924d-6fb09b5ead73",
    "role": "ROLE_AGENT",
    "parts": [{ "text": "J45.909" }]
  }
],
"artifacts": [
  {
    "artifactId": "art.0192f4c8-6a9e-7f72-a35e-70c1ac6fbe84",
    "name": "icd10-result",
    "parts": [{ "text": "J45.909" }]
  }
],
"metadata": ` + usage + `}`
		got, err := DecodeTask(bs(doc))
		require.NoError(t, err)
		want := &Task{
			ID:        bs("task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62"),
			ContextID: bs("ctx.0192f4c8-3d6b-7c4f-a02b-4d9e7f3c8b51"),
			Status:    Status{State: TaskStateCompleted, Timestamp: bs("2026-05-19T12:00:00Z")},
			History: []Message{{
				MessageID: bs("msg.0192f4c8-5f8d-7e61-924d-6fb09b5ead73"), Role: RoleAgent,
				Parts: []Part{{Kind: PartText, Text: bs("J45.909")}},
			}},
			Artifacts: []Artifact{{
				ArtifactID: bs("art.0192f4c8-6a9e-7f72-a35e-70c1ac6fbe84"), Name: bs("icd10-result"),
				Parts: []Part{{Kind: PartText, Text: bs("J45.909")}},
			}},
			Metadata: Metadata{Raw: bs(usage), Usage: Usage{
				Model: bs("corti-default"), InputTokens: 100, OutputTokens: 20, TotalTokens: 120, Credits: 1.2,
				Fields: UsageModel | UsageInputTokens | UsageOutputTokens | UsageTotalTokens | UsageCredits,
			}},
		}
		assert.Empty(t, cmp.Diff(want, got, eventOpts), "task mismatch (-want +got)")
	})
	// task-lifecycle: "Task metadata and usage", on a status update.
	t.Run("usage on status update", func(t *testing.T) {
		const usage = `{
  "$usage": {
    "model": "corti-default",
    "inputTokens": 100,
    "outputTokens": 20,
    "cachedInputTokens": 64,
    "cacheCreationInputTokens": 0,
    "totalTokens": 120,
    "credits": 1.2
  }
}`
		var d Decoder
		ev, err := decodeData(t, &d, `{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_COMPLETED"},"metadata":`+usage+`}}`)
		require.NoError(t, err)
		want := Metadata{Raw: bs(usage), Usage: Usage{
			Model: bs("corti-default"), InputTokens: 100, OutputTokens: 20, CachedInputTokens: 64,
			CacheCreationInputTokens: 0, TotalTokens: 120, Credits: 1.2,
			Fields: UsageModel | UsageInputTokens | UsageOutputTokens | UsageCachedInputTokens |
				UsageCacheCreationInputTokens | UsageTotalTokens | UsageCredits,
		}}
		assert.Empty(t, cmp.Diff(want, ev.StatusUpdate.Metadata, eventOpts), "metadata mismatch (-want +got)")
		assert.True(t, ev.StatusUpdate.Metadata.Usage.Has(UsageCacheCreationInputTokens),
			"a cacheCreationInputTokens of 0 was sent but Has reports it absent")
	})
}

// The "Get a task" 404 document, verbatim.
const specTaskNotFound = `{
  "error": {
    "code": 404,
    "status": "NOT_FOUND",
    "message": "Task not found.",
    "details": [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "reason": "TASK_NOT_FOUND",
        "domain": "a2a-protocol.org",
        "metadata": {
          "taskId": "task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62"
        }
      }
    ]
  }
}`

func TestDecodeSpecErrorDocument(t *testing.T) {
	want := &APIError{
		Binding: BindingREST, Code: 404, Status: "NOT_FOUND", Message: "Task not found.",
		Reason: "TASK_NOT_FOUND", Domain: "a2a-protocol.org",
		Metadata: bs(`{
          "taskId": "task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62"
        }`),
		Details: bs(`[
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "reason": "TASK_NOT_FOUND",
        "domain": "a2a-protocol.org",
        "metadata": {
          "taskId": "task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62"
        }
      }
    ]`),
	}
	t.Run("DecodeAPIError", func(t *testing.T) {
		got, err := DecodeAPIError(bs(specTaskNotFound))
		require.NoError(t, err)
		assert.Empty(t, cmp.Diff(want, got, eventOpts), "mismatch (-want +got)")
		assert.EqualError(t, got, "parser: server error 404 NOT_FOUND (TASK_NOT_FOUND): Task not found.")
	})
	t.Run("DecodeTask returns it as the error", func(t *testing.T) {
		_, err := DecodeTask(bs(specTaskNotFound))
		var ae *APIError
		require.ErrorAs(t, err, &ae, "want an *APIError")
		assert.Empty(t, cmp.Diff(want, ae, eventOpts), "mismatch (-want +got)")
	})
	t.Run("in a stream", func(t *testing.T) {
		var d Decoder
		ev, err := decodeData(t, &d, specTaskNotFound)
		require.NoError(t, err)
		require.Equal(t, KindError, ev.Kind, "Kind")
		require.Equal(t, BindingREST, ev.Binding, "Binding")
		assert.Empty(t, cmp.Diff(want, ev.Err, eventOpts), "mismatch (-want +got)")
	})
}

// marked removes the marker § from s and returns its byte position.
func marked(s string) (string, int) {
	const mark = "§"
	for i := 0; i+len(mark) <= len(s); i++ {
		if s[i:i+len(mark)] == mark {
			return s[:i] + s[i+len(mark):], i
		}
	}
	return s, -1
}

// checkDecodeError checks that err is a *DecodeError for the frame of
// decodeData with the given sentinel, data offset and JSON Pointer.
func checkDecodeError(t *testing.T, err error, sentinel error, pos int, pointer string) {
	t.Helper()
	var se *DecodeError
	require.ErrorAs(t, err, &se, "want a *DecodeError")
	assert.ErrorIs(t, err, sentinel)
	assert.Equal(t, pos, se.JSONOffset, "JSONOffset (%v)", err)
	assert.Equal(t, pointer, se.JSONPointer, "JSONPointer (%v)", err)
	assert.Equal(t, int64(100), se.Offset, "Offset")
	assert.Equal(t, int64(3), se.Seq, "Seq")
	assert.Equal(t, "ev-3", string(se.ID), "ID")
}
