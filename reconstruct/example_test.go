package reconstruct_test

import (
	"fmt"
	"strings"

	"github.com/a2astream/a2astream/reconstruct"
)

// exampleStream is a small A2A 1.0 stream: narration closed as intermediate
// thinking, then the answer, whose emoji is split between two deltas (a
// surrogate pair escape cut in the middle), consolidated by its close.
const exampleStream = `id: 1
data: {"task":{"id":"task-1","contextId":"ctx-1","status":{"state":"TASK_STATE_WORKING"}}}

id: 2
data: {"artifactUpdate":{"taskId":"task-1","artifact":{"artifactId":"think","parts":[{"text":"Checking the notes…"}]}}}

id: 3
data: {"artifactUpdate":{"taskId":"task-1","append":true,"lastChunk":true,"artifact":{"artifactId":"think","parts":[{"text":""}],"metadata":{"type":"intermediate-thinking"}}}}

id: 4
data: {"artifactUpdate":{"taskId":"task-1","artifact":{"artifactId":"answer","parts":[{"text":"All clear \ud83d"}]}}}

id: 5
data: {"artifactUpdate":{"taskId":"task-1","append":true,"artifact":{"artifactId":"answer","parts":[{"text":"\ude00."}]}}}

id: 6
data: {"artifactUpdate":{"taskId":"task-1","lastChunk":true,"artifact":{"artifactId":"answer","parts":[{"text":"All clear 😀."}]}}}

id: 7
data: {"statusUpdate":{"taskId":"task-1","status":{"state":"TASK_STATE_COMPLETED"}}}

`

func ExampleRead() {
	res, err := reconstruct.Read(strings.NewReader(exampleStream), nil)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Printf("answer: %s\n", res.Answer.Text())
	fmt.Println("state:", res.State)
	fmt.Println("thinking artifacts:", len(res.Thinking()))
	fmt.Printf("last event id: %s\n", res.LastEventID)
	// Output:
	// answer: All clear 😀.
	// state: TASK_STATE_COMPLETED
	// thinking artifacts: 1
	// last event id: 7
}

func ExampleStream() {
	s := reconstruct.NewStream(nil)
	show := func() {
		for s.Next() {
			u := s.Update()
			switch u.Kind {
			case reconstruct.UpdateText:
				fmt.Printf("%s text %q\n", string(u.Artifact.ArtifactID), u.Text)
			case reconstruct.UpdateReplaced:
				fmt.Printf("%s replaced by %q\n", string(u.Artifact.ArtifactID), u.Text)
			case reconstruct.UpdateSealed:
				fmt.Printf("%s sealed, thinking %v\n", string(u.Artifact.ArtifactID), u.Artifact.Thinking)
			case reconstruct.UpdateState:
				fmt.Println("state", u.State)
			case reconstruct.UpdateDone:
				fmt.Printf("done: answer %q, error %v\n", u.Result.Answer.Text(), u.Err)
			}
		}
	}
	// The network delivers the stream in chunks of any size; here 40 bytes.
	for in := exampleStream; len(in) > 0; {
		n := min(40, len(in))
		s.Write([]byte(in[:n]))
		in = in[n:]
		show()
	}
	s.Close()
	show()
	// Output:
	// state TASK_STATE_WORKING
	// think text "Checking the notes…"
	// think sealed, thinking true
	// answer text "All clear "
	// answer text "😀."
	// answer sealed, thinking false
	// state TASK_STATE_COMPLETED
	// done: answer "All clear 😀.", error <nil>
}

// ExampleStream_typing is the loop of a typing UI: the text of every
// artifact as it streams, in whole characters, however the network cuts
// the bytes (here 7 bytes at a time, inside characters and escapes).
func ExampleStream_typing() {
	var chunks [][]byte
	for in := []byte(exampleStream); len(in) > 0; in = in[min(7, len(in)):] {
		chunks = append(chunks, in[:min(7, len(in))])
	}

	s := reconstruct.NewStream(nil)
	show := func() {
		for s.Next() {
			if u := s.Update(); u.Kind == reconstruct.UpdateText {
				fmt.Printf("%s", u.Text) // whole characters only
			}
		}
	}
	for _, chunk := range chunks { // as the network delivers them
		s.Write(chunk)
		show()
	}
	s.Close() // or s.Resume() after a drop, then write what tasks/{id}:subscribe sends
	show()
	res := s.Result()
	if res.Answer != nil {
		fmt.Printf("\nanswer: %s (%d thinking)\n", res.Answer.Text(), len(res.Thinking()))
	}
	// Output:
	// Checking the notes…All clear 😀.
	// answer: All clear 😀. (1 thinking)
}

// ExampleStream_Resume resumes a run whose connection dropped inside the
// answer. The resubscription answers as Corti's server does today: a task
// snapshot, then the answer replayed from its start, then what follows. The
// replay repeats what was shown, so nothing of it is handed out again: a
// UI of UpdateText shows each character once.
func ExampleStream_Resume() {
	first := `id: 1
data: {"task":{"id":"task-1","status":{"state":"TASK_STATE_WORKING"}}}

id: 2
data: {"artifactUpdate":{"taskId":"task-1","artifact":{"artifactId":"a","parts":[{"text":"Mr. Jør"}]}}}

id: 3
data: {"artifactUpdate":{"taskId":"task-1","append":true,"artifact":{"artifactId":"a","parts":[{"text":"gensen has"}]}}}

id: 4
data: {"artifactUpd` // the connection drops here
	subscription := `id: 3
data: {"task":{"id":"task-1","status":{"state":"TASK_STATE_WORKING"}}}

id: 2
data: {"artifactUpdate":{"taskId":"task-1","artifact":{"artifactId":"a","parts":[{"text":"Mr. Jør"}]}}}

id: 3
data: {"artifactUpdate":{"taskId":"task-1","append":true,"artifact":{"artifactId":"a","parts":[{"text":"gensen has"}]}}}

id: 4
data: {"artifactUpdate":{"taskId":"task-1","append":true,"artifact":{"artifactId":"a","parts":[{"text":" type 2 diabetes."}]}}}

id: 5
data: {"artifactUpdate":{"taskId":"task-1","lastChunk":true,"artifact":{"artifactId":"a","parts":[{"text":"Mr. Jørgensen has type 2 diabetes."}]}}}

id: 6
data: {"statusUpdate":{"taskId":"task-1","status":{"state":"TASK_STATE_COMPLETED"}}}

`
	s := reconstruct.NewStream(nil)
	show := func() {
		for s.Next() {
			switch u := s.Update(); u.Kind {
			case reconstruct.UpdateText:
				fmt.Printf("[%s]", u.Text)
			case reconstruct.UpdateReplaced:
				fmt.Printf("\nreplaced by: %s", u.Text)
			}
		}
	}
	s.Write([]byte(first))
	show()
	// The connection dropped: subscribe again (tasks/{TaskID}:subscribe,
	// Last-Event-ID: LastEventID) and write what it sends.
	fmt.Printf(" (resubscribing to %s after event %s) ", s.TaskID(), s.LastEventID())
	if err := s.Resume(); err != nil {
		fmt.Println(err)
		return
	}
	s.Write([]byte(subscription))
	show()
	fmt.Println("\nerror:", s.Close())
	// Output:
	// [Mr. Jør][gensen has] (resubscribing to task-1 after event 3) [ type 2 diabetes.]
	// error: <nil>
}
