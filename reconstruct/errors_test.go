package reconstruct_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/utf8buf"
)

// Each rule broken is a Diagnostic that does not stop the run, and under
// Strict the error that ends it, with what came before kept.
func TestDiagnostics(t *testing.T) {
	otherStatus := strings.Replace(status("TASK_STATE_WORKING", "", ""), taskID, "task.other", 1)
	tests := []struct {
		name   string
		events []string
		err    error
		// check looks at the lenient result.
		check func(t *testing.T, res *reconstruct.Result, d reconstruct.Diagnostic)
	}{
		{"unknown artifact", []string{more("a", "x"), completion("b", text("ok")), status("TASK_STATE_COMPLETED", "", "")},
			reconstruct.ErrUnknownArtifact, func(t *testing.T, res *reconstruct.Result, d reconstruct.Diagnostic) {
				assert.Equal(t, "a", string(d.ArtifactID))
				assert.Equal(t, "x", string(artifact(t, res, "a").Text()), "the append created the artifact")
			}},
		{"status after terminal", []string{completion("a", text("ok")), status("TASK_STATE_COMPLETED", "", ""), status("TASK_STATE_WORKING", "", "")},
			reconstruct.ErrAfterFinal, func(t *testing.T, res *reconstruct.Result, d reconstruct.Diagnostic) {
				assert.Equal(t, parser.TaskStateCompleted, res.State, "terminal states are immutable")
				assert.Equal(t, parser.TaskStateCompleted, d.From)
				assert.Equal(t, parser.TaskStateWorking, d.To)
				assert.Equal(t, "ok", answerText(res))
			}},
		{"artifact after terminal", []string{completion("a", text("ok")), status("TASK_STATE_COMPLETED", "", ""), first("b", "late")},
			reconstruct.ErrAfterFinal, func(t *testing.T, res *reconstruct.Result, d reconstruct.Diagnostic) {
				assert.Equal(t, "b", string(d.ArtifactID))
				assert.Equal(t, "late", string(artifact(t, res, "b").Text()), "artifact updates are kept")
				assert.Equal(t, "ok", answerText(res))
			}},
		{"forbidden transition", []string{status("TASK_STATE_SUBMITTED", "", ""), status("TASK_STATE_WORKING", "", ""), completion("a", text("ok")), status("TASK_STATE_COMPLETED", "", "")},
			reconstruct.ErrTransition, func(t *testing.T, res *reconstruct.Result, d reconstruct.Diagnostic) {
				assert.Equal(t, parser.TaskStateWorking, d.From)
				assert.Equal(t, parser.TaskStateSubmitted, d.To)
				assert.Equal(t, parser.TaskStateCompleted, res.State, "taken all the same: the old state was not terminal")
			}},
		{"other task", []string{otherStatus, completion("a", text("ok")), status("TASK_STATE_COMPLETED", "", "")},
			reconstruct.ErrOtherTask, func(t *testing.T, res *reconstruct.Result, d reconstruct.Diagnostic) {
				assert.Equal(t, "task.other", string(d.TaskID))
				assert.Equal(t, taskID, string(res.TaskID))
			}},
		{"sealed artifact", []string{completion("a", text("ok")), more("a", "!"), completion("b", text("b")), status("TASK_STATE_COMPLETED", "", "")},
			reconstruct.ErrSealedArtifact, func(t *testing.T, res *reconstruct.Result, d reconstruct.Diagnostic) {
				a := artifact(t, res, "a")
				assert.Equal(t, "ok!", string(a.Text()))
				assert.False(t, a.Sealed, "the update reopened it")
				assert.Equal(t, "b", answerText(res))
			}},
		{"unknown event", []string{`{"futureEvent":{"x":1}}`, completion("a", text("ok")), status("TASK_STATE_COMPLETED", "", "")},
			reconstruct.ErrUnknownEvent, func(t *testing.T, res *reconstruct.Result, d reconstruct.Diagnostic) {
				assert.Equal(t, "ok", answerText(res))
				assert.Equal(t, int64(2), d.Seq)
				assert.Equal(t, "d-2", string(d.ID))
			}},
		{"no answer", []string{first("a", "hmm"), thinkingClose("a"), status("TASK_STATE_COMPLETED", "", "")},
			reconstruct.ErrNoAnswer, func(t *testing.T, res *reconstruct.Result, d reconstruct.Diagnostic) {
				assert.Nil(t, res.Answer)
				assert.Equal(t, parser.TaskStateCompleted, res.State)
			}},
	}
	for _, tt := range tests {
		in := sseStream("d", append([]string{task("TASK_STATE_WORKING")}, tt.events...)...)
		t.Run(tt.name, func(t *testing.T) {
			res, err := reconstruct.Read(strings.NewReader(in), nil)
			require.NoError(t, err, "a diagnostic does not end the run")
			require.Len(t, res.Diagnostics, 1)
			d := res.Diagnostics[0]
			assert.ErrorIs(t, &d, tt.err)
			assert.Greater(t, d.Offset, int64(0))
			assert.Contains(t, d.Error(), strings.TrimPrefix(tt.err.Error(), "reconstruct: "))
			assert.Equal(t, 1, strings.Count(d.Error(), "reconstruct: "), "the package named once: %s", d.Error())
			tt.check(t, res, d)
		})
		t.Run(tt.name+"/strict", func(t *testing.T) {
			r := runStream(in, whole, &reconstruct.Options{Strict: true})
			require.ErrorIs(t, r.err, tt.err)
			var d *reconstruct.Diagnostic
			require.ErrorAs(t, r.err, &d)
			assert.Equal(t, r.err, r.res.Err)
			assert.Equal(t, 1, r.dones, "one UpdateDone")
			assert.Equal(t, reconstruct.UpdateDone, r.kinds[len(r.kinds)-1])
			assert.Equal(t, taskID, string(r.res.TaskID), "what came before is kept")
			assert.NotEmpty(t, r.res.State)
		})
	}
}

// An error document inside the stream, in either binding, ends the run
// with an *EventError that matches ErrServer and holds the *parser.APIError;
// everything received before is kept.
func TestInStreamError(t *testing.T) {
	before := []string{task("TASK_STATE_WORKING"), first("a", "partial "), more("a", "text")}
	rest := sseStream("e", append(before, `{"error":{"code":503,"status":"UNAVAILABLE","message":"model overloaded"}}`, status("TASK_STATE_COMPLETED", "", ""))...)
	for _, tt := range []struct{ name, in string }{{"REST", rest}, {"JSON-RPC", rpc(rest)}} {
		t.Run(tt.name, func(t *testing.T) {
			r := runStream(tt.in, whole, nil)
			var ee *reconstruct.EventError
			require.ErrorAs(t, r.err, &ee)
			assert.ErrorIs(t, r.err, reconstruct.ErrServer)
			var api *parser.APIError
			require.ErrorAs(t, r.err, &api)
			assert.Equal(t, "model overloaded", api.Message)
			assert.Equal(t, int64(4), ee.Seq)
			assert.Equal(t, "e-4", string(ee.ID))
			assert.Equal(t, "partial text", string(artifact(t, r.res, "a").Text()))
			assert.Equal(t, "partial text", r.live["a"])
			assert.Equal(t, parser.TaskStateWorking, r.res.State, "the status after the error is not applied")
			assert.Equal(t, "e-4", string(r.res.LastEventID))
			assert.Equal(t, 1, r.dones)
			assert.Equal(t, r.err, r.res.Err)
		})
	}
}

// Input that cannot be decoded, or an event over MaxEventSize, ends the run
// with the parser's *SyntaxError; what came before is kept.
func TestInputErrors(t *testing.T) {
	ok := sseStream("i", task("TASK_STATE_WORKING"), first("a", "kept"))
	tests := []struct {
		name string
		in   string
		opts *reconstruct.Options
		err  error
	}{
		{"invalid JSON", ok + "data: {not json\n\n" + sseStream("j", status("TASK_STATE_COMPLETED", "", "")), nil, parser.ErrInvalidJSON},
		{"legacy shape", ok + "data: {\"kind\":\"status-update\",\"final\":true}\n\n", nil, parser.ErrLegacyShape},
		{"oversized event", ok + sseStream("j", more("a", strings.Repeat("x", 300))) + sseStream("k", status("TASK_STATE_COMPLETED", "", "")),
			&reconstruct.Options{MaxEventSize: 256}, sse.ErrEventTooLarge},
		{"artifact too large", ok + sseStream("j", more("a", strings.Repeat("x", 100))), &reconstruct.Options{MaxArtifactSize: 64}, reconstruct.ErrArtifactTooLarge},
		{"too many artifacts", ok + sseStream("j", first("b", "1"), first("c", "2")), &reconstruct.Options{MaxArtifacts: 2}, reconstruct.ErrTooManyArtifacts},
		{"run too large", ok + sseStream("j", first("b", strings.Repeat("x", 30)), first("c", strings.Repeat("y", 30))), &reconstruct.Options{MaxRunSize: 60}, reconstruct.ErrRunTooLarge},
		{"run too large by a delta", ok + sseStream("j", first("b", strings.Repeat("x", 30)), more("b", strings.Repeat("y", 30))), &reconstruct.Options{MaxRunSize: 60}, reconstruct.ErrRunTooLarge},
		{"too many diagnostics", ok + strings.Repeat("data: {\"futureEvent\":{}}\n\n", 4), &reconstruct.Options{MaxDiagnostics: 3}, reconstruct.ErrTooManyDiagnostics},
		{"too many diagnostics by default", ok + strings.Repeat("data: {\"futureEvent\":{}}\n\n", reconstruct.DefaultMaxDiagnostics+1), nil, reconstruct.ErrTooManyDiagnostics},
	}
	for _, tt := range tests {
		for _, split := range []struct {
			name string
			s    splitter
		}{{"whole", whole}, {"1-byte", oneByte}} {
			t.Run(tt.name+"/"+split.name, func(t *testing.T) {
				r := runStream(tt.in, split.s, tt.opts)
				require.ErrorIs(t, r.err, tt.err)
				assert.NotErrorIs(t, r.err, reconstruct.ErrTruncated)
				assert.Equal(t, "kept", string(artifact(t, r.res, "a").Text()))
				assert.Equal(t, "kept", r.live["a"])
				assert.Equal(t, 1, r.dones)
				var de *parser.DecodeError
				var se *sse.SyntaxError
				var ee *reconstruct.EventError
				assert.True(t, errors.As(r.err, &de) || errors.As(r.err, &se) || errors.As(r.err, &ee), "the error says where: %v", r.err)
			})
		}
	}
}

// MaxRunSize counts what the artifacts hold now: an artifact replaced by
// a smaller one gives the difference back, so a run of 97 bytes received
// fits in 60.
func TestRunSizeCountsWhatIsHeld(t *testing.T) {
	x := strings.Repeat("x", 30)
	in := sseStream("r", task("TASK_STATE_WORKING"), first("a", x), more("a", x), first("a", "small"), first("b", x), more("b", "y"),
		artifactUpdate("b", true, true, "", text("z")), status("TASK_STATE_COMPLETED", "", ""))
	for _, limit := range []int{0, 60, 61} {
		r := runStream(in, whole, &reconstruct.Options{MaxRunSize: limit})
		require.NoError(t, r.err, "MaxRunSize %d", limit)
		assert.Equal(t, "small", string(artifact(t, r.res, "a").Text()))
		assert.Equal(t, x+"yz", string(artifact(t, r.res, "b").Text()))
	}
	r := runStream(in, whole, &reconstruct.Options{MaxRunSize: 59})
	require.ErrorIs(t, r.err, reconstruct.ErrRunTooLarge)
	var ee *reconstruct.EventError
	require.ErrorAs(t, r.err, &ee)
	assert.Equal(t, int64(3), ee.Seq, "the second delta of a passes 59 bytes")
	assert.Equal(t, "r-3", string(ee.ID))
	assert.Equal(t, x, string(artifact(t, r.res, "a").Text()), "what came before is kept")
}

// model is an independent, simple reading of a stream's complete events
// (parser only): what a truncated run must still hold.
type model struct {
	taskID, ctxID string
	state         parser.TaskState
	lastID        string
	texts         map[string][]byte
	sealed        map[string]bool
	order         []string
	final         bool // a final status, a direct reply or an error was seen
}

// modelOf reads the complete events of in.
func modelOf(t testing.TB, in string) *model {
	m := &model{texts: map[string][]byte{}, sealed: map[string]bool{}}
	rd := sse.NewReader(strings.NewReader(in), nil)
	var dec parser.Decoder
	for rd.Next() && !m.final {
		f := rd.Frame()
		m.lastID = string(f.ID)
		ev, err := dec.Decode(f)
		if err != nil {
			m.final = true
			break
		}
		if id := ev.TaskID(); len(id) > 0 && m.taskID == "" {
			m.taskID = string(id)
		}
		if c := ev.ContextID(); len(c) > 0 {
			m.ctxID = string(c)
		}
		switch ev.Kind {
		case parser.KindTask:
			m.state = ev.Task.Status.State
		case parser.KindStatusUpdate:
			m.state = ev.StatusUpdate.Status.State
		case parser.KindArtifactUpdate:
			u := &ev.ArtifactUpdate
			id := string(u.Artifact.ArtifactID)
			if _, ok := m.texts[id]; !ok {
				m.order = append(m.order, id)
			}
			var txt []byte
			if u.Append {
				txt = m.texts[id]
			}
			for _, p := range u.Artifact.Parts {
				if p.Kind == parser.PartText {
					txt = utf8buf.Append(txt, p.Text)
				}
			}
			m.texts[id] = append([]byte{}, txt...)
			m.sealed[id] = u.LastChunk
		case parser.KindMessage, parser.KindError:
			m.final = true
		}
		m.final = m.final || m.state.Terminal() || m.state.Interrupted()
	}
	return m
}

// cuts returns the offsets at which to cut in: every event boundary, and
// inside every event its first byte, its middle and just before its blank
// line.
func cuts(in string) (boundaries, inside []int) {
	off := 0
	for _, ev := range strings.SplitAfter(in, "\n\n") {
		if ev == "" {
			continue
		}
		boundaries = append(boundaries, off)
		if strings.Contains(ev, "data:") { // not a comment
			inside = append(inside, off+1, off+len(ev)/2, off+len(ev)-1)
		}
		off += len(ev)
	}
	return boundaries, inside
}

// A stream cut at any event boundary or inside any event gives a
// *TruncatedError naming the task, context, state and last event id, and
// the Result keeps every artifact's text received.
func TestTruncation(t *testing.T) {
	for _, c := range corpus(t) {
		t.Run(c.name, func(t *testing.T) {
			boundaries, inside := cuts(c.in)
			for _, set := range []struct {
				cutInside bool
				offs      []int
			}{{false, boundaries}, {true, inside}} {
				for _, off := range set.offs {
					prefix := c.in[:off]
					m := modelOf(t, prefix)
					if m.final {
						continue // the run was over before the cut
					}
					res, err := reconstruct.Read(strings.NewReader(prefix), nil)
					var te *reconstruct.TruncatedError
					require.ErrorAs(t, err, &te, "cut at %d", off)
					assert.ErrorIs(t, err, reconstruct.ErrTruncated)
					assert.Equal(t, set.cutInside, errors.Is(err, io.ErrUnexpectedEOF), "cut at %d: %v", off, err)
					assert.Equal(t, m.taskID, string(te.TaskID), "cut at %d", off)
					assert.Equal(t, m.ctxID, string(te.ContextID), "cut at %d", off)
					assert.Equal(t, m.state, te.State, "cut at %d", off)
					assert.Equal(t, m.lastID, string(te.LastEventID), "cut at %d", off)
					assert.Equal(t, m.lastID, string(res.LastEventID), "cut at %d", off)
					assert.Equal(t, int64(off), te.Offset, "cut at %d", off)
					assert.Equal(t, m.order, ids(res.Artifacts), "cut at %d", off)
					for _, a := range res.Artifacts {
						want := m.texts[string(a.ArtifactID)]
						if !m.sealed[string(a.ArtifactID)] {
							// The bytes of a character the cut left
							// incomplete are held back.
							want = want[:utf8buf.CompletePrefix(want)]
						}
						assert.Equal(t, string(want), string(a.Text()), "cut at %d: artifact %s", off, string(a.ArtifactID))
					}
					assert.Contains(t, te.Error(), m.state.String())
				}
			}
		})
	}
}

// The truncation error of a failed read carries the read's error.
func TestTruncationByReadError(t *testing.T) {
	boom := errors.New("connection reset")
	r := io.MultiReader(strings.NewReader(sseStream("x", task("TASK_STATE_WORKING"), first("a", "so far"))), &errReader{boom})
	res, err := reconstruct.Read(r, nil)
	var te *reconstruct.TruncatedError
	require.ErrorAs(t, err, &te)
	assert.ErrorIs(t, err, boom)
	assert.ErrorIs(t, err, reconstruct.ErrTruncated)
	assert.Equal(t, "so far", string(artifact(t, res, "a").Text()))
}

type errReader struct{ err error }

func (r *errReader) Read([]byte) (int, error) { return 0, r.err }

// A sealed artifact hands out the bytes it held back (a lone high
// surrogate); when an update reopens it and its low surrogate arrives, the
// pair is joined in the stored text and the live text is replaced, never
// left with the lone half plus a stray byte.
func TestReopenedArtifactJoinsSurrogateAtSeam(t *testing.T) {
	in := sseStream("r", task("TASK_STATE_WORKING"),
		first("a", "x"),
		artifactUpdate("a", true, true, "", textRaw(`\ud83d`)),
		moreRaw("a", `\ude00!`))
	for _, split := range []splitter{whole, oneByte} {
		r := runStream(in, split, nil)
		require.ErrorIs(t, r.err, reconstruct.ErrTruncated)
		a := artifact(t, r.res, "a")
		assert.Equal(t, "x\U0001F600!", string(a.Text()))
		require.Len(t, r.res.Diagnostics, 1)
		assert.ErrorIs(t, &r.res.Diagnostics[0], reconstruct.ErrSealedArtifact)
		assert.Equal(t, "x\U0001F600!", r.live["a"])
		assert.Contains(t, r.kinds, reconstruct.UpdateReplaced)
	}
}

// A TruncatedError says what happened: cut inside an event (with the bytes
// dropped) or ended between events, and the cause when the input failed
// (reset, deadline, idle timeout), which errors.Is and errors.As reach. A
// plain end of input has no cause, and Cut is nil between events.
func TestTruncatedErrorSaysWhatHappened(t *testing.T) {
	reset := errors.New("read tcp 127.0.0.1:1->127.0.0.1:2: connection reset by peer")
	idle := errors.New("httpstream: no byte for 30s")
	whole := sseStream("m", task("TASK_STATE_WORKING"), first("a", "x"))
	cutTail := "data: {\"art"
	tests := []struct {
		name    string
		in      string
		cause   error // given to CloseWithError; nil for Close
		inside  bool
		message string
	}{
		{"eof between events", whole, nil, false,
			`reconstruct: stream ended in state TASK_STATE_WORKING after %d bytes, between events, at the end of the input; resubscribe to task "` + taskID + `" with Last-Event-ID "m-2"`},
		{"eof inside an event", whole + cutTail, nil, true,
			`reconstruct: stream ended in state TASK_STATE_WORKING after %d bytes, inside an event (11 bytes dropped), at the end of the input; resubscribe to task "` + taskID + `" with Last-Event-ID "m-2"`},
		{"reset between events", whole, reset, false,
			`reconstruct: stream ended in state TASK_STATE_WORKING after %d bytes, between events, cause: ` + reset.Error() + `; resubscribe to task "` + taskID + `" with Last-Event-ID "m-2"`},
		{"idle timeout inside an event", whole + cutTail, idle, true,
			`reconstruct: stream ended in state TASK_STATE_WORKING after %d bytes, inside an event (11 bytes dropped), cause: ` + idle.Error() + `; resubscribe to task "` + taskID + `" with Last-Event-ID "m-2"`},
		{"deadline between events", whole, context.DeadlineExceeded, false,
			`reconstruct: stream ended in state TASK_STATE_WORKING after %d bytes, between events, cause: context deadline exceeded; resubscribe to task "` + taskID + `" with Last-Event-ID "m-2"`},
		{"io.EOF is a plain end", whole, io.EOF, false,
			`reconstruct: stream ended in state TASK_STATE_WORKING after %d bytes, between events, at the end of the input; resubscribe to task "` + taskID + `" with Last-Event-ID "m-2"`},
		{"no task to resubscribe to", "data: {\"art", nil, true,
			`reconstruct: stream ended in state TASK_STATE_UNSPECIFIED after %d bytes, inside an event (11 bytes dropped), at the end of the input; no task id to resubscribe to`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := reconstruct.NewStream(nil)
			_, err := s.Write([]byte(tt.in))
			require.NoError(t, err)
			for s.Next() {
			}
			err = s.CloseWithError(tt.cause)
			var te *reconstruct.TruncatedError
			require.ErrorAs(t, err, &te)
			assert.ErrorIs(t, err, reconstruct.ErrTruncated)
			assert.Equal(t, fmt.Sprintf(tt.message, len(tt.in)), err.Error())
			assert.Equal(t, tt.inside, errors.Is(err, io.ErrUnexpectedEOF), "io.ErrUnexpectedEOF only for a cut inside an event")
			assert.Equal(t, tt.inside, te.Cut != nil, "Cut is nil between events")
			if tt.inside {
				var se *sse.SyntaxError
				require.ErrorAs(t, te.Cut, &se)
				assert.Equal(t, int64(11), se.Size)
				assert.Equal(t, int64(11), te.Dropped)
			} else {
				assert.Zero(t, te.Dropped)
			}
			if tt.cause == nil || tt.cause == io.EOF {
				assert.Nil(t, te.Cause)
				assert.NotErrorIs(t, err, io.EOF, "a truncation is never io.EOF, which loops take for a clean end")
				return
			}
			assert.Equal(t, tt.cause, te.Cause)
			assert.ErrorIs(t, err, tt.cause)
		})
	}
}

// A TruncatedError counts in words: one byte is "1 byte", and a source
// that counts no bytes (Finish with offset -1, as a2ago's Run does) is
// told no byte count.
func TestTruncatedErrorCounts(t *testing.T) {
	t.Run("one byte, cut inside an event", func(t *testing.T) {
		_, err := reconstruct.Read(strings.NewReader("d"), nil)
		assert.EqualError(t, err, `reconstruct: stream ended in state TASK_STATE_UNSPECIFIED after 1 byte, inside an event (1 byte dropped), at the end of the input; no task id to resubscribe to`)
	})
	t.Run("no byte count", func(t *testing.T) {
		var dec parser.Decoder
		ev, err := dec.Decode(&sse.Frame{Data: []byte(task("TASK_STATE_WORKING"))})
		require.NoError(t, err)
		r := reconstruct.NewReducer(nil)
		require.NoError(t, r.Apply(nil, ev))
		err = r.Finish(-1, nil)
		var te *reconstruct.TruncatedError
		require.ErrorAs(t, err, &te)
		assert.Equal(t, int64(-1), te.Offset)
		assert.EqualError(t, err, `reconstruct: stream ended in state TASK_STATE_WORKING between events, at the end of the input; resubscribe to task "`+taskID+`"`)
	})
}

// A cause that is a typed error (a net.Error with a timeout) stays
// reachable with errors.As through Read.
func TestTruncatedErrorCauseAs(t *testing.T) {
	r := io.MultiReader(strings.NewReader(sseStream("x", task("TASK_STATE_WORKING"))), &errReader{timeoutErr{}})
	_, err := reconstruct.Read(r, nil)
	var te *reconstruct.TruncatedError
	require.ErrorAs(t, err, &te)
	var ne net.Error
	require.ErrorAs(t, err, &ne)
	assert.True(t, ne.Timeout())
	assert.Contains(t, err.Error(), "between events, cause: i/o timeout")
}

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

// A diagnostic given to Report is kept as the Reducer's own are: located
// at its frame, its ids copied, ending the run under Strict with an
// UpdateDone, and counted toward MaxDiagnostics.
func TestReport(t *testing.T) {
	errLost := errors.New("adapter: lost")
	frame := &sse.Frame{Offset: 10, Seq: 3, ID: []byte("e-3")}
	id := []byte("a1")

	var r reconstruct.Reducer
	r.Reset(nil)
	require.NoError(t, r.Report(frame, reconstruct.Diagnostic{ArtifactID: id, JSONPointer: "/x/parts", Err: errLost}))
	id[0] = 'b'
	require.Len(t, r.Result().Diagnostics, 1)
	d := r.Result().Diagnostics[0]
	assert.ErrorIs(t, &d, errLost)
	assert.Equal(t, sse.Position{Offset: 10, Seq: 3, ID: []byte("e-3")}, d.Position)
	assert.Equal(t, "a1", string(d.ArtifactID), "a copy")
	assert.Equal(t, "/x/parts", d.JSONPointer)
	assert.Empty(t, r.Pending())
	assert.NoError(t, r.Err())

	r.Reset(&reconstruct.Options{Strict: true})
	err := r.Report(frame, reconstruct.Diagnostic{Err: errLost})
	require.ErrorIs(t, err, errLost)
	require.Len(t, r.Pending(), 1)
	assert.Equal(t, reconstruct.UpdateDone, r.Pending()[0].Kind)
	assert.ErrorIs(t, r.Report(nil, reconstruct.Diagnostic{Err: errors.New("other")}), errLost, "the first error stays")

	r.Reset(&reconstruct.Options{MaxDiagnostics: 1})
	require.NoError(t, r.Report(nil, reconstruct.Diagnostic{Err: errLost}))
	assert.ErrorIs(t, r.Report(nil, reconstruct.Diagnostic{Err: errLost}), reconstruct.ErrTooManyDiagnostics)
}
