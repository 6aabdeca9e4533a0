package utf8buf_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/a2astream/a2astream/utf8buf"
)

// mixedText is a paragraph in several scripts: ASCII, Latin with accents,
// Greek, Cyrillic, Arabic, Hindi, Chinese, Japanese, Korean (whose
// syllables from U+D000 start with 0xED, the lead byte of WTF-8
// surrogates) and emoji, so that 1-, 2-, 3- and 4-byte characters all occur
// and chunk boundaries fall inside them.
const mixedText = "The quick brown fox jumps over the lazy dog. " +
	"Größere Übungen für Ärztinnen, naïve café. " +
	"Η γρήγορη καφέ αλεπού. Съешь же ещё этих мягких французских булок. " +
	"مرحبا بالعالم. नमस्ते दुनिया. 你好，世界。日本語のテキストです。 " +
	"안녕하세요, 힘내세요! 휴대폰 " +
	"Emoji 😀👋🏽🚀 and 𝄞 music. "

// benchInput is mixedText repeated to 64 KiB.
func benchInput() []byte {
	return []byte(strings.Repeat(mixedText, 64<<10/len(mixedText)))
}

// BenchmarkBuffer writes a mixed-script text through a Buffer in pieces of
// 1 byte, 7 bytes and 4 KiB (the last two split characters most of the
// time), and through AppendWrite in 7-byte pieces.
func BenchmarkBuffer(b *testing.B) {
	in := benchInput()
	for _, size := range []int{1, 7, 4 << 10} {
		b.Run("Write/"+strconv.Itoa(size)+"B", func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			var buf utf8buf.Buffer
			for b.Loop() {
				for p := in; len(p) > 0; {
					n := min(size, len(p))
					buf.Write(p[:n])
					p = p[n:]
				}
				buf.Flush()
			}
		})
	}
	b.Run("AppendWrite/7B", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		var buf utf8buf.Buffer
		dst := make([]byte, 0, len(in))
		for b.Loop() {
			dst = dst[:0]
			for p := in; len(p) > 0; {
				n := min(7, len(p))
				dst = buf.AppendWrite(dst, p[:n])
				p = p[n:]
			}
			dst = append(dst, buf.Flush()...)
		}
	})
}

// BenchmarkAppend follows the reducer: it appends the mixed-script text to
// a whole text in 7-byte deltas and asks CompletePrefix after each.
func BenchmarkAppend(b *testing.B) {
	in := benchInput()
	b.Run("7B", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		text := make([]byte, 0, len(in))
		for b.Loop() {
			text = text[:0]
			emitted := 0
			for p := in; len(p) > 0; {
				n := min(7, len(p))
				text = utf8buf.Append(text, p[:n])
				emitted = utf8buf.CompletePrefix(text)
				p = p[n:]
			}
			_ = emitted
		}
	})
}

// BenchmarkAppendDisplay renders the mixed-script text for display, valid
// as it is and with a lone surrogate and a bad byte every 64 bytes.
func BenchmarkAppendDisplay(b *testing.B) {
	valid := benchInput()
	var broken []byte
	for i := 0; i < len(valid); i += 64 {
		broken = append(broken, valid[i:min(i+64, len(valid))]...)
		broken = append(broken, highD83D+"\xff"...)
	}
	for _, tc := range []struct {
		name string
		in   []byte
	}{{"valid", valid}, {"broken", broken}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.in)))
			b.ReportAllocs()
			dst := make([]byte, 0, 2*len(tc.in))
			for b.Loop() {
				dst = utf8buf.AppendDisplay(dst[:0], tc.in)
			}
		})
	}
}
