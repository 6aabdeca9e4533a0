//go:build race

package reconstruct_test

// cutStride is the step between the cuts of TestCutAtEveryByte: under the
// race detector, which makes the run ten times slower and has nothing to
// find in a test of one goroutine, every seventh byte (a prime, so that
// every position in the events' periodic layout is still met).
const cutStride = 7

// liveStride is the step between the cuts of TestResumeLiveText that
// resume with one replay model in turn, under the race detector: every
// thirteenth byte, a prime, so that every position in the events' periodic
// layout is still met.
const liveStride = 13

// twiceStep is the step between the events TestResumeTwiceLiveText cuts
// first, under the race detector.
const twiceStep = 11
