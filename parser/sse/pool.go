//go:build !wasm

package sse

import "sync"

// largeBuffers holds the large input buffers of idle Lexers: a Lexer
// between events holds none, and a large event's buffer serves the next
// large event of any stream.
var largeBuffers sync.Pool
