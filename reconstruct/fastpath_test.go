package reconstruct_test

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
)

// fastPathEdges puts deltas next to every case the delta fast path must
// leave to the general path: artifact metadata, a part with metadata (a
// second text part), a delta for an artifact other than the last one
// touched, an artifact sealed on a lone high surrogate then reopened by its
// low one, a name, deltas after the close, and an artifact sealed on a
// truncated high surrogate whose reopening completes it, so that the low
// surrogate of the next delta rewrites text already handed out.
var fastPathEdges = sseStream("fp",
	task("TASK_STATE_WORKING"),
	first("a", "x"),
	more("a", "y"),
	artifactUpdate("a", true, false, `{"k":1}`, text("m")),
	more("a", "z"),
	artifactUpdate("a", true, false, "", `{"text":"w","metadata":{"q":1}}`),
	more("a", "v"),
	first("b", "p"),
	more("a", "after b"),
	more("b", "q"),
	artifactUpdate("b", true, true, "", textRaw(`\ud83d`)),
	moreRaw("b", `\ude00!`),
	moreRaw("b", `\ud83d`),
	moreRaw("b", `\ude01 `),
	`{"artifactUpdate":{"taskId":"`+taskID+`","contextId":"`+ctxID+`","append":true,"artifact":{"artifactId":"b","name":"B","parts":[{"text":"n"}]}}}`,
	more("b", "é"),
	more("b", ""),
	thinkingClose("b"),
	more("b", "late"),
	first("c", "x"),
	artifactUpdate("c", true, true, "", text("\xed\xa0")),
	more("c", "\xbd"),
	moreRaw("c", `\ude00`),
	more("c", "!"),
	status("TASK_STATE_COMPLETED", "", ""),
	more("a", "after the end"),
)

// gatheredDeltas is a long run of deltas: some of 4 KiB and more, with a
// surrogate pair split around them, hundreds of small ones with pairs and
// accented letters, a general event among them, and long deltas to two
// artifacts in turn. (Read once gathered
// the text of such deltas before appending it, in 4 KiB; the stream stays
// as a test of long deltas.)
var gatheredDeltas = func() []string {
	const longDelta = 4 << 10
	events := []string{
		task("TASK_STATE_WORKING"),
		first("g", "start "),
		more("g", "x"),
		more("g", strings.Repeat("y", longDelta-3)),
		moreRaw("g", `\ud83d`),
		moreRaw("g", `\ude00`),
		more("g", strings.Repeat("z", longDelta+1)),
		more("g", "a"),
		more("g", strings.Repeat("w", longDelta)),
		more("g", "b"),
		more("g", strings.Repeat("v", 2*longDelta)),
	}
	for i := range 500 {
		switch i % 7 {
		case 3:
			events = append(events, moreRaw("g", `\ud83d`), moreRaw("g", `\ude01 `))
		case 5:
			events = append(events, more("g", "é"))
		default:
			events = append(events, more("g", "token-"+strconv.Itoa(i)+strings.Repeat("·", i%5)+" "))
		}
	}
	// A delta longer than a piece of a text kept in pieces (Read), of
	// characters of every length that the pieces' ends split, and a pair
	// split after it; then a second artifact with long deltas between
	// runs of the first's, so that each takes the pieces from the other.
	events = append(events,
		more("g", strings.Repeat("日本é🦶", 7000)),
		moreRaw("g", `\ud83d`),
		moreRaw("g", `\ude00`),
		first("h", strings.Repeat("h", 3000)),
		more("h", strings.Repeat("i", 5000)),
		more("g", "back to g "),
		more("g", strings.Repeat("k", 2000)),
		more("h", strings.Repeat("j", 70<<10)),
		more("g", "and again"))
	events = append(events, artifactUpdate("g", true, false, `{"k":1}`, text("m")))
	for i := range 100 {
		events = append(events, more("g", "after"+strconv.Itoa(i)+" "))
	}
	// The cut stream ends on a high surrogate, which the cut text holds
	// back.
	return append(events, more("g", strings.Repeat("l", 600)), moreRaw("g", `\ud83d`))
}()

// update is an Update with its views copied, for comparison; one with
// only LastEventID set records Stream.LastEventID after the updates of a
// chunk.
type update struct {
	Kind        reconstruct.UpdateKind
	Seq         int64
	Artifact    string
	Text        string
	State       string
	Message     string
	Err         string
	LastEventID string
}

// copyUpdate copies u's views into an update.
func copyUpdate(u *reconstruct.Update) update {
	c := update{Kind: u.Kind, Seq: u.Seq, Text: string(u.Text), State: u.State.String()}
	if u.Artifact != nil {
		c.Artifact = string(u.Artifact.ArtifactID)
	}
	if u.Message != nil {
		c.Message = string(reconstruct.MessageText(u.Message))
	}
	if u.Err != nil {
		c.Err = u.Err.Error()
	}
	return c
}

// runUpdates feeds in to s in chunks, closes it and returns every update,
// with the last event id after each chunk's, and the Result.
func runUpdates(s *reconstruct.Stream, in string, split splitter) ([]update, *reconstruct.Result) {
	var out []update
	drain := func() {
		for s.Next() {
			out = append(out, copyUpdate(s.Update()))
		}
		out = append(out, update{LastEventID: string(s.LastEventID())})
	}
	off := 0
	for _, k := range split(len(in)) {
		s.Write([]byte(in[off : off+k]))
		off += k
		drain()
	}
	s.Close()
	drain()
	return out, s.Result()
}

// applyEach runs in, written in the pieces split gives, through a
// sse.Lexer, a parser.Decoder and Reducer.Apply one event at a time,
// ending the run as a Stream ends it, and returns what runUpdates returns
// for a Stream. With general, every appending artifact update gets an
// empty plain text part after its parts: that adds nothing to the artifact
// (an empty plain text part is skipped), and keeps the update off the
// delta route, so that applyArtifact takes the text of every delta.
func applyEach(in string, split splitter, opts *reconstruct.Options, general bool) ([]update, *reconstruct.Result) {
	var lo sse.Options
	if opts != nil {
		lo.MaxEventSize = opts.MaxEventSize
	}
	lx := sse.NewLexer(&lo)
	var dec parser.Decoder
	r := reconstruct.NewReducer(opts)
	var out []update
	collect := func() {
		for i := range r.Pending() {
			out = append(out, copyUpdate(&r.Pending()[i]))
		}
	}
	drain := func() {
		for r.Err() == nil && lx.Next() {
			f := lx.Frame()
			ev, err := dec.Decode(f)
			switch {
			case err != nil:
				r.Fail(err)
			case general && ev.Kind == parser.KindArtifactUpdate && ev.ArtifactUpdate.Append:
				// A copy: the Decoder may reuse its event for the next.
				c := *ev
				a := &c.ArtifactUpdate.Artifact
				a.Parts = append(a.Parts[:len(a.Parts):len(a.Parts)], parser.Part{Kind: parser.PartText})
				r.Apply(f, &c)
			default:
				r.Apply(f, ev)
			}
			collect()
		}
		if err := lx.Err(); r.Err() == nil && err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			// An oversized event.
			r.Fail(err)
			collect()
		}
	}
	off := 0
	for _, k := range split(len(in)) {
		if r.Err() == nil {
			lx.Write([]byte(in[off : off+k]))
		}
		off += k
		drain()
		out = append(out, update{LastEventID: string(r.LastEventID())})
	}
	lx.Close()
	drain()
	r.Finish(lx.InputOffset()+int64(lx.Buffered()), lx.Err())
	collect()
	out = append(out, update{LastEventID: string(r.LastEventID())})
	return out, r.Result()
}

// cmpExact compares Results like cmpResult, and the artifacts' unexported
// fields too: the text handed out, the text parts counted, the joined text
// and the size.
var cmpExact = cmp.Options{
	cmp.AllowUnexported(reconstruct.Artifact{}),
	cmpResult[1], cmpResult[2],
}

// TestDeltaFastPath checks that the delta route, and the Stream's
// shortcut to it for a delta with the envelope of the last (Reducer.repeat),
// change nothing: on every test stream, whole, in random pieces and byte by
// byte, with the default limits and with limits that deltas cross, Apply
// given every appending update padded off the delta route (applyEach with
// general), Apply given the events as they are, and a Stream give the same
// updates, in the same order, the same last event id after every chunk
// (repeat keeps it as a view into the lexer's buffer, which the chunks
// move), and the same Result, down to the artifacts' unexported fields; and
// so does Read, which drops the text updates, on reads of the same sizes.
func TestDeltaFastPath(t *testing.T) {
	streams := append(corpus(t), corpusStream{"fastPathEdges", fastPathEdges},
		corpusStream{"fastPathEdges/jsonrpc", rpc(fastPathEdges)},
		corpusStream{"benchCorpus", string(benchCorpus(400))},
		corpusStream{"gatheredDeltas", sseStream("gd", append(gatheredDeltas, status("TASK_STATE_COMPLETED", "", ""))...)},
		corpusStream{"gatheredDeltas/cut", sseStream("gd", gatheredDeltas...)})
	for _, e := range errorStreams {
		streams = append(streams, corpusStream{"error/" + e.name, e.in})
	}
	limits := []*reconstruct.Options{
		nil,
		{MaxArtifactSize: 24},
		{MaxArtifactSize: 200, Strict: true},
		{MaxRunSize: 40},
	}
	splits := map[string]splitter{"whole": whole, "random": randomSplits(7), "1-byte": oneByte}
	for _, c := range streams {
		for i, opts := range limits {
			for name, split := range splits {
				if name == "1-byte" && (strings.HasPrefix(c.name, "gatheredDeltas") || testing.Short() && len(c.in) > 4<<10) {
					// Long, and the random splits cut it everywhere; with
					// -short (CI's run under wasip1, an interpreter-speed
					// runtime) every stream over 4 KiB takes the random
					// splits alone.
					continue
				}
				t.Run(c.name+"/"+strconv.Itoa(i)+"/"+name, func(t *testing.T) {
					wantUpdates, want := applyEach(c.in, split, opts, true)
					routeUpdates, route := applyEach(c.in, split, opts, false)
					require.Empty(t, cmp.Diff(wantUpdates, routeUpdates), "updates differ (-general +delta route)")
					require.Empty(t, cmp.Diff(want, route, cmpExact), "Result differs (-general +delta route)")
					gotUpdates, got := runUpdates(reconstruct.NewStream(opts), c.in, split)
					require.Empty(t, cmp.Diff(wantUpdates, gotUpdates), "updates differ (-general +Stream)")
					require.Empty(t, cmp.Diff(want, got, cmpExact), "Result differs (-general +Stream)")
					read, err := reconstruct.Read(&pieceReader{in: c.in, sizes: split(len(c.in))}, opts)
					require.Empty(t, cmp.Diff(want, read, cmpExact), "Read's Result differs (-general +Read)")
					assert.Equal(t, read.Err, err, "Read's error and its Result's")
				})
			}
		}
	}
}

// pieceReader reads in in pieces of the given sizes, one per call.
type pieceReader struct {
	in    string
	sizes []int
}

func (r *pieceReader) Read(p []byte) (int, error) {
	if len(r.in) == 0 {
		return 0, io.EOF
	}
	k := min(len(p), len(r.in))
	if len(r.sizes) > 0 {
		k = min(k, r.sizes[0])
		r.sizes = r.sizes[1:]
	}
	n := copy(p, r.in[:k])
	r.in = r.in[n:]
	return n, nil
}

// TestDeltaFastPathTakes checks which events take the delta route: a plain
// text delta appended to the open artifact touched last, and none of the
// events it must leave to applyArtifact, among them a delta padded with an
// empty text part as applyEach pads them. The size limits are checked on
// the route: a delta that crosses one ends the run. (TestDeltaFastPath
// checks that the route changes nothing; this test shows that it compares
// two paths.)
func TestDeltaFastPathTakes(t *testing.T) {
	open := []string{task("TASK_STATE_WORKING"), first("a", "x")}
	tests := []struct {
		name   string
		before []string
		event  string
		opts   *reconstruct.Options
		want   bool
		err    error // from Apply, after the check
	}{
		{"delta", open, more("a", "y"), nil, true, nil},
		{"delta after deltas", append(open, more("a", "y")), more("a", "z"), nil, true, nil},
		{"multi-byte delta", open, more("a", "血压 "), nil, true, nil},
		{"delta ending mid-character", open, moreRaw("a", `\ud83d`), nil, true, nil},
		{"empty text", open, more("a", ""), nil, true, nil},
		{"replacing update", open, first("a", "y"), nil, false, nil},
		{"last chunk", open, artifactUpdate("a", true, true, "", text("y")), nil, false, nil},
		{"artifact metadata", open, artifactUpdate("a", true, false, `{"k":1}`, text("y")), nil, false, nil},
		{"part metadata", open, artifactUpdate("a", true, false, "", `{"text":"y","metadata":{"q":1}}`), nil, false, nil},
		{"two parts", open, artifactUpdate("a", true, false, "", text("y"), text("z")), nil, false, nil},
		{"padded as applyEach pads", open, artifactUpdate("a", true, false, "", text("y"), text("")), nil, false, nil},
		{"data part", open, artifactUpdate("a", true, false, "", `{"data":{"k":1}}`), nil, false, nil},
		{"artifact name", open, `{"artifactUpdate":{"taskId":"` + taskID + `","contextId":"` + ctxID + `","append":true,"artifact":{"artifactId":"a","name":"A","parts":[{"text":"y"}]}}}`, nil, false, nil},
		{"other artifact touched last", append(open, first("b", "p")), more("a", "y"), nil, false, nil},
		{"unknown artifact", open, more("c", "y"), nil, false, nil},
		{"sealed artifact", append(open, artifactUpdate("a", true, true, "", text("y"))), more("a", "z"), nil, false, nil},
		{"two text parts", append(open, artifactUpdate("a", true, false, "", `{"text":"w","metadata":{"q":1}}`)), more("a", "z"), nil, false, nil},
		{"past MaxArtifactSize", open, more("a", strings.Repeat("y", 8)), &reconstruct.Options{MaxArtifactSize: 8}, true, reconstruct.ErrArtifactTooLarge},
		{"within MaxArtifactSize", open, more("a", strings.Repeat("y", 7)), &reconstruct.Options{MaxArtifactSize: 8}, true, nil},
		{"past MaxRunSize", open, more("a", strings.Repeat("y", 8)), &reconstruct.Options{MaxRunSize: 8}, true, reconstruct.ErrRunTooLarge},
		{"within MaxRunSize", open, more("a", strings.Repeat("y", 7)), &reconstruct.Options{MaxRunSize: 8}, true, nil},
		// The seal handed out a truncated high surrogate, which the
		// reopening delta completed: the text handed out now ends past
		// the last whole character.
		{"reopened past a held character", []string{task("TASK_STATE_WORKING"), first("a", "x"),
			artifactUpdate("a", true, true, "", text("\xed\xa0")), more("a", "\xbd")}, more("a", "y"), nil, false, nil},
		// Reopened on a lone high surrogate, then another one: what was
		// handed out ends on the first, a whole character.
		{"reopened, then a pair", []string{task("TASK_STATE_WORKING"), first("a", "x"),
			artifactUpdate("a", true, true, "", textRaw(`\ud83d`)), moreRaw("a", `\ud83d`)}, moreRaw("a", `\ude00`), nil, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := reconstruct.NewReducer(tt.opts)
			var dec parser.Decoder
			for i, data := range append(tt.before, tt.event) {
				f := sse.Frame{Seq: int64(i + 1), Data: []byte(data)}
				ev, err := dec.Decode(&f)
				require.NoError(t, err, "event %d", i+1)
				if i == len(tt.before) {
					assert.Equal(t, tt.want, reconstruct.TakesDeltaRoute(r, ev), "takes the delta route")
					require.ErrorIs(t, r.Apply(&f, ev), tt.err)
					continue
				}
				require.NoError(t, r.Apply(&f, ev), "event %d", i+1)
			}
		})
	}
}

// TestLastEventIDView follows the last event id through writes that move
// the lexer's buffer and overwrite the lexer's own copy of the id, after
// events that Reducer.repeat applied: an event without an id line takes
// its id from that copy, and an id-only event (no data, so nothing
// applied) changes the copy but not the last event applied.
func TestLastEventIDView(t *testing.T) {
	pad := ": " + strings.Repeat("p", 5000) + "\n"
	pieces := []string{
		"id: t1\ndata: " + task("TASK_STATE_WORKING") + "\n\nid: d1\ndata: " + first("a", "x") + "\n\nid: d2\ndata: " + more("a", "y") + "\n\n",
		pad,
		"data: " + more("a", "z") + "\n\n",
		"id: only\n\n",
		pad,
		"data: " + more("a", "w") + "\n\n",
	}
	want := []string{"d2", "d2", "d2", "d2", "d2", "only"}
	var sizes []int
	for _, p := range pieces {
		sizes = append(sizes, len(p))
	}
	split := func(int) []int { return sizes }
	in := strings.Join(pieces, "")
	general, _ := applyEach(in, split, nil, true)
	fast, _ := runUpdates(reconstruct.NewStream(nil), in, split)
	require.Empty(t, cmp.Diff(general, fast), "updates differ (-general +Stream)")
	var got []string
	for _, u := range fast {
		if u.Kind == 0 {
			got = append(got, u.LastEventID)
		}
	}
	require.Empty(t, cmp.Diff(append(want, "only"), got), "last event id after each write, then after Close (-want +got)")
}

// TestRepeatTakes follows which deltas a Stream hands to Reducer.repeat:
// those in the envelope of a delta that took the delta route just before
// (parser.Decoder.SameEnvelope), and no delta after another event.
// (TestDeltaFastPath checks that this changes nothing.)
func TestRepeatTakes(t *testing.T) {
	steps := []struct {
		event  string
		repeat bool // whether the next delta in this envelope takes repeat
	}{
		{task("TASK_STATE_WORKING"), false},
		{first("a", "x"), false},
		{more("a", "y"), true},
		{more("a", "z"), true},
		{more("a", "é"), true},
		{status("TASK_STATE_WORKING", "", ""), false},
		{more("a", "w"), true},
		{first("b", "x"), false},
		{more("b", "y"), true},
	}
	s := reconstruct.NewStream(nil)
	for i, st := range steps {
		s.Write([]byte(sseStream(strconv.Itoa(i), st.event)))
		for s.Next() {
		}
		require.Equal(t, st.repeat, reconstruct.Repeatable(s), "after event %d (%s)", i, st.event)
	}
	assert.Equal(t, "xyzéw", string(s.Result().Artifacts[0].Text()))
}
