package reconstruct_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
)

// applied is what a Reducer gave for a stream.
type applied struct {
	res     *reconstruct.Result
	updates []reconstruct.Update
	err     error
}

// applyAll lexes and decodes in and applies each event to a new Reducer,
// with its frame or, when frames is false, with none (a nil *sse.Frame),
// as an adapter that takes events from another SDK does. Texts of the
// updates are copied.
func applyAll(t *testing.T, in string, frames bool) applied {
	t.Helper()
	r := reconstruct.NewReducer(nil)
	lx := sse.NewReader(strings.NewReader(in), nil)
	var d parser.Decoder
	var out applied
	keep := func() {
		for _, u := range r.Pending() {
			u.Text = append([]byte(nil), u.Text...)
			if !frames {
				require.Zero(t, u.Seq, "an update of an event without a frame has no ordinal")
			}
			u.Seq = 0
			out.updates = append(out.updates, u)
		}
	}
	for lx.Next() {
		ev, err := d.Decode(lx.Frame())
		require.NoError(t, err)
		f := lx.Frame()
		if !frames {
			f = nil
		}
		r.Apply(f, ev)
		keep()
	}
	cut := lx.Err()
	out.err = r.Finish(0, cut)
	keep()
	out.res = r.Result()
	return out
}

// TestApplyWithoutFrames applies every stream of the corpus, and streams
// that break the rules, end on the server's error or are cut, once with
// their frames and once without: the Results and updates are equal, except
// that without frames the last event id is "" and a Diagnostic's or
// EventError's Position is {Offset: -1}, and an Update's Seq is 0.
func TestApplyWithoutFrames(t *testing.T) {
	streams := corpus(t)
	streams = append(streams,
		corpusStream{"diagnostics", sseStream("diag",
			task("TASK_STATE_WORKING"),
			more("art-x", "append to an unknown artifact"),
			completion("art-x", text("done")),
			status("TASK_STATE_COMPLETED", "", ""),
			status("TASK_STATE_WORKING", "", ""),
		)},
		corpusStream{"server error", sseStream("err",
			task("TASK_STATE_WORKING"),
			first("art-1", "partial"),
			`{"error":{"code":500,"status":"INTERNAL","message":"boom"}}`,
		)},
		corpusStream{"cut", sseStream("cut",
			task("TASK_STATE_WORKING"),
			first("art-1", "partial"),
		) + "data: {\"artifactUpd"},
	)
	for _, s := range streams {
		t.Run(s.name, func(t *testing.T) {
			with := applyAll(t, s.in, true)
			without := applyAll(t, s.in, false)
			assert.Empty(t, without.res.LastEventID)
			switch s.name {
			case "diagnostics":
				require.Len(t, without.res.Diagnostics, 2)
			case "server error":
				require.ErrorIs(t, without.err, reconstruct.ErrServer)
			case "cut":
				require.ErrorIs(t, without.err, reconstruct.ErrTruncated)
			}
			for i := range without.res.Diagnostics {
				assert.Equal(t, sse.Position{Offset: -1}, without.res.Diagnostics[i].Position)
			}
			var ee *reconstruct.EventError
			if errors.As(without.err, &ee) {
				assert.Equal(t, sse.Position{Offset: -1}, ee.Position)
			}
			var te *reconstruct.TruncatedError
			if errors.As(without.err, &te) {
				assert.Empty(t, te.LastEventID)
			}
			// Bring the run with frames to what the same run without
			// them must be.
			with.res.LastEventID = ""
			for i := range with.res.Diagnostics {
				with.res.Diagnostics[i].Position = sse.Position{Offset: -1}
			}
			if errors.As(with.err, &ee) {
				ee.Position = sse.Position{Offset: -1}
			}
			if errors.As(with.err, &te) {
				te.LastEventID = ""
			}
			assert.Empty(t, cmp.Diff(with.res, without.res, cmpResult))
			assert.Empty(t, cmp.Diff(with.updates, without.updates, cmpResult))
			if with.err != nil || without.err != nil {
				require.Error(t, with.err)
				require.Error(t, without.err)
				assert.Equal(t, with.err.Error(), without.err.Error())
			}
		})
	}
}
