//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"syscall"
	"unsafe"
)

// isTerminal reports whether f is a terminal: whether the ioctl that reads
// a terminal's attributes (getTermios) succeeds on it. A character device
// that is no terminal, such as /dev/null, is not one.
func isTerminal(f *os.File) bool {
	conn, err := f.SyscallConn()
	if err != nil {
		return false
	}
	ok := false
	err = conn.Control(func(fd uintptr) {
		var t syscall.Termios
		_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, getTermios, uintptr(unsafe.Pointer(&t)))
		ok = errno == 0
	})
	return err == nil && ok
}
