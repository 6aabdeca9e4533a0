package utf8buf_test

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/utf8buf"
)

// FuzzBuffer checks, for any input and a chunking driven by seed, that the
// output plus Flush equals the reference transform of the input, that it
// is the same whole, one byte at a time and in random pieces, that every
// piece is valid UTF-8 when the input is, and that no more than MaxHeld
// bytes are ever held (checkStream checks each of these after every
// chunk). It also checks that AppendDisplay always gives valid UTF-8 and
// leaves valid input unchanged.
func FuzzBuffer(f *testing.F) {
	seeds := []string{
		"", "hello", "\x80", "\xc0\xaf", "\xe0\x80", "\xf4\x90\x80\x80", "\xf5\xff", "\xe2\x82a",
		"\xf0\x9f\x98\xe2\x82", "\xed\x9f\xbf", "\xed\xb0", "a" + highD83D, highD83D + "\xed\xb8",
		highD83D + lowDE00, highD83D + highD83D + lowDE00, lowDE00 + highD83D, "\xed\xa0\x80\xed\xb0\x80",
		"\xed\xaf\xbf\xed\xbf\xbf", mixedText, "h\xc3\xa9llo \xe4\xb8\x96 " + grinning,
	}
	for i, s := range seeds {
		f.Add([]byte(s), int64(i))
	}
	f.Fuzz(func(t *testing.T, in []byte, seed int64) {
		// Cap the work per input: checkStream recomputes the reference
		// for every prefix.
		if len(in) > 128 {
			in = in[:128]
		}
		want := refJoin(in)
		for _, chunks := range [][][]byte{{in}, bytewise(in), chunk(in, seed)} {
			got := checkStream(t, chunks)
			require.Equal(t, string(want), string(got), "input %q in %d chunks", in, len(chunks))
		}
		shown := utf8buf.AppendDisplay(nil, in)
		require.True(t, utf8.Valid(shown), "AppendDisplay(%q) = %q, not valid UTF-8", in, shown)
		if utf8.Valid(in) {
			require.Equal(t, string(in), string(shown), "AppendDisplay of the valid input %q", in)
		}
	})
}
