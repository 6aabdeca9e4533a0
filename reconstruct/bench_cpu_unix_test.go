//go:build unix

package reconstruct_test

import "syscall"

// processCPU returns the CPU time (user and system) this process has used,
// in nanoseconds; 0 when it cannot be read. On a machine shared with other
// work wall time swings with the load, CPU time much less.
func processCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
