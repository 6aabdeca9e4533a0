//go:build !wasm

package jsonx

// native turns on what the native build spends code on for speed and the
// WebAssembly module, under its size budget, does not (speed_wasm.go):
// the index of the escapes that Parse checks (Parser.escs), which spares
// Value.AppendText the search for them, and the check of a long string
// for control characters a window ahead of its runs (ctrlAhead).
const native = true
