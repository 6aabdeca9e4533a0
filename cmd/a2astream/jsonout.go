package main

// This file is structured as: the JSON documents of the machine outputs
// (the --json result, the --frames and --events lines), the lines written
// from structs so that the field order never changes, their messages,
// parts and errors by package reconstruct's writer of the --json
// document; then the two outputs.

import (
	"encoding/json"
	"errors"
	"io"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/resultjson"
	"github.com/a2astream/a2astream/utf8buf"
)

// rawJSON returns b as raw JSON when it is valid JSON, nil otherwise.
func rawJSON(b []byte) json.RawMessage {
	if len(b) == 0 || !json.Valid(b) {
		return nil
	}
	return json.RawMessage(b)
}

// display returns b as a string in which ill-formed UTF-8 is one U+FFFD
// per maximal subpart, as the --json document writes it; encoding/json
// would write one per byte. Every []byte of the stream that a line of
// --frames or --events shows as a JSON string goes through it.
func display(b []byte) string { return string(utf8buf.AppendDisplay(nil, b)) }

// errorMember is err as the "error" member of an --events line: the
// object the --json document holds for it, written by resultjson, so that
// both outputs name and describe every error alike.
func errorMember(err error) json.RawMessage {
	return resultjson.AppendError(nil, err, &resultjson.Options{ErrorType: errorType})
}

// writeJSON writes v as one line of JSON, or indented when indent is set.
func writeJSON(w io.Writer, v any, indent bool) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		io.WriteString(w, `{"error":{"type":"other","message":"a2astream: cannot encode output"}}`+"\n")
	}
}

// jsonOutput prints the final result as one JSON document; its notes on
// stderr show the agent's data through errScreen.
type jsonOutput struct {
	w         *jsonScreen
	errw      io.Writer
	errScreen screen
}

func (o *jsonOutput) update(*reconstruct.Update)             {}
func (o *jsonOutput) frame(*sse.Frame, *parser.Event, error) {}
func (o *jsonOutput) note(msg string) {
	io.WriteString(o.errw, "a2astream: "+o.errScreen.str(msg)+"\n")
}
func (o *jsonOutput) finish(res *reconstruct.Result, err error) {
	// Streamed: the document of a large run is not built in memory.
	resultjson.Write(o.w, res, err, &resultjson.Options{Indent: true, ErrorType: errorType})
	o.w.Flush()
}

// errorType names the errors of the tool itself for the "error" member of
// the --json document and of the --events lines; resultjson names the
// library's.
func errorType(err error) string {
	var ioErr *ioError
	var sig *interruptError
	switch {
	case errors.As(err, &ioErr):
		return "io"
	case errors.As(err, &sig):
		return "interrupted"
	case errors.Is(err, errEmptyInput):
		return "empty"
	}
	return ""
}

// frameDoc is a --frames line.
type frameDoc struct {
	Seq    int64  `json:"seq"`
	Offset int64  `json:"offset"`
	ID     string `json:"id"`
	Event  string `json:"event"`
	Data   string `json:"data"`
	Retry  *int64 `json:"retry"`
}

// eventDoc is an --events line. The members after "id" appear for the
// kinds that have them.
type eventDoc struct {
	Seq           int64           `json:"seq"`
	Offset        int64           `json:"offset"`
	ID            string          `json:"id"`
	Kind          string          `json:"kind"`
	Binding       string          `json:"binding,omitempty"`
	RPCID         json.RawMessage `json:"rpcId,omitempty"`
	TaskID        string          `json:"taskId,omitempty"`
	ContextID     string          `json:"contextId,omitempty"`
	State         string          `json:"state,omitempty"`
	StatusMessage json.RawMessage `json:"statusMessage,omitempty"`
	Timestamp     string          `json:"timestamp,omitempty"`
	ArtifactID    string          `json:"artifactId,omitempty"`
	Append        *bool           `json:"append,omitempty"`
	LastChunk     *bool           `json:"lastChunk,omitempty"`
	Thinking      bool            `json:"thinking,omitempty"`
	Message       json.RawMessage `json:"message,omitempty"`
	Parts         json.RawMessage `json:"parts,omitempty"`
	Artifacts     []eventArtifact `json:"artifacts,omitempty"`
	Metadata      json.RawMessage `json:"metadata,omitempty"`
	UnknownKey    string          `json:"unknownKey,omitempty"`
	Raw           json.RawMessage `json:"raw,omitempty"`
	Error         json.RawMessage `json:"error,omitempty"`
}

// eventArtifact is an artifact of a task line.
type eventArtifact struct {
	ArtifactID string          `json:"artifactId"`
	Parts      json.RawMessage `json:"parts"`
	Metadata   json.RawMessage `json:"metadata,omitempty"`
}

// messageMember is m as a line's "statusMessage" or "message" member: the
// object the --json document holds for it.
func messageMember(m *parser.Message) json.RawMessage {
	return reconstruct.AppendMessageJSON(nil, m)
}

// partsMember is parts as a line's "parts" member: the array the --json
// document holds for them.
func partsMember(parts []parser.Part) json.RawMessage {
	return reconstruct.AppendPartsJSON(nil, parts)
}

func newEventDoc(f *sse.Frame, ev *parser.Event) *eventDoc {
	d := &eventDoc{Seq: f.Seq, Offset: f.Offset, ID: display(f.ID), Kind: ev.Kind.String(), Binding: ev.Binding.String()}
	if ev.Binding == parser.BindingJSONRPC {
		d.RPCID = rawJSON(ev.RPCID.Raw)
	}
	d.TaskID, d.ContextID = display(ev.TaskID()), display(ev.ContextID())
	status := func(s *parser.Status) {
		d.State = resultjson.StateName(s.State)
		d.Timestamp = display(s.Timestamp)
		if s.HasMessage {
			d.StatusMessage = messageMember(&s.Message)
		}
	}
	switch ev.Kind {
	case parser.KindTask:
		t := &ev.Task
		status(&t.Status)
		for i := range t.Artifacts {
			a := &t.Artifacts[i]
			d.Artifacts = append(d.Artifacts, eventArtifact{ArtifactID: display(a.ArtifactID), Parts: partsMember(a.Parts), Metadata: rawJSON(a.Metadata.Raw)})
		}
		d.Metadata = rawJSON(t.Metadata.Raw)
	case parser.KindMessage:
		d.Message = messageMember(&ev.Message)
	case parser.KindStatusUpdate:
		status(&ev.StatusUpdate.Status)
		d.Metadata = rawJSON(ev.StatusUpdate.Metadata.Raw)
	case parser.KindArtifactUpdate:
		u := &ev.ArtifactUpdate
		d.ArtifactID = display(u.Artifact.ArtifactID)
		d.Append, d.LastChunk = &u.Append, &u.LastChunk
		d.Thinking = u.Artifact.Metadata.IntermediateThinking()
		if len(u.Artifact.Parts) > 0 {
			d.Parts = partsMember(u.Artifact.Parts)
		}
		d.Metadata = rawJSON(u.Artifact.Metadata.Raw)
	case parser.KindError:
		d.Error = errorMember(ev.Err)
	case parser.KindUnknown:
		d.UnknownKey = display(ev.UnknownKey)
		d.Raw = rawJSON(ev.UnknownRaw)
	}
	return d
}

// lineOutput prints frames (--frames) or decoded events (--events), one
// JSON line each; a frame that does not decode, and a lexing error, are an
// --events line of kind "DecodeError" (a --frames line of that kind for
// lexing errors). Its notes and errors on stderr show the agent's data
// through errScreen.
type lineOutput struct {
	w         *jsonScreen
	errw      io.Writer
	errScreen screen
	events    bool
}

func (o *lineOutput) update(*reconstruct.Update) {}
func (o *lineOutput) note(msg string) {
	io.WriteString(o.errw, "a2astream: "+o.errScreen.str(msg)+"\n")
}

func (o *lineOutput) frame(f *sse.Frame, ev *parser.Event, decErr error) {
	if f == nil {
		// A lexing error: an oversized event, a stream cut inside an event.
		var se *sse.SyntaxError
		d := &eventDoc{Kind: "DecodeError", Error: errorMember(decErr)}
		if errors.As(decErr, &se) {
			d.Offset, d.ID = se.Offset, string(se.ID)
		}
		writeJSON(o.w, d, false)
		return
	}
	if !o.events {
		fd := frameDoc{Seq: f.Seq, Offset: f.Offset, ID: display(f.ID), Event: display(f.Event), Data: display(f.Data)}
		if f.HasRetry {
			r := f.Retry
			fd.Retry = &r
		}
		writeJSON(o.w, fd, false)
		return
	}
	if decErr != nil {
		writeJSON(o.w, &eventDoc{Seq: f.Seq, Offset: f.Offset, ID: display(f.ID), Kind: "DecodeError", Error: errorMember(decErr)}, false)
		return
	}
	writeJSON(o.w, newEventDoc(f, ev), false)
}

func (o *lineOutput) finish(res *reconstruct.Result, err error) {
	defer o.w.Flush()
	if err == nil {
		return
	}
	if res == nil {
		// The stream never started: the error is the only output.
		writeJSON(o.w, &eventDoc{Kind: "Error", Error: errorMember(err)}, false)
	}
	io.WriteString(o.errw, "a2astream: "+o.errScreen.str(describeError(err))+"\n")
}
