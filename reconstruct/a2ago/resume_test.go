package a2ago_test

import (
	"context"
	"io/fs"
	"iter"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2astream/a2astream/internal/samples"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/a2ago"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunResumes cuts each recorded stream after every event (every 7th
// under -short) and goes on with a subscription (a task snapshot, then the
// rest): the Result is the uncut run's.
func TestRunResumes(t *testing.T) {
	names, err := fs.Glob(samples.Streams, "*.sse")
	require.NoError(t, err)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			data, err := fs.ReadFile(samples.Streams, name)
			require.NoError(t, err)
			events := sampleEvents(t, data)
			want, wantErr := a2ago.Reduce(seqOf(events, nil), nil)
			step := 1
			if testing.Short() {
				step = 7
			}
			for cut := 1; cut < len(events); cut += step {
				run := a2ago.NewRun(nil)
				if run.Read(seqOf(events[:cut], nil)) {
					continue // the run had ended: nothing to resume
				}
				require.NotEmpty(t, run.TaskID(), "cut %d", cut)
				snapshot := &a2a.Task{ID: a2a.TaskID(run.TaskID()), ContextID: string(want.ContextID), Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}
				assert.True(t, run.Read(seqOf(append([]a2a.Event{snapshot}, events[cut:]...), nil)), "cut %d", cut)
				got, err := run.Close()
				assert.Equal(t, wantErr == nil, err == nil, "cut %d: %v", cut, err)
				assert.Empty(t, cmp.Diff(want, got, resultDiff...), "cut %d", cut)
			}
		})
	}
}

// TestRunCloses checks a Run that is not resumed: a truncation with the
// cause of the last sequence, and nothing read after Close.
func TestRunCloses(t *testing.T) {
	data, err := fs.ReadFile(samples.Streams, "completed.sse")
	require.NoError(t, err)
	events := sampleEvents(t, data)
	run := a2ago.NewRun(nil)
	require.False(t, run.Read(seqOf(events[:3], context.DeadlineExceeded)))
	res, err := run.Close()
	var te *reconstruct.TruncatedError
	require.ErrorAs(t, err, &te)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, res.TaskID, te.TaskID)
	assert.Equal(t, int64(-1), te.Offset, "a2a-go's client counts no bytes")
	assert.NotContains(t, err.Error(), "bytes", "no byte count where none is known")
	assert.True(t, run.Read(seqOf(events[3:], nil)), "Read after Close")
	again, err2 := run.Close()
	assert.Same(t, res, again)
	assert.Equal(t, err, err2)
}

// TestInteropResume drops the connection of a run after its narration and
// subscribes again with a2a-go's client (SubscribeToTask, the run's
// TaskID): a2a-go's server sends a task snapshot and the rest of the run,
// and the Run's Result is that of the same run uncut, read by a2astream's
// client over the wire.
func TestInteropResume(t *testing.T) {
	for _, b := range bindings {
		t.Run(b.name, func(t *testing.T) {
			s := newServer(t)
			c := s.client(t, b.path, b.protocol)
			run := a2ago.NewRun(nil)
			require.False(t, run.Read(c.SendStreamingMessage(context.Background(), request(runResume))), "the drop ends the first sequence")
			require.NotEmpty(t, run.TaskID())
			sub := c.SubscribeToTask(context.Background(), &a2a.SubscribeToTaskRequest{ID: a2a.TaskID(run.TaskID())})
			require.True(t, run.Read(gated(sub, s.gate)))
			got, err := run.Close()
			require.NoError(t, err)
			assert.Equal(t, parser.TaskStateCompleted, got.State)
			assert.Equal(t, answerText, string(got.Answer.Text()))

			want, _, err := viaWire(t, s, b.path, runCompleted, nil)
			require.NoError(t, err)
			assert.Empty(t, cmp.Diff(want, got, resultDiff...), "uncut on the wire (-) vs resumed through a2a-go (+)")
			assert.Empty(t, cmp.Diff(fromStore(t, s.stored(t, string(got.TaskID))), fromResult(got)), "task store (-) vs Result (+)")
		})
	}
}

// gated passes seq on and closes gate once its first event (the task
// snapshot, sent once the subscription is in place) has arrived, so that
// the agent goes on only when the subscriber can hear it.
func gated(seq iter.Seq2[a2a.Event, error], gate chan struct{}) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		opened := false
		for ev, err := range seq {
			if !opened {
				opened = true
				close(gate)
			}
			if !yield(ev, err) {
				return
			}
		}
	}
}

// TestRunUpdates reads a run cut after every event and resumed, with
// Run.Updates: a typing UI shown the updates of both connections shows the
// text of the uncut run, and Close gives its Result.
func TestRunUpdates(t *testing.T) {
	data, err := fs.ReadFile(samples.Streams, "thinking-tool-answer.sse")
	require.NoError(t, err)
	events := sampleEvents(t, data)
	shown := func(seqs ...iter.Seq2[reconstruct.Update, error]) map[string]string {
		texts := make(map[string]string)
		for _, seq := range seqs {
			for u, err := range seq {
				require.NoError(t, err)
				switch u.Kind {
				case reconstruct.UpdateText:
					texts[string(u.Artifact.ArtifactID)] += string(u.Text)
				case reconstruct.UpdateReplaced:
					texts[string(u.Artifact.ArtifactID)] = string(u.Text)
				}
			}
		}
		return texts
	}
	want := shown(a2ago.Updates(seqOf(events, nil), nil))
	wantRes, err := a2ago.Reduce(seqOf(events, nil), nil)
	require.NoError(t, err)
	for cut := 1; cut < len(events)-1; cut++ {
		run := a2ago.NewRun(nil)
		first := run.Updates(seqOf(events[:cut], nil))
		snapshot := func(yield func(a2a.Event, error) bool) {
			if !yield(&a2a.Task{ID: a2a.TaskID(run.TaskID()), Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}, nil) {
				return
			}
			for _, ev := range events[cut:] {
				if !yield(ev, nil) {
					return
				}
			}
		}
		got := shown(first, run.Updates(snapshot))
		assert.True(t, run.Done())
		assert.Equal(t, want, got, "cut %d", cut)
		res, err := run.Close()
		require.NoError(t, err)
		assert.Empty(t, cmp.Diff(wantRes, res, resultDiff...), "cut %d", cut)
	}
}
