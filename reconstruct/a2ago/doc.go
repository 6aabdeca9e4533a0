// Package a2ago is a2astream for users of the official Go A2A SDK,
// github.com/a2aproject/a2a-go/v2 (v2.4.0): it rebuilds the answer,
// thinking, state, status message, $usage and citations of a run from the
// events that a2a-go's client hands out, with the rules of package
// reconstruct, and converts events between the two libraries.
//
// a2a-go's client returns the raw events of a streaming call as an
// iter.Seq2[a2a.Event, error] and leaves the append, replace and lastChunk
// logic to its users. [Reduce] and [Updates] take that iterator and give
// the reconstruct.Result and the live reconstruct.Update values that
// a2astream's own byte path gives for the same events (see "What a2a-go's
// decoding loses" for where they differ from the same stream's):
//
//	events := client.SendStreamingMessage(ctx, req)
//	res, err := a2ago.Reduce(events, nil)
//	fmt.Printf("%s\n", res.Answer.Text())
//
// A stream that ends before a terminal or interrupted state is a
// *reconstruct.TruncatedError, never a success. [Run] goes on with the
// stream of client.SubscribeToTask for its TaskID, applied to the same
// run, so that the Result is that of the uncut run.
//
// # Conversions
//
// [Converter] turns a2a-go's events into a2astream's decoded events
// (*parser.Event), which a reconstruct.Reducer applies; [ToA2A] turns
// a2astream's decoded events into a2a-go's (*a2a.Task, *a2a.Message,
// *a2a.TaskStatusUpdateEvent, *a2a.TaskArtifactUpdateEvent), so that an SDK
// can read a stream with a2astream's lexer and decoder and hand a2a-go's
// types on.
//
// # What is byte-exact
//
// Text, ids, names, URLs and raw bytes are byte-exact both ways, as Go
// strings hold any bytes; but a2a-go decodes JSON with encoding/json, which
// replaces each lone UTF-16 surrogate escape with U+FFFD, so a surrogate
// pair that an agent splits between two deltas reaches a2a-go's users as
// two U+FFFD (a2astream's byte path joins the halves), and a2a-go's server
// writes invalid UTF-8 as U+FFFD. Metadata and data parts are a2a-go's
// map[string]any and any: they lose the JSON's key order (encoding/json
// writes map keys sorted), its number spelling (every number becomes a
// float64: 1.0 and 1e0 are written 1, integers beyond 2^53 lose
// precision), its duplicate keys (the last one wins) and its insignificant
// white space. The exact JSON of Part.Metadata, Part.Data,
// Artifact.Metadata and Message.Metadata in a Result from [Reduce] is
// therefore what encoding/json writes for a2a-go's values, which is also
// what a2a-go's server sends; converting a2astream's events with [ToA2A]
// keeps the values, not their spelling.
//
// # What a2a-go's decoding loses
//
// Some losses happen in a2a-go's client, before the adapter sees an event,
// where the byte path keeps the text or refuses the event. The adapter
// cannot undo them, but reports each kind once per run as a
// reconstruct.Diagnostic (which ends the run under Options.Strict):
//
//   - a character that the agent splits between two deltas, as raw UTF-8
//     bytes or as the two escapes of a surrogate pair, reaches the live
//     text and the Result as U+FFFD (one or two), as encoding/json
//     replaced the halves: a delta that begins or ends with U+FFFD is an
//     [ErrReplacedText] diagnostic;
//   - a message or artifact whose parts a2a-go cannot read arrives with no
//     parts: a2a-go skips the "content" under which A2A 0.3's REST binding
//     sends a message's parts, so INPUT_REQUIRED's question is an empty
//     status message, where the byte path refuses the event with
//     parser.ErrLegacyShape. A status message, direct reply or artifact
//     with no parts is an [ErrNoParts] diagnostic.
//
// What a2a-go's client does not hand on cannot be in the Result: SSE ids
// (LastEventID is ""), byte offsets (a Diagnostic's sse.Position has the
// event's ordinal and Offset -1), the code, status and raw details of the
// server's error (see [APIError]).
package a2ago
