package a2ago_test

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2astream/a2astream/reconstruct/a2ago"
	"github.com/stretchr/testify/require"
)

// handReduced is what the reducer a2a-go users write today keeps.
type handReduced struct {
	state    a2a.TaskState
	answer   string
	thinking []string
}

// handReduce is the reducer of the kind a2a-go users write today: a map of
// artifact id to strings.Builder, append or replace, the last artifact
// closed before the final state as the answer unless tagged thinking. It
// knows nothing of diagnostics, limits, citations or truncation.
func handReduce(events []a2a.Event) handReduced {
	var out handReduced
	texts := make(map[a2a.ArtifactID]*strings.Builder)
	var last a2a.ArtifactID
	for _, ev := range events {
		switch e := ev.(type) {
		case *a2a.Task:
			out.state = e.Status.State
		case *a2a.TaskStatusUpdateEvent:
			out.state = e.Status.State
			if e.Status.State.Terminal() || e.Status.State == a2a.TaskStateInputRequired {
				if b := texts[last]; b != nil {
					out.answer = b.String()
				}
			}
		case *a2a.TaskArtifactUpdateEvent:
			id := e.Artifact.ID
			b := texts[id]
			if b == nil || !e.Append {
				b = new(strings.Builder)
				texts[id] = b
			}
			for _, p := range e.Artifact.Parts {
				b.WriteString(p.Text())
			}
			if e.LastChunk {
				if e.Artifact.Metadata["type"] == "intermediate-thinking" {
					out.thinking = append(out.thinking, b.String())
				} else {
					last = id
				}
			}
		}
	}
	return out
}

// benchRun is the run the benchmarks read: the long one, or under -short
// (CI runs each benchmark once) the short one, as a2a-go's server takes
// time quadratic in the number of deltas.
func benchRun() string {
	if testing.Short() {
		return runCompleted
	}
	return runLong
}

// sdkEvents returns the events of the benchmarks' run as a2a-go's client
// hands them out, read once from a2a-go's server.
func sdkEvents(b *testing.B) []a2a.Event {
	s := newServer(b)
	c := s.client(b, "/rpc", a2a.TransportProtocolJSONRPC)
	var events []a2a.Event
	for ev, err := range c.SendStreamingMessage(context.Background(), request(benchRun())) {
		require.NoError(b, err)
		events = append(events, ev)
	}
	// a2a-go's server leaves much garbage (it copies the whole task with
	// encoding/gob at every event): collect it before timing.
	runtime.GC()
	return events
}

// textBytes is the number of bytes of text the events carry.
func textBytes(events []a2a.Event) int64 {
	var n int64
	for _, ev := range events {
		if u, ok := ev.(*a2a.TaskArtifactUpdateEvent); ok {
			for _, p := range u.Artifact.Parts {
				n += int64(len(p.Text()))
			}
		}
	}
	return n
}

// BenchmarkReduce reduces the same a2a-go client events with the adapter
// and with the hand-written reducer a2a-go users write today. SetBytes
// counts the text the events carry; ns/event is the time per event.
func BenchmarkReduce(b *testing.B) {
	events := sdkEvents(b)
	want := handReduce(events)
	res, err := a2ago.Reduce(seqOf(events, nil), nil)
	require.NoError(b, err)
	require.Equal(b, want.answer, string(res.Answer.Text()))
	perEvent := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(events)), "ns/event")
	}
	b.Run("adapter", func(b *testing.B) {
		b.SetBytes(textBytes(events))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := a2ago.Reduce(seqOf(events, nil), nil); err != nil {
				b.Fatal(err)
			}
		}
		perEvent(b)
	})
	b.Run("handwritten", func(b *testing.B) {
		b.SetBytes(textBytes(events))
		b.ReportAllocs()
		for b.Loop() {
			if handReduce(events).state != a2a.TaskStateCompleted {
				b.Fatal("not completed")
			}
		}
		perEvent(b)
	})
}

// BenchmarkClient is the whole call, a2a-go's client reading the run from
// a2a-go's server on 127.0.0.1, with the adapter and with the hand-written
// reducer: what the adapter costs next to a2a-go's own reading.
func BenchmarkClient(b *testing.B) {
	s := newServer(b)
	c := s.client(b, "/rpc", a2a.TransportProtocolJSONRPC)
	events := sdkEvents(b)
	perEvent := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(events)), "ns/event")
	}
	b.Run("adapter", func(b *testing.B) {
		b.SetBytes(textBytes(events))
		b.ReportAllocs()
		defer perEvent(b)
		for b.Loop() {
			if _, err := a2ago.Reduce(c.SendStreamingMessage(context.Background(), request(benchRun())), nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("handwritten", func(b *testing.B) {
		b.SetBytes(textBytes(events))
		b.ReportAllocs()
		defer perEvent(b)
		for b.Loop() {
			var got []a2a.Event
			for ev, err := range c.SendStreamingMessage(context.Background(), request(benchRun())) {
				if err != nil {
					b.Fatal(err)
				}
				got = append(got, ev)
			}
			if handReduce(got).state != a2a.TaskStateCompleted {
				b.Fatal("not completed")
			}
		}
	})
}
