//go:build !wasm

package reconstruct

// native is false on WebAssembly, whose module leaves out what it does not
// use, to stay within its size budget: Read's texts in pieces (pieces),
// as the module reads its streams through a Stream's updates.
const native = true
