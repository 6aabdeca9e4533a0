package sse

import "github.com/a2astream/a2astream/internal/budget"

// largeBuffers holds the large input buffers of idle Lexers: a Lexer
// between events, or at the end of its stream, holds none, and a large
// event's buffer serves the next large event of any stream, on any
// goroutine (see package budget for how each build keeps it).
var largeBuffers budget.Pool
