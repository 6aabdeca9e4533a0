//go:build unix

package bench

import (
	"syscall"
	"time"
)

// cpuNow returns the CPU time (user and system) the process has used, so
// that benchmarks can report CPU time per operation beside wall time: on a
// shared machine, wall time counts the time other processes held the CPU.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
