package fuzz

import (
	"bytes"
	"errors"
	"io"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/utf8buf"
)

// This file holds the naive reducer: the protocol's "Reconstruct the text"
// rules applied with string concatenation per artifact id, over the events
// that the real Reader and Decoder produce. It is the reference the
// reconstruct package is compared with on generated runs.

// runView is the part of a run that both the reference and reconstruct
// report, in comparable form.
type runView struct {
	TaskID    string
	State     string // "" when no state was seen
	Answer    string // the answer artifact's id; "" when none
	Status    string // the text of the last status message; "" when none
	Usage     string // the last $usage (usageString); "" when none
	Artifacts []genArtifact
	Final     bool // the run reached a terminal or interrupted state
}

// naiveReduce reads the stream in with the library's Reader and Decoder
// and rebuilds the run:
//
//   - append true appends the text of the parts to the artifact's string,
//     append false replaces the string (creating the artifact when new);
//   - lastChunk seals the artifact; metadata.type "intermediate-thinking"
//     tags it as thinking;
//   - a status update sets the state, the status message and the usage;
//   - the first terminal or interrupted status ends the run, and the answer
//     is the artifact sealed last before it that is not thinking;
//   - at the end, WTF-8 surrogate halves that meet are joined, and when the
//     stream was cut before the run ended (no error stopped it), an
//     artifact not sealed loses an incomplete character at its end, as a
//     cut Result holds it back.
//
// It stops at the first error of the Reader or the Decoder, as the run does.
func naiveReduce(in []byte) runView {
	var v runView
	texts := map[string]string{}
	index := map[string]int{}
	var sealed []string // ids in the order they were sealed
	r := sse.NewReader(bytes.NewReader(in), nil)
	var dec parser.Decoder
	failed := false // an error, not the end of the input, stopped the run
	for r.Next() && !v.Final {
		f := r.Frame()
		ev, err := dec.Decode(f)
		if err != nil {
			failed = true
			break
		}
		switch ev.Kind {
		case parser.KindError:
			failed = true
		case parser.KindTask:
			v.TaskID = string(ev.Task.ID)
			v.State = ev.Task.Status.State.String()
		case parser.KindArtifactUpdate:
			u := &ev.ArtifactUpdate
			id := string(u.Artifact.ArtifactID)
			i, ok := index[id]
			if !ok {
				i = len(v.Artifacts)
				index[id] = i
				v.Artifacts = append(v.Artifacts, genArtifact{ID: id})
			}
			s := ""
			for _, p := range u.Artifact.Parts {
				if p.Kind == parser.PartText {
					s += string(p.Text)
				}
			}
			if u.Append {
				texts[id] += s
			} else {
				texts[id] = s
			}
			if string(u.Artifact.Metadata.Type) == "intermediate-thinking" {
				v.Artifacts[i].Thinking = true
			}
			if u.LastChunk {
				v.Artifacts[i].Sealed = true
				sealed = append(sealed, id)
			}
		case parser.KindStatusUpdate:
			st := ev.StatusUpdate.Status.State
			v.State = st.String()
			v.Status = ""
			for _, p := range ev.StatusUpdate.Status.Message.Parts {
				v.Status += string(p.Text)
			}
			if u := ev.StatusUpdate.Metadata.Usage; u.Fields != 0 {
				v.Usage = usageString(u.InputTokens, u.OutputTokens, u.Credits)
			}
			if st.Terminal() || st.Interrupted() {
				v.Final = true
				for j := len(sealed) - 1; j >= 0; j-- {
					if !v.Artifacts[index[sealed[j]]].Thinking {
						v.Answer = sealed[j]
						break
					}
				}
			}
		}
	}
	if err := r.Err(); err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		failed = true
	}
	for i := range v.Artifacts {
		text := joinSurrogates([]byte(texts[v.Artifacts[i].ID]))
		if !v.Final && !failed && !v.Artifacts[i].Sealed {
			text = text[:utf8buf.CompletePrefix(text)]
		}
		v.Artifacts[i].Text = string(text)
	}
	return v
}

// eofReader is io.Reader over bytes that is not a *bytes.Reader, so that no
// WriterTo shortcut is taken.
type eofReader struct{ b []byte }

func (r *eofReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}
