package utf8buf_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/a2astream/a2astream/utf8buf"
)

// mixedText is a paragraph in several scripts: ASCII, Latin with accents,
// Greek, Cyrillic, Arabic, Hindi, Chinese, Japanese and emoji, so that 1-,
// 2-, 3- and 4-byte characters all occur and chunk boundaries fall inside
// them.
const mixedText = "The quick brown fox jumps over the lazy dog. " +
	"Größere Übungen für Ärztinnen, naïve café. " +
	"Η γρήγορη καφέ αλεπού. Съешь же ещё этих мягких французских булок. " +
	"مرحبا بالعالم. नमस्ते दुनिया. 你好，世界。日本語のテキストです。 " +
	"Emoji 😀👋🏽🚀 and 𝄞 music. "

// benchInput is mixedText repeated to 64 KiB.
func benchInput() []byte {
	return []byte(strings.Repeat(mixedText, 64<<10/len(mixedText)))
}

// BenchmarkWrite writes a mixed-script text through a Buffer in pieces of
// 1 byte, 7 bytes and 4 KiB (the last two split characters most of the
// time), and through AppendWrite and Append+CompletePrefix in 7-byte
// pieces.
func BenchmarkWrite(b *testing.B) {
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
	b.Run("Append+CompletePrefix/7B", func(b *testing.B) {
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
	b.Run("AppendDisplay", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		dst := make([]byte, 0, len(in))
		for b.Loop() {
			dst = utf8buf.AppendDisplay(dst[:0], in)
		}
	})
}
