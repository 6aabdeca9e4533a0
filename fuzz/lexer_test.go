package fuzz

import (
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser/sse"
)

// lexSeeds are inputs that exercise each rule of the algorithm, beside the
// recorded streams.
var lexSeeds = []string{
	"",
	"\xEF\xBB\xBFdata: a\n\n",
	"\xEF\xBB\xBF\xEF\xBB\xBFdata: a\n\ndata: b\n\n",
	"\xEF\xBB",
	"data: a\r\n\r\ndata: b\r\n\r\n",
	"data: a\rdata: b\r\r",
	"data: a\r\ndata: b\rdata: c\n\r\n",
	"data: a\r\r\ndata: b\n\n",
	": keep-alive\ndata: a\n:\n\n: ping\n\n",
	"data:a:b: c\n\ndata:  two spaces\n\ndata\n\ndata\ndata\n\ndata:",
	"event: add\ndata: 1\n\nevent\ndata: 2\n\nevent:\ndata: 3\n\n",
	"id: 1\ndata: a\n\nid\ndata: b\n\nid: x\x00y\ndata: c\n\nid: 5\n\ndata: d\n\n",
	"retry: 1000\ndata: a\n\nretry: 1x\ndata: b\n\nretry: 99999999999999999999999\ndata: c\n\nretry: 7\n\n",
	"DATA: a\n\nData: b\n\n data: c\n\ndata : d\n\n",
	"id: 1\ndata: a\n\nid: 2\ndata: {\"tex",
	"data: a\n\n: keep-al",
	"data: a\n\n: keep-alive\n",
	"data: a\n: comment inside\ndata: b\n\n: c\nid: 9\n",
	"data: \u2028\u2029\u0085\v\f\n\n",
}

// lexOutcome is what the library made of a stream, in the reference's
// terms.
type lexOutcome struct {
	Frames      []refFrame
	Cut         bool
	CutOffset   int64
	CutSize     int64
	CutID       string
	LastEventID string
	Retry       int64
	HasRetry    bool
}

// frameOf records the frame f, the seq-th. It runs once per frame, up to
// 32 Ki times per input: its check calls require only on failure, as a
// testify call boxes its arguments on every run and would slow the
// fuzzing; so do the checks of lexPush's loop and FuzzLexerMemory's.
func frameOf(t *testing.T, f *sse.Frame, seq int) refFrame {
	t.Helper()
	if f.Seq != int64(seq) {
		require.Failf(t, "Seq out of order", "frame %d has Seq %d", seq, f.Seq)
	}
	return refFrame{Offset: f.Offset, Event: string(f.Event), Data: string(f.Data), ID: string(f.ID), Retry: f.Retry, HasRetry: f.HasRetry}
}

// cutOf checks that err is the documented cut-stream error and records it.
func cutOf(t *testing.T, how string, err error, out *lexOutcome) {
	t.Helper()
	var se *sse.SyntaxError
	require.ErrorAs(t, err, &se, "%s: a cut", how)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF, "%s: a cut", how)
	out.Cut, out.CutOffset, out.CutSize, out.CutID = true, se.Offset, se.Size, string(se.ID)
}

// lexPush feeds chunks to a Lexer, draining it after each Write.
func lexPush(t *testing.T, chunks [][]byte) lexOutcome {
	t.Helper()
	var out lexOutcome
	lx := sse.NewLexer(nil)
	written := 0
	drain := func() {
		for lx.Next() {
			out.Frames = append(out.Frames, frameOf(t, lx.Frame(), len(out.Frames)+1))
		}
	}
	for _, c := range chunks {
		if n, err := lx.Write(c); n != len(c) || err != nil {
			require.Failf(t, "Write failed", "Write = %d, %v; want %d, nil", n, err, len(c))
		}
		written += len(c)
		drain()
		if err := lx.Err(); err != nil {
			require.Failf(t, "error before Close", "Err before Close: %v", err)
		}
		if got := lx.InputOffset() + int64(lx.Buffered()); got != int64(written) {
			require.Failf(t, "bytes lost", "InputOffset+Buffered = %d after %d bytes", got, written)
		}
	}
	closeErr := lx.Close()
	drain()
	if closeErr != nil {
		cutOf(t, "Lexer.Close", closeErr, &out)
		require.True(t, lx.Err() == closeErr, "Err = %v after Close = %v", lx.Err(), closeErr)
	} else {
		require.NoError(t, lx.Err(), "Err after a clean Close")
	}
	out.LastEventID = string(lx.LastEventID())
	out.Retry, out.HasRetry = lx.Retry()
	return out
}

// lexPull reads the stream with a Reader.
func lexPull(t *testing.T, src io.Reader) lexOutcome {
	t.Helper()
	var out lexOutcome
	r := sse.NewReader(src, nil)
	for r.Next() {
		out.Frames = append(out.Frames, frameOf(t, r.Frame(), len(out.Frames)+1))
	}
	if err := r.Err(); err != nil {
		cutOf(t, "Reader", err, &out)
		require.False(t, r.Next(), "Next after the Reader's error %v", err)
		require.True(t, r.Err() == err, "the Reader's error %v is not sticky: %v", err, r.Err())
	}
	out.LastEventID = string(r.LastEventID())
	out.Retry, out.HasRetry = r.Retry()
	return out
}

func refOutcome(in []byte) lexOutcome {
	ref := whatwgParse(in)
	out := lexOutcome{Frames: ref.Frames, Cut: ref.Cut, CutOffset: ref.CutOffset, CutSize: ref.CutSize,
		LastEventID: ref.LastEventID, Retry: ref.Retry, HasRetry: ref.HasRetry}
	if ref.Cut {
		out.CutID = ref.LastEventID
	}
	return out
}

// FuzzWHATWG checks the Lexer and the Reader against the transcription of
// the WHATWG algorithm: the same frames (offset, event type, data, last
// event ID, retry), the same last event ID and reconnection time at the
// end, and the same verdict at the end of the input (cut or clean, with the
// offset and size of the dropped event). The Lexer is fed whole, in 1-byte
// chunks and in random chunks; the Reader reads through a reader returning
// random-sized reads, (0, nil) now and then, and data together with io.EOF.
func FuzzWHATWG(f *testing.F) {
	for i, s := range lexSeeds {
		f.Add([]byte(s), int64(i))
	}
	for _, s := range testdataStreams(f) {
		f.Add(s, int64(len(s)))
	}
	f.Fuzz(func(t *testing.T, in []byte, seed int64) {
		if len(in) > 1<<16 {
			return // cap the work per input
		}
		want := refOutcome(in)
		check := func(how string, got lexOutcome) {
			t.Helper()
			require.Empty(t, cmp.Diff(want, got), "%s differs from the WHATWG reference (-ref +%s)", how, how)
		}
		rng := rand.New(rand.NewPCG(uint64(seed), 1))
		check("whole", lexPush(t, [][]byte{in}))
		if len(in) <= 4096 {
			check("1-byte", lexPush(t, split(in, rng, 1)))
		}
		check("random", lexPush(t, split(in, rng, 1+rng.IntN(256))))
		check("Reader", lexPull(t, &randReader{in: in, rng: rng, maxRead: 1 + rng.IntN(4096), eofWithData: seed&1 == 0}))
	})
}

// FuzzLexerMemory checks that a small MaxEventSize bounds what a Lexer and
// a Reader hold: after a drained Write a Lexer buffers at most MaxEventSize
// bytes plus the chunk written, and a Reader holds at most MaxEventSize
// plus its 32 KiB read buffer; an oversized event gives a *SyntaxError
// wrapping ErrEventTooLarge and reading goes on with the next event, with
// the same frames whatever the chunking.
func FuzzLexerMemory(f *testing.F) {
	for i, s := range lexSeeds {
		f.Add([]byte(s), uint16(8+i), int64(i))
	}
	for _, s := range testdataStreams(f) {
		f.Add(s, uint16(300), int64(1))
	}
	f.Fuzz(func(t *testing.T, in []byte, max uint16, seed int64) {
		if len(in) > 1<<16 {
			return
		}
		limit := 1 + int(max)%2048
		opts := &sse.Options{MaxEventSize: limit}
		rng := rand.New(rand.NewPCG(uint64(seed), 2))
		var runs [][]string
		for _, maxChunk := range []int{1, 1 + rng.IntN(64), 1 + rng.IntN(4096)} {
			lx := sse.NewLexer(opts)
			var got []string
			collect := func() {
				for {
					if lx.Next() {
						f := lx.Frame()
						got = append(got, string(f.ID)+"|"+string(f.Event)+"|"+string(f.Data))
						if len(f.Data) > limit {
							require.Failf(t, "frame over MaxEventSize", "frame data of %d bytes over MaxEventSize %d", len(f.Data), limit)
						}
						continue
					}
					err := lx.Err()
					if err == nil {
						return
					}
					var se *sse.SyntaxError
					require.ErrorAs(t, err, &se)
					if errors.Is(err, io.ErrUnexpectedEOF) {
						got = append(got, "cut")
						return
					}
					require.ErrorIs(t, err, sse.ErrEventTooLarge)
					require.Greater(t, se.Size, int64(limit), "%v: Size over MaxEventSize", err)
					got = append(got, "too large")
				}
			}
			for _, c := range split(in, rng, maxChunk) {
				before := lx.Buffered()
				if _, err := lx.Write(c); err != nil {
					require.Failf(t, "Write failed", "Write after draining: %v", err)
				}
				if b := lx.Buffered(); b > before+len(c) || before > limit+maxChunk {
					require.Failf(t, "Lexer holds too much", "Buffered %d before and %d after writing %d bytes, MaxEventSize %d", before, b, len(c), limit)
				}
				collect()
				if b := lx.Buffered(); b > limit+len(c) {
					require.Failf(t, "Lexer holds too much", "Buffered = %d after draining, MaxEventSize %d, chunk %d", b, limit, len(c))
				}
			}
			if err := lx.Close(); err != nil {
				require.ErrorIs(t, err, io.ErrUnexpectedEOF, "Close")
			}
			collect()
			runs = append(runs, got)
		}
		for i := 1; i < len(runs); i++ {
			require.Empty(t, cmp.Diff(runs[0], runs[i]), "chunking changed the outcome (-1-byte +other)")
		}

		// A Reader never reads further ahead than MaxEventSize plus its
		// read buffer.
		src := &randReader{in: in, rng: rng, maxRead: 1 << 16}
		r := sse.NewReader(src, opts)
		for {
			ok := r.Next()
			if held := int64(src.read) - r.InputOffset(); held > int64(limit)+32<<10 {
				require.Failf(t, "Reader holds too much", "Reader holds %d bytes, MaxEventSize %d", held, limit)
			}
			if !ok && !errors.Is(r.Err(), sse.ErrEventTooLarge) {
				break
			}
		}
	})
}

// TestASCIIDigits checks the reference's reading of a retry value: only
// ASCII digits, in base ten, saturating at math.MaxInt64.
func TestASCIIDigits(t *testing.T) {
	tests := []struct {
		name  string
		value string
		want  int64
		ok    bool
	}{
		{"empty", "", 0, false},
		{"zero", "0", 0, true},
		{"leading zeros", "007", 7, true},
		{"digits then a letter", "12a", 0, false},
		{"minus", "-1", 0, false},
		{"plus", "+1", 0, false},
		{"space before", " 1", 0, false},
		{"space after", "1 ", 0, false},
		{"fullwidth digit", "１", 0, false},
		{"largest int64", "9223372036854775807", math.MaxInt64, true},
		{"one past int64", "9223372036854775808", math.MaxInt64, true},
		{"far past int64", "99999999999999999999999999", math.MaxInt64, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, ok := asciiDigits([]byte(tt.value))
			assert.Equal(t, tt.ok, ok, "asciiDigits(%q): ok", tt.value)
			assert.Equal(t, tt.want, n, "asciiDigits(%q)", tt.value)
		})
	}
}
