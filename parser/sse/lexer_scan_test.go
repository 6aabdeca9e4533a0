package sse_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/internal/corpus"
	"github.com/a2astream/a2astream/parser/sse"
)

// TestLexerSearchesEachByteOnce shows that no call to the Lexer searches a
// byte of a data line's value for LF, or for CR, again once an earlier call
// has searched it for that line end, whatever the chunking: written 1, 7 or
// 4096 bytes at a time, or read by FillLine from a source that yields 1 or
// 4096 bytes per read, with Next until it returns false after each call,
// for one 256 KiB event with each kind of line end and for the token
// corpus. It uses no counter: only the positions where the Lexer's next
// searches for LF and for CR resume (Searched), which it keeps anyway.
//
// After every call the test checks that the positions never move back,
// that what they claim holds of the input (no LF, or no CR, from the
// line's start to there), and that the searches were recorded: once Next
// has run out of lines both are at the end of the input; after FillLine
// the LF position has reached the first line end in the bytes FillLine
// searched (all it read, but the last read when it stopped for having read
// the size asked), or their end, and so has the CR position when those
// bytes hold no LF (bytes.IndexByte finding an LF does not search for CR).
//
// A second Lexer takes the same calls. After each, the test overwrites in
// its buffer the bytes that have newly gone behind a resume position with
// the line end that search looks for: LF behind the LF position only, CR
// behind the CR position only, LF and CR by turns (by offset) behind both.
// A search that went over such a byte again would end the line there, so
// the two Lexers would part; the test requires the same results from every
// call (frames with their offsets and data lengths, FillLine's counts, the
// line start, the positions, InputOffset, Buffered). Planting leaves the
// results alone only in a data line's value past the line's first 8 bytes
// (which classify it), so only those bytes are planted; not covered are the
// other bytes, a search again over a single byte planted with the other
// line end, and a search again within one call. To show that the planting
// reached the searches, at the end at least a third of the bytes that may
// be planted must hold each kind where most calls leave a line unfinished
// (the 256 KiB event; pieces of at most 7 bytes), and one elsewhere.
func TestLexerSearchesEachByteOnce(t *testing.T) {
	for _, in := range [][]byte{
		singleEvent(256<<10, "\n"),
		singleEvent(256<<10, "\r\n"),
		singleEvent(256<<10, "\r"),
		corpus.Tokens(500),
	} {
		for _, tc := range []struct {
			chunk int
			fill  bool
		}{{1, false}, {7, false}, {4 << 10, false}, {1, true}, {4 << 10, true}} {
			how := "written"
			if tc.fill {
				how = "read by FillLine"
			}
			s := newPlanted(t, in, fmt.Sprintf("%d-byte input %s in %d-byte pieces", len(in), how, tc.chunk))
			if tc.fill {
				rr := &chunkReader{chunks: chunksOf(in, tc.chunk)}
				rs := &chunkReader{chunks: chunksOf(in, tc.chunk)}
				for {
					from := s.lf // the end of the input: Next ran out of lines
					n, err := s.ref.FillLine(rr, sse.ReadSize)
					if n2, err2 := s.sub.FillLine(rs, sse.ReadSize); n2 != n || err2 != err {
						t.Fatalf("%s: FillLine read %d (%v), with planted bytes %d (%v)", s.name, n, err, n2, err2)
					}
					s.check("FillLine")
					// A FillLine that has read ReadSize bytes stops
					// without searching its last read, of at most a piece.
					to := from + int64(n)
					if n == sse.ReadSize {
						to -= int64(tc.chunk)
					}
					s.filled(from, to)
					s.next()
					if err == io.EOF {
						break
					}
					require.NoError(t, err, s.name)
				}
			} else {
				for _, c := range chunksOf(in, tc.chunk) {
					s.ref.Write(c)
					s.sub.Write(c)
					s.check("Write")
					s.next()
				}
			}
			require.NoError(t, s.ref.Close(), s.name)
			require.NoError(t, s.sub.Close(), "%s: Close with planted bytes", s.name)
			least := 1
			if len(in) > 128<<10 || tc.chunk <= 7 {
				least = s.room / 3
			}
			assert.GreaterOrEqual(t, s.planted['\n'], least, "%s: LFs planted (of %d bytes)", s.name, s.room)
			assert.GreaterOrEqual(t, s.planted['\r'], least, "%s: CRs planted (of %d bytes)", s.name, s.room)
		}
	}
}

// planted drives two Lexers with the same calls and plants line ends in
// the second one's buffer behind its resume positions (see
// TestLexerSearchesEachByteOnce).
type planted struct {
	t        *testing.T
	name     string
	in       []byte
	ref, sub *sse.Lexer
	// eligible marks the bytes of in that may be planted, room of them:
	// the value of a data line past the line's first 8 bytes.
	eligible []bool
	room     int
	// kind is the byte planted at each offset (0: none); planted counts
	// them by kind.
	kind    []byte
	planted map[byte]int
	// The line start and resume positions after the previous call.
	line, lf, cr int64
}

func newPlanted(t *testing.T, in []byte, name string) *planted {
	s := &planted{t: t, name: name, in: in, ref: sse.NewLexer(nil), sub: sse.NewLexer(nil),
		eligible: make([]bool, len(in)), kind: make([]byte, len(in)), planted: map[byte]int{}}
	for ls := 0; ls < len(in); {
		e := ls
		for e < len(in) && in[e] != '\n' && in[e] != '\r' {
			e++
		}
		if bytes.HasPrefix(in[ls:e], []byte("data:")) {
			for p := ls + 8; p < e; p++ {
				s.eligible[p] = true
				s.room++
			}
		}
		ls = e + 1
		if e+1 < len(in) && in[e] == '\r' && in[e+1] == '\n' {
			ls++
		}
	}
	return s
}

// next calls Next on both Lexers until it returns false, and requires the
// same frames.
func (s *planted) next() {
	t := s.t
	for {
		ok := s.ref.Next()
		if ok2 := s.sub.Next(); ok2 != ok || s.sub.Err() != s.ref.Err() {
			t.Fatalf("%s: Next returned %v (Err %v), with planted bytes %v (Err %v)", s.name, ok, s.ref.Err(), ok2, s.sub.Err())
		}
		if !ok {
			require.NoError(t, s.ref.Err(), s.name)
			s.check("Next (false)")
			if end := s.ref.InputOffset() + int64(s.ref.Buffered()); s.lf != end || s.cr != end {
				t.Fatalf("%s: Next out of lines with the searches for LF and CR at %d and %d, not at the end of the input, %d", s.name, s.lf, s.cr, end)
			}
			return
		}
		if f, g := frameOf(s.ref.Frame()), frameOf(s.sub.Frame()); f != g {
			t.Fatalf("%s: frame %+v, with planted bytes %+v", s.name, f, g)
		}
		s.check("Next")
	}
}

// filled checks, after a FillLine that searched in[from:to] when both
// searches had got to from, that it recorded how far it searched.
func (s *planted) filled(from, to int64) {
	end := to
	if i := bytes.IndexAny(s.in[from:to], "\n\r"); i >= 0 {
		end = from + int64(i)
	}
	if s.lf < end {
		s.t.Fatalf("%s: FillLine searched %d..%d, first line end at %d, and left the LF position at %d", s.name, from, to, end, s.lf)
	}
	if s.cr < end && bytes.IndexByte(s.in[from:to], '\n') < 0 {
		s.t.Fatalf("%s: FillLine searched %d..%d, no LF, first line end at %d, and left the CR position at %d", s.name, from, to, end, s.cr)
	}
}

// frameSum is what a Frame says, its data only by length (which the
// planted bytes do not change).
type frameSum struct {
	offset, seq int64
	event, id   string
	dataLen     int
	retry       int64
	hasRetry    bool
}

func frameOf(f *sse.Frame) frameSum {
	return frameSum{f.Offset, f.Seq, string(f.Event), string(f.ID), len(f.Data), f.Retry, f.HasRetry}
}

// searchState is where a Lexer stands after a call.
type searchState struct {
	line, lf, cr, consumed int64
	buffered               int
}

func stateOf(lx *sse.Lexer) searchState {
	line, lf, cr := lx.Searched()
	return searchState{line, lf, cr, lx.InputOffset(), lx.Buffered()}
}

// check requires the same state of both Lexers after a call, checks the
// resume positions, and plants the bytes that have gone behind them.
func (s *planted) check(call string) {
	t := s.t
	st := stateOf(s.ref)
	if st2 := stateOf(s.sub); st2 != st {
		t.Fatalf("%s: after %s: %+v, with planted bytes %+v", s.name, call, st, st2)
	}
	line, lf, cr := st.line, st.lf, st.cr
	if line < s.line || lf < s.lf || cr < s.cr {
		t.Fatalf("%s: after %s: line start and LF and CR resume positions moved back from %d, %d, %d to %d, %d, %d", s.name, call, s.line, s.lf, s.cr, line, lf, cr)
	}
	// What the positions claim, checked where it is new: the bytes before
	// the old positions were checked when the positions passed them.
	if bytes.IndexByte(s.in[max(s.lf, line):lf], '\n') >= 0 {
		t.Fatalf("%s: after %s: an LF in %d..%d, behind the LF resume position", s.name, call, max(s.lf, line), lf)
	}
	if bytes.IndexByte(s.in[max(s.cr, line):cr], '\r') >= 0 {
		t.Fatalf("%s: after %s: a CR in %d..%d, behind the CR resume position", s.name, call, max(s.cr, line), cr)
	}
	for p := max(s.lf, line); p < lf; p++ {
		s.plant(p, lf, cr)
	}
	for p := max(s.cr, line); p < cr; p++ {
		s.plant(p, lf, cr)
	}
	s.line, s.lf, s.cr = line, lf, cr
}

// plant overwrites the byte at offset p, if it is eligible, with what no
// search still to come looks for: an LF when p is behind the LF position
// lf only, a CR when behind the CR position cr only, by turns when behind
// both. A byte that was behind one and is now behind both is planted
// again.
func (s *planted) plant(p, lf, cr int64) {
	if !s.eligible[p] {
		return
	}
	c := byte('\n')
	if p >= lf || p < cr && p%2 == 1 {
		c = '\r'
	}
	if s.kind[p] == c {
		return
	}
	if s.kind[p] != 0 {
		s.planted[s.kind[p]]--
	}
	s.kind[p] = c
	s.planted[c]++
	s.sub.Plant(p, c)
}
