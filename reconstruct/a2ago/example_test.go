package a2ago_test

import (
	"context"
	"fmt"
	"iter"
	"log/slog"
	"net/http/httptest"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/a2ago"
)

// greeter is an a2a-go agent that streams its answer in token deltas and
// closes it with a consolidated last chunk.
type greeter struct{}

func (greeter) Execute(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		if !yield(&a2a.Task{ID: ec.TaskID, ContextID: ec.ContextID, Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}, nil) {
			return
		}
		for i, d := range []string{"Bonjour", ", 世界", " !"} {
			ev := a2a.NewArtifactUpdateEvent(ec, "answer", a2a.NewTextPart(d))
			ev.Append = i > 0
			if !yield(ev, nil) {
				return
			}
		}
		closing := a2a.NewArtifactUpdateEvent(ec, "answer", a2a.NewTextPart("Bonjour, 世界 !"))
		closing.Append, closing.LastChunk = false, true
		if !yield(closing, nil) {
			return
		}
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
	}
}

func (greeter) Cancel(context.Context, *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(func(a2a.Event, error) bool) {}
}

// startGreeter serves the greeter with a2a-go's JSON-RPC server on
// 127.0.0.1 and returns a2a-go's client for it.
func startGreeter() (*httptest.Server, *a2aclient.Client) {
	h := a2asrv.NewHandler(greeter{}, a2asrv.WithLogger(slog.New(slog.DiscardHandler)))
	srv := httptest.NewServer(a2asrv.NewJSONRPCHandler(h))
	client, err := a2aclient.NewFromEndpoints(context.Background(), []*a2a.AgentInterface{a2a.NewAgentInterface(srv.URL, a2a.TransportProtocolJSONRPC)})
	if err != nil {
		panic(err)
	}
	return srv, client
}

// An a2a-go user adds one call to get the answer: Reduce takes the
// iterator of SendStreamingMessage (or SubscribeToTask) and applies the
// append, replace and lastChunk rules.
func Example() {
	srv, client := startGreeter()
	defer srv.Close()
	ctx := context.Background()
	req := &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("Hi"))}

	events := client.SendStreamingMessage(ctx, req)
	res, err := a2ago.Reduce(events, nil)
	fmt.Printf("%s (%v, err %v)\n", res.Answer.Text(), res.State, err)
	// Output:
	// Bonjour, 世界 ! (TASK_STATE_COMPLETED, err <nil>)
}

// Updates hands a typing UI the text as it arrives, in whole characters,
// and says when the consolidated close replaced it.
func ExampleUpdates() {
	srv, client := startGreeter()
	defer srv.Close()
	req := &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("Hi"))}

	for u, err := range a2ago.Updates(client.SendStreamingMessage(context.Background(), req), nil) {
		if err != nil {
			fmt.Println("error:", err)
			break
		}
		switch u.Kind {
		case reconstruct.UpdateText, reconstruct.UpdateReplaced:
			fmt.Printf("%v %q\n", u.Kind, u.Text)
		case reconstruct.UpdateSealed:
			fmt.Printf("%v %s\n", u.Kind, string(u.Artifact.ArtifactID))
		case reconstruct.UpdateState, reconstruct.UpdateDone:
			fmt.Printf("%v %v\n", u.Kind, u.State)
		}
	}
	// Output:
	// State TASK_STATE_WORKING
	// Text "Bonjour"
	// Text ", 世界"
	// Text " !"
	// Sealed answer
	// State TASK_STATE_COMPLETED
	// Done TASK_STATE_COMPLETED
}

// An SDK that reads a stream with a2astream's lexer and decoder hands
// a2a-go's types on with ToA2A.
func ExampleToA2A() {
	stream := "id: 1\n" +
		`data: {"artifactUpdate":{"taskId":"t1","contextId":"c1","append":true,"artifact":{"artifactId":"a1","parts":[{"text":"\u65e5\u672c"}]}}}` + "\n\n"
	r := sse.NewReader(strings.NewReader(stream), nil)
	var d parser.Decoder
	for r.Next() {
		ev, err := d.Decode(r.Frame())
		if err != nil {
			fmt.Println(err)
			return
		}
		out, err := a2ago.ToA2A(ev)
		if err != nil {
			fmt.Println(err)
			return
		}
		u := out.(*a2a.TaskArtifactUpdateEvent)
		fmt.Printf("%T %s append=%v %q\n", u, u.Artifact.ID, u.Append, u.Artifact.Parts[0].Text())
	}
	// Output:
	// *a2a.TaskArtifactUpdateEvent a1 append=true "日本"
}
