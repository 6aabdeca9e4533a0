// Package testdata embeds the recorded sample streams of this folder, so
// that the command-line tool can play them and tests can read them without
// knowing where the folder is.
package testdata

import "embed"

// Streams holds the recorded A2A 1.0 SSE streams, the *.sse files of this
// folder, at the root of the file system ("completed.sse", …).
//
//go:embed *.sse
var Streams embed.FS
