//go:build wasm

package reconstruct

// native: see native.go.
const native = false
