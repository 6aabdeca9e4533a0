package jsonx_test

import (
	"errors"
	"fmt"

	"github.com/a2astream/a2astream/internal/jsonx"
)

// The Parser checks a document and hands out views of it: members with the
// position of their value and raw values; a syntax error says where, with
// the path to the value that holds it.
func ExampleParser() {
	var p jsonx.Parser
	doc := []byte(`{"artifactUpdate":{"append":true,"artifact":{"parts":[{"text":"caf\u00e9"},{"text":"au lait"}]}}}`)
	root, err := p.Parse(doc)
	if err != nil {
		panic(err)
	}
	for ms := root.Members(); ms.Next(); {
		f := ms.Field()
		fmt.Printf("%s at byte %d: %s\n", f.Key, f.Pos, f.Value.Raw()[:10])
	}

	_, err = p.Parse([]byte(`{"artifactUpdate":{"taskId":"t` + "\x01" + `"}}`))
	var se *jsonx.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Pos, string(se.Path[0].Key), string(se.Path[1].Key))
	}
	// Output:
	// artifactUpdate at byte 18: {"append":
	// 30 artifactUpdate taskId
}
