package main

import "runtime/debug"

// gcPercent is the Go collector's target (GOGC) the tool runs with when
// the GOGC environment variable sets none. A run's texts grow by copying
// into larger buffers, and at Go's default of 100 the heap may reach twice
// what is live before a collection frees the buffers left behind: a
// 100 MiB run in two artifacts peaked at 2.3 to 3.1 times the input
// (HeapInuse), at 50 at 2.2 to 2.3 times. The heap of a run is mostly
// text, which the collector does not scan, so the more frequent
// collections cost little.
const gcPercent = 50

// tuneGC sets the collector's target to gcPercent unless GOGC is set.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}
