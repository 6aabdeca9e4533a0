//go:build linux && amd64 && !purego

package sse

import (
	"fmt"
	"os"
	"runtime/debug"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// lineEndRef is the test's own reference for indexLineEnd: the index of
// the first LF or CR of b, or -1, and whether a NUL comes before it (in
// all of b when there is none), one byte at a time.
func lineEndRef(b []byte) (int, bool) {
	nul := false
	for i := 0; i < len(b); i++ {
		if b[i] == '\n' || b[i] == '\r' {
			return i, nul
		}
		if b[i] == 0 {
			nul = true
		}
	}
	return -1, nul
}

// guardedPage maps three pages and makes the first and the last
// inaccessible, returning the mapping and the page size (the middle page
// is mem[ps:2*ps]); the mapping is removed when the test ends.
func guardedPage(t *testing.T) (mem []byte, ps int) {
	ps = os.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 3*ps, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, syscall.Munmap(mem)) })
	require.NoError(t, syscall.Mprotect(mem[:ps], syscall.PROT_NONE))
	require.NoError(t, syscall.Mprotect(mem[2*ps:], syscall.PROT_NONE))
	return mem, ps
}

// faults reports whether reading the byte p[i] faults (with
// debug.SetPanicOnFault): the guard pages are checked to be armed.
func faults(p []byte, i int) (fault bool) {
	defer func() { fault = recover() != nil }()
	pageSink = p[i]
	return false
}

// pageSink keeps faults's read from being left out.
var pageSink byte

// lineEndGuarded calls indexLineEnd, turning a fault (with
// debug.SetPanicOnFault) into an error that names the address.
func lineEndGuarded(b []byte) (i int, nul bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("fault: %v", r)
			if a, ok := r.(interface{ Addr() uintptr }); ok {
				err = fmt.Errorf("fault at %#x, slice at %#x: %v", a.Addr(), uintptr(unsafe.Pointer(unsafe.SliceData(b))), r)
			}
		}
	}()
	i, nul = indexLineEnd(b)
	return i, nul, nil
}

// TestIndexLineEndPageBounds checks that indexLineEnd reads no byte outside
// the pages its slice lies in, whatever the length (its single 32-byte
// loads of a short input and of the last partial step read past the slice
// but not past its page): every slice of 0 to 100 bytes that ends at the
// end of a page followed by an inaccessible one, and every one that starts
// at the start of a page preceded by one, is searched with an LF or a CR
// at every position or none, and a NUL at every position or none; the
// result is compared with a byte loop. The bytes of the page outside the
// slice are line ends and NULs, which must not count. A read of a guard
// page faults, and the fault fails the test (debug.SetPanicOnFault turns it
// into a panic that names the address).
func TestIndexLineEndPageBounds(t *testing.T) {
	require.True(t, hasAVX2, "indexLineEnd is AVX2 assembly: this test needs a processor with AVX2")
	mem, ps := guardedPage(t)
	page := mem[ps : 2*ps : 2*ps]
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	require.True(t, faults(mem, ps-1), "the page before is not guarded")
	require.True(t, faults(mem, 2*ps), "the page after is not guarded")
	require.False(t, faults(mem, ps), "the page itself faults")
	require.False(t, faults(mem, 2*ps-1), "the page itself faults")

	// fill sets the page's bytes outside b to line ends and NULs, and b's
	// to letters.
	fill := func(from, n int) {
		for i := range page {
			page[i] = "\n\r\x00"[i%3]
		}
		for i := from; i < from+n; i++ {
			page[i] = byte('a' + i%26)
		}
	}
	calls := 0
	check := func(from, n int, what string) {
		b := page[from : from+n : from+n]
		want, wantNUL := lineEndRef(b)
		got, nul, err := lineEndGuarded(b)
		calls++
		if err != nil || got != want || nul != wantNUL {
			require.FailNow(t, "indexLineEnd",
				"%d bytes at page offset %d (%s): got (%d, %v, %v), want (%d, %v); %q",
				n, from, what, got, nul, err, want, wantNUL, b)
		}
	}
	for _, atEnd := range []bool{true, false} {
		for n := 0; n <= 100; n++ {
			from := 0
			if atEnd {
				from = ps - n
			}
			where := fmt.Sprintf("atEnd=%v", atEnd)
			fill(from, n)
			check(from, n, where+", no line end, no NUL")
			for q := range n {
				page[from+q] = 0
				check(from, n, fmt.Sprintf("%s, no line end, NUL at %d", where, q))
				page[from+q] = byte('a' + (from+q)%26)
			}
			for p := range n {
				for _, c := range []byte{'\n', '\r'} {
					page[from+p] = c
					check(from, n, fmt.Sprintf("%s, %q at %d, no NUL", where, c, p))
					for q := range n {
						if q == p {
							continue
						}
						page[from+q] = 0
						check(from, n, fmt.Sprintf("%s, %q at %d, NUL at %d", where, c, p, q))
						page[from+q] = byte('a' + (from+q)%26)
					}
				}
				page[from+p] = byte('a' + (from+p)%26)
			}
		}
	}
	t.Logf("%d calls, page size %d", calls, ps)
}
