package parser_test

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
)

// ExampleDecoder lexes a short A2A stream and decodes every frame: a task
// snapshot, two text deltas (the second ends in the middle of a surrogate
// pair, escaped), the consolidated close and the terminal status with usage.
func ExampleDecoder() {
	stream := `id: 1
data: {"task":{"id":"task.1","contextId":"ctx.1","status":{"state":"TASK_STATE_WORKING"}}}

id: 2
data: {"artifactUpdate":{"taskId":"task.1","artifact":{"artifactId":"art.1","parts":[{"text":"Hi \"Bo\" "}]}}}

id: 3
data: {"artifactUpdate":{"taskId":"task.1","append":true,"artifact":{"artifactId":"art.1","parts":[{"text":"\ud83d"}]}}}

id: 4
data: {"artifactUpdate":{"taskId":"task.1","lastChunk":true,"artifact":{"artifactId":"art.1","parts":[{"text":"Hi \"Bo\" \ud83d\ude00"}]}}}

id: 5
data: {"statusUpdate":{"taskId":"task.1","status":{"state":"TASK_STATE_COMPLETED"},"metadata":{"$usage":{"totalTokens":120,"credits":1.2}}}}

`
	r := sse.NewReader(strings.NewReader(stream), nil)
	var d parser.Decoder
	for r.Next() {
		f := r.Frame()
		ev, err := d.Decode(f)
		if err != nil {
			fmt.Println(err)
			return
		}
		switch ev.Kind {
		case parser.KindTask:
			fmt.Printf("%s task %s %v\n", f.ID, ev.Task.ID, ev.Task.Status.State)
		case parser.KindArtifactUpdate:
			u := &ev.ArtifactUpdate
			fmt.Printf("%s %s append=%v last=%v text=%q\n", f.ID, u.Artifact.ArtifactID, u.Append, u.LastChunk, u.Artifact.Parts[0].Text)
		case parser.KindStatusUpdate:
			u := &ev.StatusUpdate
			fmt.Printf("%s %v terminal=%v tokens=%d credits=%g\n", f.ID, u.Status.State, u.Status.State.Terminal(),
				u.Metadata.Usage.TotalTokens, u.Metadata.Usage.Credits)
		}
	}
	if err := r.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 1 task task.1 TASK_STATE_WORKING
	// 2 art.1 append=false last=false text="Hi \"Bo\" "
	// 3 art.1 append=true last=false text="\xed\xa0\xbd"
	// 4 art.1 append=false last=true text="Hi \"Bo\" 😀"
	// 5 TASK_STATE_COMPLETED terminal=true tokens=120 credits=1.2
}

// ExampleDecoder_Decode_errorFrame shows an error sent inside the stream:
// it is an event, not a decoding failure, and carries an *APIError.
func ExampleDecoder_Decode_errorFrame() {
	var d parser.Decoder
	ev, err := d.Decode(&sse.Frame{Seq: 9, Event: []byte("error"),
		Data: []byte(`{"jsonrpc":"2.0","id":"req-1","error":{"code":-32001,"message":"Task not found","data":[{"reason":"TASK_NOT_FOUND"}]}}`)})
	fmt.Println(ev.Kind, ev.Binding, err)
	fmt.Println(ev.Err)
	// Output:
	// Error JSON-RPC <nil>
	// parser: server error -32001 (TASK_NOT_FOUND): Task not found
}

// ExampleDecoder_Decode_syntaxError shows where a bad frame is reported:
// the frame's ordinal, SSE id and stream offset, the JSON path and the byte
// within the data.
func ExampleDecoder_Decode_syntaxError() {
	var d parser.Decoder
	_, err := d.Decode(&sse.Frame{Offset: 4096, Seq: 12, ID: []byte("12"),
		Data: []byte(`{"statusUpdate":{"taskId":"t","status":{"state":"completed"}}}`)})
	fmt.Println(err)
	fmt.Println(errors.Is(err, parser.ErrLegacyShape))
	// Output:
	// parser: frame 12 (id "12") at byte 4096, member /statusUpdate/status/state, data byte 48: A2A 0.3 shape, not A2A 1.0
	// true
}

func ExampleDecodeAPIError() {
	body := []byte(`{"error":{"code":404,"status":"NOT_FOUND","message":"Task not found.","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org","metadata":{"taskId":"task.1"}}]}}`)
	e, err := parser.DecodeAPIError(body)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e.Code, e.Status, e.Reason, e.Domain, string(e.Metadata))
	fmt.Println(e)
	// Output:
	// 404 NOT_FOUND TASK_NOT_FOUND a2a-protocol.org {"taskId":"task.1"}
	// parser: server error 404 NOT_FOUND (TASK_NOT_FOUND): Task not found.
}

func ExampleDecodeTask() {
	task, err := parser.DecodeTask([]byte(`{"id":"task.1","contextId":"ctx.1","status":{"state":"TASK_STATE_INPUT_REQUIRED","message":{"role":"ROLE_AGENT","parts":[{"text":"Which patient?"}]}},"artifacts":[{"artifactId":"art.1","name":"icd10-result","parts":[{"text":"J45.909"}]}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(task.Status.State, task.Status.State.Interrupted(), string(task.Status.Message.Parts[0].Text))
	fmt.Println(string(task.Artifacts[0].Name), string(task.Artifacts[0].Parts[0].Text))
	// Output:
	// TASK_STATE_INPUT_REQUIRED true Which patient?
	// icd10-result J45.909
}

func ExampleParseTaskState() {
	for _, s := range []string{"TASK_STATE_AUTH_REQUIRED", "3", "completed"} {
		st, err := parser.ParseTaskState(s)
		fmt.Println(st, st.Terminal(), st.Interrupted(), err)
	}
	// Output:
	// TASK_STATE_AUTH_REQUIRED false true <nil>
	// TASK_STATE_COMPLETED true false <nil>
	// TASK_STATE_UNSPECIFIED false false parser: A2A 0.3 shape, not A2A 1.0
}

func ExampleCanTransition() {
	fmt.Println(parser.CanTransition(parser.TaskStateWorking, parser.TaskStateWorking))
	fmt.Println(parser.CanTransition(parser.TaskStateWorking, parser.TaskStateInputRequired))
	fmt.Println(parser.CanTransition(parser.TaskStateCompleted, parser.TaskStateWorking))
	// Output:
	// true
	// true
	// false
}

func ExampleParseID() {
	id, err := parser.ParseID(parser.IDTask, "0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62")
	fmt.Println(id, err)
	fmt.Println(time.UnixMilli(id.UnixMilli()).UTC().Format("2006-01-02T15:04:05.000Z07:00"))
	_, err = parser.ParseID(parser.IDTask, "ctx.0192f4c8-3d6b-7c4f-a02b-4d9e7f3c8b51")
	fmt.Println(err)
	// Output:
	// task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62 <nil>
	// 2024-11-04T01:27:00.988Z
	// parser: invalid id
}

// printDeltas lexes and decodes a stream read from body and prints its
// text deltas.
func printDeltas(body io.Reader) error {
	r := sse.NewReader(body, nil) // or sse.NewLexer to push bytes
	var d parser.Decoder
	for r.Next() {
		ev, err := d.Decode(r.Frame()) // views, valid until the next call
		if err != nil {
			return err // *parser.DecodeError: frame, SSE id, byte offset, JSON path
		}
		if ev.Kind == parser.KindArtifactUpdate {
			u := &ev.ArtifactUpdate
			fmt.Printf("%s append=%v %q\n", u.Artifact.ArtifactID, u.Append, u.Artifact.Parts[0].Text)
		}
	}
	return r.Err() // nil at a clean end; errors.Is(err, io.ErrUnexpectedEOF) when cut inside an event
}

// ExampleDecoder_loop reads frames with a Reader and decodes them; the
// second event is cut, which the Reader reports with where it happened.
func ExampleDecoder_loop() {
	stream := "id: 1\ndata: {\"artifactUpdate\":{\"taskId\":\"t\",\"artifact\":{\"artifactId\":\"a\",\"parts\":[{\"text\":\"Hi\"}]}}}\n\n" +
		"id: 2\ndata: {\"artifactUpdate\":"
	fmt.Println(printDeltas(strings.NewReader(stream)))
	// Output:
	// a append=false "Hi"
	// sse: after frame 1 (id "1") at byte 101, 30 bytes: unexpected EOF
}
