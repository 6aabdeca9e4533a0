//go:build unix

package parser_test

import (
	"syscall"
	"testing"
)

// cpuTime returns the CPU time (user and system, all threads) the process
// has used so far, in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// reportCPU reports the process CPU time spent since start per iteration as
// "cpu-ns/op": on a machine shared with other work, wall time per op
// swings with the load while CPU time does not, so ratios between
// benchmarks of one run are read from it.
func reportCPU(b *testing.B, start int64) {
	if b.N > 0 && start > 0 {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
}
