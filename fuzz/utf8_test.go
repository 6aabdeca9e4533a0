package fuzz

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/a2astream/a2astream/utf8buf"
)

// FuzzUTF8 cuts arbitrary text into random deltas and checks utf8buf
// against joinSurrogates: a Buffer's outputs plus its Flush equal the input
// with WTF-8 surrogate pairs joined, it never holds more than MaxHeld bytes,
// its outputs are valid UTF-8 when the input is; AppendComplete (Append)
// over the same deltas builds the same text, with the complete prefix
// CompletePrefix gives, which never lags by more than MaxHeld, and the
// parts it marks complete are the Buffer's outputs;
// AppendDisplay always gives valid UTF-8, leaves valid text unchanged and
// replaces the rest as the WHATWG decoder does (whatwgString).
func FuzzUTF8(f *testing.F) {
	seeds := []string{"", "abc", "café 血压 🩺", "\xED\xA0\xBD\xED\xB8\x80", "x\xED\xA0\xBD", "\xED\xB8\x80y",
		"\xED\xA0\xBD\xED\xA0\xBD\xED\xB8\x80", "\xF0\x9F\x98", "\xC0\xAF\xFF\x80", "\xE2\x82a", "𝄞\xED\xA0"}
	for i, s := range seeds {
		f.Add([]byte(s), int64(i))
	}
	f.Fuzz(func(t *testing.T, in []byte, seed int64) {
		if len(in) > 1<<14 {
			return
		}
		want := joinSurrogates(in)
		rng := rand.New(rand.NewPCG(uint64(seed), 5))
		deltas := split(in, rng, 1+rng.IntN(8))
		var b utf8buf.Buffer
		var out, text []byte
		var outs [][]byte
		emitted := 0
		for _, d := range deltas {
			w := b.Write(d)
			if b.Buffered() > utf8buf.MaxHeld {
				t.Fatalf("Buffered = %d > MaxHeld", b.Buffered())
			}
			if utf8.Valid(in) && !utf8.Valid(w) {
				t.Fatalf("invalid output %q of valid input %q", w, in)
			}
			outs = append(outs, bytes.Clone(w))
			out = append(out, w...)

			var end int
			text, end = utf8buf.AppendComplete(text, d)
			c := utf8buf.CompletePrefix(text)
			if end != c {
				t.Fatalf("AppendComplete gives a complete prefix of %d bytes, CompletePrefix %d", end, c)
			}
			if c < len(text)-utf8buf.MaxHeld || c < emitted {
				t.Fatalf("CompletePrefix = %d of %d bytes, %d already complete", c, len(text), emitted)
			}
			if got := text[emitted:c]; !bytes.Equal(got, outs[len(outs)-1]) {
				t.Fatalf("AppendComplete marks %q complete, the Buffer wrote %q", got, outs[len(outs)-1])
			}
			emitted = c
		}
		out = append(out, b.Flush()...)
		if b.Buffered() != 0 {
			t.Fatalf("Buffered = %d after Flush", b.Buffered())
		}
		if !bytes.Equal(out, want) {
			t.Fatalf("Buffer gives %q, want %q", out, want)
		}
		if !bytes.Equal(text, want) {
			t.Fatalf("AppendComplete gives %q, want %q", text, want)
		}
		disp := utf8buf.AppendDisplay(nil, text)
		if !utf8.Valid(disp) || (utf8.Valid(text) && !bytes.Equal(disp, text)) {
			t.Fatalf("AppendDisplay(%q) = %q", text, disp)
		}
		if string(disp) != whatwgString(text) {
			t.Fatalf("AppendDisplay(%q) = %q, the WHATWG decoder gives %q", text, disp, whatwgString(text))
		}
	})
}
