package fuzz

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
)

// decodeSentinels are the documented causes of a decoding failure.
var decodeSentinels = []error{parser.ErrInvalidJSON, parser.ErrTooDeep, parser.ErrFieldType, parser.ErrFieldValue,
	parser.ErrNoPayload, parser.ErrTwoPayloads, parser.ErrLegacyShape}

var documentSeeds = []string{
	`{"id":"task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62","contextId":"ctx.1","status":{"state":"TASK_STATE_COMPLETED","timestamp":"2026-05-19T12:00:01Z"}}`,
	`{"id":"t","status":{"state":"TASK_STATE_INPUT_REQUIRED","message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"Which patient?"}]}},"artifacts":[{"artifactId":"a","name":"icd10-result","parts":[{"text":"J45.909"},{"data":{"x":[1,2]},"metadata":{"dataPartId":"g"}},{"raw":"aGk=","filename":"f","mediaType":"text/plain"},{"url":"https://x"}]}],"history":[{"role":1,"parts":[{"text":"q\ud83d"}]}],"metadata":{"$usage":{"model":"m","inputTokens":"100","credits":1.2}}}`,
	`{"jsonrpc":"2.0","id":"g1","result":{"id":"answer","status":{"state":"TASK_STATE_WORKING"}}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":-32004,"message":"Unsupported operation","data":[{"reason":"R","domain":"d","metadata":{"k":"v"}}]}}`,
	`{"error":{"code":404,"status":"NOT_FOUND","message":"Task not found","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}}`,
	`{"error":{"code":"409","status":"FAILED_PRECONDITION","message":"terminal"}}`,
	`{"task":{}}`, `{"jsonrpc":"2.0","id":1,"result":{}}`, `<html>`, `{"kind":"task","status":{"state":"working"}}`,
	`{"id":"t","status":{"state":"TASK_STATE_BOGUS"}}`, `{"id":5}`, `[[[[[[[[[[`, `{"id":"\u0000\ud800"}`,
}

// FuzzDocuments decodes arbitrary task and error documents. Properties: no
// panic; DecodeTask fails with the server's *parser.APIError or with a
// *parser.DecodeError wrapping a documented sentinel, with Pos inside the
// document (or -1) and no stream position; the same for DecodeAPIError;
// when DecodeTask returns an *APIError, DecodeAPIError returns the same
// one, and so does a Decoder for a frame carrying the document; the decoded
// values are owned (overwriting the input changes nothing) and decoding
// again gives the same result.
func FuzzDocuments(f *testing.F) {
	for _, s := range documentSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if len(doc) > 1<<16 {
			return
		}
		checkSyntax := func(what string, err error) {
			t.Helper()
			var se *parser.DecodeError
			require.ErrorAs(t, err, &se, "%s: neither an *APIError nor a *DecodeError", what)
			require.True(t, matchesAny(err, decodeSentinels...), "%s: %v wraps no documented sentinel", what, err)
			require.GreaterOrEqual(t, se.JSONOffset, -1, "%s: %v: JSONOffset", what, err)
			require.LessOrEqual(t, se.JSONOffset, len(doc), "%s: %v: JSONOffset past the document", what, err)
			require.True(t, se.JSONPointer == "" || se.JSONPointer[0] == '/', "%s: %v: JSONPointer %q", what, err, se.JSONPointer)
			require.Zero(t, se.Offset, "%s: %v: Offset of a document", what, err)
			require.Zero(t, se.Seq, "%s: %v: Seq of a document", what, err)
		}
		orig := doc
		doc = bytes.Clone(doc) // scribbled over below; the fuzzer's input stays intact
		task, terr := parser.DecodeTask(doc)
		apiErr, aerr := parser.DecodeAPIError(doc)
		var fromTask *parser.APIError
		switch {
		case terr == nil:
			require.NotNil(t, task, "DecodeTask returned neither a task nor an error")
		case errors.As(terr, &fromTask):
			require.NoError(t, aerr, "DecodeTask found the error document %v, DecodeAPIError failed", fromTask)
			a, b := *fromTask, *apiErr
			require.Empty(t, cmp.Diff(&a, &b), "DecodeTask and DecodeAPIError disagree (-task +apierror)")
		default:
			checkSyntax("DecodeTask", terr)
		}
		if aerr != nil {
			checkSyntax("DecodeAPIError", aerr)
		}
		if apiErr != nil {
			var d parser.Decoder
			ev, err := d.Decode(&sse.Frame{Data: doc, Seq: 1})
			require.NoError(t, err, "a Decoder fails on the error document %v", apiErr)
			require.Equal(t, parser.KindError, ev.Kind, "a Decoder's event of the error document %v", apiErr)
			require.Empty(t, cmp.Diff(apiErr, ev.Err), "the Decoder's in-stream error differs from DecodeAPIError (-document +stream)")
		}

		// Owned: scribbling over the input changes nothing decoded.
		for i := range doc {
			doc[i] = 'x'
		}
		task2, terr2 := parser.DecodeTask(orig)
		apiErr2, aerr2 := parser.DecodeAPIError(orig)
		require.Empty(t, cmp.Diff(task2, task), "the task changed with its input, or a second decode differs (-again +first)")
		require.Empty(t, cmp.Diff(apiErr2, apiErr), "the error document changed with its input, or a second decode differs (-again +first)")
		require.Equal(t, fmt.Sprint(terr), fmt.Sprint(terr2), "DecodeTask's error on a second decode")
		require.Equal(t, fmt.Sprint(aerr), fmt.Sprint(aerr2), "DecodeAPIError's error on a second decode")
	})
}

// FuzzBindings decodes frame data as given (HTTP+JSON) and wrapped in a
// JSON-RPC result envelope. Properties: every failure is a *SyntaxError
// wrapping a documented sentinel with Pos inside the data and the frame's
// position; when the bare stream response decodes, the wrapped one decodes
// to the same event, binding and id aside.
func FuzzBindings(f *testing.F) {
	for _, s := range documentSeeds {
		f.Add([]byte(s))
	}
	for _, s := range testdataStreams(f) {
		r := sse.NewReader(bytes.NewReader(s), nil)
		for r.Next() {
			f.Add(bytes.Clone(r.Frame().Data))
		}
	}
	var rest, rpc parser.Decoder
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		check := func(what string, data []byte, err error) {
			t.Helper()
			var se *parser.DecodeError
			require.ErrorAs(t, err, &se, "%s: undocumented error", what)
			require.True(t, matchesAny(err, decodeSentinels...), "%s: undocumented error %v", what, err)
			require.GreaterOrEqual(t, se.JSONOffset, -1, "%s: %v: JSONOffset", what, err)
			require.LessOrEqual(t, se.JSONOffset, len(data), "%s: %v: JSONOffset past the data", what, err)
			require.True(t, se.JSONPointer == "" || se.JSONPointer[0] == '/', "%s: %v: JSONPointer %q", what, err, se.JSONPointer)
			require.Equal(t, sse.Position{Offset: 11, Seq: 3, ID: []byte("7")}, se.Position, "%s: %v: the frame's position", what, err)
		}
		ev, err := rest.Decode(&sse.Frame{Offset: 11, Seq: 3, ID: []byte("7"), Data: data})
		if err != nil {
			check("bare", data, err)
			return
		}
		if ev.Kind == parser.KindError {
			return // an error document is not a result
		}
		require.Contains(t, []parser.Binding{parser.BindingREST, parser.BindingJSONRPC}, ev.Binding, "binding")
		if ev.Binding == parser.BindingJSONRPC {
			return // already an envelope
		}
		wrapped := append(append([]byte(`{"jsonrpc":"2.0","id":"r","result":`), data...), '}')
		ev2, err := rpc.Decode(&sse.Frame{Offset: 11, Seq: 3, ID: []byte("7"), Data: wrapped})
		if err != nil {
			check("wrapped", wrapped, err)
			require.NoError(t, err, "the bare response decodes, wrapped in a JSON-RPC result it fails")
		}
		require.Equal(t, parser.BindingJSONRPC, ev2.Binding, "wrapped: binding")
		require.Equal(t, "r", string(ev2.RPCID.Value), "wrapped: id")
		a, b := *ev, *ev2
		a.Binding, a.RPCID, b.Binding, b.RPCID = 0, parser.RPCID{}, 0, parser.RPCID{}
		require.Empty(t, cmp.Diff(a, b), "the bindings decode differently (-REST +JSON-RPC)")
	})
}
