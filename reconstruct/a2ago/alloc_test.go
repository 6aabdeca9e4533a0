//go:build !race

package a2ago

import (
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDeltaAllocs checks that a token delta is converted without copying
// its text and applied without allocating, once the buffers have grown.
func TestDeltaAllocs(t *testing.T) {
	info := a2a.TaskInfo{TaskID: "task-1", ContextID: "ctx-1"}
	var d driver
	d.r.Reset(nil)
	first := a2a.NewArtifactUpdateEvent(info, "art-1", a2a.NewTextPart("x"))
	first.Append = false
	for i, ev := range []a2a.Event{&a2a.Task{ID: "task-1", ContextID: "ctx-1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}, first} {
		pe, err := d.c.Event(ev, int64(i+1))
		require.NoError(t, err)
		require.NoError(t, d.r.Apply(nil, pe))
	}
	delta := a2a.NewArtifactUpdateEvent(info, "art-1", a2a.NewTextPart("日本"))
	// Let the artifact's text grow past what the measured runs add.
	for range 2000 {
		pe, _ := d.c.Event(delta, 3)
		d.r.Apply(nil, pe)
	}
	allocs := testing.AllocsPerRun(100, func() {
		pe, err := d.c.Event(delta, 3)
		if err == nil {
			err = d.r.Apply(nil, pe)
		}
		if err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs)
	assert.Equal(t, reconstruct.UpdateText, d.r.Pending()[0].Kind)
}
