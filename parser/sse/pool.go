package sse

import "github.com/a2astream/a2astream/internal/budget"

// largeBuffers holds the large input buffers of idle Lexers: a Lexer
// between events holds none, and a large event's buffer serves the next
// large event of any stream (a sync.Pool natively, one weakly held slot on
// WebAssembly: see package budget).
var largeBuffers budget.Pool[bufBox]
