//go:build !race

package reconstruct_test

// cutStride is the step between the cuts of TestCutAtEveryByte: every byte.
const cutStride = 1

// liveStride is the step between the cuts of TestResumeLiveText in the
// streams of 4 KiB or more: every seventh byte, a prime (as under the
// race detector for TestCutAtEveryByte).
const liveStride = 7
