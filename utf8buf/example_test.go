package utf8buf_test

import (
	"fmt"

	"github.com/a2astream/a2astream/utf8buf"
)

// A Buffer holds back the part of a delta that does not end a character.
// Here a 4-byte emoji is split over two writes, and the surrogate pair
// U+D83D U+DE00 (escaped as \ud83d\ude00 in JSON, the decoder gives each
// half as 3-byte WTF-8) is split between two deltas: both come out whole.
func ExampleBuffer() {
	deltas := [][]byte{
		[]byte("Hi \xf0\x9f"),     // "Hi " and the first half of U+1F44B
		[]byte("\x91\x8b there "), // the rest of it
		[]byte("\xed\xa0\xbd"),    // \ud83d: a high surrogate
		[]byte("\xed\xb8\x80!"),   // \ude00: its low surrogate, then "!"
		[]byte("\xed\xa0\xbd"),    // a high surrogate that nothing follows
	}
	var b utf8buf.Buffer
	for _, d := range deltas {
		out := b.Write(d)
		fmt.Printf("%q (holding %d)\n", out, b.Buffered())
	}
	rest := b.Flush()
	fmt.Printf("flush %q, shown as %q\n", rest, utf8buf.AppendDisplay(nil, rest))
	// Output:
	// "Hi " (holding 2)
	// "👋 there " (holding 0)
	// "" (holding 3)
	// "😀!" (holding 0)
	// "" (holding 3)
	// flush "\xed\xa0\xbd", shown as "���"
}

// A reducer keeps the whole text: Append joins the pair at the seam in
// place, and CompletePrefix tells how much of the text is whole characters
// to show live.
func ExampleAppend() {
	var text []byte
	emitted := 0
	for _, d := range []string{"caf\xc3", "\xa9 \xed\xa0\xbd", "\xed\xb8\x80"} {
		text = utf8buf.Append(text, []byte(d))
		c := utf8buf.CompletePrefix(text)
		fmt.Printf("live %q\n", text[emitted:c])
		emitted = c
	}
	fmt.Printf("text %q\n", text)
	// Output:
	// live "caf"
	// live "é "
	// live "😀"
	// text "café 😀"
}
