// Package parser turns the frames of a Server-Sent Events stream from an
// A2A 1.0 agent into typed A2A events. It is the second step of the
// a2astream pipeline: package [github.com/a2astream/a2astream/parser/sse]
// splits the bytes into frames, the [Decoder] turns a frame's data into an
// [Event]: a task, a message, a status update, an artifact update or an
// in-stream error, in the HTTP+JSON or JSON-RPC binding. The package also
// holds the A2A model (tasks, messages, parts, artifacts, usage), task
// states, the prefixed UUIDv7 ids, and the decoders of the documents
// outside a stream ([DecodeTask], [DecodeAPIError]).
//
// # Decoding frames
//
//	r := sse.NewReader(resp.Body, nil)
//	var d parser.Decoder
//	for r.Next() {
//		ev, err := d.Decode(r.Frame()) // ev is a view, valid until the next call
//		if err != nil {
//			// a *parser.DecodeError: stream offset, Seq, SSE id, data offset, JSON Pointer
//		}
//		...
//	}
//	if err := r.Err(); err != nil { // a *sse.SyntaxError: an oversized event, a cut stream
//		...
//	}
//
// # Errors and offsets
//
// A frame or document that cannot be decoded is a *[DecodeError] wrapping
// one of the sentinels ([ErrInvalidJSON], [ErrTooDeep], [ErrFieldType],
// [ErrFieldValue], [ErrNoPayload], [ErrTwoPayloads], [ErrLegacyShape]).
// Its Offset, Seq and ID are the frame's (0-based stream byte offset,
// 1-based frame ordinal, SSE last event ID); JSONOffset is the 0-based
// byte offset in the frame's data and JSONPointer the RFC 6901 JSON Pointer
// of the member concerned ("/statusUpdate/status/state"). An
// error frame of the agent is not a decoding failure: it is an Event of
// KindError carrying an *[APIError].
//
// # Lifetimes
//
// An Event's byte slices are views of the frame's data or of the Decoder's
// buffers, valid only until the next call to Decode or Reset, or until the
// frame's data changes. Once its buffers have grown, a Decoder allocates
// nothing per event.
//
// A Decoder must not be used from multiple goroutines at once; distinct
// ones are independent.
package parser
