//go:build wasm

package parser

// native is false on WebAssembly, whose module has a size budget: there is
// no pool of large text buffers (sync.Pool would cost about 12 KB gzipped,
// and linear memory never shrinks anyway; a Decoder keeps its text buffer
// as Reset says), and texts are checked by the parser, then unescaped with
// jsonx.AppendUnescaped.
const native = false

// textPool is textpool.go's, empty here.
type textPool struct{}

func (d *Decoder) releaseText() {}

func (d *Decoder) textRoom(int) {}
