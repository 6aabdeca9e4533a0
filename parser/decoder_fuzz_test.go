package parser

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/a2astream/a2astream/parser/sse"
	"github.com/stretchr/testify/require"
)

// FuzzDecode decodes arbitrary frame data. Properties: no panic; a failure
// is a *DecodeError wrapping one of the decoder's sentinels, with Pos
// inside the data (or -1) and the frame's position; a success decodes to
// the same event again after another frame went through the Decoder (the
// views are rebuilt, not left stale).
func FuzzDecode(f *testing.F) {
	seeds := []string{
		`{"artifactUpdate":{"taskId":"t","append":true,"artifact":{"artifactId":"a","parts":[{"text":"x\ud83d"}]}}}`,
		`{"statusUpdate":{"status":{"state":"TASK_STATE_COMPLETED","message":{"parts":[{"text":"q"}]}},"metadata":{"$usage":{"inputTokens":"5","credits":1.5}}}}`,
		`{"task":{"id":"t","history":[{"role":2,"parts":[{"data":[1]}],"extensions":["e"]}],"artifacts":[{"parts":[{"raw":"aGk="}]}]}}`,
		`{"jsonrpc":"2.0","id":7,"result":{"message":{"messageId":"m","parts":[{"url":"u","metadata":{"dataPartId":"g"}}]}}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"m","data":[{"reason":"R"}]}}`,
		`{"error":{"code":404,"status":"NOT_FOUND","details":[{"reason":"TASK_NOT_FOUND","metadata":{}}]}}`,
		`{"kind":"status-update","final":true}`,
		`{"newKind":{}}`,
		`{"task":{},"message":{}}`,
		`{"a":`,
		`{"message":{"parts":[{"text":"` + strings.Repeat(`a line\n\"q\" \u00e9 `, 8) + `"}],"metadata":{"text":"` + strings.Repeat(`\ud83d\ude00 `, 12) + `"}}}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	sentinels := []error{ErrInvalidJSON, ErrTooDeep, ErrFieldType, ErrFieldValue, ErrNoPayload, ErrTwoPayloads, ErrLegacyShape}
	other := &sse.Frame{Data: []byte(`{"artifactUpdate":{"taskId":"zzzzzzzz","artifact":{"parts":[{"text":"\n\n\n\n\n\n\n\n"},{"raw":"////"}]},"metadata":{"$usage":{"model":"\u0000\u0000"}}}}`)}
	var d, inPlace Decoder
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		frame := &sse.Frame{Offset: 5, Seq: 2, ID: []byte("i"), Data: data}
		// The fuzzer runs this body many thousands of times: each check
		// keeps its own condition and calls require only on failure.
		ev, err := d.Decode(frame)
		if err != nil {
			var se *DecodeError
			if !errors.As(err, &se) {
				require.Failf(t, "not a *DecodeError", "error %v", err)
			}
			known := false
			for _, s := range sentinels {
				known = known || errors.Is(err, s)
			}
			if !known {
				require.Failf(t, "wraps no sentinel", "error %v", err)
			}
			if se.JSONOffset < -1 || se.JSONOffset > len(data) || se.Offset != 5 || se.Seq != 2 || string(se.ID) != "i" {
				require.Failf(t, "bad position", "error %v: JSONOffset %d of %d data bytes, Offset %d, Seq %d, ID %q; want Offset 5, Seq 2, ID \"i\"",
					err, se.JSONOffset, len(data), se.Offset, se.Seq, se.ID)
			}
			if p := se.JSONPointer; p != "" && p[0] != '/' {
				require.Failf(t, "not a JSON Pointer", "error %v: JSONPointer %q", err, p)
			}
			// Decoding in place fails alike, whatever it unescaped
			// over the data before the offending byte.
			_, err2 := inPlace.DecodeInPlace(&sse.Frame{Offset: 5, Seq: 2, ID: []byte("i"), Data: bytes.Clone(data)})
			if !reflect.DeepEqual(err, err2) {
				require.Failf(t, "DecodeInPlace fails otherwise", "Decode: %#v\nDecodeInPlace: %#v", err, err2)
			}
			return
		}
		if ev.Kind < KindTask || ev.Kind > KindUnknown || (ev.Kind == KindError) != (ev.Err != nil) {
			require.Failf(t, "bad event kind", "event kind %v, Err %v", ev.Kind, ev.Err)
		}
		first := fmt.Sprintf("%+v", *ev)
		if _, err := d.Decode(other); err != nil {
			require.NoError(t, err, "decoding the other frame")
		}
		ev, err = d.Decode(frame)
		if err != nil {
			require.NoError(t, err, "second decode")
		}
		if again := fmt.Sprintf("%+v", *ev); again != first {
			require.Failf(t, "second decode differs", "first:\n%s\nsecond:\n%s", first, again)
		}
		// Decoding in place, over a copy of the data, gives the same
		// event.
		ev, err = inPlace.DecodeInPlace(&sse.Frame{Offset: 5, Seq: 2, ID: []byte("i"), Data: bytes.Clone(data)})
		if err != nil {
			require.NoError(t, err, "DecodeInPlace")
		}
		if got := fmt.Sprintf("%+v", *ev); got != first {
			require.Failf(t, "DecodeInPlace differs", "Decode:\n%s\nDecodeInPlace:\n%s", first, got)
		}
	})
}
