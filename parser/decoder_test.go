package parser

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/a2astream/a2astream/parser/sse"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeJSONRPC(t *testing.T) {
	const update = `{"artifactUpdate":{"taskId":"t1","append":true,"artifact":{"artifactId":"a1","parts":[{"text":"hi"}]}}}`
	wantUpdate := ArtifactUpdate{TaskID: bs("t1"), Append: true, Artifact: Artifact{
		ArtifactID: bs("a1"), Parts: []Part{{Kind: PartText, Text: bs("hi")}},
	}}
	tests := []struct {
		name string
		data string
		id   RPCID
	}{
		{"number id", `{"jsonrpc":"2.0","id":7,"result":` + update + `}`,
			RPCID{Kind: RPCIDNumber, Raw: bs("7"), Value: bs("7")}},
		{"negative fractional number id", `{"jsonrpc":"2.0","id":-1.5e3,"result":` + update + `}`,
			RPCID{Kind: RPCIDNumber, Raw: bs("-1.5e3"), Value: bs("-1.5e3")}},
		{"string id", `{"jsonrpc":"2.0","id":"msg-001","result":` + update + `}`,
			RPCID{Kind: RPCIDString, Raw: bs(`"msg-001"`), Value: bs("msg-001")}},
		{"escaped string id", `{"jsonrpc":"2.0","id":"a\"b","result":` + update + `}`,
			RPCID{Kind: RPCIDString, Raw: bs(`"a\"b"`), Value: bs(`a"b`)}},
		{"null id", `{"jsonrpc":"2.0","id":null,"result":` + update + `}`,
			RPCID{Kind: RPCIDNull, Raw: bs("null")}},
		{"no id", `{"jsonrpc":"2.0","result":` + update + `}`, RPCID{}},
		{"members in another order, with spaces", `{ "result" : ` + update + ` , "id" : 7 , "jsonrpc" : "2.0" }`,
			RPCID{Kind: RPCIDNumber, Raw: bs("7"), Value: bs("7")}},
	}
	var d Decoder
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := decodeData(t, &d, tt.data)
			require.NoError(t, err)
			want := &Event{Kind: KindArtifactUpdate, Binding: BindingJSONRPC, RPCID: tt.id, ArtifactUpdate: wantUpdate}
			assert.Empty(t, cmp.Diff(want, ev, eventOpts), "mismatch (-want +got)")
		})
	}
}

func TestDecodeInStreamErrors(t *testing.T) {
	tests := []struct {
		name string
		data string
		want *APIError
	}{
		{
			name: "REST document",
			data: `{"error":{"code":404,"status":"NOT_FOUND","message":"Task not found.","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org","metadata":{"taskId":"task.1"}}]}}`,
			want: &APIError{Binding: BindingREST, Code: 404, Status: "NOT_FOUND", Message: "Task not found.",
				Reason: "TASK_NOT_FOUND", Domain: "a2a-protocol.org", Metadata: bs(`{"taskId":"task.1"}`),
				Details: bs(`[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org","metadata":{"taskId":"task.1"}}]`)},
		},
		{
			name: "REST document without details",
			data: `{"error":{"code":500,"status":"INTERNAL","message":"boom"}}`,
			want: &APIError{Binding: BindingREST, Code: 500, Status: "INTERNAL", Message: "boom"},
		},
		{
			name: "JSON-RPC with data array",
			data: `{"jsonrpc":"2.0","id":"req-1","error":{"code":-32001,"message":"Task not found","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}}`,
			want: &APIError{Binding: BindingJSONRPC, RPCID: RPCID{Kind: RPCIDString, Raw: bs(`"req-1"`), Value: bs("req-1")},
				Code: -32001, Message: "Task not found", Reason: "TASK_NOT_FOUND", Domain: "a2a-protocol.org",
				Details: bs(`[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]`)},
		},
		{
			name: "JSON-RPC with data object",
			data: `{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error","data":{"reason":"UPSTREAM","metadata":{"x":1}}}}`,
			want: &APIError{Binding: BindingJSONRPC, RPCID: RPCID{Kind: RPCIDNull, Raw: bs("null")},
				Code: -32603, Message: "Internal error", Reason: "UPSTREAM", Metadata: bs(`{"x":1}`),
				Details: bs(`{"reason":"UPSTREAM","metadata":{"x":1}}`)},
		},
		{
			name: "JSON-RPC with data of another shape",
			data: `{"jsonrpc":"2.0","id":3,"error":{"code":-32700,"message":"Parse error","data":"line 1"}}`,
			want: &APIError{Binding: BindingJSONRPC, RPCID: RPCID{Kind: RPCIDNumber, Raw: bs("3"), Value: bs("3")},
				Code: -32700, Message: "Parse error", Details: bs(`"line 1"`)},
		},
	}
	var d Decoder
	for _, tt := range tests {
		for _, name := range []string{"error", "message"} {
			t.Run(tt.name+"/event "+name, func(t *testing.T) {
				ev, err := d.Decode(&sse.Frame{Seq: 1, Event: bs(name), Data: bs(tt.data)})
				require.NoError(t, err)
				require.Equal(t, KindError, ev.Kind, "Kind")
				require.Equal(t, tt.want.Binding, ev.Binding, "Binding")
				assert.Empty(t, cmp.Diff(tt.want, ev.Err, eventOpts), "mismatch (-want +got)")
				// The APIError is owned: decoding another frame leaves it intact.
				got := ev.Err
				_, err = d.Decode(&sse.Frame{Data: bs(`{"statusUpdate":{"taskId":"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"}}`)})
				require.NoError(t, err)
				assert.Empty(t, cmp.Diff(tt.want, got, eventOpts), "APIError changed after the next Decode (-want +got)")
				var ae *APIError
				assert.ErrorAs(t, error(got), &ae, "errors.As does not find the *APIError")
			})
		}
	}
}

func TestDecodeAPIErrorDocuments(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		want    *APIError
		wantErr error
	}{
		{"JSON-RPC", `{"jsonrpc":"2.0","id":1,"error":{"code":-32004,"message":"Unsupported operation"}}`,
			&APIError{Binding: BindingJSONRPC, RPCID: RPCID{Kind: RPCIDNumber, Raw: bs("1"), Value: bs("1")}, Code: -32004, Message: "Unsupported operation"}, nil},
		{"code as string", `{"error":{"code":"409","status":"FAILED_PRECONDITION","message":"terminal"}}`,
			&APIError{Binding: BindingREST, Code: 409, Status: "FAILED_PRECONDITION", Message: "terminal"}, nil},
		{"not an error", `{"task":{}}`, nil, ErrNoPayload},
		{"JSON-RPC result", `{"jsonrpc":"2.0","id":1,"result":{}}`, nil, ErrNoPayload},
		{"not JSON", `<html>`, nil, ErrInvalidJSON},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeAPIError(bs(tt.body))
			require.ErrorIs(t, err, tt.wantErr)
			assert.Empty(t, cmp.Diff(tt.want, got, eventOpts), "mismatch (-want +got)")
		})
	}
}

func TestDecodeTaskJSONRPC(t *testing.T) {
	got, err := DecodeTask(bs(`{"jsonrpc":"2.0","id":"g1","result":{"id":"answer","status":{"state":"TASK_STATE_INPUT_REQUIRED","message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"Which patient?"}]}}}}`))
	require.NoError(t, err)
	want := &Task{ID: bs("answer"), Status: Status{State: TaskStateInputRequired, HasMessage: true, Message: Message{
		MessageID: bs("m"), Role: RoleAgent, Parts: []Part{{Kind: PartText, Text: bs("Which patient?")}},
	}}}
	assert.Empty(t, cmp.Diff(want, got, eventOpts), "mismatch (-want +got)")
}

func TestDecodeDefaultsAndAlternateNames(t *testing.T) {
	tests := []struct {
		name string
		data string
		want Event
	}{
		{"omitted fields are defaults", `{"artifactUpdate":{}}`,
			Event{Kind: KindArtifactUpdate, Binding: BindingREST}},
		{"nulls are defaults", `{"artifactUpdate":{"taskId":null,"append":null,"lastChunk":null,"artifact":null,"metadata":null}}`,
			Event{Kind: KindArtifactUpdate, Binding: BindingREST}},
		{"empty status", `{"statusUpdate":{"status":{}}}`,
			Event{Kind: KindStatusUpdate, Binding: BindingREST}},
		{"empty arrays", `{"task":{"artifacts":[],"history":[],"status":{"message":null}}}`,
			Event{Kind: KindTask, Binding: BindingREST}},
		{"unknown members are ignored", `{"statusUpdate":{"taskId":"t","future":{"a":[1,2]},"status":{"state":"TASK_STATE_WORKING","x":1}},"extra":true}`,
			Event{Kind: KindStatusUpdate, Binding: BindingREST, StatusUpdate: StatusUpdate{TaskID: bs("t"), Status: Status{State: TaskStateWorking}}}},
		{"snake_case names", `{"artifact_update":{"task_id":"t","context_id":"c","last_chunk":true,"append":false,"artifact":{"artifact_id":"a","parts":[{"text":"x","media_type":"text/plain"}]}}}`,
			Event{Kind: KindArtifactUpdate, Binding: BindingREST, ArtifactUpdate: ArtifactUpdate{
				TaskID: bs("t"), ContextID: bs("c"), LastChunk: true,
				Artifact: Artifact{ArtifactID: bs("a"), Parts: []Part{{Kind: PartText, Text: bs("x"), MediaType: bs("text/plain")}}},
			}}},
		{"snake_case status update", `{"status_update":{"task_id":"t","context_id":"c","status":{"state":"TASK_STATE_FAILED"}}}`,
			Event{Kind: KindStatusUpdate, Binding: BindingREST, StatusUpdate: StatusUpdate{TaskID: bs("t"), ContextID: bs("c"), Status: Status{State: TaskStateFailed}}}},
		{"snake_case message", `{"message":{"message_id":"m","context_id":"c","task_id":"t","role":1,"reference_task_ids":["r1","r2"]}}`,
			Event{Kind: KindMessage, Binding: BindingREST, Message: Message{
				MessageID: bs("m"), ContextID: bs("c"), TaskID: bs("t"), Role: RoleUser, ReferenceTaskIDs: [][]byte{bs("r1"), bs("r2")},
			}}},
		{"enum numbers", `{"task":{"id":"t","status":{"state":3},"history":[{"role":2}]}}`,
			Event{Kind: KindTask, Binding: BindingREST, Task: Task{ID: bs("t"), Status: Status{State: TaskStateCompleted}, History: []Message{{Role: RoleAgent}}}}},
		{"every state number", `{"statusUpdate":{"status":{"state":8}}}`,
			Event{Kind: KindStatusUpdate, Binding: BindingREST, StatusUpdate: StatusUpdate{Status: Status{State: TaskStateAuthRequired}}}},
		{"escaped key names", `{"\u0061rtifactUpdate":{"task\u0049d":"t"}}`,
			Event{Kind: KindArtifactUpdate, Binding: BindingREST, ArtifactUpdate: ArtifactUpdate{TaskID: bs("t")}}},
		{"any string ids", `{"artifactUpdate":{"taskId":"6f1c1f9e-8b0e-4b5a-9d57-1a2b3c4d5e6f","contextId":"","artifact":{"artifactId":"answer"}}}`,
			Event{Kind: KindArtifactUpdate, Binding: BindingREST, ArtifactUpdate: ArtifactUpdate{
				TaskID: bs("6f1c1f9e-8b0e-4b5a-9d57-1a2b3c4d5e6f"), Artifact: Artifact{ArtifactID: bs("answer")},
			}}},
		{"unknown payload key", `{"taskPaused":{"taskId":"t","until":[1,2]}}`,
			Event{Kind: KindUnknown, Binding: BindingREST, UnknownKey: bs("taskPaused"), UnknownRaw: bs(`{"taskId":"t","until":[1,2]}`)}},
		{"unknown payload key beside a known one", `{"shadow":1,"statusUpdate":{"taskId":"t"}}`,
			Event{Kind: KindStatusUpdate, Binding: BindingREST, StatusUpdate: StatusUpdate{TaskID: bs("t")}}},
		{"unknown payload in JSON-RPC", `{"jsonrpc":"2.0","id":1,"result":{"newThing":"x"}}`,
			Event{Kind: KindUnknown, Binding: BindingJSONRPC, RPCID: RPCID{Kind: RPCIDNumber, Raw: bs("1"), Value: bs("1")},
				UnknownKey: bs("newThing"), UnknownRaw: bs(`"x"`)}},
	}
	var d Decoder
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := decodeData(t, &d, tt.data)
			require.NoError(t, err)
			assert.Empty(t, cmp.Diff(&tt.want, ev, eventOpts), "mismatch (-want +got)")
		})
	}
}

func TestDecodeMessageAndStatus(t *testing.T) {
	const data = `{"message":{"messageId":"msg.1","contextId":"ctx.1","taskId":"task.1","role":"ROLE_AGENT",` +
		`"parts":[{"text":"hello"}],"metadata":{"$timestamp":"2026-05-19T12:00:00Z","other":[1]},` +
		`"extensions":["https://ext/a","https://ext/\u0062"],"referenceTaskIds":["task.0"]}}`
	var d Decoder
	ev, err := decodeData(t, &d, data)
	require.NoError(t, err)
	want := &Event{Kind: KindMessage, Binding: BindingREST, Message: Message{
		MessageID: bs("msg.1"), ContextID: bs("ctx.1"), TaskID: bs("task.1"), Role: RoleAgent,
		Parts:      []Part{{Kind: PartText, Text: bs("hello")}},
		Metadata:   Metadata{Raw: bs(`{"$timestamp":"2026-05-19T12:00:00Z","other":[1]}`), Timestamp: bs("2026-05-19T12:00:00Z")},
		Extensions: [][]byte{bs("https://ext/a"), bs("https://ext/b")}, ReferenceTaskIDs: [][]byte{bs("task.0")},
	}}
	assert.Empty(t, cmp.Diff(want, ev, eventOpts), "mismatch (-want +got)")
	assert.NotNil(t, ev.TaskID(), "TaskID")
	assert.Equal(t, "task.1", string(ev.TaskID()), "TaskID")
	assert.Equal(t, "ctx.1", string(ev.ContextID()), "ContextID")

	ev, err = decodeData(t, &d, `{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_FAILED","message":{"role":"ROLE_AGENT","parts":[{"text":"LLM transport error"}]},"timestamp":"2026-05-19T12:00:02Z"},"metadata":{"$usage":{"inputTokens":"5","outputTokens":1e1,"credits":0}}}}`)
	require.NoError(t, err)
	wantStatus := &Event{Kind: KindStatusUpdate, Binding: BindingREST, StatusUpdate: StatusUpdate{
		TaskID: bs("t"),
		Status: Status{State: TaskStateFailed, HasMessage: true, Timestamp: bs("2026-05-19T12:00:02Z"), Message: Message{
			Role: RoleAgent, Parts: []Part{{Kind: PartText, Text: bs("LLM transport error")}},
		}},
		Metadata: Metadata{Raw: bs(`{"$usage":{"inputTokens":"5","outputTokens":1e1,"credits":0}}`), Usage: Usage{
			InputTokens: 5, OutputTokens: 10, Fields: UsageInputTokens | UsageOutputTokens | UsageCredits,
		}},
	}}
	assert.Empty(t, cmp.Diff(wantStatus, ev, eventOpts), "mismatch (-want +got)")
}

func TestDecodeParts(t *testing.T) {
	tests := []struct {
		name string
		part string
		want Part
	}{
		{"text with metadata, filename, mediaType",
			`{"text":"See [1].","metadata":{"citations":[{"data_part_id":"g1","offset":4}]},"filename":"note.txt","mediaType":"text/plain"}`,
			Part{Kind: PartText, Text: bs("See [1]."), Filename: bs("note.txt"), MediaType: bs("text/plain"), Metadata: Metadata{
				Raw: bs(`{"citations":[{"data_part_id":"g1","offset":4}]}`), Citations: bs(`[{"data_part_id":"g1","offset":4}]`),
			}}},
		{"raw, standard base64", `{"raw":"aGVsbG8=","filename":"h.bin","mediaType":"application/octet-stream","metadata":{"k":"v"}}`,
			Part{Kind: PartRaw, Raw: bs("hello"), Filename: bs("h.bin"), MediaType: bs("application/octet-stream"), Metadata: Metadata{Raw: bs(`{"k":"v"}`)}}},
		{"raw, URL-safe unpadded base64", `{"raw":"-_8"}`, Part{Kind: PartRaw, Raw: []byte{0xfb, 0xff}}},
		{"raw, escaped slash", `{"raw":"\/w=="}`, Part{Kind: PartRaw, Raw: []byte{0xff}}},
		{"raw, empty", `{"raw":""}`, Part{Kind: PartRaw}},
		{"url", `{"url":"https://example.com/a.pdf","filename":"a.pdf","mediaType":"application/pdf","metadata":{}}`,
			Part{Kind: PartURL, URL: bs("https://example.com/a.pdf"), Filename: bs("a.pdf"), MediaType: bs("application/pdf"), Metadata: Metadata{Raw: bs(`{}`)}}},
		{"data object with dataPartId", `{"data":{"rows":[{"id":1}], "s":"\u00e9"},"metadata":{"dataPartId":"gid-7"},"mediaType":"application/json","filename":"d.json"}`,
			Part{Kind: PartData, Data: bs(`{"rows":[{"id":1}], "s":"\u00e9"}`), MediaType: bs("application/json"), Filename: bs("d.json"),
				Metadata: Metadata{Raw: bs(`{"dataPartId":"gid-7"}`), DataPartID: bs("gid-7")}}},
		{"data string", `{"data":"just text"}`, Part{Kind: PartData, Data: bs(`"just text"`)}},
		{"data array", `{"data":[1, 2 ,3]}`, Part{Kind: PartData, Data: bs(`[1, 2 ,3]`)}},
		{"data null", `{"data":null}`, Part{Kind: PartData, Data: bs(`null`)}},
		{"data number", `{"data":-0.5e-3}`, Part{Kind: PartData, Data: bs(`-0.5e-3`)}},
		{"metadata type of another type is left raw", `{"text":"x","metadata":{"type":7,"dataPartId":false}}`,
			Part{Kind: PartText, Text: bs("x"), Metadata: Metadata{Raw: bs(`{"type":7,"dataPartId":false}`)}}},
		{"snake_case media_type", `{"url":"u","media_type":"image/png"}`, Part{Kind: PartURL, URL: bs("u"), MediaType: bs("image/png")}},
	}
	var d Decoder
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := decodeData(t, &d, `{"artifactUpdate":{"artifact":{"parts":[`+tt.part+`]}}}`)
			require.NoError(t, err)
			assert.Empty(t, cmp.Diff([]Part{tt.want}, ev.ArtifactUpdate.Artifact.Parts, eventOpts), "mismatch (-want +got)")
		})
	}
}

func TestDecodeIntermediateThinking(t *testing.T) {
	var d Decoder
	ev, err := decodeData(t, &d, `{"artifactUpdate":{"append":true,"lastChunk":true,"artifact":{"artifactId":"art-A","parts":[{"text":""}],"metadata":{"type":"intermediate-thinking"}}}}`)
	require.NoError(t, err)
	assert.True(t, ev.ArtifactUpdate.Artifact.Metadata.IntermediateThinking(), "IntermediateThinking() for type intermediate-thinking")
	ev, err = decodeData(t, &d, `{"artifactUpdate":{"artifact":{"artifactId":"art-B","parts":[{"text":"x"}],"metadata":{"type":"answer"}}}}`)
	require.NoError(t, err)
	assert.False(t, ev.ArtifactUpdate.Artifact.Metadata.IntermediateThinking(), "IntermediateThinking() for type answer")
}

func TestDecodeText(t *testing.T) {
	tests := []struct {
		name string
		json string // the string's contents as sent, between the quotes
		want string
	}{
		{"ASCII", `plain`, "plain"},
		{"non-ASCII raw", `naïve — 日本 😀`, "naïve — 日本 😀"},
		{"quotes and backslashes", `say \"hi\" \\ C:\\dir\\`, `say "hi" \ C:\dir\`},
		{"short escapes", `a\nb\tc\rd\be\ff\/g`, "a\nb\tc\rd\be\ff/g"},
		{"line separator", `x\u2028y\u2029z`, "x\u2028y\u2029z"},
		{"BMP escapes", `\u00e9\u65E5\u0041`, "é日A"},
		{"escaped NUL", `a\u0000b`, "a\x00b"},
		{"surrogate pair", `smile \ud83d\ude00!`, "smile 😀!"},
		{"surrogate pair uppercase hex", `\uD83D\uDE00`, "😀"},
		{"split pair, first half", `The \ud83d`, "The \xed\xa0\xbd"},
		{"split pair, second half", `\ude00 end`, "\xed\xb8\x80 end"},
		{"high surrogate then BMP escape", `\ud83d\u0041`, "\xed\xa0\xbdA"},
		{"two high surrogates", `\ud83d\ud83d\ude00`, "\xed\xa0\xbd😀"},
		{"low then high", `\ude00\ud83d`, "\xed\xb8\x80\xed\xa0\xbd"},
		{"invalid UTF-8 passes through", "a\xffb\xe2\x82", "a\xffb\xe2\x82"},
		{"rune split at the end", "caf\xc3", "caf\xc3"},
		{"escaped backslash before u", `\\ud83d`, `\ud83d`},
		{"empty", ``, ""},
	}
	var d Decoder
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := decodeData(t, &d, `{"artifactUpdate":{"artifact":{"parts":[{"text":"`+tt.json+`"}]}}}`)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(ev.ArtifactUpdate.Artifact.Parts[0].Text), "Text of %q", tt.json)
		})
	}
}

// TestDecodeSplitSurrogateJoins checks the contract with utf8buf: the WTF-8
// halves of a pair split across two deltas, once concatenated, are the
// generalized UTF-8 of the two surrogates, which utf8buf turns into the
// 4-byte UTF-8 of U+1F600.
func TestDecodeSplitSurrogateJoins(t *testing.T) {
	var d Decoder
	var joined []byte
	for _, delta := range []string{`Hi \ud83d`, `\ude00!`} {
		ev, err := decodeData(t, &d, `{"artifactUpdate":{"append":true,"artifact":{"parts":[{"text":"`+delta+`"}]}}}`)
		require.NoError(t, err)
		joined = append(joined, ev.ArtifactUpdate.Artifact.Parts[0].Text...)
	}
	require.Equal(t, "Hi \xed\xa0\xbd\xed\xb8\x80!", string(joined), "joined deltas")
	// Decoding the halves' code points from WTF-8 and pairing them gives
	// the character.
	hi := rune(joined[3]&0x0f)<<12 | rune(joined[4]&0x3f)<<6 | rune(joined[5]&0x3f)
	lo := rune(joined[6]&0x0f)<<12 | rune(joined[7]&0x3f)<<6 | rune(joined[8]&0x3f)
	assert.Equal(t, '😀', 0x10000+(hi-0xD800)<<10+(lo-0xDC00), "re-paired rune")
}

// TestDecodeTextViews checks that text without escapes is a view of the
// frame's data and that escaped text is not.
func TestDecodeTextViews(t *testing.T) {
	var d Decoder
	data := bs(`{"artifactUpdate":{"artifact":{"parts":[{"text":"plain"},{"text":"esc\n"}]}}}`)
	ev, err := d.Decode(&sse.Frame{Data: data})
	require.NoError(t, err)
	parts := ev.ArtifactUpdate.Artifact.Parts
	i := strings.Index(string(data), "plain")
	assert.Same(t, &data[i], unsafe.SliceData(parts[0].Text), "text without escapes is not a view of the frame's data")
	j := strings.Index(string(data), `esc\n`)
	assert.NotSame(t, &data[j], unsafe.SliceData(parts[1].Text), "escaped text aliases the escaped bytes of the frame")
	assert.Equal(t, "esc\n", string(parts[1].Text), "escaped Text")
}

func TestDecodeErrors(t *testing.T) {
	deep := `{"task":{"metadata":{"x":` + strings.Repeat("[", 297) + "§[" + strings.Repeat("]", 298) + `}}}`
	tests := []struct {
		name    string
		data    string // § marks the expected JSONOffset
		err     error
		pointer string // the expected JSONPointer
	}{
		{"empty data", `§`, ErrInvalidJSON, ""},
		{"whitespace only", "  §", ErrInvalidJSON, ""},
		{"truncated object", `{"artifactUpdate":{"taskId":"t"§`, ErrInvalidJSON, "/artifactUpdate"},
		{"truncated string", `{"artifactUpdate":{"taskId":"tas§`, ErrInvalidJSON, "/artifactUpdate/taskId"},
		{"truncated literal", `{"artifactUpdate":{"append":tr§`, ErrInvalidJSON, "/artifactUpdate/append"},
		{"missing colon", `{"task" §{}}`, ErrInvalidJSON, ""},
		{"missing comma", `{"task":{"id":"a" §"contextId":"b"}}`, ErrInvalidJSON, "/task"},
		{"trailing comma", `{"task":{"id":"a",§}}`, ErrInvalidJSON, "/task"},
		{"trailing garbage", `{"task":{}} §x`, ErrInvalidJSON, ""},
		{"single quotes", `{§'task':{}}`, ErrInvalidJSON, ""},
		{"bad number", `{"task":{"status":{"state":-§}}}`, ErrInvalidJSON, "/task/status/state"},
		{"too deep", deep, ErrTooDeep, "/task/metadata/x/0/0/0/0/0/0/0/0/0"}, // the ancestor 12 levels down
		{"names with ~ and / in a pointer", `{"task":{"metadata":{"a/b":{"~c\u002f":[1,tr§]}}}}`, ErrInvalidJSON, "/task/metadata/a~1b/~0c~1/1"},
		{"not an object", `§["task"]`, ErrFieldType, ""},
		{"payload not an object", `{"task":§5}`, ErrFieldType, "/task"},
		{"string field is a number", `{"task":{"id":§12}}`, ErrFieldType, "/task/id"},
		{"bool field is a string", `{"artifactUpdate":{"append":§"yes"}}`, ErrFieldType, "/artifactUpdate/append"},
		{"parts not an array", `{"artifactUpdate":{"artifact":{"parts":§{}}}}`, ErrFieldType, "/artifactUpdate/artifact/parts"},
		{"part not an object", `{"artifactUpdate":{"artifact":{"parts":[{"text":"a"}, §7]}}}`, ErrFieldType, "/artifactUpdate/artifact/parts/1"},
		{"history element not an object", `{"task":{"history":[{},§"m"]}}`, ErrFieldType, "/task/history/1"},
		{"extension not a string", `{"message":{"extensions":["a",§1]}}`, ErrFieldType, "/message/extensions/1"},
		{"metadata not an object", `{"statusUpdate":{"metadata":§[]}}`, ErrFieldType, "/statusUpdate/metadata"},
		{"usage not an object", `{"statusUpdate":{"metadata":{"$usage":§"x"}}}`, ErrFieldType, "/statusUpdate/metadata/$usage"},
		{"token count not a number", `{"statusUpdate":{"metadata":{"$usage":{"inputTokens":§true}}}}`, ErrFieldType, "/statusUpdate/metadata/$usage/inputTokens"},
		{"fractional token count", `{"statusUpdate":{"metadata":{"$usage":{"inputTokens":§1.5}}}}`, ErrFieldValue, "/statusUpdate/metadata/$usage/inputTokens"},
		{"token count string not a number", `{"statusUpdate":{"metadata":{"$usage":{"totalTokens":§"12a"}}}}`, ErrFieldValue, "/statusUpdate/metadata/$usage/totalTokens"},
		{"invalid escape", `{"artifactUpdate":{"artifact":{"parts":[{"text":"a§\qb"}]}}}`, ErrInvalidJSON, "/artifactUpdate/artifact/parts/0/text"},
		{"short unicode escape", `{"artifactUpdate":{"artifact":{"parts":[{"text":"ab§\u12"}]}}}`, ErrInvalidJSON, "/artifactUpdate/artifact/parts/0/text"},
		{"control character in text", "{\"artifactUpdate\":{\"artifact\":{\"parts\":[{\"text\":\"a§\tb\"}]}}}", ErrInvalidJSON, "/artifactUpdate/artifact/parts/0/text"},
		{"unknown state", `{"statusUpdate":{"status":{"state":§"TASK_STATE_PAUSED"}}}`, ErrFieldValue, "/statusUpdate/status/state"},
		{"state number out of range", `{"statusUpdate":{"status":{"state":§9}}}`, ErrFieldValue, "/statusUpdate/status/state"},
		{"unknown role", `{"message":{"role":§"ROLE_SYSTEM"}}`, ErrFieldValue, "/message/role"},
		{"bad base64", `{"message":{"parts":[{"raw":§"not base64!"}]}}`, ErrFieldValue, "/message/parts/0/raw"},
		{"two payloads", `{"task":{},"message":§{}}`, ErrTwoPayloads, "/message"},
		{"two payloads, snake_case", `{"statusUpdate":{},"artifact_update":§{}}`, ErrTwoPayloads, "/artifact_update"},
		{"error beside a payload", `{"task":{},"error":§{}}`, ErrTwoPayloads, ""},
		{"two part kinds", `{"message":{"parts":[{"text":"a","data":§{}}]}}`, ErrTwoPayloads, "/message/parts/0/data"},
		{"no payload", `§{}`, ErrNoPayload, ""},
		{"two unknown keys", `§{"a":1,"b":2}`, ErrNoPayload, ""},
		{"empty part", `{"message":{"parts":[§{}]}}`, ErrNoPayload, "/message/parts/0"},
		{"part with only metadata", `{"message":{"parts":[{"text":"a"}, §{"metadata":{}}]}}`, ErrNoPayload, "/message/parts/1"},
		{"JSON-RPC request", `§{"jsonrpc": "2.0","id": "msg-001","method": "SendStreamingMessage","params": {"message": {"role": "ROLE_USER","parts": [{ "text": "Generate a clinical note." }]}}}`, ErrNoPayload, ""},
		{"JSON-RPC without result or error", `§{"jsonrpc":"2.0","id":1}`, ErrNoPayload, ""},
		{"JSON-RPC with result and error", `{"jsonrpc":"2.0","id":1,"result":{},"error":§{}}`, ErrTwoPayloads, ""},
		{"JSON-RPC version", `{"jsonrpc":§"1.0","result":{"task":{}}}`, ErrFieldValue, "/jsonrpc"},
		{"JSON-RPC id object", `{"jsonrpc":"2.0","id":§{},"result":{"task":{}}}`, ErrFieldType, "/id"},
		{"JSON-RPC result not an object", `{"jsonrpc":"2.0","id":1,"result":§[]}`, ErrFieldType, "/result"},
		{"JSON-RPC payload type", `{"jsonrpc":"2.0","id":1,"result":{"statusUpdate":{"taskId":§[]}}}`, ErrFieldType, "/result/statusUpdate/taskId"},
		{"error not an object", `{"error":§"boom"}`, ErrFieldType, "/error"},
		{"error code not a number", `{"error":{"code":§{}}}`, ErrFieldType, "/error/code"},
		// A2A 0.3 shapes.
		{"0.3 kind at the root", `{"kind":§"status-update","taskId":"t","status":{"state":"completed"},"final":true}`, ErrLegacyShape, ""},
		{"0.3 kind in a JSON-RPC result", `{"jsonrpc":"2.0","id":1,"result":{"kind":§"artifact-update","taskId":"t"}}`, ErrLegacyShape, "/result"},
		{"0.3 lowercase state", `{"statusUpdate":{"status":{"state":§"completed"}}}`, ErrLegacyShape, "/statusUpdate/status/state"},
		{"0.3 lowercase hyphenated state", `{"task":{"status":{"state":§"input-required"}}}`, ErrLegacyShape, "/task/status/state"},
		{"0.3 kind in a payload", `{"task":{"kind":§"task","id":"t"}}`, ErrLegacyShape, "/task/kind"},
		{"0.3 kind in a part", `{"message":{"parts":[{"kind":§"text","text":"hi"}]}}`, ErrLegacyShape, "/message/parts/0/kind"},
		{"0.3 file part", `{"message":{"parts":[{"file":§{"uri":"u"}}]}}`, ErrLegacyShape, "/message/parts/0/file"},
		{"0.3 lowercase role", `{"message":{"role":§"agent"}}`, ErrLegacyShape, "/message/role"},
	}
	var d Decoder
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, pos := marked(tt.data)
			ev, err := decodeData(t, &d, data)
			require.Error(t, err, "no error; event %+v", ev)
			checkDecodeError(t, err, tt.err, pos, tt.pointer)
		})
	}
}

// TestDecodeAfterError checks that an error leaves the Decoder usable.
func TestDecodeAfterError(t *testing.T) {
	var d Decoder
	_, err := decodeData(t, &d, `{"task":{"id":`)
	require.Error(t, err, "no error for truncated JSON")
	ev, err := decodeData(t, &d, `{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_WORKING"}}}`)
	require.NoError(t, err)
	assert.Equal(t, KindStatusUpdate, ev.Kind, "Kind of the event after an error")
	assert.Equal(t, TaskStateWorking, ev.StatusUpdate.Status.State, "State of the event after an error")
}

func TestDecodeErrorMessage(t *testing.T) {
	var d Decoder
	_, err := decodeData(t, &d, `{"artifactUpdate":{"append":"yes"}}`)
	want := `parser: frame 3 (id "ev-3") at byte 100, member /artifactUpdate/append, data byte 28: wrong JSON type for field`
	assert.EqualError(t, err, want)
}

func TestDecoderReset(t *testing.T) {
	var d Decoder
	big := `{"artifactUpdate":{"artifact":{"parts":[{"text":"` + strings.Repeat(`\n`, 1<<20) + `"}]}}}`
	_, err := decodeData(t, &d, big)
	require.NoError(t, err)
	require.Greater(t, cap(d.text), retainLimit, "text buffer cap, expected growth beyond retainLimit")
	d.Reset()
	assert.Greater(t, cap(d.text), retainLimit, "Reset after the stream that needed it released the text buffer")
	assert.Zero(t, d.ev.Kind, "Reset kept the last event")
	ev, err := decodeData(t, &d, `{"artifactUpdate":{"artifact":{"parts":[{"text":"after\n"}]}}}`)
	require.NoError(t, err, "Decode after Reset")
	assert.Equal(t, "after\n", string(ev.ArtifactUpdate.Artifact.Parts[0].Text), "Decode after Reset")
	d.Reset()
	assert.LessOrEqual(t, cap(d.text), retainLimit, "Reset after a stream of small events kept a text buffer this big")
}

func TestKindStrings(t *testing.T) {
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"Kind", KindArtifactUpdate.String(), "ArtifactUpdate"},
		{"Kind error", KindError.String(), "Error"},
		{"Kind unknown", KindUnknown.String(), "Unknown"},
		{"Kind zero", Kind(0).String(), "Invalid(0)"},
		{"Kind out of range", Kind(42).String(), "Invalid(42)"},
		{"Binding REST", BindingREST.String(), "REST"},
		{"Binding JSON-RPC", BindingJSONRPC.String(), "JSON-RPC"},
		{"Binding invalid", Binding(9).String(), "Invalid(9)"},
		{"RPCIDKind", RPCIDNull.String(), "Null"},
		{"RPCIDKind invalid", RPCIDKind(7).String(), "Invalid(7)"},
		{"PartKind", PartData.String(), "Data"},
		{"PartKind invalid", PartKind(0).String(), "Invalid(0)"},
		{"Role", RoleAgent.String(), "ROLE_AGENT"},
		{"Role invalid", Role(5).String(), "Invalid(5)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.got, "String()")
		})
	}
}

func TestEventTaskIDContextID(t *testing.T) {
	tests := []struct {
		name, data, task, ctx string
	}{
		{"task", `{"task":{"id":"t1","contextId":"c1"}}`, "t1", "c1"},
		{"message", `{"message":{"taskId":"t2","contextId":"c2"}}`, "t2", "c2"},
		{"status update", `{"statusUpdate":{"taskId":"t3","contextId":"c3"}}`, "t3", "c3"},
		{"artifact update", `{"artifactUpdate":{"taskId":"t4","contextId":"c4"}}`, "t4", "c4"},
		{"error", `{"error":{"code":500}}`, "", ""},
		{"unknown", `{"other":{"taskId":"t5"}}`, "", ""},
	}
	var d Decoder
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := decodeData(t, &d, tt.data)
			require.NoError(t, err)
			assert.Equal(t, tt.task, string(ev.TaskID()), "TaskID")
			assert.Equal(t, tt.ctx, string(ev.ContextID()), "ContextID")
		})
	}
}

func TestDecodeMoreFieldErrors(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		err     error
		pointer string
	}{
		{"state of another type", `{"statusUpdate":{"status":{"state":§true}}}`, ErrFieldType, "/statusUpdate/status/state"},
		{"role of another type", `{"message":{"role":§[]}}`, ErrFieldType, "/message/role"},
		{"role number out of range", `{"message":{"role":§3}}`, ErrFieldValue, "/message/role"},
		{"credits of another type", `{"statusUpdate":{"metadata":{"$usage":{"credits":§"x"}}}}`, ErrFieldValue, "/statusUpdate/metadata/$usage/credits"},
		{"credits object", `{"statusUpdate":{"metadata":{"$usage":{"credits":§{}}}}}`, ErrFieldType, "/statusUpdate/metadata/$usage/credits"},
		{"token count beyond int64", `{"statusUpdate":{"metadata":{"$usage":{"totalTokens":§1e19}}}}`, ErrFieldValue, "/statusUpdate/metadata/$usage/totalTokens"},
		{"timestamp metadata of another type", `{"message":{"metadata":{"$timestamp":§{}}}}`, ErrFieldType, "/message/metadata/$timestamp"},
		{"status not an object", `{"task":{"status":§"ok"}}`, ErrFieldType, "/task/status"},
		{"status message not an object", `{"task":{"status":{"message":§1}}}`, ErrFieldType, "/task/status/message"},
		{"artifact not an object", `{"artifactUpdate":{"artifact":§[]}}`, ErrFieldType, "/artifactUpdate/artifact"},
		{"artifacts not an array", `{"task":{"artifacts":§{}}}`, ErrFieldType, "/task/artifacts"},
		{"artifact element not an object", `{"task":{"artifacts":[§null]}}`, ErrFieldType, "/task/artifacts/0"},
		{"history not an array", `{"task":{"history":§1}}`, ErrFieldType, "/task/history"},
		{"extensions not an array", `{"message":{"extensions":§"e"}}`, ErrFieldType, "/message/extensions"},
		{"deep path with two-digit index", `{"task":{"history":[{},{},{},{},{},{},{},{},{},{},{},{"parts":[{"text":§5}]}]}}`, ErrFieldType, "/task/history/11/parts/0/text"},
		{"bad escape in an id", `{"task":{"id":"a§\x"}}`, ErrInvalidJSON, "/task/id"},
		{"bad escape in a JSON-RPC id", `{"jsonrpc":"2.0","id":"§\u00","result":{}}`, ErrInvalidJSON, "/id"},
		{"bad escape in error details", `{"error":{"details":[{"reason":"§\z"}]}}`, ErrInvalidJSON, "/error/details/0/reason"},
	}
	var d Decoder
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, pos := marked(tt.data)
			_, err := decodeData(t, &d, data)
			checkDecodeError(t, err, tt.err, pos, tt.pointer)
		})
	}
}

func TestDecodeStateAndRoleForms(t *testing.T) {
	tests := []struct {
		data  string
		state TaskState
		role  Role
	}{
		{`{"task":{"status":{"state":"6","message":{"role":"1"}}}}`, TaskStateInputRequired, RoleUser},
		{`{"task":{"status":{"state":null,"message":{"role":null}}}}`, TaskStateUnspecified, RoleUnspecified},
		{`{"task":{"status":{"state":0,"message":{"role":0}}}}`, TaskStateUnspecified, RoleUnspecified},
		{`{"task":{"status":{"state":"TASK_STATE_REJECTED","message":{"role":"ROLE_UNSPECIFIED"}}}}`, TaskStateRejected, RoleUnspecified},
	}
	var d Decoder
	for _, tt := range tests {
		t.Run(tt.data, func(t *testing.T) {
			ev, err := decodeData(t, &d, tt.data)
			require.NoError(t, err)
			s := ev.Task.Status
			assert.Equal(t, tt.state, s.State, "State")
			assert.Equal(t, tt.role, s.Message.Role, "Message.Role")
			assert.True(t, s.HasMessage, "HasMessage")
		})
	}
	assert.NotNil(t, NewDecoder(), "NewDecoder returned nil")
}
