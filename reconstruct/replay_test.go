package reconstruct_test

// This file tests the live updates of a resumed run against the uncut
// run's, for both replay models of tasks/{id}:subscribe: the events after
// Last-Event-ID, and Corti's replay from the start of the artifact in
// progress (today's server, which does not read Last-Event-ID), with or
// without a task snapshot before it.

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/reconstruct"
)

// liveEntry is one thing a typing UI is told about an artifact's text: new
// text to append (an UpdateText), or text to show instead (an
// UpdateReplaced).
type liveEntry struct {
	Artifact string
	Replaced bool
	Text     string
}

// liveLog is the text updates of a run in order, as a typing UI takes them:
// consecutive UpdateText of one artifact are one entry, so that two runs
// that hand out the same text in other pieces have the same log.
type liveLog []liveEntry

// add records u when it is a text update.
func (l liveLog) add(u *reconstruct.Update) liveLog {
	if u.Kind != reconstruct.UpdateText && u.Kind != reconstruct.UpdateReplaced {
		return l
	}
	e := liveEntry{string(u.Artifact.ArtifactID), u.Kind == reconstruct.UpdateReplaced, string(u.Text)}
	if n := len(l); n > 0 && !e.Replaced && l[n-1].Artifact == e.Artifact && !l[n-1].Replaced {
		l[n-1].Text += e.Text
		return l
	}
	return append(l, e)
}

// typed returns what a UI that handles only UpdateText shows: every
// UpdateText's text, in order.
func (l liveLog) typed() string {
	var b strings.Builder
	for _, e := range l {
		if !e.Replaced {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

// pushLive writes each input to s, calling between after each but the
// last, closes s, and returns the text updates it handed out and Close's
// error.
func pushLive(t *testing.T, s *reconstruct.Stream, between func() error, ins ...string) (liveLog, error) {
	var log liveLog
	for i, in := range ins {
		_, err := s.Write([]byte(in))
		require.NoError(t, err)
		for s.Next() {
			log = log.add(s.Update())
		}
		if i < len(ins)-1 {
			require.NoError(t, between())
		}
	}
	err := s.Close()
	for s.Next() {
		log = log.add(s.Update())
	}
	return log, err
}

// replayModel builds what a resubscription sends after the client received
// events[:k] of the stream in whole; ok is false when there is nothing to
// resume (no task id yet, or the run had ended).
type replayModel struct {
	name string
	sub  func(in string, events []wireEvent, k int) (sub string, ok bool)
}

var replayModels = []replayModel{
	{"Last-Event-ID", func(in string, events []wireEvent, k int) (string, bool) {
		_, _, ok := subscriptionParts(in, events, k, false)
		if !ok || k == len(events) {
			return "", false
		}
		return in[events[k].off:], true
	}},
	{"artifact replayed", func(in string, events []wireEvent, k int) (string, bool) {
		_, replay, ok := subscriptionParts(in, events, k, false)
		return replay, ok
	}},
	{"snapshot, artifact replayed", func(in string, events []wireEvent, k int) (string, bool) {
		return subscription(in, events, k, false)
	}},
	{"snapshot with artifacts, artifact replayed", func(in string, events []wireEvent, k int) (string, bool) {
		return subscription(in, events, k, true)
	}},
}

// liveCut is where TestResumeLiveText cuts a stream, and the replay models
// it resumes with there.
type liveCut struct {
	at     int
	models []replayModel
}

// liveCuts returns where TestResumeLiveText cuts a stream of n bytes with
// the given events: at every event boundary and in the middle of every
// event, resumed with every replay model; and every stride bytes (none
// when stride is 0), resumed with one model in turn.
func liveCuts(events []wireEvent, n, stride int) []liveCut {
	seen := map[int]bool{}
	var cuts []liveCut
	for _, ev := range events {
		for _, at := range []int{ev.off, (ev.off + ev.end) / 2} {
			if !seen[at] {
				seen[at] = true
				cuts = append(cuts, liveCut{at, replayModels})
			}
		}
	}
	for at, i := 0, 0; stride > 0 && at <= n; at, i = at+stride, i+1 {
		if !seen[at] {
			cuts = append(cuts, liveCut{at, replayModels[i%len(replayModels) : i%len(replayModels)+1]})
		}
	}
	return cuts
}

// TestResumeLiveText cuts every test stream (the recorded ones and the
// package's, in both bindings) at every event boundary and in the middle of
// every event, resumed with each replay model, and (REST) at every byte
// (every liveStride bytes), resumed with one model in turn; it checks
// that a typing UI is told what the uncut run tells it: the same text
// updates (text handed out in other pieces aside), so that a UI that
// handles only UpdateText shows each character once; and the same Result.
func TestResumeLiveText(t *testing.T) {
	ignorePosition := cmpopts.IgnoreFields(reconstruct.Diagnostic{}, "Position")
	for _, c := range corpus(t) {
		t.Run(c.name, func(t *testing.T) {
			s := reconstruct.NewStream(nil)
			wantLog, wantErr := pushLive(t, s, nil, c.in)
			require.NoError(t, wantErr)
			want := s.Result()
			events := wireEvents(t, c.in)
			stride := liveStride
			if testing.Short() {
				stride = max(stride, 7) // a prime, as TestCutAtEveryByte's
			}
			if strings.HasSuffix(c.name, "/jsonrpc") {
				stride = 0 // the same events as the REST stream's
			}
			resumed := 0
			for _, lc := range liveCuts(events, len(c.in), stride) {
				cut, k := lc.at, 0 // k: the events received whole
				for k < len(events) && events[k].end <= cut {
					k++
				}
				for _, m := range lc.models {
					sub, ok := m.sub(c.in, events, k)
					if !ok {
						continue
					}
					resumed++
					s := reconstruct.NewStream(nil)
					log, err := pushLive(t, s, s.Resume, c.in[:cut], sub)
					require.NoError(t, err, "cut at %d (%d events whole), %s", cut, k, m.name)
					if !slices.Equal(wantLog, log) {
						require.Equal(t, wantLog.typed(), log.typed(), "cut at %d (%d events whole), %s: the text a UI of UpdateText shows", cut, k, m.name)
						require.Empty(t, cmp.Diff(wantLog, log), "cut at %d (%d events whole), %s: text updates (-uncut +resumed)", cut, k, m.name)
					}
					if !sameRun(want, s.Result()) {
						require.Empty(t, cmp.Diff(want, s.Result(), cmpResult, ignorePosition),
							"cut at %d (%d events whole), %s: Result differs (-uncut +resumed)", cut, k, m.name)
					}
				}
			}
			if len(events) > 2 {
				require.NotZero(t, resumed, "cuts resumed")
			}
		})
	}
}

// snapArtifact returns the JSON of an artifact of a task snapshot with one
// text part.
func snapArtifact(art, s string) string {
	return `{"artifactId":"` + art + `","parts":[` + text(s) + `]}`
}

// TestReplayLiveUpdates feeds a Stream connections cut before the run
// ended, each after a Resume, and checks what a typing UI is told: a
// replay that continues the text shown hands out only what it adds; one
// that departs from it replaces it.
func TestReplayLiveUpdates(t *testing.T) {
	typed := func(art, s string) liveEntry { return liveEntry{art, false, s} }
	replaced := func(art, s string) liveEntry { return liveEntry{art, true, s} }
	firstRaw := func(art, raw string) string { return artifactUpdate(art, false, false, "", textRaw(raw)) }
	working := task("TASK_STATE_WORKING")
	tests := []struct {
		name  string
		conns [][]string // the events of each connection
		want  liveLog
	}{
		{"replay catches up, then new text", [][]string{
			{working, first("a", "Mr. Jør"), more("a", "gensen ")},
			{first("a", "Mr. "), more("a", "Jørgensen "), more("a", "has "), completion("a", text("Mr. Jørgensen has "))},
		}, liveLog{typed("a", "Mr. Jørgensen has ")}},
		{"replay adds nothing", [][]string{
			{working, first("a", "Mr. "), more("a", "Jø")},
			{working, first("a", "Mr. "), more("a", "Jø"), completion("a", text("Mr. Jø"))},
		}, liveLog{typed("a", "Mr. Jø")}},
		{"replay cuts a character elsewhere", [][]string{
			{working, first("a", "Caf\xc3"), more("a", "\xa9 au")},
			{first("a", "Ca"), more("a", "f\xc3"), more("a", "\xa9 a"), more("a", "u lait")},
		}, liveLog{typed("a", "Café au lait")}},
		{"replay splits a surrogate pair", [][]string{
			{working, first("a", "x "), moreRaw("a", `\ud83d\ude00`)},
			{firstRaw("a", `x \ud83d`), moreRaw("a", `\ude00 y`)},
		}, liveLog{typed("a", "x \U0001F600 y")}},
		{"snapshot ahead of what was shown, then the replay", [][]string{
			{working, first("a", "Mr. ")},
			{task("TASK_STATE_WORKING", snapArtifact("a", "Mr. Jørgensen")), first("a", "Mr. "), more("a", "Jørgensen"), more("a", " has")},
		}, liveLog{typed("a", "Mr. Jørgensen has")}},
		{"snapshot behind what was shown, then the replay", [][]string{
			{working, first("a", "Mr. "), more("a", "Jørgensen")},
			{task("TASK_STATE_WORKING", snapArtifact("a", "Mr. ")), first("a", "Mr. "), more("a", "Jørgensen"), more("a", " has")},
		}, liveLog{typed("a", "Mr. Jørgensen has")}},
		{"second drop during the replay", [][]string{
			{working, first("a", "One two three")},
			{first("a", "One "), more("a", "two")},
			{working, first("a", "One "), more("a", "two "), more("a", "three four")},
		}, liveLog{typed("a", "One two three four")}},
		{"replay departs from what was shown", [][]string{
			{working, first("a", "The cat")},
			{first("a", "The dog"), more("a", " runs")},
		}, liveLog{typed("a", "The cat"), replaced("a", "The dog"), typed("a", " runs")}},
		{"replay departs while catching up", [][]string{
			{working, first("a", "The cat sat")},
			{first("a", "The "), more("a", "cow")},
		}, liveLog{typed("a", "The cat sat"), replaced("a", "The cow")}},
		{"sealed shorter than what was shown", [][]string{
			{working, first("a", "Draft one two")},
			{first("a", "Draft "), completion("a", text("Draft one"))},
		}, liveLog{typed("a", "Draft one two"), replaced("a", "Draft one")}},
		{"one artifact catches up at a time", [][]string{
			{working, first("a", "Alpha beta"), first("b", "Gamma delta")},
			{task("TASK_STATE_WORKING", snapArtifact("a", "Alpha"), snapArtifact("b", "Gamma"))},
		}, liveLog{typed("a", "Alpha beta"), typed("b", "Gamma delta"), replaced("a", "Alpha")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, split := range []struct {
				name string
				s    splitter
			}{{"whole", whole}, {"1-byte", oneByte}} {
				s := reconstruct.NewStream(nil)
				var log liveLog
				for i, events := range tt.conns {
					if i > 0 {
						require.NoError(t, s.Resume())
					}
					in := sseStream("c"+strconv.Itoa(i), events...)
					off := 0
					for _, k := range split.s(len(in)) {
						_, err := s.Write([]byte(in[off : off+k]))
						require.NoError(t, err)
						off += k
						for s.Next() {
							u := s.Update()
							if u.Kind == reconstruct.UpdateText {
								require.True(t, utf8.Valid(u.Text), "%s writes: UpdateText %q is not whole characters", split.name, u.Text)
							}
							log = log.add(u)
						}
					}
				}
				require.Equal(t, tt.want, log, "%s writes", split.name)
			}
		})
	}
}

// TestResumeTwiceLiveText cuts the recorded streams (and splitChars) at
// every event boundary and inside every event, resumes with Corti's replay
// from the artifact's start (with and without a task snapshot), cuts that
// connection again at every event boundary and inside every event of it,
// and resumes again from where the server then is: the live updates and
// the Result are still the uncut run's.
func TestResumeTwiceLiveText(t *testing.T) {
	streams := append(testdataStreams(t), corpusStream{"splitChars", splitChars})
	for _, c := range streams {
		t.Run(c.name, func(t *testing.T) {
			s := reconstruct.NewStream(nil)
			wantLog, wantErr := pushLive(t, s, nil, c.in)
			require.NoError(t, wantErr)
			want := s.Result()
			events := wireEvents(t, c.in)
			resumed := 0
			step := twiceStep
			if testing.Short() {
				step = max(step, 5)
			}
			for k1 := 1; k1 < len(events); k1 += step { // no task id before the first event
				for _, cut1 := range []int{events[k1].off, (events[k1].off + events[k1].end) / 2} {
					for _, withSnapshot := range []bool{false, true} {
						snap, replay, ok := subscriptionParts(c.in, events, k1, false)
						if !ok || replay == "" {
							continue
						}
						if !withSnapshot {
							snap = ""
						}
						from := 0 // the first event replayed
						for events[from].off != len(c.in)-len(replay) {
							from++
						}
						sub := snap + replay
						for _, ev := range wireEvents(t, sub) {
							for _, cut2 := range []int{ev.off, (ev.off + ev.end) / 2} {
								// The server has sent the events of
								// the replay received whole, and those
								// before the first cut.
								k2 := k1
								for j := from; j < len(events) && len(snap)+events[j].end-events[from].off <= cut2; j++ {
									k2 = max(k2, j+1)
								}
								sub2, ok := subscription(c.in, events, k2, false)
								if !ok {
									continue
								}
								resumed++
								s.Reset(nil)
								log, err := pushLive(t, s, s.Resume, c.in[:cut1], sub[:cut2], sub2)
								require.NoError(t, err, "cuts at %d and %d", cut1, cut2)
								if !slices.Equal(wantLog, log) {
									require.Empty(t, cmp.Diff(wantLog, log), "cuts at %d and %d, snapshot %v: text updates (-uncut +resumed)", cut1, cut2, withSnapshot)
								}
								if !sameRun(want, s.Result()) {
									require.Empty(t, cmp.Diff(want, s.Result(), cmpResult, cmpopts.IgnoreFields(reconstruct.Diagnostic{}, "Position")),
										"cuts at %d and %d, snapshot %v: Result differs (-uncut +resumed)", cut1, cut2, withSnapshot)
								}
							}
						}
					}
				}
			}
			require.NotZero(t, resumed, "cuts resumed twice")
		})
	}
}

// TestReplayEndsWithError ends a run with an error while a replay is still
// catching up with the text shown: the live text must end as the Result's,
// in an UpdateReplaced before the UpdateDone, whichever way the run ends.
// (FuzzPipelineBytes found the decode error case.)
func TestReplayEndsWithError(t *testing.T) {
	typed := func(s string) liveEntry { return liveEntry{"a", false, s} }
	replaced := func(s string) liveEntry { return liveEntry{"a", true, s} }
	working := task("TASK_STATE_WORKING")
	shown := []string{working, first("a", "Looking "), more("a", "the ")}
	tests := []struct {
		name string
		end  []string // events after the replay's first, which is behind
		fail bool     // the run then ends by CloseWithError
		want liveLog
	}{
		{"decode error", []string{`{"artifactUpdate":{`}, false, liveLog{typed("Looking the "), replaced("Looking ")}},
		{"event error", []string{`{"statusUpdate":{"taskId":"other","status":{"state":"TASK_STATE_WORKING"}}}`}, false, liveLog{typed("Looking the "), replaced("Looking ")}},
		{"failed read", nil, true, liveLog{typed("Looking the "), replaced("Looking ")}},
		{"cut", nil, false, liveLog{typed("Looking the "), replaced("Looking ")}},
		{"no parts, then a decode error", []string{artifactUpdate("a", false, false, "", ""), `{"artifactUpdate":{`}, false, liveLog{typed("Looking the "), replaced("")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := reconstruct.NewStream(&reconstruct.Options{Strict: true})
			var log liveLog
			take := func() {
				for s.Next() {
					log = log.add(s.Update())
				}
			}
			_, err := s.Write([]byte(sseStream("c", shown...)))
			require.NoError(t, err)
			take()
			require.NoError(t, s.Resume())
			_, err = s.Write([]byte(sseStream("r", append([]string{first("a", "Looking ")}, tt.end...)...)))
			require.NoError(t, err)
			take()
			if tt.fail {
				err = s.CloseWithError(errors.New("read failed"))
			} else {
				err = s.Close()
			}
			take()
			require.Error(t, err)
			require.Equal(t, tt.want, log)
			require.Equal(t, tt.want[len(tt.want)-1].Text, string(s.Result().Artifacts[0].Text()), "the Result's text")
		})
	}
}
