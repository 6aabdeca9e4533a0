package reconstruct_test

// The rules of the spec's sections "Append and lastChunk semantics" to
// "Consume the stream: best practices" (stream-responses.txt), one named
// test each, with the spec's sentence in a comment.

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
)

// read reads a whole stream, failing the test on an error.
func read(t *testing.T, in string) *reconstruct.Result {
	t.Helper()
	res, err := reconstruct.Read(strings.NewReader(in), nil)
	require.NoError(t, err)
	require.NotNil(t, res)
	return res
}

// artifact returns the run's artifact with id, failing when there is none.
func artifact(t *testing.T, res *reconstruct.Result, id string) *reconstruct.Artifact {
	t.Helper()
	for _, a := range res.Artifacts {
		if string(a.ArtifactID) == id {
			return a
		}
	}
	require.FailNow(t, "no artifact "+id)
	return nil
}

// ids returns the ids of artifacts.
func ids(as []*reconstruct.Artifact) []string {
	var out []string
	for _, a := range as {
		out = append(out, string(a.ArtifactID))
	}
	return out
}

func answerText(res *reconstruct.Result) string {
	if res.Answer == nil {
		return "<nil>"
	}
	return string(res.Answer.Text())
}

// "First delta: append is false (or omitted, which means false), lastChunk
// is false, one text part is the first token fragment."
func TestRule_FirstDeltaCreatesArtifact(t *testing.T) {
	for _, first := range []string{
		artifactUpdate("a", false, false, "", text("Hi")),
		strings.Replace(artifactUpdate("a", false, false, "", text("Hi")), `"taskId"`, `"append":false,"taskId"`, 1),
	} {
		res, _ := reconstruct.Read(strings.NewReader(sseStream("x", task("TASK_STATE_WORKING"), first)), nil)
		require.Len(t, res.Artifacts, 1)
		assert.Equal(t, "Hi", string(res.Artifacts[0].Text()))
		assert.False(t, res.Artifacts[0].Sealed)
		assert.Empty(t, res.Diagnostics, "a first delta is no append to an unknown artifact")
	}
}

// "append: true means append the incoming parts to the existing artifact
// buffer for that artifactId."
func TestRule_AppendTrueAppendsParts(t *testing.T) {
	res := read(t, sseStream("x", task("TASK_STATE_WORKING"),
		first("a", "one "), first("b", "other"), more("a", "two"),
		completion("b", text("other")),
		status("TASK_STATE_COMPLETED", "", "")))
	assert.Equal(t, "one two", string(artifact(t, res, "a").Text()))
	assert.Len(t, artifact(t, res, "a").Parts, 1, "appended plain text parts coalesce into one part")
	assert.Equal(t, "other", answerText(res))
}

// "append: false means replace the whole artifact with the incoming parts.
// This is how the completion event collapses many per-delta parts into one
// canonical text part."
func TestRule_AppendFalseReplacesWholeArtifact(t *testing.T) {
	res := read(t, sseStream("x", task("TASK_STATE_WORKING"),
		first("a", "draft "), more("a", "text"),
		artifactUpdate("a", true, false, "", `{"data":{"k":1}}`),
		completion("a", text("Final.")),
		status("TASK_STATE_COMPLETED", "", "")))
	a := artifact(t, res, "a")
	require.Len(t, a.Parts, 1, "the data part appended before is gone too")
	assert.Equal(t, "Final.", string(a.Parts[0].Text))
}

// "lastChunk: true closes one artifact, not the run. A run may emit several
// lastChunk: true artifacts."
func TestRule_LastChunkClosesOneArtifactNotTheRun(t *testing.T) {
	in := sseStream("x", task("TASK_STATE_WORKING"),
		completion("a", text("first")),
		completion("b", text("second")))
	res, err := reconstruct.Read(strings.NewReader(in), nil)
	assert.ErrorIs(t, err, reconstruct.ErrTruncated, "two sealed artifacts and no final status: the run goes on")
	assert.True(t, artifact(t, res, "a").Sealed)
	assert.True(t, artifact(t, res, "b").Sealed)
	assert.Nil(t, res.Answer, "no answer before the final status")
}

// The spec's "Full event sequence for a completed answer": "For an
// orchestrator that streams "The ", "contract ", "answer." and then
// completes" (copied in specCompleted).
func TestSpec_FullCompletedSequence(t *testing.T) {
	r := runStream(specCompleted, whole, nil)
	require.NoError(t, r.err)
	res := r.res
	assert.Equal(t, "task.0192f4c8-...", string(res.TaskID))
	assert.Equal(t, "ctx.0192f4c8-...", string(res.ContextID))
	assert.Equal(t, parser.TaskStateCompleted, res.State)
	assert.Equal(t, "The contract answer.", answerText(res))
	require.Len(t, res.Artifacts, 1)
	assert.Same(t, res.Artifacts[0], res.Answer)
	assert.Equal(t, "6", string(res.LastEventID))
	assert.Nil(t, res.StatusMessage)
	assert.Empty(t, res.Diagnostics)
	assert.Equal(t, "The contract answer.", r.live["art.0192f4c8-..."], "the close equals what was shown: nothing more")
	assert.NotContains(t, r.kinds, reconstruct.UpdateReplaced)
	assert.Equal(t, []reconstruct.UpdateKind{
		reconstruct.UpdateState,
		reconstruct.UpdateText, reconstruct.UpdateText, reconstruct.UpdateText,
		reconstruct.UpdateSealed,
		reconstruct.UpdateState,
		reconstruct.UpdateDone,
	}, r.kinds)
}

// "Completion close (replace). … a single artifactUpdate with append: false,
// lastChunk: true carries the canonical answer text as one text part, with
// any cited data parts as sibling data parts in the same artifact. The
// per-delta parts collapse into this single part."
func TestRule_CompletionCloseCollapsesDeltas(t *testing.T) {
	res := read(t, thinkingToolAnswer)
	a := res.Answer
	require.NotNil(t, a)
	assert.Equal(t, "art-B", string(a.ArtifactID))
	require.Len(t, a.Parts, 2)
	assert.Equal(t, parser.PartText, a.Parts[0].Kind)
	assert.Equal(t, "Dose: 5 mg daily.", string(a.Parts[0].Text))
	assert.Equal(t, parser.PartData, a.Parts[1].Kind)
	assert.JSONEq(t, `{"dose":"5 mg"}`, string(a.Parts[1].Data))
}

// "If the streamed text already equals the completion text, this is the
// only close event and the artifact keeps the same artifactId."
func TestRule_CompletionCloseEqualToStreamedText(t *testing.T) {
	r := runStream(sameText, whole, nil)
	require.NoError(t, r.err)
	require.Len(t, r.res.Artifacts, 1)
	assert.Equal(t, "Héllo, wörld", answerText(r.res), "no duplicate text")
	assert.Len(t, r.res.Answer.Parts, 1)
	assert.Equal(t, "Héllo, wörld", r.live["art-1"], "live text is not repeated by the close")
	assert.NotContains(t, r.kinds, reconstruct.UpdateReplaced)
}

// "Intermediate-thinking close. … an artifactUpdate with append: true,
// lastChunk: true, an empty text part, and artifact.metadata: { "type":
// "intermediate-thinking" } closes the streamed narration."
func TestRule_IntermediateThinkingClose(t *testing.T) {
	res := read(t, inputRequired)
	a := artifact(t, res, "art-N")
	assert.True(t, a.Thinking)
	assert.True(t, a.Sealed)
	require.Len(t, a.Parts, 1, "the close's empty text part is not a part of the text")
	assert.Equal(t, "I need to know more", string(a.Text()))
	assert.JSONEq(t, `{"type":"intermediate-thinking"}`, string(a.Metadata.Raw))
}

// The spec's intermediate-thinking example: "Streamed text then a tool call
// produces two artifacts" (art-A thinking, art-B the answer).
func TestSpec_IntermediateThinkingThenAnswer(t *testing.T) {
	in := "data: " + `{"artifactUpdate":{"taskId":"t","artifact":{"artifactId":"art-A","parts":[{"text":"Let me think..."}]}}}` + "\n\n" +
		"data: " + `{"artifactUpdate":{"taskId":"t","append":true,"lastChunk":true,"artifact":{"artifactId":"art-A","parts":[{"text":""}],"metadata":{"type":"intermediate-thinking"}}}}` + "\n\n" +
		"data: " + `{"artifactUpdate":{"taskId":"t","lastChunk":true,"artifact":{"artifactId":"art-B","parts":[{"text":"the answer"}]}}}` + "\n\n" +
		"data: " + `{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_COMPLETED"}}}` + "\n\n"
	res := read(t, in)
	assert.Equal(t, []string{"art-A", "art-B"}, ids(res.Artifacts))
	assert.Equal(t, []string{"art-A"}, ids(res.Thinking()))
	assert.Equal(t, "the answer", answerText(res))
	assert.Equal(t, "Let me think...", string(res.Artifacts[0].Text()))
}

// "The stream also closes on the interrupted states
// TASK_STATE_INPUT_REQUIRED and TASK_STATE_AUTH_REQUIRED, which are not
// terminal (the task can be resumed) but still end the current SSE stream."
// and the four terminal states.
func TestRule_StreamEndsOnTerminalOrInterruptedState(t *testing.T) {
	for _, st := range []string{"TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"} {
		t.Run(st, func(t *testing.T) {
			in := sseStream("x", task("TASK_STATE_WORKING"), completion("a", text("done")), status(st, "", ""))
			res := read(t, in)
			assert.Equal(t, state(t, st), res.State)
			assert.Nil(t, res.Err)
		})
	}
	t.Run("TASK_STATE_REJECTED", func(t *testing.T) {
		res := read(t, sseStream("x", task("TASK_STATE_SUBMITTED"), status("TASK_STATE_REJECTED", message("m", "no"), "")))
		assert.Equal(t, parser.TaskStateRejected, res.State)
		assert.Equal(t, "no", string(reconstruct.MessageText(res.StatusMessage)))
	})
}

// "Citations on streamed answers: … Join all text parts of the completion
// artifact in order before applying citation offsets."
func TestRule_CitationOffsetsCountInJoinedTextParts(t *testing.T) {
	in := sseStream("x", task("TASK_STATE_WORKING"),
		completion("a",
			text("Dose: "),
			`{"text":"5 mg.","metadata":{"citations":[{"data_part_id":"g","offset":6}]}}`,
			`{"data":{"dose":"5 mg"},"metadata":{"dataPartId":"g"}}`),
		status("TASK_STATE_COMPLETED", "", ""))
	res := read(t, in)
	require.NotNil(t, res.Answer)
	assert.Equal(t, "Dose: 5 mg.", string(res.Answer.Text()))
	require.Len(t, res.Answer.Citations, 1, "%v", res.Answer.CitationDiagnostics)
	assert.Equal(t, 6, res.Answer.Citations[0].ByteOffset)
	assert.Equal(t, 2, res.Answer.Citations[0].DataPart, "the data part is the artifact's third part")
}

// "Terminal states with prior narration: … If the LLM transport errors
// mid-narration, the streamed partial is closed as an intermediate-thinking
// artifact before the terminal FAILED status is emitted."
func TestRule_TransportErrorMidNarration(t *testing.T) {
	res := read(t, failed)
	assert.Equal(t, parser.TaskStateFailed, res.State)
	assert.Nil(t, res.Answer)
	assert.Equal(t, "The model transport failed.", string(reconstruct.MessageText(res.StatusMessage)))
	assert.Equal(t, []string{"art-N"}, ids(res.Thinking()))
	assert.Equal(t, "Looking it up", string(res.Thinking()[0].Text()))
	assert.Empty(t, res.Diagnostics, "FAILED without an answer is no rule broken")
}

// "Skip empty text parts on append (the intermediate-thinking close carries
// {"text": ""})."
func TestRule_SkipEmptyTextPartsOnAppend(t *testing.T) {
	res := read(t, sseStream("x", task("TASK_STATE_WORKING"),
		first("a", "x"), more("a", ""), more("a", "y"), thinkingClose("a"),
		completion("b", text("ok")), status("TASK_STATE_COMPLETED", "", "")))
	a := artifact(t, res, "a")
	require.Len(t, a.Parts, 1)
	assert.Equal(t, "xy", string(a.Parts[0].Text))
}

// Do: "Concatenate the text of every artifactUpdate part for a given
// artifactId, in arrival order. That concatenation is the streamed text."
func TestDo_ConcatenateDeltasInArrivalOrder(t *testing.T) {
	in := sseStream("x", task("TASK_STATE_WORKING"),
		first("a", "1"), first("b", "A"), more("a", "2"), more("b", "B"), more("a", "3"), more("b", "C"))
	r := runStream(in, whole, nil)
	assert.ErrorIs(t, r.err, reconstruct.ErrTruncated)
	assert.Equal(t, "123", string(artifact(t, r.res, "a").Text()))
	assert.Equal(t, "ABC", string(artifact(t, r.res, "b").Text()))
	assert.Equal(t, map[string]string{"a": "123", "b": "ABC"}, r.live)
}

// Do: "Treat append as the merge signal. append: true appends to the
// existing artifact buffer; append: false replaces it (this is how the
// completion event collapses deltas into one part)."
func TestDo_TreatAppendAsMergeSignal(t *testing.T) {
	tests := []struct {
		name   string
		events []string
		want   string
	}{
		{"append", []string{first("a", "ab"), more("a", "cd")}, "abcd"},
		{"replace", []string{first("a", "ab"), first("a", "cd")}, "cd"},
		{"replace then append", []string{first("a", "ab"), first("a", "cd"), more("a", "ef")}, "cdef"},
		{"collapse", []string{first("a", "ab"), more("a", "cd"), completion("a", text("abcd"))}, "abcd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, _ := reconstruct.Read(strings.NewReader(sseStream("x", append([]string{task("TASK_STATE_WORKING")}, tt.events...)...)), nil)
			a := artifact(t, res, "a")
			assert.Equal(t, tt.want, string(a.Text()))
			assert.Len(t, a.Parts, 1)
		})
	}
}

// Do: "Use lastChunk: true to know an artifact is finished, not that the
// run is finished."
func TestDo_UseLastChunkForArtifactNotRun(t *testing.T) {
	r := runStream(thinkingToolAnswer, whole, nil)
	require.NoError(t, r.err)
	var sealed []string
	s := reconstruct.NewStream(nil)
	s.Write([]byte(thinkingToolAnswer))
	done := false
	for s.Next() {
		u := s.Update()
		if u.Kind == reconstruct.UpdateSealed {
			sealed = append(sealed, string(u.Artifact.ArtifactID))
			assert.False(t, s.Done(), "a sealed artifact does not end the run")
		}
		done = done || u.Kind == reconstruct.UpdateDone
	}
	assert.Equal(t, []string{"art-A", "art-B"}, sealed)
	assert.True(t, s.Done(), "the COMPLETED status ends the run")
	assert.False(t, done, "UpdateDone waits for Close")
	require.NoError(t, s.Close())
}

// Do: "Keep consuming until the closing statusUpdate with a terminal state
// (…) or an interrupted state (…). That event ends the SSE stream."
func TestDo_KeepConsumingUntilTerminalOrInterruptedStatus(t *testing.T) {
	// Everything up to the last sealed artifact, without the final status.
	in := sseStream("x", task("TASK_STATE_WORKING"), first("a", "x"), completion("a", text("x")))
	res, err := reconstruct.Read(strings.NewReader(in), nil)
	var te *reconstruct.TruncatedError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, parser.TaskStateWorking, te.State)
	assert.Nil(t, res.Answer, "a sealed artifact is not the answer before the final status")
	assert.True(t, artifact(t, res, "a").Sealed)
}

// Do: "Read the final answer from the completion artifact, not from the
// terminal statusUpdate. On v1.0, a COMPLETED statusUpdate carries no
// answer message."
func TestDo_ReadAnswerFromCompletionArtifact(t *testing.T) {
	in := sseStream("x", task("TASK_STATE_WORKING"),
		completion("a", text("from the artifact")),
		status("TASK_STATE_COMPLETED", message("m", "from the status"), ""))
	res := read(t, in)
	assert.Equal(t, "from the artifact", answerText(res))
	assert.Equal(t, "from the status", string(reconstruct.MessageText(res.StatusMessage)), "kept as the status message only")
}

// Do: "Honour artifact.metadata.type: "intermediate-thinking". An artifact
// tagged intermediate-thinking is pre-tool narration, not the final answer."
func TestDo_HonourIntermediateThinking(t *testing.T) {
	res := read(t, thinkingToolAnswer)
	assert.Equal(t, "art-B", string(res.Answer.ArtifactID))
	th := res.Thinking()
	require.Len(t, th, 1)
	assert.Equal(t, "Let me check the guidelines.", string(th[0].Text()))
	assert.False(t, res.Answer.Thinking)

	// Only thinking sealed before COMPLETED: no answer, and a diagnostic.
	res2, err := reconstruct.Read(strings.NewReader(sseStream("y", task("TASK_STATE_WORKING"),
		first("a", "hmm"), thinkingClose("a"), status("TASK_STATE_COMPLETED", "", ""))), nil)
	require.NoError(t, err)
	assert.Nil(t, res2.Answer)
	require.Len(t, res2.Diagnostics, 1)
	assert.ErrorIs(t, &res2.Diagnostics[0], reconstruct.ErrNoAnswer)
}

// Do: "Handle input_required / failed with prior narration. A streamed
// partial may arrive and be closed as intermediate-thinking immediately
// before an input_required or failed terminal status."
func TestDo_HandleInputRequiredAndFailedWithPriorNarration(t *testing.T) {
	tests := []struct {
		name, in  string
		state     parser.TaskState
		message   string
		narration string
	}{
		{"input_required", inputRequired, parser.TaskStateInputRequired, "Which patient?", "I need to know more"},
		{"failed", failed, parser.TaskStateFailed, "The model transport failed.", "Looking it up"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := read(t, tt.in)
			assert.Equal(t, tt.state, res.State)
			assert.Nil(t, res.Answer, "the thinking partial is not the answer")
			require.NotNil(t, res.StatusMessage)
			assert.Equal(t, tt.message, string(reconstruct.MessageText(res.StatusMessage)))
			require.Len(t, res.Thinking(), 1, "the thinking artifact is kept")
			assert.Equal(t, tt.narration, string(res.Thinking()[0].Text()))
			assert.Empty(t, res.Diagnostics)
		})
	}
}

// Don't: "Don't render each delta as the final answer. Deltas are
// fragments; the canonical answer is the consolidated/replaced artifact.
// Rendering deltas verbatim is fine for a live "typing" UI, but the stored
// answer must be the consolidated text."
func TestDont_RenderEachDeltaAsFinalAnswer(t *testing.T) {
	// The completion text differs from the deltas (the model fixed a typo).
	in := sseStream("x", task("TASK_STATE_WORKING"),
		first("a", "Teh "), more("a", "answer"),
		completion("a", text("The answer.")),
		status("TASK_STATE_COMPLETED", "", ""))
	r := runStream(in, whole, nil)
	require.NoError(t, r.err)
	assert.Equal(t, "The answer.", answerText(r.res))
	assert.Equal(t, []string{"Teh ", "answer", "The answer."}, r.texts)
	assert.Contains(t, r.kinds, reconstruct.UpdateReplaced, "the UI is told to show the consolidated text instead")
	assert.Equal(t, "The answer.", r.live["a"])
}

// Don't: "Don't assume one artifact per run. Intermediate-thinking plus
// completion can yield two or more artifacts with different artifactIds."
func TestDont_AssumeOneArtifactPerRun(t *testing.T) {
	res := read(t, several)
	assert.Equal(t, []string{"art-data", "art-file", "art-ans"}, ids(res.Artifacts))
	assert.Equal(t, "art-ans", string(res.Answer.ArtifactID))
	file := artifact(t, res, "art-file")
	require.Len(t, file.Parts, 2)
	assert.Equal(t, "https://example.com/a.pdf", string(file.Parts[0].URL))
	assert.Equal(t, "a.pdf", string(file.Parts[0].Filename))
	assert.Equal(t, "hello", string(file.Parts[1].Raw))
	assert.JSONEq(t, `{"rows":[1,2,3]}`, string(artifact(t, res, "art-data").Parts[0].Data))
}

// Don't: "Don't assume lastChunk: true ends the stream. It closes one
// artifact; the closing statusUpdate closes the run."
func TestDont_AssumeLastChunkEndsStream(t *testing.T) {
	// After the thinking close, a status, another artifact and the final
	// status still belong to the run.
	res := read(t, thinkingToolAnswer)
	assert.Equal(t, parser.TaskStateCompleted, res.State)
	assert.Equal(t, "Dose: 5 mg daily.", answerText(res))
	require.NotNil(t, res.Usage)
	assert.Equal(t, int64(120), res.Usage.TotalTokens)
	assert.Equal(t, "corti-default", string(res.Usage.Model))
	assert.Equal(t, "tta-12", string(res.LastEventID))
}

// Don't: "Don't read the answer from the COMPLETED terminal
// statusUpdate.status.message. On v1.0 it is absent for completed runs."
func TestDont_ReadAnswerFromCompletedStatusMessage(t *testing.T) {
	in := sseStream("x", task("TASK_STATE_WORKING"), status("TASK_STATE_COMPLETED", message("m", "not the answer"), ""))
	res := read(t, in)
	assert.Nil(t, res.Answer, "the COMPLETED message is never taken as the answer")
	require.Len(t, res.Diagnostics, 1)
	assert.ErrorIs(t, &res.Diagnostics[0], reconstruct.ErrNoAnswer)
}

// Don't: "Don't ignore append. Treating the completion replace event as
// another append duplicates the answer."
func TestDont_TreatReplaceAsAppend(t *testing.T) {
	res := read(t, specCompleted)
	assert.Equal(t, "The contract answer.", answerText(res))
	assert.NotContains(t, answerText(res), "answer.The", "no duplicated text")
}

// Don't: "Don't split or re-decode deltas on assumed rune boundaries.
// Concatenate the raw strings first." ("a delta may end mid-rune")
func TestDont_SplitDeltasOnAssumedRuneBoundaries(t *testing.T) {
	for _, split := range []struct {
		name string
		s    splitter
	}{{"whole", whole}, {"1-byte", oneByte}, {"random", randomSplits(7)}} {
		t.Run(split.name, func(t *testing.T) {
			r := runStream(splitChars, split.s, nil)
			require.NoError(t, r.err)
			want := "Caf\u00e9 \U0001F600 smile \U0001F600 e\u0301 한글."
			assert.Equal(t, want, answerText(r.res))
			assert.Equal(t, want, r.live["art-1"])
			assert.Empty(t, invalidTexts(r.texts), "every live text is whole characters")
		})
	}
}

// "Reconstruct the text: … Deltas are an ordered byte stream. Do not assume
// a delta ends on a character boundary" — the stored text of the streamed
// artifact is the deltas' bytes joined (surrogate halves joined), checked
// before the close replaces it; combining marks stay as sent.
func TestRule_StoredTextIsByteExact(t *testing.T) {
	in := strings.SplitAfter(splitChars, "\n\n")
	upToDeltas := strings.Join(in[:8], "") // the task and the 7 deltas
	res, err := reconstruct.Read(strings.NewReader(upToDeltas), nil)
	require.ErrorIs(t, err, reconstruct.ErrTruncated)
	got := artifact(t, res, "art-1").Text()
	want := "Caf\xc3\xa9 \xf0\x9f\x98\x80 smile \U0001F600 e\u0301 \xed\x95\x9c\xea\xb8\x80."
	assert.Equal(t, []byte(want), got)
	assert.True(t, utf8.Valid(got))
	assert.Equal(t, []byte("e\xcc\x81"), got[bytesIndex(got, "e\xcc\x81"):][:3], "e + U+0301 is not composed into é")

	// Invalid bytes are kept as they came, not replaced.
	bad := sseStream("b", task("TASK_STATE_WORKING"), first("a", "x\xff"), more("a", "\xc3("))
	res, _ = reconstruct.Read(strings.NewReader(bad), nil)
	assert.Equal(t, []byte("x\xff\xc3("), artifact(t, res, "a").Text())
}

func bytesIndex(b []byte, s string) int { return strings.Index(string(b), s) }

// The answer of a run that continues after a tool call is the last sealed
// non-thinking artifact; thinking sealed after it does not replace it.
func TestRule_AnswerIsLastSealedNonThinkingArtifact(t *testing.T) {
	in := sseStream("x", task("TASK_STATE_WORKING"),
		completion("a", text("early")),
		completion("b", text("late")),
		first("c", "musing"), thinkingClose("c"),
		status("TASK_STATE_COMPLETED", "", ""))
	res := read(t, in)
	assert.Equal(t, "late", answerText(res))
	assert.Equal(t, []string{"a", "b", "c"}, ids(res.Artifacts))
}

// A direct message reply (no task) is the answer.
func TestRule_DirectMessageIsTheAnswer(t *testing.T) {
	r := runStream(directReply, whole, nil)
	require.NoError(t, r.err)
	assert.Equal(t, "Hi there.", answerText(r.res))
	require.NotNil(t, r.res.Message)
	assert.Equal(t, "msg-9", string(r.res.Message.MessageID))
	assert.Equal(t, ctxID, string(r.res.ContextID))
	assert.Equal(t, "", string(r.res.TaskID))
	assert.Equal(t, "m-1", string(r.res.LastEventID))
	assert.Equal(t, "Hi there.", r.live["msg-9"])
	assert.False(t, errors.Is(r.err, reconstruct.ErrTruncated))
}
