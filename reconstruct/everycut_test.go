package reconstruct_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/resultjson"
)

// pendingFrom returns where the event pending at the end of tail (the bytes
// after the last blank line) begins: its first line that is not a comment;
// -1 when there is none, so the stream ends between events.
func pendingFrom(tail string) int {
	for off := 0; off < len(tail); {
		line := tail[off:]
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i+1]
		}
		if line[0] != ':' {
			return off
		}
		off += len(line)
	}
	return -1
}

// pushAll writes each input to s and reads its updates, calling between
// after each but the last, then closes s, reads the last updates and
// returns Close's error and the number of UpdateDone.
func pushAll(s *reconstruct.Stream, between func() error, ins ...string) (closeErr error, dones int, err error) {
	for i, in := range ins {
		if _, err := s.Write([]byte(in)); err != nil {
			return nil, 0, err
		}
		for s.Next() {
			if s.Update().Kind == reconstruct.UpdateDone {
				dones++
			}
		}
		if i < len(ins)-1 {
			if err := between(); err != nil {
				return nil, 0, err
			}
		}
	}
	closeErr = s.Close()
	for s.Next() {
		if s.Update().Kind == reconstruct.UpdateDone {
			dones++
		}
	}
	return closeErr, dones, nil
}

// TestCutAtEveryByte cuts every recorded stream (and splitChars, whose
// deltas split characters) at every byte (every cutStride bytes under the
// race detector, every seventh with -short, as CI's run under wasip1 has)
// and checks
// the cut run against the uncut one:
//
//   - the error is nil once the run reached its final state, and a
//     *TruncatedError (matching ErrTruncated, and io.ErrUnexpectedEOF
//     exactly when an event was pending, whose bytes are Dropped) before
//     that, also in the JSON document's "error" (type "truncated", taskId
//     and lastEventId always present; at one cut in four);
//   - its task id and last event id are those of the events received;
//   - every artifact sealed before the cut is kept whole, as the uncut run
//     has it;
//   - every artifact's text is a prefix of the uncut text;
//   - resuming after the cut (Stream.Resume, then what tasks/{id}:subscribe
//     sends: a snapshot, with the stored artifacts at even cuts and without
//     at odd ones, and the replay) gives the uncut Result, with one
//     UpdateDone (compared whole at one cut in eight, on what a cut
//     changes at the others).
//
// The checks inside the loop are plain ifs: require's bookkeeping would
// cost more than the run.
func TestCutAtEveryByte(t *testing.T) {
	cutStride := cutStride
	if testing.Short() {
		cutStride = 7 // a prime, as under the race detector
	}
	ignorePosition := cmpopts.IgnoreFields(reconstruct.Diagnostic{}, "Position")
	streams := testdataStreams(t)
	require.Len(t, streams, 5)
	// And a stream whose deltas split characters, where a cut Result holds
	// bytes back.
	streams = append(streams, corpusStream{"splitChars", splitChars})
	for _, c := range streams {
		t.Run(c.name, func(t *testing.T) {
			want, err := reconstruct.Read(strings.NewReader(c.in), nil)
			require.NoError(t, err)
			wantDoc := resultjson.Append(nil, want, nil, nil)
			uncut := map[string]*reconstruct.Artifact{}
			for _, a := range want.Artifacts {
				uncut[string(a.ArtifactID)] = a
			}
			events := wireEvents(t, c.in)
			require.GreaterOrEqual(t, len(events), 9)
			cutRun, resumeRun := reconstruct.NewStream(nil), reconstruct.NewStream(nil)
			var doc []byte
			n, last, resumed := 0, 0, 0 // events received whole; end of the last blank line
			for cut := 0; cut <= len(c.in); cut += cutStride {
				for n < len(events) && events[n].end <= cut {
					n++
				}
				if from := max(last-1, 0); strings.Contains(c.in[from:cut], "\n\n") {
					last = from + strings.LastIndex(c.in[from:cut], "\n\n") + 2
				}
				prefix := c.in[:cut]
				final, taskID, lastID := false, "", ""
				sealed := map[string]bool{}
				for _, ev := range events[:n] {
					final = final || ev.terminate
					if taskID == "" {
						taskID = ev.taskID
					}
					lastID = ev.id
					if ev.kind == "artifactUpdate" {
						sealed[ev.art] = ev.last
					}
				}

				// The cut run, pushed to a Stream and, at one cut in
				// eight, read by Read too.
				cutRun.Reset(nil)
				err, dones, werr := pushAll(cutRun, nil, prefix)
				res := cutRun.Result()
				require.Equal(t, pushed{dones: 1}, pushed{werr, dones}, "cut at %d", cut)
				if cut%(8*cutStride) == 0 {
					rres, rerr := reconstruct.Read(strings.NewReader(prefix), nil)
					if err != nil {
						require.EqualError(t, rerr, err.Error(), "cut at %d: Read's error, the Stream's", cut)
					} else {
						require.NoError(t, rerr, "cut at %d: Read", cut)
					}
					require.True(t, sameRun(res, rres), "cut at %d: Read's run and the Stream's", cut)
				}
				require.Equal(t, [2]string{taskID, lastID}, [2]string{string(res.TaskID), string(res.LastEventID)}, "cut at %d: task id, last event id", cut)
				if final {
					require.NoError(t, err, "cut at %d, after the final state", cut)
				} else {
					var te *reconstruct.TruncatedError
					require.ErrorAs(t, err, &te, "cut at %d", cut)
					require.ErrorIs(t, err, reconstruct.ErrTruncated, "cut at %d", cut)
					from := pendingFrom(c.in[last:cut])
					inside := from >= 0
					want := truncation{TaskID: taskID, LastEventID: lastID, Offset: int64(cut), Inside: inside, UnexpectedEOF: inside}
					if inside {
						want.Dropped = int64(cut - last - from)
					}
					got := truncation{string(te.TaskID), string(te.LastEventID), te.Offset, te.Dropped, te.Cause, te.Cut != nil, errors.Is(err, io.ErrUnexpectedEOF)}
					require.Equal(t, want, got, "cut at %d (an event pending from byte %d)", cut, last+from)
					if cut%(4*cutStride) == cutStride {
						doc = resultjson.Append(doc[:0], res, err, nil)
						var d struct {
							Error *struct {
								Type        string
								TaskID      *string `json:"taskId"`
								LastEventID *string `json:"lastEventId"`
								InsideEvent bool    `json:"insideEvent"`
							}
						}
						require.NoError(t, json.Unmarshal(doc, &d), "cut at %d", cut)
						require.NotNil(t, d.Error, "cut at %d: JSON document %s", cut, doc)
						require.Equal(t, "truncated", d.Error.Type, "cut at %d: JSON document %s", cut, doc)
						require.Equal(t, &taskID, d.Error.TaskID, "cut at %d: JSON document %s", cut, doc)
						require.Equal(t, &lastID, d.Error.LastEventID, "cut at %d: JSON document %s", cut, doc)
						require.Equal(t, inside, d.Error.InsideEvent, "cut at %d: JSON document %s", cut, doc)
					}
				}

				// The artifacts.
				for _, a := range res.Artifacts {
					u := uncut[string(a.ArtifactID)]
					require.True(t, u != nil && bytes.HasPrefix(u.Text(), a.Text()) && a.Sealed == sealed[string(a.ArtifactID)],
						"cut at %d: artifact %s (sealed %v) text %q, not a prefix of the uncut run's", cut, string(a.ArtifactID), a.Sealed, a.Text())
					if a.Sealed {
						require.Empty(t, cmp.Diff(u, a, cmpResult), "cut at %d: sealed artifact %s differs (-uncut +cut)", cut, string(a.ArtifactID))
					}
				}
				require.Len(t, res.Artifacts, len(sealed), "cut at %d: artifacts received", cut)

				// Resume.
				sub, ok := subscription(c.in, events, n, cut/cutStride%2 == 0)
				if !ok {
					continue
				}
				resumeRun.Reset(nil)
				closeErr, dones, werr := pushAll(resumeRun, resumeRun.Resume, prefix, sub)
				require.Equal(t, pushed{dones: 1}, pushed{errors.Join(werr, closeErr), dones}, "cut at %d, resumed", cut)
				resumed++
				// The runs are compared on what a cut changes first, and
				// whole (their documents, then with cmp to say where they
				// differ) at one cut in eight or when that differs.
				if !sameRun(want, resumeRun.Result()) || cut%(8*cutStride) == 0 && !bytes.Equal(resultjson.Append(doc[:0], resumeRun.Result(), nil, nil), wantDoc) {
					require.Empty(t, cmp.Diff(want, resumeRun.Result(), cmpResult, ignorePosition),
						"cut at %d (%d events whole), resumed: Result differs (-uncut +resumed)", cut, n)
				}
			}
			require.Greater(t, resumed, len(c.in)/cutStride/2, "most cuts resumed")
		})
	}
}

// pushed is how pushAll went: its write error and the number of
// UpdateDone.
type pushed struct {
	err   error
	dones int
}

// truncation is what a *TruncatedError says of a cut.
type truncation struct {
	TaskID, LastEventID string
	Offset, Dropped     int64
	Cause               error
	// Inside tells that TruncatedError.Cut is set, UnexpectedEOF that
	// the error is io.ErrUnexpectedEOF: the cut fell inside an event.
	Inside, UnexpectedEOF bool
}

// sameRun compares what a cut and a resume can change in a run: its state,
// ids, status message, answer, and each artifact's text, parts and seal.
func sameRun(a, b *reconstruct.Result) bool {
	if a.State != b.State || a.TaskID != b.TaskID || a.ContextID != b.ContextID || a.LastEventID != b.LastEventID ||
		len(a.Artifacts) != len(b.Artifacts) || len(a.Diagnostics) != len(b.Diagnostics) ||
		!bytes.Equal(reconstruct.MessageText(a.StatusMessage), reconstruct.MessageText(b.StatusMessage)) || (a.Answer == nil) != (b.Answer == nil) ||
		(a.Usage == nil) != (b.Usage == nil) || (a.Usage != nil && !cmp.Equal(a.Usage, b.Usage)) {
		return false
	}
	if a.Answer != nil && string(a.Answer.ArtifactID) != string(b.Answer.ArtifactID) {
		return false
	}
	for i, x := range a.Artifacts {
		y := b.Artifacts[i]
		if string(x.ArtifactID) != string(y.ArtifactID) || x.Sealed != y.Sealed || x.Thinking != y.Thinking || len(x.Parts) != len(y.Parts) ||
			len(x.Citations) != len(y.Citations) || !bytes.Equal(x.Text(), y.Text()) || !bytes.Equal(x.Metadata.Raw, y.Metadata.Raw) {
			return false
		}
	}
	return true
}
