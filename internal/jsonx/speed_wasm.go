//go:build wasm

package jsonx

// native is false on WebAssembly: what speed.go turns on would cost the
// module about 1.9 KB (gzipped) of its size budget. Value.AppendText
// searches for the escapes as AppendUnescaped does, and each run of a long
// string is checked for control characters on its own.
const native = false
