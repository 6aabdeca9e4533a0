//go:build !race

package reconstruct_test

// cutStride is the step between the cuts of TestCutAtEveryByte: every byte.
const cutStride = 1

// liveStride is the step between the cuts of TestResumeLiveText that
// resume with one replay model in turn: every byte.
const liveStride = 1

// twiceStep is the step between the events TestResumeTwiceLiveText cuts
// first: every event.
const twiceStep = 1
