// Package reconstruct rebuilds what an A2A 1.0 agent said from its
// Server-Sent-Events stream: the live text for a typing UI, the answer, the
// intermediate thinking, every artifact, the final or interrupted state,
// the status message, $usage, and what to resubscribe with when the stream
// was cut. It follows the rules of Corti's "Stream agent responses" guide
// (append and lastChunk semantics, intermediate thinking, where the answer
// lives) and never loses or alters a byte the agent sent.
//
// # Three ways in
//
// Over HTTP, the front door is httpstream.Client: it sends a message or
// subscribes to a task, resubscribes after a drop or a silent connection,
// and hands out one uncut run as an iterator of [Update] values plus its
// [Result].
//
// [Read] reads a whole stream from an io.Reader into a [Result]; package
// reconstruct/httpstream does the same with the *http.Response of a
// streaming call, after turning an error response (a non-2xx status, or a
// 2xx with an application/json error body) into the server's
// *parser.APIError with [EventStream] and [ResponseError] (this package does
// not import net/http, so that the WebAssembly module stays small):
//
//	res, err := httpstream.Read(resp, nil)
//	if err != nil {
//		// res holds everything received before the error
//	}
//	fmt.Printf("%s\n", res.Answer.Text())
//
// [Updates] is the same as an iterator of [Update] values, for a typing UI
// reading from an io.Reader. [Stream] is the push form that a network loop
// or a JavaScript ReadableStream drives, the canonical loop:
//
//	s := reconstruct.NewStream(nil)
//	for chunk := range chunks {
//		s.Write(chunk)
//		for s.Next() {
//			show(s.Update()) // UpdateText, UpdateReplaced, UpdateSealed, UpdateState
//		}
//	}
//	err := s.Close()
//	for s.Next() {
//		show(s.Update()) // the last updates, then one UpdateDone
//	}
//
// A [Reducer] is the core under them, for callers that lex and decode the
// stream themselves with package parser: Apply one *parser.Event at a time,
// read its Pending updates, and Finish at the end of the input.
//
// # Call order
//
// For a Stream (Resume replaces the end of a connection that dropped before
// the run ended; CloseWithError is Close for an input that failed):
//
//	Stream  = Conn { Resume Conn } ( Close | CloseWithError ) { Next Update } .
//	Conn    = { Write { Next Update } } .
//
// For a Reducer (Fail may end the run at any point; Reset starts over):
//
//	Reducer = { Apply [ Pending ] } [ Fail [ Pending ] ] Finish [ Pending ] .
//
// Result, Err, Done, LastEventID and TaskID may be called at any time. A run
// hands out exactly one UpdateDone: from Close (or Finish) for a run that
// ended normally or was cut, or from the event or Fail that ended it with an
// error.
//
// # How a run is rebuilt
//
//   - A task event sets the task and context ids, the state, the status
//     message and $usage. Its artifacts replace the ones not yet sealed and
//     add the unknown ones; sealed artifacts, and artifacts it leaves out,
//     are kept (see resuming below). A terminal snapshot seals its
//     artifacts, and any snapshot seals one tagged intermediate-thinking
//     (the tag comes only with the close).
//   - An artifactUpdate with append true appends its parts to the artifact
//     of its id by the append rule: a plain text part (no metadata, file
//     name or media type) extends the plain text part that ends the
//     artifact, so the token deltas of a narration make one text part; an
//     empty plain text part adds nothing (the intermediate-thinking close
//     carries one). Text is byte-exact: the bytes of the deltas
//     concatenated, a UTF-16 surrogate pair split between two deltas'
//     escapes joined into its 4-byte UTF-8 (package utf8buf), invalid bytes
//     kept, no normalisation.
//   - append false or absent creates the artifact, or replaces its whole
//     part list, so a consolidating close never duplicates text. The live
//     text follows one rule: when the new text begins with the text already
//     handed out, only what it adds is handed out (UpdateText); when it is
//     shorter and a start of it, as a replay from the artifact's start is,
//     nothing is handed out until the text passes what was shown, and then
//     only what it adds; otherwise (it departs from what was shown, or the
//     artifact is sealed shorter) an UpdateReplaced hands out the new text.
//   - lastChunk seals that artifact only, with an UpdateSealed. An artifact
//     whose metadata.type is "intermediate-thinking" is thinking
//     (Artifact.Thinking), never the answer.
//   - A statusUpdate sets the state, the status message (narration for
//     WORKING, the question for INPUT_REQUIRED and AUTH_REQUIRED, the
//     failure for FAILED) and $usage, with an UpdateState.
//   - The answer is taken when a terminal (COMPLETED, FAILED, CANCELED,
//     REJECTED) or interrupted (INPUT_REQUIRED, AUTH_REQUIRED) status
//     arrives: the last artifact sealed since the previous final status
//     that is not thinking. It is never the status message. A message
//     event without a task is a direct reply: it is the answer and ends
//     the run.
//   - Live text (UpdateText) comes in whole characters: an incomplete UTF-8
//     sequence or a high surrogate at the end of a delta is held back until
//     the next delta or the artifact's seal. The concatenated UpdateText of
//     an artifact, restarted at each UpdateReplaced, equals its stored text
//     (while a replay catches up, the stored text is the part replayed so
//     far).
//   - When the stream is cut (a *TruncatedError), the Result holds back the
//     same bytes: the text of an artifact still streaming (not sealed)
//     ends on a whole character, without an incomplete UTF-8 sequence or a
//     lone high surrogate (at most utf8buf.MaxHeld bytes, taken off the end
//     of its last text parts) that the rest of the stream would complete. Every text of a cut Result is so
//     a prefix of the uncut stream's, and a resubscription sends the held
//     bytes again. A sealed artifact keeps its bytes exactly as sent.
//
// # Diagnostics and errors
//
// An event that breaks the protocol's rules is recorded in
// Result.Diagnostics as a [Diagnostic] and the run goes on (Options.Strict
// makes the Diagnostic the error that ends the run): an append to an unknown
// artifact creates it ([ErrUnknownArtifact]); an event after a terminal
// state is not applied, artifact updates excepted ([ErrAfterFinal]); a
// transition the task lifecycle forbids ([ErrTransition]); an event for
// another task is skipped ([ErrOtherTask]); an update to a sealed artifact
// reopens it ([ErrSealedArtifact]); an unknown kind of stream response is
// skipped ([ErrUnknownEvent]); a COMPLETED run without an answer artifact
// ([ErrNoAnswer]); a status update that still carries A2A 0.3's "final",
// which is ignored, once per run ([ErrLegacyField]; the A2A 0.3 shapes that
// would lose text are refused by the decoder with parser.ErrLegacyShape).
//
// These end the run, keeping everything received before in the Result:
//
//   - an error document in the stream (REST or JSON-RPC shape): an
//     *[EventError] that matches [ErrServer] and holds the *parser.APIError
//     (errors.As);
//   - a frame that cannot be decoded: the *parser.DecodeError; an event
//     over MaxEventSize: the *sse.SyntaxError wrapping
//     sse.ErrEventTooLarge;
//   - an artifact over MaxArtifactSize, artifacts over MaxRunSize
//     together, too many artifacts or too many diagnostics: an
//     *EventError wrapping [ErrArtifactTooLarge], [ErrRunTooLarge],
//     [ErrTooManyArtifacts] or [ErrTooManyDiagnostics];
//   - the end of the input before a terminal or interrupted state: a
//     *[TruncatedError] naming the task id, context id, last state and last
//     SSE id to resubscribe with, and saying how the stream ended: inside
//     an event (Cut, errors.Is io.ErrUnexpectedEOF, with the bytes dropped)
//     or between events, at the end of the input or on a read error (Cause:
//     a reset, a deadline, an idle timeout, which errors.Is and errors.As
//     reach). It matches [ErrTruncated], never io.EOF.
//
// Every error is sticky, and is Result.Err. Offsets are 0-based byte offsets
// in the stream (across resumed connections, the bytes of all of them);
// Seq is the 1-based ordinal of a frame on its connection.
//
// # Resuming after a cut
//
// When the connection drops before the run ends, call [Stream.Resume],
// subscribe again (POST tasks/{TaskID}:subscribe, Last-Event-ID set to
// LastEventID) and Write that stream into the same Stream. A server that
// reads Last-Event-ID sends the events after it. Corti's today does not: it
// sends a task snapshot, then replays the events from the start of the
// artifact in progress, then live events. Sealed artifacts are kept, those
// closed since the cut come from the snapshot, the one in progress is
// rebuilt from the replay, so the Result is the one the uncut stream would
// have given. Either way the live updates are the uncut stream's too: the
// replay of the artifact in progress hands out nothing until it passes the
// text shown before the cut (whole characters, however the replay's deltas
// split them), then only what it adds, so that each character is shown
// once; a replay that departs from what was shown replaces it with an
// UpdateReplaced. One artifact catches up at a time: when a snapshot
// replaces two with shorter texts, the first is handed out as it is then,
// in an UpdateReplaced. An interrupted task that works again on a stream
// fed after Resume is a run in progress again.
//
// # As JSON
//
// json.Marshal of a Result (or of an Artifact) gives the `a2astream --json`
// document that package resultjson documents, without encoding/json in
// this package ([AppendJSON], [WriteJSON] write it, indented or in pieces);
// json.Unmarshal reads it back ([Result.UnmarshalJSON] says what the
// document does not hold). The enums of the model marshal as their names.
//
// # Limits
//
// Options.MaxEventSize caps one SSE event (default sse.DefaultMaxEventSize,
// 16 MiB); Options.MaxArtifactSize the bytes held for one artifact
// ([DefaultMaxArtifactSize], 64 MiB); Options.MaxRunSize the bytes held
// for all the artifacts of a run together ([DefaultMaxRunSize], 256 MiB);
// Options.MaxArtifacts the artifacts of a run ([DefaultMaxArtifacts],
// 4096); Options.MaxDiagnostics its
// diagnostics ([DefaultMaxDiagnostics], 1024). 0 means the default, never
// unlimited.
//
// # Lifetimes and cost
//
// Update.Text is a view into the Reducer's buffers, valid only until the
// next call to Next, Write, Close, Resume or Reset (for a Reducer, Apply,
// Fail, Finish or Reset); copy it to keep it. Artifacts, Messages and the
// Result are the Reducer's own values: they change as events are applied
// and stop changing after Close (Finish for a Reducer). Reset starts a new
// Result and leaves the last one, and the Artifacts and Messages it points
// to, as they were.
//
// A Result is a value of its own: the one [Read] returns, and a Stream's
// or Reducer's once the run is over, holds its ids, texts, parts, metadata
// and diagnostics and nothing of the lexer's or decoder's buffers, so that
// keeping it while dropping the Stream frees them. Finish gives back the
// room a text grew into when it is more than a fifth of the text: a kept
// Result takes about its texts' and parts' size. While a run is open, a
// Stream holds, besides its Result, about 15 KiB between events (the
// decoder, the lexer's small buffer, the JSON tape), and the buffers an
// event needs while it is in flight: the lexer's, holding the event (see
// [sse.Lexer]), whose texts the Stream's decoder unescapes in place
// ([parser.Decoder.DecodeInPlace]). Reset keeps the lexer and decoder and
// their buffers for the next run.
//
// A text that grows by deltas is one buffer that doubles when full until
// it passes 64 KiB; then, whoever drives the Reducer (Read, a Stream,
// Apply), it is kept in pieces that the updates hand the new text out of,
// and joined once, into a buffer of the text's size that the Result keeps,
// when its artifact takes another event, the run ends, or Result or the
// Artifact's Text or AppendText is called: a long answer allocates about
// twice its size. While such a text streams, the text part of its Artifact
// holds its last piece only; Result, Artifact.Text and AppendText give the
// whole text.
//
// The model is package parser's: an Artifact embeds a [parser.Artifact],
// messages are [parser.Message] values (their text is [MessageText]), parts
// [parser.Part], $usage [parser.Usage], ids []byte. The Reducer keeps deep
// copies of the decoder's views: every slice of a Result, the typed views of
// a parser.Metadata included, is its own. Applying a text delta allocates
// nothing once the artifact's buffer has room (amortised growth only), and
// lexing, decoding and reducing a delta frame with a Stream allocates
// nothing in steady state.
//
// A Stream or a Reducer must not be used from multiple goroutines at once.
package reconstruct
