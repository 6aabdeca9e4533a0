package reconstruct_test

import (
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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

// gatheredDeltas is a long run of deltas for Read, which gathers the text
// of repeated deltas and appends it once it holds MaxPend bytes: a gathered
// text filled to the byte, a surrogate pair split where it is appended,
// deltas of MaxPend bytes and more, hundreds of small ones with pairs and
// accented letters, and a general event and the end of the stream while
// text is gathered.
var gatheredDeltas = func() []string {
	events := []string{
		task("TASK_STATE_WORKING"),
		first("g", "start "),
		more("g", "x"),
		more("g", strings.Repeat("y", reconstruct.MaxPend-3)),
		moreRaw("g", `\ud83d`),
		moreRaw("g", `\ude00`),
		more("g", strings.Repeat("z", reconstruct.MaxPend+1)),
		more("g", "a"),
		more("g", strings.Repeat("w", reconstruct.MaxPend)),
		more("g", "b"),
		more("g", strings.Repeat("v", 2*reconstruct.MaxPend)),
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
	events = append(events, artifactUpdate("g", true, false, `{"k":1}`, text("m")))
	for i := range 100 {
		events = append(events, more("g", "after"+strconv.Itoa(i)+" "))
	}
	return events
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

// runUpdates feeds in to s in chunks, closes it and returns every update,
// with the last event id after each chunk's, and the Result.
func runUpdates(s *reconstruct.Stream, in string, split splitter) ([]update, *reconstruct.Result) {
	var out []update
	drain := func() {
		for s.Next() {
			u := s.Update()
			c := update{Kind: u.Kind, Seq: u.Seq, Text: string(u.Text), State: u.State.String()}
			if u.Artifact != nil {
				c.Artifact = u.Artifact.ID
			}
			if u.Message != nil {
				c.Message = string(u.Message.Text())
			}
			if u.Err != nil {
				c.Err = u.Err.Error()
			}
			out = append(out, c)
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

// cmpExact compares Results like cmpResult, and the artifacts' unexported
// fields too: the text handed out, the text parts counted, the joined text
// and the size.
var cmpExact = cmp.Options{
	cmp.AllowUnexported(reconstruct.Artifact{}),
	cmpResult[1], cmpResult[2],
}

// TestDeltaFastPath checks that the fast path the Reducer takes for token
// deltas changes nothing: on every test stream, whole, in random pieces and
// byte by byte, with the default limits and with limits that deltas cross,
// a Stream whose Reducer takes the general path for every event gives the
// same updates, in the same order, the same last event id after every
// chunk (the fast path keeps it as a view into the lexer's buffer, which
// the chunks move), and the same Result, down to the artifacts' unexported
// fields; and so does Read, which drops the updates, on reads of the same
// sizes.
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
				if name == "1-byte" && strings.HasPrefix(c.name, "gatheredDeltas") {
					// Long: what Read gathers does not depend on the
					// reads, and the random splits cut it everywhere.
					continue
				}
				t.Run(c.name+"/"+strconv.Itoa(i)+"/"+name, func(t *testing.T) {
					wantUpdates, want := runUpdates(generalOnly(opts), c.in, split)
					gotUpdates, got := runUpdates(reconstruct.NewStream(opts), c.in, split)
					if diff := cmp.Diff(wantUpdates, gotUpdates); diff != "" {
						t.Fatalf("updates differ (-general +fast):\n%s", diff)
					}
					if diff := cmp.Diff(want, got, cmpExact); diff != "" {
						t.Fatalf("Result differs (-general +fast):\n%s", diff)
					}
					read, err := reconstruct.Read(&pieceReader{in: c.in, sizes: split(len(c.in))}, opts)
					if diff := cmp.Diff(want, read, cmpExact); diff != "" {
						t.Fatalf("Read's Result differs (-general +Read):\n%s", diff)
					}
					if err != read.Err {
						t.Fatalf("Read returned %v, its Result has %v", err, read.Err)
					}
				})
			}
		}
	}
}

// TestReadGathering checks that the text Read gathers is in the Result
// the run's UpdateDone points at, as the general path builds it, whether
// the run completes, is cut short or fails, over a run of deltas with
// about 40 times MaxPend bytes of text.
func TestReadGathering(t *testing.T) {
	events := []string{task("TASK_STATE_WORKING"), first("g", "start "), more("g", "x")}
	for i := range 8000 {
		events = append(events, more("g", "token-"+strconv.Itoa(i)+strings.Repeat("·", i%7)+" "))
	}
	ends := map[string]string{
		"completed": sseStream("gd", append(events, status("TASK_STATE_COMPLETED", "", ""))...),
		"cut":       sseStream("gd", events...),
		"bad frame": sseStream("gd", append(events, "{")...),
	}
	for name, in := range ends {
		t.Run(name, func(t *testing.T) {
			_, general := runUpdates(generalOnly(nil), in, whole)
			want := string(general.Artifacts[0].Text())
			if got := reconstruct.ReadGathering(strings.NewReader(in), nil); got != want {
				t.Errorf("the UpdateDone's Result has %d bytes of text, the general path's %d", len(got), len(want))
			}
		})
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

// generalOnly returns a Stream whose Reducer takes the general path for
// every event.
func generalOnly(opts *reconstruct.Options) *reconstruct.Stream {
	s := reconstruct.NewStream(opts)
	reconstruct.GeneralPathOnly(s)
	return s
}

// TestDeltaFastPathTakes checks which events the delta fast path takes:
// a plain text delta appended to the open artifact touched last, and none
// of the events it must leave to the general path. (TestDeltaFastPath checks
// that taking one changes nothing; this test shows that it compares two
// paths.)
func TestDeltaFastPathTakes(t *testing.T) {
	open := []string{task("TASK_STATE_WORKING"), first("a", "x")}
	tests := []struct {
		name   string
		before []string
		event  string
		opts   *reconstruct.Options
		want   bool
	}{
		{"delta", open, more("a", "y"), nil, true},
		{"delta after deltas", append(open, more("a", "y")), more("a", "z"), nil, true},
		{"multi-byte delta", open, more("a", "血压 "), nil, true},
		{"delta ending mid-character", open, moreRaw("a", `\ud83d`), nil, true},
		{"replacing update", open, first("a", "y"), nil, false},
		{"last chunk", open, artifactUpdate("a", true, true, "", text("y")), nil, false},
		{"artifact metadata", open, artifactUpdate("a", true, false, `{"k":1}`, text("y")), nil, false},
		{"part metadata", open, artifactUpdate("a", true, false, "", `{"text":"y","metadata":{"q":1}}`), nil, false},
		{"two parts", open, artifactUpdate("a", true, false, "", text("y"), text("z")), nil, false},
		{"data part", open, artifactUpdate("a", true, false, "", `{"data":{"k":1}}`), nil, false},
		{"empty text", open, more("a", ""), nil, false},
		{"artifact name", open, `{"artifactUpdate":{"taskId":"` + taskID + `","contextId":"` + ctxID + `","append":true,"artifact":{"artifactId":"a","name":"A","parts":[{"text":"y"}]}}}`, nil, false},
		{"other artifact touched last", append(open, first("b", "p")), more("a", "y"), nil, false},
		{"unknown artifact", open, more("c", "y"), nil, false},
		{"sealed artifact", append(open, artifactUpdate("a", true, true, "", text("y"))), more("a", "z"), nil, false},
		{"two text parts", append(open, artifactUpdate("a", true, false, "", `{"text":"w","metadata":{"q":1}}`)), more("a", "z"), nil, false},
		{"past MaxArtifactSize", open, more("a", strings.Repeat("y", 8)), &reconstruct.Options{MaxArtifactSize: 8}, false},
		{"within MaxArtifactSize", open, more("a", strings.Repeat("y", 7)), &reconstruct.Options{MaxArtifactSize: 8}, true},
		{"past MaxRunSize", open, more("a", strings.Repeat("y", 8)), &reconstruct.Options{MaxRunSize: 8}, false},
		{"within MaxRunSize", open, more("a", strings.Repeat("y", 7)), &reconstruct.Options{MaxRunSize: 8}, true},
		// The seal handed out a truncated high surrogate, which the
		// reopening delta completed: the text handed out now ends past
		// the last whole character.
		{"reopened past a held character", []string{task("TASK_STATE_WORKING"), first("a", "x"),
			artifactUpdate("a", true, true, "", text("\xed\xa0")), more("a", "\xbd")}, more("a", "y"), nil, false},
		// Reopened on a lone high surrogate, then another one: what was
		// handed out ends on the first, a whole character.
		{"reopened, then a pair", []string{task("TASK_STATE_WORKING"), first("a", "x"),
			artifactUpdate("a", true, true, "", textRaw(`\ud83d`)), moreRaw("a", `\ud83d`)}, moreRaw("a", `\ude00`), nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := reconstruct.NewReducer(tt.opts)
			var dec parser.Decoder
			for i, data := range append(tt.before, tt.event) {
				f := sse.Frame{Seq: int64(i + 1), Data: []byte(data)}
				ev, err := dec.Decode(&f)
				if err != nil {
					t.Fatalf("event %d: %v", i+1, err)
				}
				if i < len(tt.before) {
					if err := r.Apply(&f, ev); err != nil {
						t.Fatalf("event %d: %v", i+1, err)
					}
					continue
				}
				if got := reconstruct.ApplyDeltaFast(r, &f, ev); got != tt.want {
					t.Errorf("fast path took the event: %v, want %v", got, tt.want)
				}
			}
		})
	}
}

// TestLastEventIDView follows the last event id through writes that move
// the lexer's buffer and overwrite the lexer's own copy of the id, which
// Reducer.repeat leaves the id a view of: an event without an id line
// takes its id from that copy, and an id-only event (no data, so nothing
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
	general, _ := runUpdates(generalOnly(nil), in, split)
	fast, _ := runUpdates(reconstruct.NewStream(nil), in, split)
	if diff := cmp.Diff(general, fast); diff != "" {
		t.Fatalf("updates differ (-general +fast):\n%s", diff)
	}
	var got []string
	for _, u := range fast {
		if u.Kind == 0 {
			got = append(got, u.LastEventID)
		}
	}
	if diff := cmp.Diff(append(want, "only"), got); diff != "" {
		t.Fatalf("last event id after each write, then after Close (-want +got):\n%s", diff)
	}
}

// TestRepeatTakes follows which deltas a Stream hands to Reducer.repeat:
// those of the shape of a delta the fast path took just before, and no
// delta after another event. (TestDeltaFastPath checks that this changes
// nothing.)
func TestRepeatTakes(t *testing.T) {
	steps := []struct {
		event  string
		repeat bool // whether the next delta of this shape takes repeat
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
	var shape uint64
	for i, st := range steps {
		s.Write([]byte(sseStream(strconv.Itoa(i), st.event)))
		for s.Next() {
		}
		got := reconstruct.RepeatShape(s)
		if (got != 0) != st.repeat {
			t.Fatalf("after event %d (%s): repeat shape %d, want one: %v", i, st.event, got, st.repeat)
		}
		if i == 3 || i == 4 {
			// Deltas taken by repeat keep their shape.
			if got != shape {
				t.Fatalf("after event %d: shape %d, want %d", i, got, shape)
			}
		}
		shape = got
	}
	if got, want := string(s.Result().Artifacts[0].Text()), "xyzéw"; got != want {
		t.Fatalf("text %q, want %q", got, want)
	}
}
