package parser

import "github.com/a2astream/a2astream/internal/budget"

// largeTexts holds the text buffers larger than retainLimit of Decoders
// between events (see package budget for how each build keeps them).
var largeTexts budget.Pool

// textPool is the Decoder's part in the pool of large text buffers: box
// carries a text buffer larger than retainLimit to and from the pool
// (releaseText, textRoom); small is the Decoder's own buffer, kept aside
// meanwhile.
type textPool struct {
	box   *budget.Box
	small []byte
}

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
	largeTexts.Put(d.pool.box, d.text[:0])
	d.text, d.pool.box, d.pool.small = d.pool.small, nil, nil
}

// textRoom makes room for n more bytes of text with a buffer from the pool
// when the text needs more than retainLimit bytes and the pool holds a
// buffer that large; otherwise the text grows as an append does.
func (d *Decoder) textRoom(n int) {
	need := len(d.text) + n
	if need <= cap(d.text) || need <= retainLimit {
		return
	}
	if box, b := largeTexts.Get(); cap(b) >= need {
		if cap(d.text) <= retainLimit {
			d.pool.small = d.text[:0]
		}
		d.text = append(b[:0], d.text...)
		d.pool.box = box
	}
}
