package resultjson_test

import (
	"fmt"
	"strings"

	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/resultjson"
)

func ExampleAppend() {
	const stream = `id: 1
data: {"task":{"id":"task-1","contextId":"ctx-1","status":{"state":"TASK_STATE_WORKING"}}}

id: 2
data: {"artifactUpdate":{"taskId":"task-1","lastChunk":true,"artifact":{"artifactId":"a","parts":[{"text":"Hi <b>\u2028"}]}}}

id: 3
data: {"statusUpdate":{"taskId":"task-1","status":{"state":"TASK_STATE_COMPLETED"}}}

`
	res, err := reconstruct.Read(strings.NewReader(stream), nil)
	fmt.Print(string(resultjson.Append(nil, res, err, nil)))
	// Output:
	// {"state":"TASK_STATE_COMPLETED","taskId":"task-1","contextId":"ctx-1","answer":{"artifactId":"a","text":"Hi <b>\u2028","parts":[{"kind":"text","text":"Hi <b>\u2028"}],"thinking":false,"sealed":true,"citations":[],"citationDiagnostics":[]},"thinking":[],"artifacts":[{"artifactId":"a","text":"Hi <b>\u2028","parts":[{"kind":"text","text":"Hi <b>\u2028"}],"thinking":false,"sealed":true,"citations":[],"citationDiagnostics":[]}],"statusMessage":null,"message":null,"usage":null,"lastEventId":"3","diagnostics":[],"error":null}
}
