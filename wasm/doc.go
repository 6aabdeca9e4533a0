// Command wasm is the a2astream core (parser, reconstruct and citations)
// built as a WebAssembly reactor for browsers and other JavaScript hosts:
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -o wasm/a2astream.wasm ./wasm
//
// The host calls _initialize once, then the exports of exports_wasip1.go.
// They form a small linear-memory ABI, driven by engine.js (the package's
// JavaScript; records.js reads the records):
//
//	a2a_input(n) ptr            a buffer of at least n bytes for the next input
//	a2a_new(flags, unit, maxEvent, maxArtifact) h
//	                            a stream handle (> 0); flags bit 0: strict
//	a2a_feed(h, n) len          feed the n input bytes; records of the updates
//	a2a_fail(h, n) len          end the input with the error message in the input
//	a2a_end(h) len              end the input; the last records, with done
//	a2a_resume(h) len           continue the run on a new connection
//	a2a_status(h) done          1 when the run has ended, else 0; out holds the task
//	                            id and the last event id, as two strings
//	a2a_result(h, indent) len   the run's result as the `a2astream --json` document
//	a2a_check(status, ctLen, n) len
//	                            the error document of a response that is no event
//	                            stream: its content type then its body in the input
//	a2a_out() ptr               where the last call left its len bytes
//	a2a_out_len() len           their length (for the message of an error)
//	a2a_free(h)                 forget the handle
//
// A negative len is an error: -1 an unknown handle, -2 a Go panic (the out
// buffer holds its message; the instance must not be used any more), -3 a
// call after the end (the out buffer holds the message). Strings only cross
// as parameters (in the input buffer); what the host reads is valid until
// its next call, and the host must re-create its views of memory after
// every call, as memory may have grown. There is one input buffer per
// instance, shared by its handles: a2a_input(n) with n larger than the
// buffer moves it, so a host keeps its place per instance, not per stream.
//
// a2a_feed lets the Go scheduler run every 256 KiB fed (yieldToGC), so
// that a garbage collection is finished by its background worker instead
// of staying open across calls; a feed that completes no new artifact
// allocates nothing.
//
// The records are written by [encoder]; see records.go for their layout.
// No fmt, encoding/json, reflect, time, os or syscall/js is linked
// (wasm/test/run.sh checks it).
package main
