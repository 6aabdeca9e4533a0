//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package main

import "os"

// isTerminal reports whether f is a character device, as a terminal is:
// on these systems the tool asks no terminal ioctl.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
