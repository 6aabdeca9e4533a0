//go:build !unix

package bench

import "time"

// cpuNow is not measured on this system.
func cpuNow() time.Duration { return 0 }
