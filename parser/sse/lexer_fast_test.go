package sse_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/google/go-cmp/cmp"

	"github.com/a2astream/a2astream/parser/sse"
)

// tail is a last event that makes every input of fastCases long enough
// (16 bytes past the start of the first event) for the cheap cases at the
// Lexer's leaves to be tried on the event before it: the line end found in
// two words, "data:" and "id:" recognised by their first bytes, a short id
// checked for NUL as one word.
const tail = "data: tail\n\n"

// fastCases are events shaped like, or almost like, the "id: …", "data: …",
// blank line that the cheap cases serve: each near miss must give what the
// general rules give. Each input starts with an empty comment line, read
// first (checking for a BOM and searching ahead for a CR), so that the
// cheap cases are tried from the line after it.
var fastCases = []lexCase{
	{
		name: "the common shape",
		in:   ":\nid: 1\ndata: a\n\n" + tail,
		want: []string{`@2 message id="1" data="a"`, `@17 message id="1" data="tail"`},
		last: "1",
	},
	{
		name: "no spaces after the colons",
		in:   ":\nid:1\ndata:a\n\n" + tail,
		want: []string{`@2 message id="1" data="a"`, `@15 message id="1" data="tail"`},
		last: "1",
	},
	{
		name: "only one space after the colon is dropped",
		in:   ":\nid:  1\ndata:  a\n\n" + tail,
		want: []string{`@2 message id=" 1" data=" a"`, `@19 message id=" 1" data="tail"`},
		last: " 1",
	},
	{
		name: "an empty id resets the last event ID",
		in:   ":\nid: 9\ndata: x\n\nid:\ndata: a\n\n" + tail,
		want: []string{`@2 message id="9" data="x"`, `@17 message id="" data="a"`, `@30 message id="" data="tail"`},
	},
	{
		name: "an id with a NUL is ignored",
		in:   ":\nid: 9\ndata: x\n\nid: 2\x003\ndata: b\n\n" + tail,
		want: []string{`@2 message id="9" data="x"`, `@17 message id="9" data="b"`, `@34 message id="9" data="tail"`},
		last: "9",
	},
	{
		name: "an id with a NUL in its second word is ignored",
		in:   ":\nid: 9\ndata: x\n\nid: 12345\x006\ndata: b\n\n" + tail,
		want: []string{`@2 message id="9" data="x"`, `@17 message id="9" data="b"`, `@38 message id="9" data="tail"`},
		last: "9",
	},
	{
		name: "an id line ending in the second word",
		in:   ":\nid: 12345678901\ndata: a\n\n" + tail,
		want: []string{`@2 message id="12345678901" data="a"`, `@27 message id="12345678901" data="tail"`},
		last: "12345678901",
	},
	{
		name: "an id line longer than two words",
		in:   ":\nid: 123456789012345\ndata: a\n\n" + tail,
		want: []string{`@2 message id="123456789012345" data="a"`, `@31 message id="123456789012345" data="tail"`},
		last: "123456789012345",
	},
	{
		name: "an id of non-ASCII bytes",
		in:   ":\nid: é\xff\ndata: a\n\n" + tail,
		want: []string{`@2 message id="é\xff" data="a"`, `@19 message id="é\xff" data="tail"`},
		last: "é\xff",
	},
	{
		name: "data with a NUL",
		in:   ":\nid: 1\ndata: a\x00b\n\n" + tail,
		want: []string{`@2 message id="1" data="a\x00b"`, `@19 message id="1" data="tail"`},
		last: "1",
	},
	{
		name: "empty data values",
		in:   ":\nid: 1\ndata:\n\nid: 2\ndata: \n\nid: 3\ndata\n\n" + tail,
		want: []string{`@2 message id="1" data=""`, `@15 message id="2" data=""`, `@29 message id="3" data=""`, `@41 message id="3" data="tail"`},
		last: "3",
	},
	{
		name: "a second data line",
		in:   ":\nid: 1\ndata: a\ndata: b\n\n" + tail,
		want: []string{`@2 message id="1" data="a\nb"`, `@25 message id="1" data="tail"`},
		last: "1",
	},
	{
		name: "an event line after the data line",
		in:   ":\nid: 1\ndata: a\nevent: x\n\n" + tail,
		want: []string{`@2 x id="1" data="a"`, `@26 message id="1" data="tail"`},
		last: "1",
	},
	{
		name: "a retry line after the data line",
		in:   ":\nid: 1\ndata: a\nretry: 5\n\n" + tail,
		want: []string{`@2 message id="1" data="a" retry=5`, `@26 message id="1" data="tail"`},
		last: "1",
	},
	{
		name: "an event line before the id line",
		in:   ":\nevent: x\nid: 1\ndata: a\n\n" + tail,
		want: []string{`@2 x id="1" data="a"`, `@26 message id="1" data="tail"`},
		last: "1",
	},
	{
		name: "a comment before the id line",
		in:   ":\n: c\nid: 1\ndata: a\n\n" + tail,
		want: []string{`@6 message id="1" data="a"`, `@21 message id="1" data="tail"`},
		last: "1",
	},
	{
		name: "two id lines",
		in:   ":\nid: 1\nid: 2\ndata: a\n\n" + tail,
		want: []string{`@2 message id="2" data="a"`, `@23 message id="2" data="tail"`},
		last: "2",
	},
	{
		name: "an id-only event is not dispatched but sets the last event ID",
		in:   ":\nid: 1\n\n" + tail,
		want: []string{`@9 message id="1" data="tail"`},
		last: "1",
	},
	{
		name: "a field that is not data after the id",
		in:   ":\nid: 1\ndatum: a\n\n" + tail,
		want: []string{`@18 message id="1" data="tail"`},
		last: "1",
	},
	{
		name: "fields that look like id but are not",
		in:   ":\nidx: 1\ndata: a\n\nid 1\ndata: b\n\n" + tail,
		want: []string{`@2 message id="" data="a"`, `@18 message id="" data="b"`, `@32 message id="" data="tail"`},
	},
	{
		name: "CRLF line ends",
		in:   ":\nid: 1\r\ndata: a\r\n\r\n" + tail,
		want: []string{`@2 message id="1" data="a"`, `@20 message id="1" data="tail"`},
		last: "1",
	},
	{
		name: "a CR ends the id line",
		in:   ":\nid: 1\rdata: a\n\n" + tail,
		want: []string{`@2 message id="1" data="a"`, `@17 message id="1" data="tail"`},
		last: "1",
	},
	{
		name: "a CR ends the data line",
		in:   ":\nid: 1\ndata: a\r\n\n" + tail,
		want: []string{`@2 message id="1" data="a"`, `@18 message id="1" data="tail"`},
		last: "1",
	},
	{
		name: "a stream cut inside the data line",
		in:   ":\nid: 1\ndata: abcdefghij",
		want: []string{`cut @2 +22 id=""`},
	},
	{
		name: "a stream cut after the data line",
		in:   ":\nid: 1\ndata: abcdefghij\n",
		want: []string{`cut @2 +23 id=""`},
	},
	{
		name: "an event of exactly MaxEventSize bytes",
		in:   ":\nid: 1\ndata: 0123456789\n\n" + tail,
		max:  23,
		want: []string{`@2 message id="1" data="0123456789"`, `@26 message id="1" data="tail"`},
		last: "1",
	},
	{
		name: "an event one byte over MaxEventSize",
		in:   ":\nid: 1\ndata: 0123456789\n\n" + tail,
		max:  22,
		want: []string{`too-large @2 +23 id=""`, `@26 message id="" data="tail"`},
	},
}

// TestLexerCheapCases checks each case fed whole, one byte at a time
// (which never leaves 16 bytes ahead for the word checks) and split in two at
// every position.
func TestLexerCheapCases(t *testing.T) {
	for _, tc := range fastCases {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			opts := &sse.Options{MaxEventSize: tc.max}
			check := func(how string, got lexResult) {
				t.Helper()
				assert.Empty(t, cmp.Diff(tc.want, got.records), "%s: records (-want +got)", how)
				assert.Equal(t, tc.last, got.last, "%s: LastEventID", how)
				assert.True(t, got.seqOK, "%s: Frame.Seq is not 1, 2, 3…", how)
			}
			check("whole", lexChunks(t, [][]byte{in}, opts, true))
			check("undrained", lexChunks(t, [][]byte{in}, opts, false))
			check("1-byte", lexChunks(t, chunksOf(in, 1), opts, true))
			for i := 1; i < len(in); i++ {
				check(fmt.Sprintf("split@%d", i), lexChunks(t, [][]byte{in[:i], in[i:]}, opts, true))
			}
		})
	}
}
