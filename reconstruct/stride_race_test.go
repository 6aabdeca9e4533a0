//go:build race

package reconstruct_test

// cutStride is the step between the cuts of TestCutAtEveryByte: under the
// race detector, which makes the run ten times slower and has nothing to
// find in a test of one goroutine, every seventh byte (a prime, so that
// every position in the events' periodic layout is still met).
const cutStride = 7

// liveStride is the step between the cuts of TestResumeLiveText in the
// streams of 4 KiB or more, under the race detector.
const liveStride = 31
