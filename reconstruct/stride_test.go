//go:build !race

package reconstruct_test

// cutStride is the step between the cuts of TestCutAtEveryByte: every byte.
const cutStride = 1
