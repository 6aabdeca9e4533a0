//go:build linux

package main

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// pty is a pseudo-terminal for tests: the program writes to tty, its
// terminal, and screen collects what reaches the master side, which is
// what a terminal emulator would receive.
type pty struct {
	master, tty *os.File
	mu          sync.Mutex
	got         bytes.Buffer
	done        chan struct{}
}

// ioctl calls ioctl(2) on f with an argument that points at arg.
func ioctl(f *os.File, req uintptr, arg unsafe.Pointer) error {
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), req, uintptr(arg)); e != 0 {
		return e
	}
	return nil
}

// openPTY opens a pseudo-terminal (/dev/ptmx, unlocked with TIOCSPTLCK,
// its terminal found with TIOCGPTN) whose output is not processed (no
// OPOST: a newline stays one byte), and reads its master side. It skips the test when the system has none.
func openPTY(t *testing.T) *pty {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal on this system: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	unlock := int32(0)
	require.NoError(t, ioctl(master, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)), "TIOCSPTLCK")
	var n uint32
	require.NoError(t, ioctl(master, syscall.TIOCGPTN, unsafe.Pointer(&n)), "TIOCGPTN")
	tty, err := os.OpenFile("/dev/pts/"+strconv.FormatUint(uint64(n), 10), os.O_RDWR|syscall.O_NOCTTY, 0)
	require.NoError(t, err)
	t.Cleanup(func() { tty.Close() })
	var tio syscall.Termios
	require.NoError(t, ioctl(tty, syscall.TCGETS, unsafe.Pointer(&tio)), "TCGETS")
	tio.Oflag &^= syscall.OPOST
	require.NoError(t, ioctl(tty, syscall.TCSETS, unsafe.Pointer(&tio)), "TCSETS")
	p := &pty{master: master, tty: tty, done: make(chan struct{})}
	go p.read()
	return p
}

// read collects the master side until it is closed.
func (p *pty) read() {
	defer close(p.done)
	buf := make([]byte, 4096)
	for {
		n, err := p.master.Read(buf)
		p.mu.Lock()
		p.got.Write(buf[:n])
		p.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// endMark is written to the terminal after the program: once it reaches
// the master side, so has everything written before it.
const endMark = "<end of the test's output>"

// screen returns all that the program wrote to the terminal and reached
// the master side.
func (p *pty) screen(t *testing.T) []byte {
	t.Helper()
	_, err := p.tty.WriteString(endMark)
	require.NoError(t, err)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		got := p.got.Bytes()
		if i := bytes.Index(got, []byte(endMark)); i >= 0 {
			defer p.mu.Unlock()
			return bytes.Clone(got[:i])
		}
		p.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	require.Fail(t, "the terminal's output did not arrive")
	return nil
}
