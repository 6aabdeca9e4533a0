// Package budget is the one place where the native build and the
// WebAssembly module (the npm package, wasm/) differ, each for its own
// budget: the native build spends code on speed and on memory it can give
// back, the module is held to 800,000 bytes gzipped (wasm/build.sh; the
// wrapper test measures it). Every other line of the project behaves the
// same in both builds.
//
// The one difference left is the pool of large buffers, Pool, which the
// lexer (parser/sse: its input buffer) and the decoder (parser: its text
// buffer) hand their buffers to between events:
//
//   - Natively it is a sync.Pool, shared by the goroutines of the process
//     and emptied by the garbage collector over two cycles, with a weak
//     pointer to the buffer put last, so that any goroutine takes it.
//   - On WebAssembly it is one slot that holds its buffer weakly: the
//     module runs one goroutine at a time, and sync.Pool would cost 10.6 KB
//     of the module gzipped (measured 2026-12-06: 786,452 bytes with the
//     slot, 797,083 with sync.Pool).
//
// Forks that saved less were removed on 2026-12-06 (issue 33), each
// measured as the module's gzipped bytes with it on WebAssembly: jsonx's
// index of escapes and its control-character check ahead of a run (2.0
// KB), the parser's unescaping of long texts as they are checked (2.1 KB;
// 5.4 KB with jsonx's), and reconstruct's texts in pieces for Read (2.8
// KB). The module made room for them by linking no reflection (errtext.As
// instead of errors.As: 14.9 KB). bench/cmd/wasmsize measures what each
// package adds to the module.
package budget
