package reconstruct_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
)

// overReader returns a count larger than the buffer it was given.
type overReader struct{}

func (overReader) Read(p []byte) (int, error) { return len(p) + 1, nil }

// TestReadInvalidCount checks that a reader claiming more bytes than it was
// given ends the run with sse.ErrInvalidRead instead of a panic.
func TestReadInvalidCount(t *testing.T) {
	_, err := reconstruct.Read(overReader{}, nil)
	assert.ErrorIs(t, err, sse.ErrInvalidRead)
}
