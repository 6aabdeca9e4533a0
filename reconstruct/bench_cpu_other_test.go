//go:build !unix

package reconstruct_test

import "time"

// processCPU falls back to wall time where the process CPU time is not
// available.
func processCPU() int64 { return time.Now().UnixNano() }
