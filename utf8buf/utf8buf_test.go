package utf8buf_test

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/utf8buf"
)

// This file holds the plain reference implementation the Buffer is checked
// against (refJoin, refHeld), the random input and chunking generators
// shared with fuzz_test.go, and the unit tests.

// refJoin is the reference transform of a whole input: every byte is kept,
// except that a WTF-8 high surrogate (ED A0–AF 80–BF) immediately followed
// by a WTF-8 low surrogate (ED B0–BF 80–BF) becomes the UTF-8 encoding of
// the code point the pair stands for.
func refJoin(in []byte) []byte {
	out := []byte{}
	for i := 0; i < len(in); {
		if i+6 <= len(in) && refKind(in[i:i+3]) == kindHigh && refKind(in[i+3:i+6]) == kindLow {
			hi := refSurrogate(in[i : i+3])
			lo := refSurrogate(in[i+3 : i+6])
			out = utf8.AppendRune(out, utf16.DecodeRune(hi, lo))
			i += 6
			continue
		}
		out = append(out, in[i])
		i++
	}
	return out
}

// refSurrogate decodes a 3-byte WTF-8 surrogate.
func refSurrogate(s []byte) rune {
	return rune(s[0]&0x0F)<<12 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F)
}

type kind int

const (
	kindChar    kind = iota // a complete valid UTF-8 character
	kindHigh                // a complete WTF-8 high surrogate
	kindLow                 // a complete WTF-8 low surrogate
	kindInvalid             // bytes that can never become valid
	kindShort               // a proper prefix of a sequence, cut by the end of input
)

// refUnit decodes the unit at the start of t the slow, obvious way: the
// byte ranges of the Unicode standard's table 3-7, with the 0xED row widened
// to 0x80–0xBF so that WTF-8 surrogates are units too.
func refUnit(t []byte) (int, kind) {
	type row struct {
		first, last byte // lead byte range
		n           int
		lo, hi      byte // second byte range
	}
	rows := []row{
		{0x00, 0x7F, 1, 0, 0},
		{0xC2, 0xDF, 2, 0x80, 0xBF},
		{0xE0, 0xE0, 3, 0xA0, 0xBF},
		{0xE1, 0xEC, 3, 0x80, 0xBF},
		{0xED, 0xED, 3, 0x80, 0xBF},
		{0xEE, 0xEF, 3, 0x80, 0xBF},
		{0xF0, 0xF0, 4, 0x90, 0xBF},
		{0xF1, 0xF3, 4, 0x80, 0xBF},
		{0xF4, 0xF4, 4, 0x80, 0x8F},
	}
	for _, r := range rows {
		if t[0] < r.first || t[0] > r.last {
			continue
		}
		for k := 1; k < r.n; k++ {
			if k == len(t) {
				return k, kindShort
			}
			lo, hi := byte(0x80), byte(0xBF)
			if k == 1 {
				lo, hi = r.lo, r.hi
			}
			if t[k] < lo || t[k] > hi {
				return k, kindInvalid
			}
		}
		if t[0] == 0xED && t[1] >= 0xB0 {
			return 3, kindLow
		}
		if t[0] == 0xED && t[1] >= 0xA0 {
			return 3, kindHigh
		}
		return r.n, kindChar
	}
	return 1, kindInvalid
}

// refKind is the kind of the unit at the start of t.
func refKind(t []byte) kind {
	_, k := refUnit(t)
	return k
}

// refHeld returns how many bytes at the end of the joined text t a Buffer
// must hold back, by decoding t forward from its start: a final short unit,
// plus a high surrogate just before it when the short unit may start a low
// surrogate; or a final high surrogate.
func refHeld(t []byte) int {
	prevStart, prevKind := -1, kindChar
	lastStart, lastKind := -1, kindChar
	for i := 0; i < len(t); {
		n, k := refUnit(t[i:])
		prevStart, prevKind = lastStart, lastKind
		lastStart, lastKind = i, k
		i += n
	}
	switch lastKind {
	case kindHigh:
		return 3
	case kindShort:
		held := len(t) - lastStart
		tail := t[lastStart:]
		lowStart := tail[0] == 0xED && (len(tail) == 1 || tail[1] >= 0xB0)
		if prevKind == kindHigh && lastStart-prevStart == 3 && lowStart {
			held += 3
		}
		return held
	}
	return 0
}

// The WTF-8 encodings used in the tests.
func wtf8(r rune) []byte {
	return []byte{0xE0 | byte(r>>12), 0x80 | byte(r>>6)&0x3F, 0x80 | byte(r)&0x3F}
}

var (
	highD83D = string(wtf8(0xD83D)) // "\xed\xa0\xbd"
	lowDE00  = string(wtf8(0xDE00)) // "\xed\xb8\x80"
	grinning = "\U0001F600"         // U+D83D U+DE00
)

// genText returns a random input mixing ASCII, valid characters of every
// length, WTF-8 surrogates (paired and lone), truncated sequences and bad
// bytes.
func genText(rng *rand.Rand, tokens int) []byte {
	var out []byte
	for range tokens {
		switch rng.IntN(12) {
		case 0, 1, 2:
			out = append(out, byte(' '+rng.IntN(95)))
		case 3:
			out = utf8.AppendRune(out, rune(0x80+rng.IntN(0x780)))
		case 4:
			r := rune(0x800 + rng.IntN(0x10000-0x800))
			if utf16.IsSurrogate(r) {
				r = 0xD7FF
			}
			out = utf8.AppendRune(out, r)
		case 5:
			out = utf8.AppendRune(out, rune(0x10000+rng.IntN(0x100000)))
		case 6:
			out = append(out, wtf8(rune(0xD800+rng.IntN(0x400)))...)
			out = append(out, wtf8(rune(0xDC00+rng.IntN(0x400)))...)
		case 7:
			out = append(out, wtf8(rune(0xD800+rng.IntN(0x400)))...)
		case 8:
			out = append(out, wtf8(rune(0xDC00+rng.IntN(0x400)))...)
		case 9:
			// A truncated valid or surrogate sequence.
			var enc []byte
			if rng.IntN(2) == 0 {
				enc = utf8.AppendRune(nil, rune(0x80+rng.IntN(0x10FF80)))
			} else {
				enc = wtf8(rune(0xD800 + rng.IntN(0x800)))
			}
			if len(enc) > 1 {
				out = append(out, enc[:1+rng.IntN(len(enc)-1)]...)
			}
		case 10:
			out = append(out, byte(rng.IntN(256)))
		case 11:
			bad := []byte{0x80, 0xBF, 0xC0, 0xC1, 0xED, 0xF4, 0xF5, 0xFF, 0xE0, 0xF0}
			out = append(out, bad[rng.IntN(len(bad))])
		}
	}
	return out
}

// chunk splits in into consecutive pieces whose lengths are driven by seed:
// mostly short pieces (1 to 8 bytes, including empty ones), sometimes
// longer ones.
func chunk(in []byte, seed int64) [][]byte {
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(seed)>>32|1))
	var out [][]byte
	for len(in) > 0 {
		n := rng.IntN(9)
		if rng.IntN(8) == 0 {
			n = rng.IntN(64)
		}
		n = min(n, len(in))
		out = append(out, in[:n])
		in = in[n:]
	}
	return out
}

// bytewise splits in into 1-byte pieces.
func bytewise(in []byte) [][]byte {
	out := make([][]byte, len(in))
	for i := range in {
		out[i] = in[i : i+1]
	}
	return out
}

// streamState is what checkStream compares with the reference after each
// chunk: the output so far of Write and of AppendWrite and the bytes each
// holds back, and the text built with Append and its bytes past
// CompletePrefix.
type streamState struct {
	Write, AppendWrite, Append             string
	WriteHeld, AppendWriteHeld, AppendHeld int
}

// checkStream feeds the chunks of one input to a Buffer through Write, to
// another through AppendWrite, and to a reducer-style text through Append
// and CompletePrefix, and checks after every chunk that the output so far
// and the held bytes are exactly what the reference gives for the input so
// far, that chunks of valid UTF-8 input are valid, that at most MaxHeld
// bytes are held, and at the end that output plus Flush equals the
// reference transform of the whole input. It returns the output.
func checkStream(t *testing.T, chunks [][]byte) []byte {
	t.Helper()
	var in []byte
	for _, c := range chunks {
		in = append(in, c...)
	}
	inCopy := bytes.Clone(in)
	valid := utf8.Valid(in)

	var b, ab utf8buf.Buffer
	var got, appended, text []byte
	emitted := 0
	prefix := 0
	for i, c := range chunks {
		prefix += len(c)
		out := b.Write(c)
		if valid {
			require.True(t, utf8.Valid(out), "chunk %d of %q: Write(%q) = %q, not valid UTF-8 although the input is", i, in, c, out)
		}
		got = append(got, out...)
		appended = ab.AppendWrite(appended, c)
		before := string(text[:emitted])
		text = utf8buf.Append(text, c)
		require.Equal(t, before, string(text[:emitted]), "chunk %d of %q: Append(%q) changed the text already complete", i, in, c)
		complete := utf8buf.CompletePrefix(text)
		require.True(t, complete >= emitted, "chunk %d of %q: CompletePrefix(%q) = %d went back from %d", i, in, text, complete, emitted)
		emitted = complete

		want := refJoin(in[:prefix])
		held := refHeld(want)
		require.True(t, b.Buffered() <= utf8buf.MaxHeld, "chunk %d of %q: Buffered() = %d > MaxHeld after Write", i, in, b.Buffered())
		if held > 3 {
			require.Equal(t, kindHigh, refKind(want[len(want)-held:]), "chunk %d of %q: the reference holds %d bytes %q, which must start with a high surrogate", i, in, held, want[len(want)-held:])
		}
		ready := string(want[:len(want)-held])
		require.Equal(t, streamState{
			Write: ready, WriteHeld: held,
			AppendWrite: ready, AppendWriteHeld: held,
			Append: string(want), AppendHeld: held,
		}, streamState{
			Write: string(got), WriteHeld: b.Buffered(),
			AppendWrite: string(appended), AppendWriteHeld: ab.Buffered(),
			Append: string(text), AppendHeld: len(text) - emitted,
		}, "chunk %d of %q: the outputs so far and the bytes held, against the reference", i, in)
	}
	got = append(got, b.Flush()...)
	appended = append(appended, ab.Flush()...)
	want := string(refJoin(in))
	require.Equal(t, want, string(got), "input %q: Write+Flush", in)
	require.Equal(t, want, string(appended), "input %q: AppendWrite+Flush", in)
	require.Equal(t, want, string(text), "input %q: Append", in)
	require.Zero(t, b.Buffered(), "input %q: Buffered() after Flush", in)
	require.Equal(t, string(inCopy), string(in), "the input was modified")
	return got
}

// TestReference checks the reference functions themselves on cases whose
// answers are known by hand.
func TestReference(t *testing.T) {
	cases := []struct {
		name string
		in   string
		join string
		held int
	}{
		{"empty", "", "", 0},
		{"ASCII", "abc", "abc", 0},
		{"pair", highD83D + lowDE00, grinning, 0},
		{"low then high", lowDE00 + highD83D, lowDE00 + highD83D, 3},
		{"high high low", highD83D + highD83D + lowDE00, highD83D + grinning, 0},
		{"pair cut in the low", highD83D + "\xed\xb8", highD83D + "\xed\xb8", 5},
		{"high then ED 80", highD83D + "\xed\x80", highD83D + "\xed\x80", 2},
		{"incomplete euro", "\xe2\x82", "\xe2\x82", 2},
		{"broken euro", "\xe2\x82a", "\xe2\x82a", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j := refJoin([]byte(tc.in))
			assert.Equal(t, tc.join, string(j), "refJoin(%q)", tc.in)
			assert.Equal(t, tc.held, refHeld(j), "refHeld(%q)", j)
		})
	}
}

// TestEveryCodePointSplit writes every valid code point, surrogates
// excepted, whole, split in two at every position, and one byte at a time:
// nothing comes out before the last byte, then the whole character does.
//
// NOTE: this test and TestEverySurrogatePair pass some thirty million
// checks each, and a testify call costs about half a microsecond even when
// it passes (t.Helper walks the stack): calling require for each made
// TestEverySurrogatePair take 20 s instead of 0.7 s. So each check tests
// its condition first and calls require only to report a failure.
func TestEveryCodePointSplit(t *testing.T) {
	var enc []byte
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if utf16.IsSurrogate(r) {
			continue
		}
		enc = utf8.AppendRune(enc[:0], r)
		var b utf8buf.Buffer
		if out := b.Write(enc); !bytes.Equal(out, enc) || b.Buffered() != 0 {
			require.Equal(t, string(enc), string(out), "U+%04X whole: Write", r)
			require.Zero(t, b.Buffered(), "U+%04X whole: bytes held after Write", r)
		}
		for k := 1; k < len(enc); k++ {
			if out := b.Write(enc[:k]); len(out) != 0 || b.Buffered() != k {
				require.Empty(t, out, "U+%04X split at %d: first Write = %q", r, k, out)
				require.Equal(t, k, b.Buffered(), "U+%04X split at %d: bytes held after the first Write", r, k)
			}
			if out := b.Write(enc[k:]); !bytes.Equal(out, enc) || !utf8.Valid(out) || b.Buffered() != 0 {
				require.Equal(t, string(enc), string(out), "U+%04X split at %d: second Write", r, k)
				require.True(t, utf8.Valid(out), "U+%04X split at %d: second Write = %q, not valid UTF-8", r, k, out)
				require.Zero(t, b.Buffered(), "U+%04X split at %d: bytes held after the second Write", r, k)
			}
			if c := utf8buf.CompletePrefix(enc[:k]); c != 0 {
				require.Zero(t, c, "U+%04X: CompletePrefix(%q)", r, enc[:k])
			}
			text := utf8buf.Append(utf8buf.Append(nil, enc[:k]), enc[k:])
			if !bytes.Equal(text, enc) || utf8buf.CompletePrefix(text) != len(enc) {
				require.Equal(t, string(enc), string(text), "U+%04X split at %d: Append of the two parts", r, k)
				require.Equal(t, len(enc), utf8buf.CompletePrefix(text), "U+%04X split at %d: CompletePrefix of the Append text", r, k)
			}
		}
		if len(enc) > 2 {
			for k := range enc {
				out := b.Write(enc[k : k+1])
				if k < len(enc)-1 && len(out) != 0 {
					require.Empty(t, out, "U+%04X byte by byte: Write #%d = %q", r, k, out)
				}
				if k == len(enc)-1 && !bytes.Equal(out, enc) {
					require.Equal(t, string(enc), string(out), "U+%04X byte by byte: Write #%d", r, k)
				}
			}
		}
		if f := b.Flush(); len(f) != 0 {
			require.Empty(t, f, "U+%04X: Flush = %q", r, f)
		}
	}
}

// TestSingleWrite covers the invalid lead and continuation patterns, and
// lone and paired surrogates, written in one Write: what comes out at once
// and what is held back for Flush. Each case is also checked against the
// reference for every chunking into two and three pieces and one byte at a
// time.
func TestSingleWrite(t *testing.T) {
	cases := []struct {
		name string
		in   string
		out  string // returned by Write; the rest is held and returned by Flush
	}{
		{"empty", "", ""},
		{"ASCII", "hello", "hello"},
		{"stray continuation 0x80", "\x80", "\x80"},
		{"stray continuation 0xBF after ASCII", "a\xbf", "a\xbf"},
		{"continuation after complete 2-byte", "\xc3\xa9\x80", "\xc3\xa9\x80"},
		{"continuations after complete 3-byte", "\xe2\x82\xac\x80\x80\x80", "\xe2\x82\xac\x80\x80\x80"},
		{"overlong lead C0", "\xc0", "\xc0"},
		{"overlong lead C0 with continuation", "\xc0\xaf", "\xc0\xaf"},
		{"overlong lead C1", "\xc1\x81", "\xc1\x81"},
		{"lead F5", "\xf5", "\xf5"},
		{"lead F7 with continuations", "\xf7\xbf\xbf", "\xf7\xbf\xbf"},
		{"lead F8 (5-byte form)", "\xf8\x88\x80\x80", "\xf8\x88\x80\x80"},
		{"lead FC (6-byte form)", "\xfc", "\xfc"},
		{"lead FE", "\xfe", "\xfe"},
		{"lead FF", "\xff", "\xff"},
		{"E0 overlong second byte", "\xe0\x80", "\xe0\x80"},
		{"E0 overlong 3 bytes", "\xe0\x9f\xbf", "\xe0\x9f\xbf"},
		{"F0 overlong second byte", "\xf0\x8f", "\xf0\x8f"},
		{"F4 above U+10FFFF", "\xf4\x90", "\xf4\x90"},
		{"F4 above U+10FFFF, 4 bytes", "\xf4\x90\x80\x80", "\xf4\x90\x80\x80"},
		{"2-byte lead then ASCII", "\xc3A", "\xc3A"},
		{"3-byte lead then ASCII", "\xe2A", "\xe2A"},
		{"3-byte prefix then ASCII", "\xe2\x82A", "\xe2\x82A"},
		{"4-byte prefix then ASCII", "\xf0\x9f\x98A", "\xf0\x9f\x98A"},
		{"4-byte prefix then new lead, held", "\xf0\x9f\x98\xe2\x82", "\xf0\x9f\x98"},
		{"2-byte lead then 2-byte lead", "\xc3\xc3", "\xc3"},
		{"incomplete 2-byte", "\xc3", ""},
		{"incomplete 3-byte, 1 of 3", "\xe2", ""},
		{"incomplete 3-byte, 2 of 3", "\xe2\x82", ""},
		{"incomplete 4-byte, 1 of 4", "\xf0", ""},
		{"incomplete 4-byte, 2 of 4", "\xf0\x9f", ""},
		{"incomplete 4-byte, 3 of 4", "\xf0\x9f\x98", ""},
		{"incomplete F4 max", "\xf4\x8f\xbf", ""},
		{"text then incomplete", "ab\xe2\x82", "ab"},
		{"ED then ASCII", "\xed\x41", "\xed\x41"},
		{"ED 80-9F prefix (U+D000–U+D7FF), held", "\xed\x9f", ""},
		{"U+D7FF complete", "\xed\x9f\xbf", "\xed\x9f\xbf"},
		{"lone low", lowDE00, lowDE00},
		{"lone low U+DC00", "\xed\xb0\x80", "\xed\xb0\x80"},
		{"lone low U+DFFF", "\xed\xbf\xbf", "\xed\xbf\xbf"},
		{"low start, held", "\xed\xb0", ""},
		{"high at the end, held", "a" + highD83D, "a"},
		{"high U+D800 at the end", "\xed\xa0\x80", ""},
		{"high U+DBFF at the end", "\xed\xaf\xbf", ""},
		{"high then ED, held", highD83D + "\xed", ""},
		{"high then low start, held", highD83D + "\xed\xb8", ""},
		{"high then ED 80, high handed on", highD83D + "\xed\x80", highD83D},
		{"high then high start, first handed on", highD83D + "\xed\xa0", highD83D},
		{"high then high", highD83D + highD83D, highD83D},
		{"high then ASCII", highD83D + "x", highD83D + "x"},
		{"high then 4-byte prefix", highD83D + "\xf0\x9f", highD83D},
		{"high then ED then ASCII", highD83D + "\xedx", highD83D + "\xedx"},
		{"high then truncated low then ASCII", highD83D + "\xed\xb8x", highD83D + "\xed\xb8x"},
		{"high cut short then low", "\xed\xa0" + lowDE00, "\xed\xa0" + lowDE00},
		{"pair", highD83D + lowDE00, grinning},
		{"pair U+D800 U+DC00", "\xed\xa0\x80\xed\xb0\x80", "\U00010000"},
		{"pair U+DBFF U+DFFF", "\xed\xaf\xbf\xed\xbf\xbf", "\U0010FFFF"},
		{"pair then high, held", highD83D + lowDE00 + highD83D, grinning},
		{"high high low", highD83D + highD83D + lowDE00, highD83D + grinning},
		{"low high low", lowDE00 + highD83D + lowDE00, lowDE00 + grinning},
		{"two pairs", highD83D + lowDE00 + highD83D + lowDE00 + "!", grinning + grinning + "!"},
		{"mixed text", "h\xc3\xa9llo \xe4\xb8\x96 " + grinning, "h\xc3\xa9llo \xe4\xb8\x96 " + grinning},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			var b utf8buf.Buffer
			out := string(b.Write(in))
			held := string(b.Flush())
			want := string(refJoin(in))
			require.Equal(t, tc.out, out, "Write(%q)", tc.in)
			require.Equal(t, want, out+held, "Write(%q) = %q then Flush = %q", tc.in, out, held)
			require.LessOrEqual(t, len(held), utf8buf.MaxHeld, "bytes held after Write(%q)", tc.in)
			c := utf8buf.CompletePrefix(in)
			if out == want {
				require.Equal(t, len(in), c, "CompletePrefix(%q), when Write holds nothing back", tc.in)
			} else {
				require.Equal(t, held, string(in[c:]), "the bytes past CompletePrefix(%q) = %d, against those Write held", tc.in, c)
			}
			checkStream(t, bytewise(in))
			for i := 0; i <= len(in); i++ {
				for j := i; j <= len(in); j++ {
					checkStream(t, [][]byte{in[:i], in[i:j], in[j:]})
				}
			}
		})
	}
}

// TestWritesAcrossDeltas feeds named sequences of writes and checks each
// output and the final Flush.
func TestWritesAcrossDeltas(t *testing.T) {
	cases := []struct {
		name   string
		writes []string
		outs   []string
		flush  string
	}{
		{"emoji split 2+2", []string{"a\xf0\x9f", "\x98\x80b"}, []string{"a", grinning + "b"}, ""},
		{"emoji one byte at a time", []string{"\xf0", "\x9f", "\x98", "\x80"}, []string{"", "", "", grinning}, ""},
		{"euro split 1+2", []string{"1\xe2", "\x82\xac"}, []string{"1", "\u20ac"}, ""},
		{"pair split between the escapes", []string{"x" + highD83D, lowDE00 + "y"}, []string{"x", grinning + "y"}, ""},
		{"high arriving one byte at a time", []string{"\xed", "\xa0", "\xbd", lowDE00}, []string{"", "", "", grinning}, ""},
		{"low arriving one byte at a time", []string{highD83D, "\xed", "\xb8", "\x80"}, []string{"", "", "", grinning}, ""},
		{"pair split inside the high", []string{"\xed\xa0", "\xbd\xed\xb8\x80"}, []string{"", grinning}, ""},
		{"pair split inside the low", []string{highD83D + "\xed\xb8", "\x80"}, []string{"", grinning}, ""},
		{"empty writes between halves", []string{highD83D, "", "", lowDE00}, []string{"", "", "", grinning}, ""},
		{"lone high then ASCII", []string{highD83D, "x"}, []string{"", highD83D + "x"}, ""},
		{"lone high then emoji", []string{highD83D, grinning}, []string{"", highD83D + grinning}, ""},
		{"lone low", []string{"a", lowDE00}, []string{"a", lowDE00}, ""},
		{"low before high", []string{lowDE00, highD83D}, []string{lowDE00, ""}, highD83D},
		{"high then high", []string{highD83D, highD83D}, []string{"", highD83D}, highD83D},
		{"high then high then low", []string{highD83D, highD83D, lowDE00}, []string{"", highD83D, grinning}, ""},
		{"high at Flush", []string{"end" + highD83D}, []string{"end"}, highD83D},
		{"high and low start at Flush", []string{highD83D + "\xed\xb8"}, []string{""}, highD83D + "\xed\xb8"},
		{"incomplete at Flush", []string{"ok\xe2\x82"}, []string{"ok"}, "\xe2\x82"},
		{"truncated then new text", []string{"\xe2\x82", "z"}, []string{"", "\xe2\x82z"}, ""},
		{"high then ED then U+D000 rest", []string{highD83D + "\xed", "\x80\x80"}, []string{"", highD83D + "\xed\x80\x80"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b utf8buf.Buffer
			var chunks [][]byte
			for i, w := range tc.writes {
				chunks = append(chunks, []byte(w))
				require.Equal(t, tc.outs[i], string(b.Write([]byte(w))), "Write #%d (%q)", i, w)
			}
			require.Equal(t, tc.flush, string(b.Flush()), "Flush")
			checkStream(t, chunks)
		})
	}
}

// TestEverySurrogatePair joins each of the 2^20 high/low pairs, written as
// WTF-8 whole, split in two at every position and one byte at a time, into
// the 4-byte UTF-8 of its code point.
//
// NOTE: as in TestEveryCodePointSplit, each check tests its condition
// first and calls require only to report a failure.
func TestEverySurrogatePair(t *testing.T) {
	in := make([]byte, 6)
	var want []byte
	var b utf8buf.Buffer
	for hi := rune(0xD800); hi <= 0xDBFF; hi++ {
		copy(in, wtf8(hi))
		for lo := rune(0xDC00); lo <= 0xDFFF; lo++ {
			copy(in[3:], wtf8(lo))
			want = utf8.AppendRune(want[:0], utf16.DecodeRune(hi, lo))
			if out := b.Write(in); !bytes.Equal(out, want) {
				require.Equal(t, string(want), string(out), "U+%04X U+%04X whole: Write", hi, lo)
			}
			for k := 1; k < len(in); k++ {
				if out := b.Write(in[:k]); len(out) != 0 || b.Buffered() != k {
					require.Empty(t, out, "U+%04X U+%04X split at %d: first Write = %q", hi, lo, k, out)
					require.Equal(t, k, b.Buffered(), "U+%04X U+%04X split at %d: bytes held after the first Write", hi, lo, k)
				}
				if out := b.Write(in[k:]); !bytes.Equal(out, want) || b.Buffered() != 0 {
					require.Equal(t, string(want), string(out), "U+%04X U+%04X split at %d: second Write", hi, lo, k)
					require.Zero(t, b.Buffered(), "U+%04X U+%04X split at %d: bytes held after the second Write", hi, lo, k)
				}
			}
			for k := range in {
				out := b.Write(in[k : k+1])
				if k < len(in)-1 && (len(out) != 0 || b.Buffered() != k+1) {
					require.Empty(t, out, "U+%04X U+%04X byte by byte: Write #%d = %q", hi, lo, k, out)
					require.Equal(t, k+1, b.Buffered(), "U+%04X U+%04X byte by byte: bytes held after Write #%d", hi, lo, k)
				}
				if k == len(in)-1 && !bytes.Equal(out, want) {
					require.Equal(t, string(want), string(out), "U+%04X U+%04X byte by byte: Write #%d", hi, lo, k)
				}
			}
		}
	}
}

// TestSurrogateBoundariesEverySplit writes the boundary pairs (U+D800,
// U+DBFF, U+DC00, U+DFFF and their neighbours) between other text, split
// into three pieces at every pair of positions and one byte at a time.
func TestSurrogateBoundariesEverySplit(t *testing.T) {
	highs := []rune{0xD800, 0xD801, 0xD83D, 0xDBFE, 0xDBFF}
	lows := []rune{0xDC00, 0xDC01, 0xDE00, 0xDFFE, 0xDFFF}
	for _, hi := range highs {
		for _, lo := range lows {
			in := append([]byte("\u00e9"), wtf8(hi)...)
			in = append(in, wtf8(lo)...)
			in = append(in, "\u4e16"...)
			want := "\u00e9" + string(utf16.DecodeRune(hi, lo)) + "\u4e16"
			for i := 0; i <= len(in); i++ {
				for j := i; j <= len(in); j++ {
					got := string(checkStream(t, [][]byte{in[:i], in[i:j], in[j:]}))
					require.Equal(t, want, got, "U+%04X U+%04X split at %d,%d", hi, lo, i, j)
				}
			}
			got := string(checkStream(t, bytewise(in)))
			require.Equal(t, want, got, "U+%04X U+%04X byte by byte", hi, lo)
		}
	}
}

// TestChunkingInvariance is the property test: for random inputs mixing
// valid UTF-8, WTF-8 surrogates and garbage, the output is the reference
// transform of the whole input whether it is written whole, one byte at a
// time, or in random pieces.
func TestChunkingInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		in := genText(rng, 1+rng.IntN(40))
		want := refJoin(in)
		for _, chunks := range [][][]byte{{in}, bytewise(in), chunk(in, int64(i)), chunk(in, -int64(i))} {
			got := checkStream(t, chunks)
			require.Equal(t, string(want), string(got), "input %q in %d chunks", in, len(chunks))
		}
	}
}

// TestValidInputValidChunks checks that valid UTF-8 text comes out in valid
// pieces, whatever the chunking.
func TestValidInputValidChunks(t *testing.T) {
	in := []byte("Grüße, 世界! Привет, мир. مرحبا 👋🏽 ½ 𝄞 done")
	for seed := range int64(200) {
		var b utf8buf.Buffer
		var got []byte
		for _, c := range chunk(in, seed) {
			out := b.Write(c)
			require.True(t, utf8.Valid(out), "seed %d: Write(%q) = %q, not valid UTF-8", seed, c, out)
			got = append(got, out...)
		}
		require.Equal(t, string(in), string(got), "seed %d: output", seed)
		require.Zero(t, b.Buffered(), "seed %d: bytes held at the end", seed)
	}
}

func TestCompletePrefix(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want int
	}{
		{"empty", "", 0},
		{"ASCII", "abc", 3},
		{"complete 4-byte", grinning, 4},
		{"incomplete 4-byte", "a\xf0\x9f\x98", 1},
		{"complete then continuation", grinning + "\x80", 5},
		{"high", "ab" + highD83D, 2},
		{"high then ED", "ab" + highD83D + "\xed", 2},
		{"high then low start", "ab" + highD83D + "\xed\xb8", 2},
		{"high then ED 80", "ab" + highD83D + "\xed\x80", 5},
		{"high then low", "ab" + highD83D + lowDE00, 8},
		{"lone low", lowDE00, 3},
		{"invalid lead at the end", "ab\xff", 3},
		{"overlong start at the end", "ab\xe0\x80", 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, utf8buf.CompletePrefix([]byte(tc.in)), "CompletePrefix(%q)", tc.in)
		})
	}
}

// TestAppendKeepsEmittedText follows the reducer's use: the text keeps
// every delta, Append joins a pair at the seam in place, and the complete
// prefix reported before never changes.
func TestAppendKeepsEmittedText(t *testing.T) {
	deltas := []string{"Hé", "llo \xe4", "\xb8\x96 ", highD83D[:2], highD83D[2:], lowDE00[:1], lowDE00[1:] + "!", " " + highD83D, "?"}
	want := "Héllo 世 " + grinning + "! " + highD83D + "?"
	text := make([]byte, 0, 64)
	emitted := 0
	var live []byte
	for _, d := range deltas {
		before := string(text[:emitted])
		text = utf8buf.Append(text, []byte(d))
		require.Equal(t, before, string(text[:emitted]), "Append(%q) changed the emitted text", d)
		c := utf8buf.CompletePrefix(text)
		live = append(live, text[emitted:c]...)
		emitted = c
	}
	live = append(live, text[emitted:]...)
	assert.Equal(t, want, string(text), "text")
	assert.Equal(t, want, string(live), "live output")
}

func TestAppendDisplay(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want string
	}{
		{"valid", "a\u00e9\u4e16" + grinning, "a\u00e9\u4e16" + grinning},
		{"U+FFFD itself", "\uFFFD", "\uFFFD"},
		{"lone high", "a" + highD83D + "b", "a\uFFFD\uFFFD\uFFFDb"},
		{"lone low", lowDE00, "\uFFFD\uFFFD\uFFFD"},
		{"high then low stays joined only after Append", highD83D + lowDE00, "\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"stray continuations", "\x80\xbf", "\uFFFD\uFFFD"},
		{"bad leads", "\xc0\xc1\xf5\xff", "\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"truncated then ASCII", "\xe2\x82a", "\uFFFDa"},
		{"truncated at the end", "a\xf0\x9f\x98", "a\uFFFD"},
		{"overlong", "\xe0\x80\xaf", "\uFFFD\uFFFD\uFFFD"},
		{"above U+10FFFF", "\xf4\x90\x80\x80", "\uFFFD\uFFFD\uFFFD\uFFFD"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := string(utf8buf.AppendDisplay([]byte("<"), []byte(tc.in)))
			assert.Equal(t, "<"+tc.want, got, "AppendDisplay(%q)", tc.in)
			assert.True(t, utf8.ValidString(got), "AppendDisplay(%q) = %q is not valid UTF-8", tc.in, got)
		})
	}
}

func TestReset(t *testing.T) {
	var b utf8buf.Buffer
	b.Write([]byte("x" + highD83D))
	require.Equal(t, 3, b.Buffered(), "Buffered() before Reset")
	b.Reset()
	require.Zero(t, b.Buffered(), "Buffered() after Reset")
	require.Equal(t, lowDE00, string(b.Write([]byte(lowDE00))), "after Reset, Write(low) must give the lone low")
	f := b.Flush()
	require.Empty(t, f, "Flush = %q", f)
}

// TestWriteLeavesInputAlone checks that joining a pair inside one Write does
// not rewrite the caller's slice.
func TestWriteLeavesInputAlone(t *testing.T) {
	in := []byte("a" + highD83D + lowDE00 + "b")
	orig := bytes.Clone(in)
	var b utf8buf.Buffer
	require.Equal(t, "a"+grinning+"b", string(b.Write(in)), "Write")
	require.Equal(t, string(orig), string(in), "Write modified its argument")
}

// TestAppendShortDeltas checks AppendComplete (and so Append) against
// refJoin and refHeld for deltas of every length up to 20 (its word copy
// takes up to 16 bytes), with a
// pattern at every position (a surrogate lead, a low or high surrogate, a
// surrogate pair, a 2- or 3-byte character, a cut one), after texts that end in every way (ASCII, a
// whole character, a held high surrogate, a cut character, nothing), with
// room for the delta and without.
func TestAppendShortDeltas(t *testing.T) {
	texts := [][]byte{nil, []byte("ab"), []byte("x\u00e9"), {'x', 0xED, 0xA0, 0xBD}, {'x', 0xC3}, {'x', 0xED, 0xA0}}
	patterns := [][]byte{nil, {0xED}, {0xED, 0xB0, 0x80}, {0xED, 0xA0, 0xBD}, {0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80}, {0xC3, 0xA9}, {0xE8, 0xA1, 0x80}, {0xC3}, {0xE8, 0xA1}}
	for _, text := range texts {
		for _, room := range []int{0, 32} {
			for k := 0; k <= 20; k++ {
				for _, pat := range patterns {
					for at := 0; at+len(pat) <= k; at++ {
						p := make([]byte, k)
						for i := range p {
							p[i] = 'a' + byte(i)
						}
						copy(p[at:], pat)
						dst := append(make([]byte, 0, len(text)+room), text...)
						want := refJoin(append(append([]byte{}, text...), p...))
						got, end := utf8buf.AppendComplete(dst, p)
						require.Equal(t, string(want), string(got), "AppendComplete(% x, % x) with room %d: text", text, p, room)
						require.Equal(t, len(want)-refHeld(want), end, "AppendComplete(% x, % x) with room %d: complete prefix of % x", text, p, room, got)
						if len(pat) == 0 {
							break
						}
					}
				}
			}
		}
	}
}

// TestReplacedLen checks the WHATWG maximal subparts: the bytes TextDecoder
// replaces with one U+FFFD.
func TestReplacedLen(t *testing.T) {
	cases := []struct {
		in   string
		want int
	}{
		{"", 0}, {"a", 0}, {"\u00e9", 0}, {grinning, 0}, {"\uFFFD", 0},
		{"\x80", 1}, {"\xbf\xbf", 1}, {"\xc0\xaf", 1}, {"\xc1", 1}, {"\xf5\x80", 1}, {"\xff", 1},
		{"\xc3", 1}, {"\xc3(", 1},
		{"\xe2", 1}, {"\xe2\x82", 2}, {"\xe2\x82a", 2}, {"\xe2\x82\xe2", 2},
		{"\xe0\x80", 1}, {"\xe0\xa0", 2},
		{"\xed\xa0\xbd", 1}, {"\xed\x9f", 2},
		{"\xf0\x9f\x98", 3}, {"\xf0\x8f", 1}, {"\xf0\x9f(", 2},
		{"\xf4\x8f\xbf", 3}, {"\xf4\x90\x80\x80", 1},
	}
	for _, tc := range cases {
		if got := utf8buf.ReplacedLen([]byte(tc.in)); got != tc.want {
			t.Errorf("ReplacedLen(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
