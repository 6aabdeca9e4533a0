// Command updatedump prints the updates that the Go iterator
// reconstruct.Updates yields for a recorded stream, one JSON object a line,
// so that the Node tests can check that the WebAssembly module's wrapper
// yields the same ones:
//
//	go run ./wasm/internal/updatedump internal/samples/completed.sse
//
// Each line has kind (text, replaced, sealed, state, done), seq, and for
// artifact updates artifactId, thinking, sealed and text; for state
// updates state and message (the status message's text, or null).
package main

import (
	"bufio"
	"os"
	"strconv"

	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/resultjson"
)

var kinds = map[reconstruct.UpdateKind]string{
	reconstruct.UpdateText:     "text",
	reconstruct.UpdateReplaced: "replaced",
	reconstruct.UpdateSealed:   "sealed",
	reconstruct.UpdateState:    "state",
	reconstruct.UpdateDone:     "done",
}

func main() {
	if len(os.Args) != 2 {
		os.Stderr.WriteString("usage: updatedump FILE.sse\n")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	defer f.Close()
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	var b []byte
	for u, err := range reconstruct.Updates(f, nil) {
		if err != nil {
			break // the error is also the done update's
		}
		b = append(b[:0], `{"kind":"`...)
		b = append(b, kinds[u.Kind]...)
		b = append(b, `","seq":`...)
		b = strconv.AppendInt(b, u.Seq, 10)
		switch u.Kind {
		case reconstruct.UpdateText, reconstruct.UpdateReplaced, reconstruct.UpdateSealed:
			b = append(b, `,"artifactId":`...)
			b = resultjson.AppendString(b, u.Artifact.ArtifactID)
			b = append(b, `,"thinking":`...)
			b = strconv.AppendBool(b, u.Artifact.Thinking)
			b = append(b, `,"sealed":`...)
			b = strconv.AppendBool(b, u.Artifact.Sealed)
			if u.Kind != reconstruct.UpdateSealed {
				b = append(b, `,"text":`...)
				b = resultjson.AppendString(b, u.Text)
			}
		case reconstruct.UpdateState:
			b = append(b, `,"state":`...)
			b = resultjson.AppendString(b, []byte(u.State.String()))
			b = append(b, `,"message":`...)
			if u.Message != nil {
				b = resultjson.AppendString(b, reconstruct.MessageText(u.Message))
			} else {
				b = append(b, "null"...)
			}
		case reconstruct.UpdateDone:
			b = append(b, `,"error":`...)
			b = strconv.AppendBool(b, u.Err != nil)
		}
		b = append(b, "}\n"...)
		w.Write(b)
	}
}
