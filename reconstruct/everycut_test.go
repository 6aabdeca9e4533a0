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
// deltas split characters) at every byte (every
// cutStride bytes, under the race detector) and checks
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
	ignoreWhere := cmpopts.IgnoreFields(reconstruct.Diagnostic{}, "Where")
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
				uncut[a.ID] = a
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
				if werr != nil || dones != 1 {
					t.Fatalf("cut at %d: %v, %d UpdateDone", cut, werr, dones)
				}
				if cut%(8*cutStride) == 0 {
					rres, rerr := reconstruct.Read(strings.NewReader(prefix), nil)
					if (rerr == nil) != (err == nil) || (err != nil && rerr.Error() != err.Error()) || !sameRun(res, rres) {
						t.Fatalf("cut at %d: Read gives %v, the Stream %v", cut, rerr, err)
					}
				}
				if res.LastEventID != lastID || res.TaskID != taskID {
					t.Fatalf("cut at %d: task %q, last event id %q; want %q, %q", cut, res.TaskID, res.LastEventID, taskID, lastID)
				}
				if final {
					if err != nil {
						t.Fatalf("cut at %d, after the final state: %v", cut, err)
					}
				} else {
					var te *reconstruct.TruncatedError
					if !errors.As(err, &te) || !errors.Is(err, reconstruct.ErrTruncated) {
						t.Fatalf("cut at %d: %v, want a *TruncatedError", cut, err)
					}
					from := pendingFrom(c.in[last:cut])
					inside := from >= 0
					if te.TaskID != taskID || te.LastEventID != lastID || te.Offset != int64(cut) || te.Cause != nil ||
						errors.Is(err, io.ErrUnexpectedEOF) != inside || (te.Cut != nil) != inside ||
						(inside && te.Dropped != int64(cut-last-from)) || (!inside && te.Dropped != 0) {
						t.Fatalf("cut at %d: %+v, want task %q, last event id %q, inside an event %v (from byte %d)", cut, te, taskID, lastID, inside, last+from)
					}
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
						if err := json.Unmarshal(doc, &d); err != nil || d.Error == nil || d.Error.Type != "truncated" ||
							d.Error.TaskID == nil || *d.Error.TaskID != taskID || d.Error.LastEventID == nil ||
							*d.Error.LastEventID != lastID || d.Error.InsideEvent != inside {
							t.Fatalf("cut at %d: JSON document %s", cut, doc)
						}
					}
				}

				// The artifacts.
				for _, a := range res.Artifacts {
					u := uncut[a.ID]
					if u == nil || !bytes.HasPrefix(u.Text(), a.Text()) || a.Sealed != sealed[a.ID] {
						t.Fatalf("cut at %d: artifact %s (sealed %v) text %q, not a prefix of the uncut run's", cut, a.ID, a.Sealed, a.Text())
					}
					if a.Sealed {
						if diff := cmp.Diff(u, a, cmpResult); diff != "" {
							t.Fatalf("cut at %d: sealed artifact %s differs (-uncut +cut):\n%s", cut, a.ID, diff)
						}
					}
				}
				if len(res.Artifacts) != len(sealed) {
					t.Fatalf("cut at %d: %d artifacts, %d received", cut, len(res.Artifacts), len(sealed))
				}

				// Resume.
				sub, ok := subscription(c.in, events, n, cut/cutStride%2 == 0)
				if !ok {
					continue
				}
				resumeRun.Reset(nil)
				closeErr, dones, werr := pushAll(resumeRun, resumeRun.Resume, prefix, sub)
				if werr != nil || closeErr != nil || dones != 1 {
					t.Fatalf("cut at %d, resumed: %v, %v, %d UpdateDone", cut, werr, closeErr, dones)
				}
				resumed++
				// The runs are compared on what a cut changes first, and
				// whole (their documents, then with cmp to say where they
				// differ) at one cut in eight or when that differs.
				if !sameRun(want, resumeRun.Result()) || cut%(8*cutStride) == 0 && !bytes.Equal(resultjson.Append(doc[:0], resumeRun.Result(), nil, nil), wantDoc) {
					if diff := cmp.Diff(want, resumeRun.Result(), cmpResult, ignoreWhere); diff != "" {
						t.Fatalf("cut at %d (%d events whole), resumed: Result differs (-uncut +resumed):\n%s", cut, n, diff)
					}
				}
			}
			require.Greater(t, resumed, len(c.in)/cutStride/2, "most cuts resumed")
		})
	}
}

// sameRun compares what a cut and a resume can change in a run: its state,
// ids, status message, answer, and each artifact's text, parts and seal.
func sameRun(a, b *reconstruct.Result) bool {
	if a.State != b.State || a.TaskID != b.TaskID || a.ContextID != b.ContextID || a.LastEventID != b.LastEventID ||
		len(a.Artifacts) != len(b.Artifacts) || len(a.Diagnostics) != len(b.Diagnostics) ||
		!bytes.Equal(a.StatusMessage.Text(), b.StatusMessage.Text()) || (a.Answer == nil) != (b.Answer == nil) ||
		(a.Usage == nil) != (b.Usage == nil) || (a.Usage != nil && *a.Usage != *b.Usage) {
		return false
	}
	if a.Answer != nil && a.Answer.ID != b.Answer.ID {
		return false
	}
	for i, x := range a.Artifacts {
		y := b.Artifacts[i]
		if x.ID != y.ID || x.Sealed != y.Sealed || x.Thinking != y.Thinking || len(x.Parts) != len(y.Parts) ||
			len(x.Citations) != len(y.Citations) || !bytes.Equal(x.Text(), y.Text()) || !bytes.Equal(x.Metadata, y.Metadata) {
			return false
		}
	}
	return true
}
