package parser

import "github.com/a2astream/a2astream/internal/budget"

// largeTexts holds the text buffers larger than retainLimit of Decoders
// between events, each in a *textBox (a sync.Pool natively, one weakly
// held slot on WebAssembly: see package budget).
var largeTexts budget.Pool[textBox]

// textPool is the Decoder's part in the pool of large text buffers: box
// carries a text buffer larger than retainLimit to and from the pool
// (releaseText, textRoom); small is the Decoder's own buffer, kept aside
// meanwhile.
type textPool struct {
	box   *textBox
	small []byte
}

// textBox carries a large text buffer in the pool (a pointer, so that
// putting it there allocates nothing).
type textBox struct{ b []byte }

// releaseText hands a text buffer larger than retainLimit, whose views the
// last event's were, to the pool that all the Decoders of the process
// share (largeTexts): a Decoder between events holds none, and the next
// large text of any stream takes it (textRoom) instead of a new buffer
// that must be cleared.
func (d *Decoder) releaseText() {
	if cap(d.text) <= retainLimit {
		return
	}
	d.maxText = max(d.maxText, len(d.text))
	box := d.pool.box
	if box == nil {
		box = new(textBox)
	}
	box.b, d.text, d.pool.box, d.pool.small = d.text[:0], d.pool.small, nil, nil
	largeTexts.Put(box)
}

// textRoom makes room for n more bytes of text with a buffer from the pool
// when the text needs more than retainLimit bytes and the pool holds a
// buffer that large; otherwise the text grows as an append does.
func (d *Decoder) textRoom(n int) {
	need := len(d.text) + n
	if need <= cap(d.text) || need <= retainLimit {
		return
	}
	if v := largeTexts.Get(); v != nil {
		if box := v.(*textBox); cap(box.b) >= need {
			if cap(d.text) <= retainLimit {
				d.pool.small = d.text[:0]
			}
			d.text = append(box.b[:0], d.text...)
			box.b, d.pool.box = nil, box
		}
	}
}
