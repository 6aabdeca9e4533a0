package reconstruct_test

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/utf8buf"
)

// A task event sets the run from its snapshot, which may hold several
// parts per artifact: they are kept as sent, and a terminal snapshot seals
// its artifacts and gives the answer.
func TestTaskSnapshot(t *testing.T) {
	snap := `{"task":{"id":"` + taskID + `","contextId":"` + ctxID + `","status":{"state":"TASK_STATE_COMPLETED"},` +
		`"artifacts":[` +
		`{"artifactId":"think","parts":[{"text":"Let me "},{"text":"look."}],"metadata":{"type":"intermediate-thinking"}},` +
		`{"artifactId":"ans","name":"answer","parts":[{"text":"Dose "},{"text":"5 mg."},{"data":{"dose":5},"metadata":{"dataPartId":"g"}}]}],` +
		`"metadata":{"$usage":` + usage + `}}}`
	r := runStream(sseStream("s", snap), whole, nil)
	require.NoError(t, r.err)
	res := r.res
	assert.Equal(t, parser.TaskStateCompleted, res.State)
	assert.Equal(t, []string{"think", "ans"}, ids(res.Artifacts))
	require.NotNil(t, res.Answer)
	assert.Equal(t, "ans", string(res.Answer.ArtifactID))
	assert.Equal(t, "answer", string(res.Answer.Name))
	require.Len(t, res.Answer.Parts, 3, "a snapshot's parts are kept as sent")
	assert.Equal(t, "Dose 5 mg.", string(res.Answer.Text()))
	assert.True(t, res.Answer.Sealed)
	assert.Equal(t, []string{"think"}, ids(res.Thinking()))
	require.NotNil(t, res.Usage)
	assert.Equal(t, 1.2, res.Usage.Credits)
	assert.Empty(t, res.Diagnostics)
	assert.Equal(t, "Dose 5 mg.", r.live["ans"])

	// A working snapshot: its artifacts go on with the deltas that follow.
	in := sseStream("w", `{"task":{"id":"`+taskID+`","status":{"state":"TASK_STATE_WORKING"},"artifacts":[{"artifactId":"a","parts":[{"text":"one "},{"text":"two "}]}]}}`,
		more("a", "three"), completion("a", text("one two three")), status("TASK_STATE_COMPLETED", "", ""))
	r = runStream(in, whole, nil)
	require.NoError(t, r.err)
	assert.Equal(t, "one two three", answerText(r.res))
	assert.Equal(t, "one two three", r.live["a"])
	assert.NotContains(t, r.kinds, reconstruct.UpdateReplaced)
}

// The Reducer on its own: events without frames, Fail, Finish, Apply after
// Finish, and one UpdateDone.
func TestReducerDirect(t *testing.T) {
	var dec parser.Decoder
	event := func(data string) *parser.Event {
		f := sse.Frame{Data: []byte(data)}
		ev, err := dec.Decode(&f)
		require.NoError(t, err)
		return ev
	}
	r := reconstruct.NewReducer(nil)
	require.NoError(t, r.Apply(nil, event(task("TASK_STATE_WORKING"))))
	require.NoError(t, r.Apply(nil, event(first("a", "x"))))
	require.Len(t, r.Pending(), 1)
	assert.Equal(t, reconstruct.UpdateText, r.Pending()[0].Kind)
	assert.False(t, r.Done())

	boom := errors.New("read failed")
	r.Fail(boom)
	require.Len(t, r.Pending(), 1)
	assert.Equal(t, reconstruct.UpdateDone, r.Pending()[0].Kind)
	assert.Equal(t, boom, r.Err())
	assert.True(t, r.Done())
	assert.Equal(t, boom, r.Apply(nil, event(more("a", "y"))), "errors are sticky")
	assert.Empty(t, r.Pending())
	assert.Equal(t, boom, r.Finish(10, nil))
	assert.Empty(t, r.Pending(), "the run had its UpdateDone already")
	assert.Equal(t, "x", string(r.Result().Artifacts[0].Text()))

	r.Reset(nil)
	require.NoError(t, r.Apply(nil, event(task("TASK_STATE_WORKING"))))
	err := r.Finish(42, nil)
	var te *reconstruct.TruncatedError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, int64(42), te.Offset)
	assert.Nil(t, te.Cut)
	require.Len(t, r.Pending(), 1)
	assert.Equal(t, reconstruct.UpdateDone, r.Pending()[0].Kind)
	assert.Equal(t, err, r.Apply(nil, event(more("a", "y"))), "errors are sticky")
	assert.Equal(t, err, r.Finish(42, nil), "Finish again returns the same")
	assert.Empty(t, r.Pending())

	r.Reset(nil)
	require.NoError(t, r.Apply(nil, event(completion("a", text("ok")))))
	require.NoError(t, r.Apply(nil, event(status("TASK_STATE_COMPLETED", "", ""))))
	require.NoError(t, r.Finish(1, nil))
	assert.ErrorIs(t, r.Apply(nil, event(more("a", "y"))), reconstruct.ErrClosed)
	assert.Equal(t, "ok", answerText(r.Result()))
}

// The error messages say where, and what to resume with.
func TestErrorMessages(t *testing.T) {
	in := sseStream("m", task("TASK_STATE_WORKING"), first("a", "x")) + "data: {\"art"
	_, err := reconstruct.Read(strings.NewReader(in), nil)
	require.Error(t, err)
	assert.Equal(t, `reconstruct: stream ended in state TASK_STATE_WORKING after `+strconv.Itoa(len(in))+` bytes, inside an event (11 bytes dropped), at the end of the input; resubscribe to task "`+taskID+`" with Last-Event-ID "m-2"`, err.Error())

	_, err = reconstruct.Read(strings.NewReader(sseStream("m", task("TASK_STATE_WORKING"), `{"error":{"code":503,"status":"UNAVAILABLE","message":"busy"}}`)), nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `reconstruct: frame 2 (id "m-2") at byte `)
	assert.Contains(t, err.Error(), "busy")

	d := reconstruct.Diagnostic{Position: sse.Position{Offset: 7, Seq: 2, ID: []byte("e")}, ArtifactID: []byte("a"), From: parser.TaskStateCompleted, To: parser.TaskStateWorking, Err: reconstruct.ErrAfterFinal}
	assert.Equal(t, `reconstruct: frame 2 (id "e") at byte 7 artifact "a" TASK_STATE_COMPLETED -> TASK_STATE_WORKING: event after a terminal state`, d.Error())
	assert.Equal(t, "Text", reconstruct.UpdateText.String())
	assert.Equal(t, "Invalid(9)", reconstruct.UpdateKind(9).String())
}

// TestReplaceReusesText checks that a last chunk replacing a streamed text
// with one text takes the streamed text's buffer when it leaves no more
// than a fifth of its length as room (what the seal's trim keeps), and only
// then; that what was shown is compared before the buffer is overwritten (a
// typo fixed gives an UpdateReplaced); and that the Result is the last
// chunk's text either way.
func TestReplaceReusesText(t *testing.T) {
	streamed := strings.Repeat("words ", 72) // 432 bytes, in a 512-byte buffer
	tests := []struct {
		name, last string
		reused     bool
		replaced   bool
	}{
		{"same text", streamed, true, false},
		{"same text and more", streamed + "end.", true, false},
		{"typo fixed", "Words" + streamed[5:], true, true},
		{"room over a fifth", streamed[:420], false, true},
		{"longer than the buffer", strings.Repeat(streamed, 2), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events := []string{task("TASK_STATE_WORKING"), first("a", streamed[:6])}
			for i := 6; i < len(streamed); i += 6 {
				events = append(events, more("a", streamed[i:i+6]))
			}
			events = append(events, completion("a", text(tt.last)), status("TASK_STATE_COMPLETED", "", ""))
			s := reconstruct.NewStream(nil)
			_, err := s.Write([]byte(sseStream("x", events...)))
			require.NoError(t, err)
			// end returns the last byte of the room of b's buffer: the
			// streamed text's views run to it, and so does the text that
			// reuses the buffer.
			end := func(b []byte) *byte { return &b[:cap(b)][cap(b)-1] }
			var streamedEnd, sealedEnd *byte
			replaced := false
			last := int64(len(events) - 1) // the last chunk's Seq
			for s.Next() {
				switch u := s.Update(); u.Kind {
				case reconstruct.UpdateText:
					if u.Seq < last {
						streamedEnd = end(u.Text)
					}
				case reconstruct.UpdateReplaced:
					replaced = true
					assert.Equal(t, tt.last, string(u.Text))
				case reconstruct.UpdateSealed:
					// The seal gives back room over a fifth
					// (TestResultKeepsOnlyItsOwn).
					sealedEnd = end(u.Artifact.Parts[0].Text)
				}
			}
			require.NoError(t, s.Close())
			res := s.Result()
			require.NoError(t, res.Err)
			require.Len(t, res.Artifacts, 1)
			assert.Equal(t, tt.last, string(res.Artifacts[0].Text()))
			assert.Equal(t, tt.replaced, replaced, "UpdateReplaced")
			assert.Equal(t, tt.reused, sealedEnd == streamedEnd, "the streamed text's buffer reused")
		})
	}
}

// TestTextGrowth checks that a text extended by deltas gets twice its room
// each time it is full, however long it is (growing by a quarter past
// 4 MiB, a 25 MiB answer allocated 6.5 times its size), and never more
// room than the limits leave it. The allocator rounds a size up to its
// next size class, by less than a sixth.
func TestTextGrowth(t *testing.T) {
	for _, tc := range []struct {
		name    string
		limited bool // room: the bytes left to 5 MB; else unlimited
		end     int  // the length grown to
	}{
		{"unlimited", false, 24 << 20},
		{"limited", true, 5_000_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			room := func(n int) int { // past n bytes
				if tc.limited {
					return tc.end - n
				}
				return math.MaxInt - n
			}
			text := reconstruct.GrowText(nil, 8, room(8))
			require.Equal(t, 512, cap(text), "first room")
			for len(text)+8 <= tc.end {
				text = append(text, "8 bytes "...)
				if len(text)+8 <= cap(text) {
					continue
				}
				need, old := len(text)+8, cap(text)
				text = reconstruct.GrowText(text, 8, room(need))
				want := max(min(2*old, need+room(need)), need)
				require.GreaterOrEqual(t, cap(text), want, "room for a full text of %d bytes", need-8)
				require.LessOrEqual(t, cap(text), want+want/6, "room for a full text of %d bytes", need-8)
				if tc.limited {
					require.LessOrEqual(t, cap(text), tc.end+8<<10, "room past the limit for a text of %d bytes", need-8)
				}
			}
		})
	}
}

// A text that Read keeps in pieces is the text appending its deltas to one
// buffer gives (utf8buf.Append), and so is each length of its whole
// characters (utf8buf.CompletePrefix), whatever falls on the end of a
// piece: a surrogate pair split between deltas, a high surrogate alone,
// one followed by the first byte of its low surrogate, characters of 2 to
// 4 bytes, with the piece full 0 to 9 bytes before them; then a delta
// longer than a piece, and one more. The WebAssembly build, which keeps
// the text in one buffer, gives the same text and lengths in one piece.
func TestTextInPieces(t *testing.T) {
	const high, low = "\xed\xa0\xbd", "\xed\xb8\x80"
	for _, tc := range []struct {
		name   string
		deltas []string
	}{
		{"pair split between deltas", []string{high, low + "y"}},
		{"pair split inside its low surrogate", []string{high + "\xed", "\xb8\x80y"}},
		{"lone high surrogate", []string{high, "q"}},
		{"whole characters", []string{"é日🦶", "z"}},
		{"character split between deltas", []string{"\xf0\x9f", "\xa6\xb6z"}},
	} {
		for k := range 10 {
			t.Run(tc.name+"/"+strconv.Itoa(k), func(t *testing.T) {
				// The first delta starts with 10 bytes of ASCII: the first
				// piece, of PieceMax bytes (a text that long goes into
				// pieces), is full k bytes before its end.
				deltas := [][]byte{[]byte(strings.Repeat("x", 10) + tc.deltas[0])}
				for _, d := range append(tc.deltas[1:], strings.Repeat("日本é🦶", 7000), "end"+high) {
					deltas = append(deltas, []byte(d))
				}
				text := make([]byte, reconstruct.PieceMax-len(deltas[0])+k, reconstruct.PieceMax)
				for i := range text {
					text[i] = 'a'
				}
				want := bytes.Clone(text)
				var wantEnds []int
				for _, d := range deltas {
					want = utf8buf.Append(want, d)
					wantEnds = append(wantEnds, utf8buf.CompletePrefix(want))
				}
				got, pieces, ends := reconstruct.ExtendInPieces(text, deltas)
				require.Equal(t, want, got, "text joined from its pieces")
				assert.Equal(t, wantEnds, ends, "length of the whole characters after each delta")
				assert.GreaterOrEqual(t, pieces, 3, "pieces: the first full, the long delta's")
			})
		}
	}
}

// Artifacts are found by id however many a run has: up to eight through
// the Result's list, past that through a map built then. Each artifact of
// a run of 1, 8, 9 and 40 is opened, extended out of order and sealed,
// and keeps its own text.
func TestManyArtifacts(t *testing.T) {
	for _, n := range []int{1, 8, 9, 40} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			id := func(i int) string { return "art-" + strconv.Itoa(i) }
			events := []string{task("TASK_STATE_WORKING")}
			for i := range n {
				events = append(events, first(id(i), "a"+strconv.Itoa(i)))
			}
			for i := n - 1; i >= 0; i-- {
				events = append(events, more(id(i), " b"+strconv.Itoa(i)))
			}
			for i := range n {
				events = append(events, more(id(i), " c"), artifactUpdate(id(i), true, true, "", text(".")))
			}
			events = append(events, status("TASK_STATE_COMPLETED", "", ""))
			r := runStream(sseStream("m", events...), whole, nil)
			require.NoError(t, r.err)
			require.Len(t, r.res.Artifacts, n)
			for i, a := range r.res.Artifacts {
				assert.Equal(t, id(i), string(a.ArtifactID))
				assert.Equal(t, "a"+strconv.Itoa(i)+" b"+strconv.Itoa(i)+" c.", string(a.Text()), "artifact %d", i)
				assert.True(t, a.Sealed, "artifact %d", i)
			}
			assert.Empty(t, r.res.Diagnostics)
		})
	}
}

// An Update's Artifact gives its whole text while a text longer than a
// piece streams: Text and AppendText, called after any update, give every
// delta so far, and the deltas that come after the call extend what they
// gave. Before, Text gave the last piece only once the text passed 64 KiB.
func TestArtifactTextWhileStreaming(t *testing.T) {
	for _, every := range []int{1, 7, 1 << 30} { // read the text after every update, every 7th, never
		t.Run(strconv.Itoa(every), func(t *testing.T) {
			events := []string{task("TASK_STATE_WORKING"), first("art", "start ")}
			want := "start "
			for i := range 500 {
				d := strings.Repeat("délta 日本 "+strconv.Itoa(i)+" ", 30)
				events = append(events, more("art", d))
				want += d
			}
			events = append(events, status("TASK_STATE_COMPLETED", "", ""))
			data := sseStream("m", events...)
			s := reconstruct.NewStream(nil)
			shown, updates := "", 0
			for len(data) > 0 {
				n := min(4096, len(data))
				_, err := s.Write([]byte(data[:n]))
				require.NoError(t, err)
				data = data[n:]
				for s.Next() {
					u := s.Update()
					if u.Kind != reconstruct.UpdateText {
						continue
					}
					shown += string(u.Text)
					if updates++; updates%every == 0 {
						got := u.Artifact.Text()
						require.True(t, shown == string(got), "Text after update %d: %d bytes, want %d", updates, len(got), len(shown))
						got = u.Artifact.AppendText([]byte("x"))
						require.True(t, "x"+shown == string(got), "AppendText after update %d: %d bytes, want %d", updates, len(got), 1+len(shown))
					}
				}
			}
			require.NoError(t, s.Close())
			for s.Next() {
			}
			require.Greater(t, len(want), 4*reconstruct.PieceMax, "a text of several pieces")
			assert.True(t, want == shown, "the updates' text")
			res := s.Result()
			require.Len(t, res.Artifacts, 1)
			assert.True(t, want == string(res.Artifacts[0].Text()), "the Result's text")
		})
	}
}
