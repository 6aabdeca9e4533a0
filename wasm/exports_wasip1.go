//go:build wasip1

package main

// This file is structured as: the instance's state, the exported
// functions in the order a host calls them, then the panic guard.

import (
	"errors"
	"runtime"
	"unsafe"
)

// The instance's state. A module instance serves one host thread; the
// exports are never called concurrently.
var (
	// in is the input buffer the host writes into (a2a_input).
	in []byte
	// out holds what the last call produced (a2a_out).
	out []byte
	// sessions are the stream handles, handle h at sessions[h-1]; nil
	// when freed. free lists the freed slots.
	sessions []*session
	free     []int32
	// fed counts the bytes fed since the scheduler last ran (yieldToGC).
	fed int
)

// maxInput caps the input buffer: the host feeds larger chunks in pieces.
const maxInput = 16 << 20

// yieldEvery is how many input bytes are fed between two yields to the
// Go scheduler (yieldToGC).
const yieldEvery = 256 << 10

// The error results of the exports.
const (
	errHandle = -1 // an unknown or freed handle
	errPanic  = -2 // a Go panic; out holds its message
	errCall   = -3 // a call the stream refused; out holds the message
)

//go:wasmexport a2a_input
func a2aInput(n int32) (ptr int32) {
	defer guard(&ptr)
	if n < 0 || n > maxInput {
		return 0
	}
	if int(n) > cap(in) {
		in = make([]byte, max(int(n), 64<<10))
	}
	in = in[:cap(in)]
	return int32(uintptr(unsafe.Pointer(unsafe.SliceData(in))))
}

//go:wasmexport a2a_new
func a2aNew(flags, unit, maxEvent, maxArtifact int32) (h int32) {
	defer guard(&h)
	ss := newSession(options(flags, unit, maxEvent, maxArtifact))
	if n := len(free); n > 0 {
		h = free[n-1]
		free = free[:n-1]
		sessions[h-1] = ss
		return h
	}
	sessions = append(sessions, ss)
	return int32(len(sessions))
}

//go:wasmexport a2a_feed
func a2aFeed(h, n int32) (size int32) {
	defer guard(&size)
	ss := lookup(h)
	if ss == nil {
		return errHandle
	}
	var err error
	out, err = ss.feed(out[:0], in[:n])
	yieldToGC(n)
	return result(err)
}

//go:wasmexport a2a_fail
func a2aFail(h, n int32) (size int32) {
	defer guard(&size)
	ss := lookup(h)
	if ss == nil {
		return errHandle
	}
	var err error
	out, err = ss.end(out[:0], errors.New(string(in[:n])))
	return result(err)
}

//go:wasmexport a2a_end
func a2aEnd(h int32) (size int32) {
	defer guard(&size)
	ss := lookup(h)
	if ss == nil {
		return errHandle
	}
	var err error
	out, err = ss.end(out[:0], nil)
	return result(err)
}

//go:wasmexport a2a_resume
func a2aResume(h int32) (size int32) {
	defer guard(&size)
	ss := lookup(h)
	if ss == nil {
		return errHandle
	}
	var err error
	out, err = ss.resume(out[:0])
	return result(err)
}

//go:wasmexport a2a_status
func a2aStatus(h int32) (flags int32) {
	defer guard(&flags)
	ss := lookup(h)
	if ss == nil {
		return errHandle
	}
	var done bool
	out, done = ss.status(out[:0])
	if done {
		return 1
	}
	return 0
}

//go:wasmexport a2a_result
func a2aResult(h, indent int32) (size int32) {
	defer guard(&size)
	ss := lookup(h)
	if ss == nil {
		return errHandle
	}
	out = ss.result(out[:0], indent != 0)
	return int32(len(out))
}

//go:wasmexport a2a_check
func a2aCheck(status, ctLen, n int32) (size int32) {
	defer guard(&size)
	out = checkResponse(out[:0], int(status), string(in[:ctLen]), in[ctLen:n])
	return int32(len(out))
}

//go:wasmexport a2a_out
func a2aOut() int32 {
	if cap(out) == 0 {
		out = make([]byte, 0, 64<<10)
	}
	return int32(uintptr(unsafe.Pointer(unsafe.SliceData(out))))
}

//go:wasmexport a2a_out_len
func a2aOutLen() int32 { return int32(len(out)) }

//go:wasmexport a2a_free
func a2aFree(h int32) {
	if lookup(h) == nil {
		return
	}
	sessions[h-1] = nil
	free = append(free, h)
}

// yieldToGC lets the Go scheduler run once every yieldEvery bytes fed. In
// a reactor the scheduler runs other goroutines only when an export blocks
// or yields, and the collector's background mark worker is one of them:
// without yields, a collection that an allocation started is marked only
// by the assists of the allocations that follow, so it stays open across
// hundreds of calls (0.2 to 0.8 s of the benchmark, for a few ms of
// marking), with the write barrier on for every pointer the core stores
// meanwhile. A yield lets the worker finish the mark; when no collection
// is running it costs a few microseconds.
func yieldToGC(n int32) {
	if fed += int(n); fed >= yieldEvery {
		fed = 0
		runtime.Gosched()
	}
}

func lookup(h int32) *session {
	if h <= 0 || int(h) > len(sessions) {
		return nil
	}
	return sessions[h-1]
}

// result returns the size of out, or errCall with the error's message in
// out.
func result(err error) int32 {
	if err != nil {
		out = append(out[:0], err.Error()...)
		return errCall
	}
	return int32(len(out))
}

// guard recovers a panic of an export: the result becomes errPanic and out
// holds the panic's message, for the host to report the instance dead.
func guard(ret *int32) {
	r := recover()
	if r == nil {
		return
	}
	out = append(out[:0], "a2astream: Go panic: "...)
	switch v := r.(type) {
	case error:
		out = append(out, v.Error()...)
	case string:
		out = append(out, v...)
	default:
		out = append(out, "a value that is not an error or a string"...)
	}
	*ret = errPanic
}
