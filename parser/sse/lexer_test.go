package sse_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/sse"
)

// A lexCase is an input stream and what lexing it must give. Case names
// quote the HTML standard ("Server-sent events", sections "Parsing an event
// stream" and "Interpreting an event stream") where a rule comes from it.
type lexCase struct {
	name string
	in   string
	max  int // Options.MaxEventSize; 0 for the default
	// want lists the frames and errors in order, formatted by record and
	// errRecord; the Close verdict, if any, is last.
	want []string
	// last is LastEventID at the end.
	last string
}

var lexCases = []lexCase{
	// Byte order mark.
	{
		name: "One leading U+FEFF BYTE ORDER MARK character must be ignored",
		in:   "\xEF\xBB\xBFdata: a\n\n",
		want: []string{`@3 message id="" data="a"`},
	},
	{
		name: "only one leading BOM is ignored: a second one is part of the field name",
		in:   "\xEF\xBB\xBF\xEF\xBB\xBFdata: a\n\ndata: b\n\n",
		want: []string{`@15 message id="" data="b"`},
	},
	{
		name: "a BOM after the start of the stream is not ignored",
		in:   "data: a\n\n\xEF\xBB\xBFdata: b\n\n",
		want: []string{`@0 message id="" data="a"`},
	},
	{
		name: "a BOM alone is a clean empty stream",
		in:   "\xEF\xBB\xBF",
	},
	{
		name: "bytes that start like a BOM but are not one are content",
		in:   "\xEF\xBBdata: a\n\ndata: b\n\n",
		want: []string{`@11 message id="" data="b"`},
	},
	{
		name: "a stream cut inside the BOM drops its bytes",
		in:   "\xEF\xBB",
		want: []string{`cut @0 +2 id=""`},
	},

	// Line ends.
	{
		name: "a U+000D CARRIAGE RETURN U+000A LINE FEED (CRLF) character pair ends a line",
		in:   "data: a\r\n\r\ndata: b\r\n\r\n",
		want: []string{`@0 message id="" data="a"`, `@11 message id="" data="b"`},
	},
	{
		name: "a single U+000A LINE FEED (LF) character not preceded by a CR ends a line",
		in:   "data: a\n\ndata: b\n\n",
		want: []string{`@0 message id="" data="a"`, `@9 message id="" data="b"`},
	},
	{
		name: "a single U+000D CARRIAGE RETURN (CR) character not followed by a LF ends a line",
		in:   "data: a\r\rdata: b\r\r",
		want: []string{`@0 message id="" data="a"`, `@9 message id="" data="b"`},
	},
	{
		name: "CRLF, LF and CR mixed in one event",
		in:   "data: a\r\ndata: b\rdata: c\n\r\n",
		want: []string{`@0 message id="" data="a\nb\nc"`},
	},
	{
		name: "CRLF then a lone CR blank line",
		in:   "data: a\r\n\rdata: b\n\n",
		want: []string{`@0 message id="" data="a"`, `@10 message id="" data="b"`},
	},
	{
		name: "LF then CR are two line ends",
		in:   "data: a\n\rdata: b\n\n",
		want: []string{`@0 message id="" data="a"`, `@9 message id="" data="b"`},
	},
	{
		name: "CR CR LF is a line end then a blank line",
		in:   "data: a\r\r\ndata: b\n\n",
		want: []string{`@0 message id="" data="a"`, `@10 message id="" data="b"`},
	},
	{
		name: "U+2028, U+2029, NEL, VT and FF are not line ends",
		in:   "data: a\u2028b\u2029c\u0085d\ve\ff\n\n",
		want: []string{`@0 message id="" data="a\u2028b\u2029c\u0085d\ve\ff"`},
	},

	// Lines.
	{
		name: "If the line starts with a U+003A COLON character (:) Ignore the line",
		in:   ": keep-alive\ndata: a\n:\n\n",
		want: []string{`@13 message id="" data="a"`},
	},
	{
		name: "a comment line alone does not dispatch",
		in:   ": keep-alive\n\n: ping\n\n",
	},
	{
		name: "the field is the characters before the first colon, the value those after it",
		in:   "data:a:b: c\n\n",
		want: []string{`@0 message id="" data="a:b: c"`},
	},
	{
		name: "If value starts with a U+0020 SPACE character, remove it from value",
		in:   "data: a\n\ndata:b\n\n",
		want: []string{`@0 message id="" data="a"`, `@9 message id="" data="b"`},
	},
	{
		name: "only one leading space is removed from the value",
		in:   "data:  a \n\ndata:\tb\n\n",
		want: []string{`@0 message id="" data=" a "`, `@11 message id="" data="\tb"`},
	},
	{
		name: "the line is not empty but does not contain a colon: the whole line is the field name and the value is empty",
		in:   "data\n\n",
		want: []string{`@0 message id="" data=""`},
	},
	{
		name: "Field names must be compared literally, with no case folding performed",
		in:   "Data: a\nDATA: b\nEvent: x\nID: 1\n\ndata: c\n\n",
		want: []string{`@32 message id="" data="c"`},
	},
	{
		name: "Otherwise, the field is ignored",
		in:   "foo: bar\ndata: a\nda-ta: b\ndata_5\n data: c\n\n",
		want: []string{`@0 message id="" data="a"`},
	},
	{
		name: "field parsing (web-platform-tests format-field-parsing)",
		in:   "data:\x00\ndata:  2\rData:1\ndata\x00:2\ndata:1\r\x00data:4\nda-ta:3\rdata_5\ndata:3\rdata:\r\n data:32\ndata:4\n\n",
		want: []string{`@0 message id="" data="\x00\n 2\n1\n3\n\n4"`},
	},

	// Data and dispatch.
	{
		name: "Append the field value to the data buffer, then append a single U+000A LINE FEED (LF) character",
		in:   "data: YHOO\ndata: +2\ndata: 10\n\n",
		want: []string{`@0 message id="" data="YHOO\n+2\n10"`},
	},
	{
		name: "If the data buffer's last character is a U+000A LINE FEED (LF) character, then remove the last character",
		in:   "data\n\ndata\ndata\n\ndata:\n\n",
		want: []string{`@0 message id="" data=""`, `@6 message id="" data="\n"`, `@17 message id="" data=""`},
	},
	{
		name: "If the data buffer is an empty string, set the data buffer and the event type buffer to the empty string and return",
		in:   "event: add\n\ndata: a\n\n",
		want: []string{`@12 message id="" data="a"`},
	},
	{
		name: "a blank line with nothing pending does nothing",
		in:   "\n\n\r\n\rdata: a\n\n\n\n",
		want: []string{`@5 message id="" data="a"`},
	},
	{
		name: "a NUL byte in data passes through",
		in:   "data: a\x00b\n\n",
		want: []string{`@0 message id="" data="a\x00b"`},
	},
	{
		name: "the data of the spec's stream example",
		in:   ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n",
		want: []string{
			`@15 message id="1" data="first event"`,
			`@40 message id="" data="second event"`,
			`@62 message id="" data=" third event"`,
		},
	},
	{
		name: "data:test and data: test are the same",
		in:   "data:test\n\ndata: test\n\n",
		want: []string{`@0 message id="" data="test"`, `@11 message id="" data="test"`},
	},

	// Event type.
	{
		name: "If the field name is event Set the event type buffer to the field value",
		in:   "event: add\ndata: 73857293\n\nevent: remove\ndata: 2153\n\nevent: add\ndata: 113411\n\n",
		want: []string{
			`@0 add id="" data="73857293"`,
			`@27 remove id="" data="2153"`,
			`@53 add id="" data="113411"`,
		},
	},
	{
		name: "the event type defaults to message and is reset after each event",
		in:   "event: add\ndata: 1\n\ndata: 2\n\n",
		want: []string{`@0 add id="" data="1"`, `@20 message id="" data="2"`},
	},
	{
		name: "an empty event field gives the type message",
		in:   "event:\ndata: a\n\nevent: \ndata: b\n\n",
		want: []string{`@0 message id="" data="a"`, `@16 message id="" data="b"`},
	},
	{
		name: "the last event field wins",
		in:   "event: a\ndata: x\nevent: b\n\n",
		want: []string{`@0 b id="" data="x"`},
	},

	// Last event ID.
	{
		name: "If the field name is id set the last event ID buffer to the field value; it persists",
		in:   "id: 1\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\n",
		want: []string{`@0 message id="1" data="a"`, `@15 message id="1" data="b"`, `@24 message id="2" data="c"`},
		last: "2",
	},
	{
		name: "an empty id resets the last event ID",
		in:   "id: 1\ndata: a\n\nid\ndata: b\n\nid:\ndata: c\n\n",
		want: []string{`@0 message id="1" data="a"`, `@15 message id="" data="b"`, `@27 message id="" data="c"`},
	},
	{
		name: "If the field value does not contain U+0000 NULL set the last event ID buffer; Otherwise, ignore the field",
		in:   "id: 1\ndata: a\n\nid: 2\x003\ndata: b\n\n",
		want: []string{`@0 message id="1" data="a"`, `@15 message id="1" data="b"`},
		last: "1",
	},
	{
		name: "The buffer does not get reset: an event without data still sets the last event ID",
		in:   "id: 7\n\ndata: a\n\n",
		want: []string{`@7 message id="7" data="a"`},
		last: "7",
	},
	{
		name: "the id is taken at the blank line, wherever it is in the event",
		in:   "data: a\nid: x\nid: y\n\n",
		want: []string{`@0 message id="y" data="a"`},
		last: "y",
	},
	{
		name: "an id with spaces and non-ASCII bytes is kept as is",
		in:   "id:  a b é\ndata: a\n\n",
		want: []string{`@0 message id=" a b é" data="a"`},
		last: " a b é",
	},

	// Retry.
	{
		name: "If the field value consists of only ASCII digits interpret it as an integer in base ten",
		in:   "retry: 1000\ndata: a\n\ndata: b\n\n",
		want: []string{`@0 message id="" data="a" retry=1000`, `@21 message id="" data="b"`},
	},
	{
		name: "Otherwise, ignore the field: retry with a non-digit",
		in:   "retry: 10a\ndata: a\n\nretry: -1\ndata: b\n\nretry: 1.5\ndata: c\n\nretry:  100\ndata: d\n\nretry:\ndata: e\n\n",
		want: []string{
			`@0 message id="" data="a"`,
			`@20 message id="" data="b"`,
			`@39 message id="" data="c"`,
			`@59 message id="" data="d"`,
			`@80 message id="" data="e"`,
		},
	},
	{
		name: "a retry too large for int64 saturates",
		in:   "retry: 99999999999999999999999\ndata: a\n\n",
		want: []string{`@0 message id="" data="a" retry=9223372036854775807`},
	},

	// End of stream.
	{
		name: "If the file ends in the middle of an event, before the final empty line, the incomplete event is not dispatched",
		in:   "data: a\n\ndata: b\n",
		want: []string{`@0 message id="" data="a"`, `cut @9 +8 id=""`},
	},
	{
		name: "a stream cut inside a line",
		in:   "id: 1\ndata: a\n\nid: 2\ndata: {\"tex",
		want: []string{`@0 message id="1" data="a"`, `cut @15 +17 id="1"`},
		last: "1",
	},
	{
		name: "a stream cut after a data-less field line",
		in:   "id: 3\n",
		want: []string{`cut @0 +6 id=""`},
	},
	{
		name: "Once the end of the file is reached, any pending data must be discarded: a comment line cut outside an event is not a cut event",
		in:   "data: a\n\n: keep-al",
		want: []string{`@0 message id="" data="a"`},
	},
	{
		name: "a stream that is one unfinished comment line is not cut",
		in:   ":",
	},
	{
		name: "a comment line cut after a BOM is not cut",
		in:   "\xEF\xBB\xBF: hi",
	},
	{
		name: "a comment line cut inside an event cuts that event",
		in:   "data: a\n\nid: 2\ndata: b\n: keep-al",
		want: []string{`@0 message id="" data="a"`, `cut @9 +23 id=""`},
	},
	{
		name: "a stream that ends after a complete comment line is not cut",
		in:   "data: a\n\n: keep-alive\n",
		want: []string{`@0 message id="" data="a"`},
	},
	{
		name: "a stream that ends with a lone CR ends the line",
		in:   "data: a\r\r",
		want: []string{`@0 message id="" data="a"`},
	},
	{
		name: "the spec's last example: the final data: is discarded",
		in:   "data\n\ndata\ndata\n\ndata:",
		want: []string{`@0 message id="" data=""`, `@6 message id="" data="\n"`, `cut @17 +5 id=""`},
	},
	{
		name: "an empty stream",
		in:   "",
	},

	// Event size limit.
	{
		name: "an event larger than MaxEventSize is skipped and the next one is read",
		in:   "data: 0123456789\n\ndata: ok\n\n",
		max:  16,
		want: []string{`too-large @0 +17 id=""`, `@18 message id="" data="ok"`},
	},
	{
		name: "an event of exactly MaxEventSize bytes is accepted",
		in:   "data: 012345678\n\ndata: ok\n\n",
		max:  16,
		want: []string{`@0 message id="" data="012345678"`, `@17 message id="" data="ok"`},
	},
	{
		name: "an oversized event made of several lines sets no field",
		in:   "id: 1\ndata: a\n\nid: 2\nevent: x\ndata: 0123\ndata: 4567\n\ndata: ok\n\n",
		max:  20,
		want: []string{`@0 message id="1" data="a"`, `too-large @15 +21 id="1"`, `@53 message id="1" data="ok"`},
		last: "1",
	},
	{
		name: "an oversized event with CRLF line ends",
		in:   "data: 01234567\r\n\r\ndata: ok\r\n\r\n",
		max:  15,
		want: []string{`too-large @0 +16 id=""`, `@18 message id="" data="ok"`},
	},
	{
		name: "an oversized comment line is skipped alone",
		in:   ": 0123456789abcdef\ndata: ok\n\n",
		max:  16,
		want: []string{`too-large @0 +17 id=""`, `@19 message id="" data="ok"`},
	},
	{
		name: "a stream cut inside an oversized event",
		in:   "data: a\n\ndata: 0123456789abcdef",
		max:  16,
		want: []string{`@0 message id="" data="a"`, `too-large @9 +17 id=""`, `cut @9 +22 id=""`},
	},
	{
		name: "two oversized events in a row",
		in:   "data: 0123456789\n\ndata: 9876543210\n\ndata: ok\n\n",
		max:  16,
		want: []string{`too-large @0 +17 id=""`, `too-large @18 +17 id=""`, `@36 message id="" data="ok"`},
	},

	// Real-shape A2A frames.
	{
		name: "A2A frames with id lines, a keep-alive and CRLF line ends",
		in: "id: 1\r\ndata: {\"task\":{\"id\":\"task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}\r\n\r\n" +
			": keep-alive\r\n\r\n" +
			"id: 2\r\ndata: {\"artifactUpdate\":{\"append\":true,\"artifact\":{\"parts\":[{\"text\":\"caf\u00e9 \u8840\u538b \U0001FA7A\"}]}}}\r\n\r\n",
		want: []string{
			`@0 message id="1" data="{\"task\":{\"id\":\"task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}"`,
			`@132 message id="2" data="{\"artifactUpdate\":{\"append\":true,\"artifact\":{\"parts\":[{\"text\":\"café 血压 🩺\"}]}}}"`,
		},
		last: "2",
	},
}

// record formats a frame for comparison.
func record(f *sse.Frame) string {
	s := fmt.Sprintf("@%d %s id=%q data=%q", f.Offset, f.Event, f.ID, f.Data)
	if f.HasRetry {
		s += fmt.Sprintf(" retry=%d", f.Retry)
	}
	return s
}

// errRecord formats an error of the lexer for comparison.
func errRecord(err error) string {
	var se *sse.SyntaxError
	if !errors.As(err, &se) {
		return "untyped error: " + err.Error()
	}
	kind := "other"
	switch {
	case errors.Is(err, sse.ErrEventTooLarge):
		kind = "too-large"
	case errors.Is(err, io.ErrUnexpectedEOF):
		kind = "cut"
	}
	return fmt.Sprintf("%s @%d +%d id=%q", kind, se.Offset, se.Size, se.ID)
}

type lexResult struct {
	records []string
	last    string
	seqOK   bool
}

// lexChunks feeds chunks to a new Lexer and records what it gives. With
// drain, Next is called until it returns false after each Write; without,
// every chunk is written first.
func lexChunks(t testing.TB, chunks [][]byte, opts *sse.Options, drain bool) lexResult {
	t.Helper()
	lx := sse.NewLexer(opts)
	var res lexResult
	res.seqOK = true
	var seq int64
	next := func() {
		for {
			if lx.Next() {
				f := lx.Frame()
				seq++
				if f.Seq != seq {
					res.seqOK = false
				}
				res.records = append(res.records, record(f))
				continue
			}
			err := lx.Err()
			if err == nil {
				return
			}
			res.records = append(res.records, errRecord(err))
			if !errors.Is(err, sse.ErrEventTooLarge) {
				return
			}
		}
	}
	var written int64
	for _, c := range chunks {
		n, err := lx.Write(c)
		require.NoError(t, err, "Write(%d bytes)", len(c))
		require.Equal(t, len(c), n, "Write(%d bytes)", len(c))
		written += int64(n)
		if drain {
			next()
		}
		require.Equal(t, written, lx.InputOffset()+int64(lx.Buffered()), "InputOffset()+Buffered() = the bytes written")
	}
	closeErr := lx.Close()
	next()
	require.Equal(t, closeErr, lx.Err(), "Err() after Close is Close's error")
	require.False(t, lx.Next(), "Next after the end returned a frame")
	res.last = string(lx.LastEventID())
	return res
}

func chunksOf(in []byte, n int) [][]byte {
	var cs [][]byte
	for len(in) > n {
		cs = append(cs, in[:n])
		in = in[n:]
	}
	if len(in) > 0 {
		cs = append(cs, in)
	}
	return cs
}

func TestLexerRules(t *testing.T) {
	for _, tc := range lexCases {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			opts := &sse.Options{MaxEventSize: tc.max}
			got := lexChunks(t, [][]byte{in}, opts, true)
			assert.Empty(t, cmp.Diff(tc.want, got.records), "records (-want +got)")
			assert.Equal(t, tc.last, got.last, "LastEventID")
			assert.True(t, got.seqOK, "Frame.Seq is not 1, 2, 3…")
		})
	}
}

// TestLexerChunkingInvariance feeds every case whole (drained after the
// Write, and written then closed before any Next), one byte at a time, and
// split in two at every position, and wants the same frames and errors.
func TestLexerChunkingInvariance(t *testing.T) {
	for _, tc := range lexCases {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			opts := &sse.Options{MaxEventSize: tc.max}
			want := lexChunks(t, [][]byte{in}, opts, true)
			check := func(how string, got lexResult) {
				t.Helper()
				assert.Empty(t, cmp.Diff(want.records, got.records), "%s: records differ from whole input (-whole +%s)", how, how)
				assert.Equal(t, want.last, got.last, "%s: LastEventID", how)
			}
			check("undrained", lexChunks(t, [][]byte{in}, opts, false))
			check("1-byte", lexChunks(t, chunksOf(in, 1), opts, true))
			check("3-byte", lexChunks(t, chunksOf(in, 3), opts, true))
			for i := 1; i < len(in); i++ {
				check(fmt.Sprintf("split@%d", i), lexChunks(t, [][]byte{in[:i], in[i:]}, opts, true))
			}
		})
	}
}

// TestLexerFrameBoundaries checks the offsets: every frame's bytes, from its
// Offset to the InputOffset after it, lexed alone give the same frame, and
// frames do not overlap.
func TestLexerFrameBoundaries(t *testing.T) {
	inputs := map[string]string{}
	for _, tc := range lexCases {
		if tc.max == 0 {
			inputs[tc.name] = tc.in
		}
	}
	for name, in := range testdataStreams(t) {
		inputs[name] = in
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			lx := sse.NewLexer(nil)
			lx.Write([]byte(in))
			lx.Close()
			var end int64
			for lx.Next() {
				f := lx.Frame()
				require.GreaterOrEqual(t, f.Offset, end, "frame %d starts before the end of the previous one", f.Seq)
				end = lx.InputOffset()
				alone := sse.NewLexer(nil)
				alone.Write([]byte(in[f.Offset:end]))
				require.NoError(t, alone.Close(), "frame %d bytes %q", f.Seq, in[f.Offset:end])
				require.True(t, alone.Next(), "frame %d bytes %q give no frame", f.Seq, in[f.Offset:end])
				g := alone.Frame()
				want := *f
				want.Offset, want.Seq, want.ID = 0, 1, g.ID // the id may come from an earlier event
				assert.Empty(t, cmp.Diff(record(&want), record(g)), "frame %d alone (-want +got)", f.Seq)
				assert.False(t, alone.Next(), "frame %d bytes give a second frame", f.Seq)
			}
		})
	}
}

func TestLexerLargeDataLine(t *testing.T) {
	// A 1 MiB data line, written in 4 KiB chunks and whole.
	payload := bytes.Repeat([]byte("0123456789abcdef"), 1<<16)
	in := append(append([]byte("id: big\ndata: "), payload...), "\n\ndata: after\n\n"...)
	for _, chunk := range []int{len(in), 4 << 10, 1000} {
		lx := sse.NewLexer(nil)
		var frames []sse.Frame
		for _, c := range chunksOf(in, chunk) {
			lx.Write(c)
			for lx.Next() {
				frames = append(frames, lx.Frame().Clone())
			}
		}
		require.NoError(t, lx.Close(), "chunk %d", chunk)
		require.Len(t, frames, 2, "chunk %d: the 1 MiB payload then \"after\"", chunk)
		assert.True(t, bytes.Equal(frames[0].Data, payload), "chunk %d: the payload", chunk)
		assert.Equal(t, "big", string(frames[0].ID), "chunk %d", chunk)
		assert.Equal(t, "after", string(frames[1].Data), "chunk %d", chunk)
	}
}

// singleEvent returns one event of about n bytes: an id line and one data
// line holding a JSON text part, with the given line end.
func singleEvent(n int, eol string) []byte {
	var b bytes.Buffer
	b.WriteString("id: 1" + eol + `data: {"artifactUpdate":{"artifact":{"parts":[{"text":"`)
	for b.Len() < n-16 {
		b.WriteString("lorem ipsum ")
	}
	b.WriteString(`"}]}}}` + eol + eol)
	return b.Bytes()
}

func TestLexerOnComment(t *testing.T) {
	var got []string
	lx := sse.NewLexer(&sse.Options{OnComment: func(text []byte) { got = append(got, string(text)) }})
	lx.Write([]byte(": keep-alive\r\ndata: a\n:\n:  two spaces\n\n:ping"))
	var frames int
	for lx.Next() {
		frames++
	}
	lx.Write([]byte("\n"))
	for lx.Next() {
	}
	require.NoError(t, lx.Close())
	want := []string{"keep-alive", "", " two spaces", "ping"}
	assert.Empty(t, cmp.Diff(want, got), "comments (-want +got)")
	assert.Equal(t, 1, frames, "frames")
}

func TestLexerCommentsNotReportedDuringClose(t *testing.T) {
	var got []string
	lx := sse.NewLexer(&sse.Options{OnComment: func(text []byte) { got = append(got, string(text)) }})
	lx.Write([]byte(": one\ndata: a\n\n: two\ndata: b"))
	err := lx.Close()
	require.Empty(t, got, "Close reported comments; they belong to Next")
	var frames []string
	for lx.Next() {
		frames = append(frames, string(lx.Frame().Data))
	}
	assert.Empty(t, cmp.Diff([]string{"one", "two"}, got), "comments (-want +got)")
	assert.Empty(t, cmp.Diff([]string{"a"}, frames), "frames (-want +got)")
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Equal(t, err, lx.Err(), "Err after the frames is Close's cut-stream error")
}

func TestLexerLastEventIDAnyTime(t *testing.T) {
	lx := sse.NewLexer(nil)
	require.Empty(t, lx.LastEventID(), "new Lexer")
	lx.Write([]byte("id: a\ndata: 1\n\nid: b\ndata: 2\n"))
	require.True(t, lx.Next())
	require.Equal(t, "a", string(lx.LastEventID()), "after the first frame")
	require.False(t, lx.Next(), "a second frame before its blank line")
	assert.Equal(t, "a", string(lx.LastEventID()), "with event b pending")
	err := lx.Close()
	var se *sse.SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, sse.SyntaxError{Position: sse.Position{Offset: 15, Seq: 1, ID: []byte("a")}, Size: 14, Err: io.ErrUnexpectedEOF}, *se, "a cut at 15 of 14 bytes with id a")
	assert.Equal(t, "a", string(lx.LastEventID()), "after a cut")
}

func TestLexerRetry(t *testing.T) {
	lx := sse.NewLexer(nil)
	_, ok := lx.Retry()
	require.False(t, ok, "new Lexer has a retry")
	lx.Write([]byte("retry: 3000\n\ndata: a\n\nretry: x\n\n"))
	for lx.Next() {
	}
	ms, ok := lx.Retry()
	assert.True(t, ok)
	assert.Equal(t, int64(3000), ms)
}

func TestLexerWriteErrors(t *testing.T) {
	lx := sse.NewLexer(&sse.Options{MaxEventSize: 8})
	n, err := lx.Write([]byte("data: 1\n\ndata: 2\n\n"))
	require.NoError(t, err, "first Write")
	require.Equal(t, 18, n, "first Write")
	n, err = lx.Write([]byte("data: 3\n\n"))
	require.ErrorIs(t, err, sse.ErrBufferFull, "Write with 18 bytes unread and MaxEventSize 8")
	require.Zero(t, n, "Write with 18 bytes unread and MaxEventSize 8")
	for lx.Next() {
	}
	n, err = lx.Write([]byte("data: 3\n\n"))
	require.NoError(t, err, "Write after Next drained")
	require.Equal(t, 9, n, "Write after Next drained")
	require.True(t, lx.Next(), "frame 3 missing")
	require.Equal(t, "3", string(lx.Frame().Data))
	lx.Close()
	n, err = lx.Write([]byte("x"))
	require.ErrorIs(t, err, sse.ErrWriteAfterClose, "Write after Close")
	require.Zero(t, n, "Write after Close")
	require.NoError(t, lx.Close(), "second Close")
}

// TestLexerWriteByteErrors: Write's cheap case for one byte keeps Write's
// rules: bytes written one at a time without Next are taken up to one past
// MaxEventSize, then refused with ErrBufferFull; a zero Lexer written a
// byte at a time applies the default limit; after Close, ErrWriteAfterClose.
func TestLexerWriteByteErrors(t *testing.T) {
	// A buffer with room past the limit: Reset keeps the one grown
	// before.
	lx := sse.NewLexer(nil)
	lx.Write([]byte("data: a\n\n"))
	lx.Reset(&sse.Options{MaxEventSize: 8})
	for i := range 9 {
		n, err := lx.Write([]byte("x"))
		require.NoError(t, err, "byte %d", i)
		require.Equal(t, 1, n, "byte %d", i)
	}
	n, err := lx.Write([]byte("x"))
	require.ErrorIs(t, err, sse.ErrBufferFull, "a byte with 9 bytes unread and MaxEventSize 8")
	require.Zero(t, n)
	require.False(t, lx.Next(), "Next on an oversized line")
	require.ErrorIs(t, lx.Err(), sse.ErrEventTooLarge)

	var zero sse.Lexer
	for _, c := range []byte("data: a\n\n") {
		_, err := zero.Write([]byte{c})
		require.NoError(t, err)
	}
	require.True(t, zero.Next(), "the frame written a byte at a time")
	assert.Equal(t, "a", string(zero.Frame().Data))
	require.NoError(t, zero.Close())
	n, err = zero.Write([]byte("x"))
	require.ErrorIs(t, err, sse.ErrWriteAfterClose, "a byte after Close")
	require.Zero(t, n)
}

// TestLexerMemoryBound feeds a 4 MiB event, then a normal one, in 4 KiB
// chunks to a Lexer limited to 64 KiB: the event is reported (when it
// passes the limit, with Size the limit plus one), the next is
// read, and the Lexer never holds more than the limit plus one chunk (and
// its growth slack).
func TestLexerMemoryBound(t *testing.T) {
	const limit = 64 << 10
	big := singleEvent(4<<20, "\n")
	in := append(append([]byte(nil), big...), "id: 2\ndata: next\n\n"...)
	lx := sse.NewLexer(&sse.Options{MaxEventSize: limit})
	var got []string
	held := 0
	for _, c := range chunksOf(in, 4<<10) {
		lx.Write(c)
		for {
			if lx.Next() {
				got = append(got, record(lx.Frame()))
				continue
			}
			if err := lx.Err(); err != nil {
				got = append(got, errRecord(err))
				continue
			}
			break
		}
		held = max(held, lx.HeldBytes())
	}
	require.NoError(t, lx.Close())
	want := []string{
		fmt.Sprintf(`too-large @0 +%d id=""`, limit+1),
		fmt.Sprintf(`@%d message id="2" data="next"`, len(big)),
	}
	assert.Empty(t, cmp.Diff(want, got), "(-want +got)")
	assert.LessOrEqual(t, held, limit+2*(4<<10)+16<<10, "the bytes the Lexer held: at most the limit plus a 4 KiB chunk, and its own 16 KiB buffer kept aside")
}

func TestLexerReset(t *testing.T) {
	lx := sse.NewLexer(&sse.Options{MaxEventSize: 1 << 30})
	lx.Write(singleEvent(1<<20, "\n"))
	lx.Write([]byte("id: 9\ndata: a\n"))
	for lx.Next() {
	}
	lx.Reset(&sse.Options{MaxEventSize: 1 << 30})
	assert.LessOrEqual(t, lx.HeldBytes(), sse.KeepBufferSize, "the bytes held after Reset")
	assert.Empty(t, lx.LastEventID(), "Reset kept the last event ID")
	assert.Zero(t, lx.InputOffset(), "Reset kept the offset")
	assert.Zero(t, lx.Buffered(), "Reset kept input")
	lx.Write([]byte("\xEF\xBB\xBFdata: b\n\n"))
	require.True(t, lx.Next(), "after Reset")
	assert.Equal(t, `@3 message id="" data="b"`, record(lx.Frame()), "after Reset")
	assert.Equal(t, int64(1), lx.Frame().Seq, "after Reset")
	require.NoError(t, lx.Close())
}

// resetInput has a comment and an event of over 100 bytes, then a small
// one: what MaxEventSize and OnComment change.
var resetInput = ": c\ndata: " + strings.Repeat("x", 100) + "\n\ndata: y\n\n"

// resetCase is one set of options for the Reset tests: the options (nil
// for the defaults), and what they change in reading resetInput.
type resetCase struct {
	opts     *sse.Options
	tooLarge bool     // the first event is too large
	comments []string // what OnComment records
}

// resetCases returns option sets in the order the Reset tests apply
// them, each differing from the one before; their OnComment records into
// *log, the comment's text prefixed with the case's name.
func resetCases(log *[]string) []resetCase {
	opts := func(name string, limit int) *sse.Options {
		return &sse.Options{MaxEventSize: limit, OnComment: func(b []byte) { *log = append(*log, name+":"+string(b)) }}
	}
	return []resetCase{
		{opts("first", 64), true, []string{"first:c"}},
		{opts("second", 1000), false, []string{"second:c"}},
		{nil, false, nil},
		{&sse.Options{MaxEventSize: 32}, true, nil},
		{opts("third", 16), true, []string{"third:c"}},
	}
}

// lexAll writes in to lx, closes it, and records the frames and errors
// that Next gives, continuing after oversized events.
func lexAll(lx *sse.Lexer, in string) []string {
	lx.Write([]byte(in))
	lx.Close()
	var out []string
	for {
		if lx.Next() {
			out = append(out, record(lx.Frame()))
			continue
		}
		err := lx.Err()
		if err == nil {
			return out
		}
		out = append(out, errRecord(err))
		if !errors.Is(err, sse.ErrEventTooLarge) {
			return out
		}
	}
}

// TestLexerResetOptions: Reset(opts) applies opts as NewLexer(opts) does,
// in place of the Lexer's options (nil: the defaults, no OnComment), so
// that a Lexer reset reads as a new one; Resume keeps the options.
func TestLexerResetOptions(t *testing.T) {
	var log []string
	cases := resetCases(&log)
	lx := sse.NewLexer(cases[len(cases)-1].opts)
	lexAll(lx, resetInput)
	for i, c := range cases {
		log = nil
		want := lexAll(sse.NewLexer(c.opts), resetInput)
		log = nil
		lx.Reset(c.opts)
		got := lexAll(lx, resetInput)
		require.Empty(t, cmp.Diff(want, got), "case %d: Reset(opts) against NewLexer(opts) (-want +got)", i)
		require.Equal(t, c.tooLarge, strings.HasPrefix(got[0], "too-large"), "case %d: the first event is too large: %q", i, got)
		require.Equal(t, c.comments, log, "case %d: comments", i)
	}
	log = nil
	lx.Resume()
	got := lexAll(lx, resetInput)
	assert.True(t, strings.HasPrefix(got[0], "too-large"), "after Resume, MaxEventSize kept: %q", got)
	assert.Equal(t, []string{"third:c"}, log, "after Resume, OnComment kept")
}

func TestLexerZeroValue(t *testing.T) {
	var lx sse.Lexer
	lx.Write([]byte("data: a\n\n"))
	require.True(t, lx.Next(), "the zero Lexer gives no frame")
	assert.Equal(t, "a", string(lx.Frame().Data))
	require.NoError(t, lx.Close())
}

func TestFrameClone(t *testing.T) {
	lx := sse.NewLexer(nil)
	lx.Write([]byte("event: e\nid: i\ndata: a\ndata: b\n\n"))
	lx.Next()
	f := lx.Frame()
	c := f.Clone()
	lx.Write([]byte("event: x\nid: y\ndata: c\ndata: d\n\n"))
	lx.Next()
	assert.Equal(t, `@0 e id="i" data="a\nb"`, record(&c), "the clone changed")
	c.Data = append(c.Data, 'z')
	assert.Equal(t, "i", string(c.ID), "appending to the clone's Data changed its ID")
}

func TestSyntaxErrorMessage(t *testing.T) {
	lx := sse.NewLexer(nil)
	lx.Write([]byte("id: 5\ndata: a\n\ndata: b"))
	err := lx.Close()
	assert.EqualError(t, err, `sse: after frame 1 (id "5") at byte 15, 7 bytes: unexpected EOF`)
}

// TestShortIDs checks the id lines the lexer reads as two words: every
// length up to 17 bytes, with and without the space, with a NUL at each
// position (the id is then ignored) and without, followed by enough
// buffered bytes for the word reads; fed whole and byte by byte.
func TestShortIDs(t *testing.T) {
	const rest = "data: x\n\n: padding so that sixteen bytes follow\n\n"
	for n := 0; n <= 17; n++ {
		for nul := -1; nul < n; nul++ {
			for _, sep := range []string{":", ": "} {
				id := []byte(strings.Repeat("k", n))
				for i := range id {
					id[i] = 'a' + byte(i)
				}
				if nul >= 0 {
					id[nul] = 0
				}
				in := "id: before\ndata: a\n\nid" + sep + string(id) + "\n" + rest
				want := string(id)
				if nul >= 0 {
					want = "before"
				}
				for _, chunk := range []int{len(in), 1} {
					lx := sse.NewLexer(nil)
					var ids []string
					for p := in; len(p) > 0; {
						c := p[:min(chunk, len(p))]
						p = p[len(c):]
						lx.Write([]byte(c))
						for lx.Next() {
							f := lx.Frame()
							ids = append(ids, string(f.ID))
						}
					}
					require.Equal(t, []string{"before", want}, ids, "id%s%q in chunks of %d: frame ids", sep, id, chunk)
				}
			}
		}
	}
}
