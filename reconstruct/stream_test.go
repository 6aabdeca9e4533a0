package reconstruct_test

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
)

// The whole pipeline gives the same Result, the same updates and the same
// live text per artifact however the input is chunked; every live text is
// whole characters.
func TestChunkingInvariance(t *testing.T) {
	splits := []struct {
		name string
		s    splitter
	}{{"1-byte", oneByte}, {"random-1", randomSplits(1)}, {"random-2", randomSplits(2)}, {"random-3", randomSplits(3)}}
	for _, c := range corpus(t) {
		t.Run(c.name, func(t *testing.T) {
			want := runStream(c.in, whole, nil)
			require.NoError(t, want.err)
			assert.Empty(t, invalidTexts(want.texts), "live text in whole characters")
			for _, a := range want.res.Artifacts {
				assert.Equal(t, string(a.Text()), want.live[string(a.ArtifactID)], "the live text of %s ends as its stored text", string(a.ArtifactID))
			}
			for _, split := range splits {
				got := runStream(c.in, split.s, nil)
				assert.Empty(t, cmp.Diff(want.res, got.res, cmpResult), "%s writes: Result differs (-whole +split)", split.name)
				assert.Equal(t, want.live, got.live, split.name)
				assert.Equal(t, want.texts, got.texts, split.name)
				assert.Equal(t, want.kinds, got.kinds, split.name)
			}
		})
	}
}

// The REST and JSON-RPC bindings of a stream give the same Result and
// updates.
func TestBindingsIdentical(t *testing.T) {
	ignorePosition := cmpopts.IgnoreFields(reconstruct.Diagnostic{}, "Position")
	for _, c := range corpus(t) {
		if strings.HasSuffix(c.name, "/jsonrpc") {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			rest := runStream(c.in, whole, nil)
			jrpc := runStream(rpc(c.in), whole, nil)
			require.NotEqual(t, c.in, rpc(c.in))
			assert.Empty(t, cmp.Diff(rest.res, jrpc.res, cmpResult, ignorePosition), "Result differs (-REST +JSON-RPC)")
			assert.Equal(t, rest.live, jrpc.live)
			assert.Equal(t, rest.kinds, jrpc.kinds)
		})
	}
}

// errorStreams are runs that end with an error, and how.
var errorStreams = []struct {
	name string
	in   string
	opts *reconstruct.Options
	err  error
}{
	{"truncated", sseStream("t", task("TASK_STATE_WORKING"), first("a", "x")), nil, reconstruct.ErrTruncated},
	{"cut inside an event", sseStream("t", task("TASK_STATE_WORKING")) + "data: {\"artif", nil, io.ErrUnexpectedEOF},
	{"server error", sseStream("t", task("TASK_STATE_WORKING"), `{"error":{"code":500,"message":"x"}}`), nil, reconstruct.ErrServer},
	{"invalid JSON", sseStream("t", task("TASK_STATE_WORKING")) + "data: [\n\n", nil, parser.ErrInvalidJSON},
	{"strict", sseStream("t", task("TASK_STATE_WORKING"), more("a", "x"), status("TASK_STATE_COMPLETED", "", "")), &reconstruct.Options{Strict: true}, reconstruct.ErrUnknownArtifact},
}

// Updates yields the UpdateDone once, and an error at most once, last,
// with a zero Update; breaking out early at any point is safe.
func TestUpdatesIterator(t *testing.T) {
	t.Run("clean", func(t *testing.T) {
		var kinds []reconstruct.UpdateKind
		for u, err := range reconstruct.Updates(strings.NewReader(thinkingToolAnswer), nil) {
			require.NoError(t, err)
			kinds = append(kinds, u.Kind)
		}
		require.NotEmpty(t, kinds)
		assert.Equal(t, reconstruct.UpdateDone, kinds[len(kinds)-1])
		assert.Equal(t, 1, countKind(kinds, reconstruct.UpdateDone))
	})
	for _, tt := range errorStreams {
		t.Run(tt.name, func(t *testing.T) {
			var kinds []reconstruct.UpdateKind
			var errs []error
			var last reconstruct.Update
			for u, err := range reconstruct.Updates(iotest.OneByteReader(strings.NewReader(tt.in)), tt.opts) {
				if err != nil {
					errs = append(errs, err)
					last = u
					continue
				}
				require.Empty(t, errs, "nothing after the error")
				kinds = append(kinds, u.Kind)
				if u.Kind == reconstruct.UpdateDone {
					assert.ErrorIs(t, u.Err, tt.err)
					require.NotNil(t, u.Result)
					assert.Equal(t, u.Err, u.Result.Err)
				}
			}
			require.Len(t, errs, 1)
			assert.ErrorIs(t, errs[0], tt.err)
			assert.Equal(t, reconstruct.Update{}, last, "the error comes with a zero Update")
			assert.Equal(t, reconstruct.UpdateDone, kinds[len(kinds)-1])
			assert.Equal(t, 1, countKind(kinds, reconstruct.UpdateDone))
		})
	}
	t.Run("break", func(t *testing.T) {
		total := 0
		for range reconstruct.Updates(strings.NewReader(thinkingToolAnswer), nil) {
			total++
		}
		for stop := 1; stop <= total; stop++ {
			n := 0
			for range reconstruct.Updates(strings.NewReader(thinkingToolAnswer), nil) {
				if n++; n == stop {
					break
				}
			}
			assert.Equal(t, stop, n)
		}
	})
}

// The UpdateDone carries the run's last state, as the Result does: every
// update that has a state sets Update.State.
func TestUpdateDoneState(t *testing.T) {
	type doneCase struct {
		name string
		in   string
		opts *reconstruct.Options
		want parser.TaskState
	}
	tests := []doneCase{
		{"completed", specCompleted, nil, parser.TaskStateCompleted},
		{"input required", inputRequired, nil, parser.TaskStateInputRequired},
		{"failed", failed, nil, parser.TaskStateFailed},
		{"direct reply", sseStream("m", `{"message":{"messageId":"m1","role":"ROLE_AGENT","parts":[{"text":"hi"}]}}`), nil, parser.TaskStateUnspecified},
	}
	for _, e := range errorStreams {
		tests = append(tests, doneCase{"error/" + e.name, e.in, e.opts, parser.TaskStateWorking})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var done []reconstruct.Update
			for u, err := range reconstruct.Updates(strings.NewReader(tt.in), tt.opts) {
				if err == nil && u.Kind == reconstruct.UpdateDone {
					done = append(done, u)
				}
			}
			require.Len(t, done, 1)
			require.NotNil(t, done[0].Result)
			assert.Equal(t, tt.want, done[0].Result.State)
			assert.Equal(t, tt.want, done[0].State, "UpdateDone.State")
		})
	}
}

func countKind(kinds []reconstruct.UpdateKind, k reconstruct.UpdateKind) int {
	n := 0
	for _, x := range kinds {
		if x == k {
			n++
		}
	}
	return n
}

// Read returns the Result with its error, whatever the reader does.
func TestRead(t *testing.T) {
	tests := []struct {
		name string
		r    io.Reader
		err  error
		text string
	}{
		{"whole", strings.NewReader(specCompleted), nil, "The contract answer."},
		{"one byte", iotest.OneByteReader(strings.NewReader(specCompleted)), nil, "The contract answer."},
		{"data with EOF", iotest.DataErrReader(strings.NewReader(specCompleted)), nil, "The contract answer."},
		{"half reads", iotest.HalfReader(strings.NewReader(specCompleted)), nil, "The contract answer."},
		{"no progress", io.MultiReader(strings.NewReader(specCompleted[:400]), emptyReader{}), io.ErrNoProgress, "<nil>"},
		{"timeout", iotest.TimeoutReader(strings.NewReader(specCompleted[:400])), iotest.ErrTimeout, "<nil>"},
		{"timeout after the end", iotest.TimeoutReader(strings.NewReader(specCompleted)), nil, "The contract answer."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := reconstruct.Read(tt.r, nil)
			require.NotNil(t, res)
			if tt.err == nil {
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, tt.err)
				assert.ErrorIs(t, err, reconstruct.ErrTruncated)
			}
			assert.Equal(t, tt.text, answerText(res))
			assert.Equal(t, err, res.Err)
		})
	}
	t.Run("stops reading after an error", func(t *testing.T) {
		in := sseStream("t", task("TASK_STATE_WORKING"), `{"error":{"code":500,"message":"x"}}`)
		_, err := reconstruct.Read(io.MultiReader(strings.NewReader(in), failReader{t}), nil)
		require.ErrorIs(t, err, reconstruct.ErrServer)
	})
}

type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

// failReader fails the test if it is read.
type failReader struct{ t *testing.T }

func (r failReader) Read([]byte) (int, error) {
	assert.Fail(r.t, "read after the run ended with an error")
	return 0, io.EOF
}

// Stream's call order: Write after Close fails; Close is idempotent; the
// UpdateDone comes once, after Close.
func TestStreamCallOrder(t *testing.T) {
	s := reconstruct.NewStream(nil)
	r := &run{live: map[string]string{}}
	feed(s, r, specCompleted, randomSplits(9))
	assert.Zero(t, r.dones, "no UpdateDone before Close")
	require.True(t, s.Done())
	require.NoError(t, s.Close())
	require.NoError(t, s.Close())
	drain(s, r)
	assert.Equal(t, 1, r.dones)
	_, err := s.Write([]byte("data: {}\n\n"))
	assert.ErrorIs(t, err, reconstruct.ErrClosed)
	assert.False(t, s.Next())
	assert.Equal(t, "6", string(s.LastEventID()))
	assert.Equal(t, "task.0192f4c8-...", string(s.TaskID()))

	// Reset makes it ready for another run.
	s.Reset(nil)
	r = &run{live: map[string]string{}}
	feed(s, r, failed, whole)
	require.NoError(t, s.Close())
	drain(s, r)
	assert.Equal(t, parser.TaskStateFailed, s.Result().State)
	assert.Equal(t, 1, r.dones)
}

// Close after an error still ends with one UpdateDone and returns the
// error, however the rest of the input looks.
func TestCloseAfterError(t *testing.T) {
	for _, tail := range []string{"", "data: {\"partial", sseStream("z", status("TASK_STATE_COMPLETED", "", "")), strings.Repeat("x", 600)} {
		for _, tt := range errorStreams[2:] { // those whose error ends the run
			s := reconstruct.NewStream(&reconstruct.Options{Strict: tt.opts != nil && tt.opts.Strict, MaxEventSize: 512})
			r := &run{live: map[string]string{}}
			feed(s, r, tt.in+tail, whole)
			err := s.CloseWithError(errors.New("reset"))
			drain(s, r)
			assert.ErrorIs(t, err, tt.err, "%s + %q", tt.name, tail)
			assert.Equal(t, 1, r.dones, "%s + %q", tt.name, tail)
		}
	}
}

// An event that passes MaxEventSize ends the run as soon as the bytes
// written pass the limit, before any line end comes, however the input is
// cut into writes: a Stream that leaves the lexer alone until a line end
// is written (no event can complete before one) still runs it then, and
// Write never fails with sse.ErrBufferFull.
func TestOversizedBeforeLineEnd(t *testing.T) {
	head := sseStream("i", task("TASK_STATE_WORKING"))
	in := []byte(head + "data: " + strings.Repeat("x", 400))
	for _, size := range []int{1, 7, 16, 17, 4096} {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			s := reconstruct.NewStream(&reconstruct.Options{MaxEventSize: 256})
			var done *reconstruct.Update
			written := 0
			for p := in; len(p) > 0 && done == nil; {
				k := min(size, len(p))
				_, err := s.Write(p[:k])
				require.NoError(t, err)
				p, written = p[k:], written+k
				for s.Next() {
					if u := *s.Update(); u.Kind == reconstruct.UpdateDone {
						done = &u
					}
				}
			}
			require.NotNil(t, done, "the run ends before the input does")
			require.ErrorIs(t, done.Err, sse.ErrEventTooLarge)
			assert.LessOrEqual(t, written, len(head)+256+size, "it ends at the write that passes the limit")
		})
	}
}

// The updates that Close queues are handed out by Next even when Result is
// called between the two.
func TestResultBetweenCloseAndNext(t *testing.T) {
	s := reconstruct.NewStream(nil)
	_, err := s.Write([]byte(sseStream("c", task("TASK_STATE_WORKING"), first("a", "kept "), more("a", "text"), status("TASK_STATE_COMPLETED", "", ""))))
	require.NoError(t, err)
	require.NoError(t, s.Close())
	assert.Equal(t, "kept text", string(s.Result().Artifacts[0].Text()))
	var live string
	kinds := 0
	for s.Next() {
		u := s.Update()
		require.NotZero(t, u.Kind, "a queued update")
		kinds++
		if u.Kind == reconstruct.UpdateText {
			live += string(u.Text)
		}
	}
	assert.Equal(t, "kept text", live)
	assert.Positive(t, kinds)
}

// TestStreamResetMaxEventSize: Reset applies its options' MaxEventSize to
// the lexer, whichever the Stream had: an event of 1 KiB ends the run
// under a limit of 256 bytes and passes under the default, in turn on one
// Stream.
func TestStreamResetMaxEventSize(t *testing.T) {
	in := []byte(sseStream("r", task("TASK_STATE_WORKING"), first("a", strings.Repeat("x", 1<<10)), status("TASK_STATE_COMPLETED", "", "")))
	small := &reconstruct.Options{MaxEventSize: 256}
	s := reconstruct.NewStream(small)
	for i, opts := range []*reconstruct.Options{small, nil, small, {MaxEventSize: 4 << 10}, nil} {
		if i > 0 {
			s.Reset(opts)
		}
		s.Write(in)
		for s.Next() {
		}
		err := s.Close()
		if opts == small {
			require.ErrorIs(t, err, sse.ErrEventTooLarge, "run %d", i)
		} else {
			require.NoError(t, err, "run %d", i)
			require.Equal(t, strings.Repeat("x", 1<<10), string(s.Result().Artifacts[0].Text()), "run %d", i)
		}
	}
}

// A narration streamed in thousands of small deltas, which its text
// outgrows a piece several times over (the delta route keeps it in
// pieces, each with room for the deltas after it): its live text is its
// stored text, handed out in whole characters, the same whatever the
// chunking and as Read stores it, also where a delta ends inside a
// character (a surrogate pair split between two deltas' escapes).
func TestLongNarrationLiveText(t *testing.T) {
	events := []string{task("TASK_STATE_WORKING"), first("a", "Start ")}
	var want strings.Builder
	want.WriteString("Start ")
	for i := 0; want.Len() < 3*reconstruct.PieceMax+1000; i++ {
		switch i % 5 {
		case 0:
			events = append(events, more("a", "dyspnea 血压 "))
			want.WriteString("dyspnea 血压 ")
		case 1:
			// U+1F9B6 as a surrogate pair split between two deltas.
			events = append(events, moreRaw("a", `foot \ud83e`), moreRaw("a", `\uddb6 `))
			want.WriteString("foot \U0001F9B6 ")
		case 2:
			events = append(events, more("a", "é"))
			want.WriteString("é")
		default:
			events = append(events, more("a", "token "))
			want.WriteString("token ")
		}
	}
	events = append(events, artifactUpdate("a", true, true, "", text("")), status("TASK_STATE_COMPLETED", "", ""))
	in := sseStream("n", events...)
	base := runStream(in, whole, nil)
	require.NoError(t, base.err)
	require.Len(t, base.res.Artifacts, 1)
	assert.Equal(t, want.String(), string(base.res.Artifacts[0].Text()), "stored text")
	assert.Equal(t, want.String(), base.live["a"], "live text")
	assert.Empty(t, invalidTexts(base.texts), "live text in whole characters")
	for _, split := range []splitter{oneByte, randomSplits(4)} {
		got := runStream(in, split, nil)
		assert.Empty(t, cmp.Diff(base.res, got.res, cmpResult), "Result differs (-whole +split)")
		assert.Equal(t, base.texts, got.texts, "updates")
	}
	res, err := reconstruct.Read(strings.NewReader(in), nil)
	require.NoError(t, err)
	assert.Equal(t, want.String(), string(res.Artifacts[0].Text()), "Read's text")
}
