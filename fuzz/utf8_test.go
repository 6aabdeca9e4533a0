package fuzz

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

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
		// The checks in this loop run once per delta, up to 16 Ki times
		// per input: each is guarded by its own condition and calls
		// require only on failure, as a testify call boxes its arguments
		// on every run and would slow the fuzzing.
		for _, d := range deltas {
			w := b.Write(d)
			if b.Buffered() > utf8buf.MaxHeld {
				require.Failf(t, "Buffer holds too much", "Buffered = %d > MaxHeld", b.Buffered())
			}
			if utf8.Valid(in) && !utf8.Valid(w) {
				require.Failf(t, "invalid output", "invalid output %q of valid input %q", w, in)
			}
			outs = append(outs, bytes.Clone(w))
			out = append(out, w...)

			var end int
			text, end = utf8buf.AppendComplete(text, d)
			c := utf8buf.CompletePrefix(text)
			if end != c {
				require.Failf(t, "complete prefixes differ", "AppendComplete gives a complete prefix of %d bytes, CompletePrefix %d", end, c)
			}
			if c < len(text)-utf8buf.MaxHeld || c < emitted {
				require.Failf(t, "CompletePrefix lags", "CompletePrefix = %d of %d bytes, %d already complete", c, len(text), emitted)
			}
			if got := text[emitted:c]; !bytes.Equal(got, outs[len(outs)-1]) {
				require.Failf(t, "AppendComplete and the Buffer differ", "AppendComplete marks %q complete, the Buffer wrote %q", got, outs[len(outs)-1])
			}
			emitted = c
		}
		out = append(out, b.Flush()...)
		require.Zero(t, b.Buffered(), "Buffered after Flush")
		require.Equal(t, string(want), string(out), "the Buffer's outputs and Flush")
		require.Equal(t, string(want), string(text), "AppendComplete's text")
		disp := utf8buf.AppendDisplay(nil, text)
		require.True(t, utf8.Valid(disp), "AppendDisplay(%q) = %q is not valid UTF-8", text, disp)
		if utf8.Valid(text) {
			require.Equal(t, string(text), string(disp), "AppendDisplay of valid UTF-8 changes it")
		}
		require.Equal(t, whatwgString(text), string(disp), "AppendDisplay(%q) and the WHATWG decoder", text)
	})
}
