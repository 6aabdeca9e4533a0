package reconstruct_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/a2astream/a2astream/reconstruct"
)

// json.Marshal of a Result gives the `a2astream --json` document, and
// json.Unmarshal reads it back; the ids are strings, as
// httpstream.Client.Subscribe takes them.
func ExampleResult_MarshalJSON() {
	res, _ := reconstruct.Read(strings.NewReader(exampleStream), nil)
	doc, err := json.Marshal(res)
	if err != nil {
		fmt.Println(err)
		return
	}
	var back reconstruct.Result
	if err := json.Unmarshal(doc, &back); err != nil {
		fmt.Println(err)
		return
	}
	var head struct {
		State, TaskID, LastEventID string
	}
	_ = json.Unmarshal(doc, &head)
	fmt.Println(head.State, head.TaskID, head.LastEventID)
	fmt.Println(back.State, back.TaskID, back.LastEventID, string(back.Answer.Text()))
	// Output:
	// TASK_STATE_COMPLETED task-1 7
	// TASK_STATE_COMPLETED task-1 7 All clear 😀.
}
