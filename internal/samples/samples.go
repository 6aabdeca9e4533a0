// Package samples holds the recorded A2A 1.0 sample streams: the
// command-line tool plays them (--demo, or no argument on a terminal), the
// tests of several packages read them, and the WebAssembly demo serves
// them. It imports nothing of the project, so that any package, or test,
// may use it.
//
// The streams are the *.sse files of this folder, embedded in [Streams];
// tests that read them by path (the fuzz seeds, the wasip1 and JavaScript
// tests) glob internal/samples/*.sse from the repository's root.
package samples

import "embed"

// Streams holds the recorded streams, the *.sse files of this folder, at
// the root of the file system ("completed.sse", …).
//
//go:embed *.sse
var Streams embed.FS
