package a2ago

// This file converts a2astream's decoded events into a2a-go's events
// (parser -> a2a-go), as a2a-go's client would have decoded the same JSON.

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2astream/a2astream/parser"
)

// ErrNotEvent means ToA2A was given an event of a kind that a2a-go has no
// event type for: parser.KindUnknown, or a kind that is no parser kind.
var ErrNotEvent = errors.New("a2ago: event kind a2a-go has no type for")

// ToA2A converts a decoded event into a2a-go's event: a *a2a.Task, an
// *a2a.Message, an *a2a.TaskStatusUpdateEvent or an
// *a2a.TaskArtifactUpdateEvent, owning copies of ev's bytes (ev may be a
// view that the next Decode changes). An event of parser.KindError is
// returned as the error, an *a2a.Error whose Err is the a2a sentinel of the
// APIError's Reason (a2a.ErrInternalError for an unknown reason) and whose
// Message is the server's message, as a2a-go's client reports an error sent
// inside the stream; its Details are the first error detail object when
// there is one.
//
// Metadata and data parts become the map[string]any and any that
// encoding/json makes of their JSON, as a2a-go's client makes them (see the
// package documentation for what that loses). A timestamp that is not RFC
// 3339, which a2a-go cannot hold, is an error, as is a metadata or data
// value that is not valid JSON (the decoder never gives one).
func ToA2A(ev *parser.Event) (a2a.Event, error) {
	switch ev.Kind {
	case parser.KindTask:
		return taskToA2A(&ev.Task)
	case parser.KindMessage:
		return messageToA2A(&ev.Message)
	case parser.KindStatusUpdate:
		u := &ev.StatusUpdate
		out := &a2a.TaskStatusUpdateEvent{TaskID: a2a.TaskID(u.TaskID), ContextID: string(u.ContextID)}
		var err error
		if out.Status, err = statusToA2A(&u.Status); err != nil {
			return nil, err
		}
		if out.Metadata, err = metadataToA2A(&u.Metadata); err != nil {
			return nil, err
		}
		return out, nil
	case parser.KindArtifactUpdate:
		u := &ev.ArtifactUpdate
		out := &a2a.TaskArtifactUpdateEvent{
			TaskID:    a2a.TaskID(u.TaskID),
			ContextID: string(u.ContextID),
			Append:    u.Append,
			LastChunk: u.LastChunk,
		}
		var err error
		if out.Artifact, err = artifactToA2A(&u.Artifact); err != nil {
			return nil, err
		}
		if out.Metadata, err = metadataToA2A(&u.Metadata); err != nil {
			return nil, err
		}
		return out, nil
	case parser.KindError:
		return nil, errorToA2A(ev.Err)
	}
	return nil, fmt.Errorf("%w: %v", ErrNotEvent, ev.Kind)
}

// reasons maps an ErrorInfo reason to a2a-go's sentinel.
var reasons = func() map[string]error {
	m := make(map[string]error, len(protocolErrors))
	for _, e := range protocolErrors {
		m[a2a.ErrorReason(e)] = e
	}
	return m
}()

func errorToA2A(api *parser.APIError) error {
	if api == nil {
		return a2a.NewError(a2a.ErrInternalError, "")
	}
	sentinel, ok := reasons[api.Reason]
	if !ok {
		sentinel = a2a.ErrInternalError
	}
	e := a2a.NewError(sentinel, api.Message)
	if len(api.Details) > 0 {
		var v any
		if json.Unmarshal(api.Details, &v) == nil {
			switch d := v.(type) {
			case map[string]any:
				e.Details = d
			case []any:
				for _, x := range d {
					if m, ok := x.(map[string]any); ok {
						e.Details = m
						break
					}
				}
			}
		}
	}
	return e
}

func taskToA2A(t *parser.Task) (*a2a.Task, error) {
	out := &a2a.Task{ID: a2a.TaskID(t.ID), ContextID: string(t.ContextID)}
	var err error
	if out.Status, err = statusToA2A(&t.Status); err != nil {
		return nil, err
	}
	if len(t.Artifacts) > 0 {
		out.Artifacts = make([]*a2a.Artifact, len(t.Artifacts))
		for i := range t.Artifacts {
			if out.Artifacts[i], err = artifactToA2A(&t.Artifacts[i]); err != nil {
				return nil, err
			}
		}
	}
	if len(t.History) > 0 {
		out.History = make([]*a2a.Message, len(t.History))
		for i := range t.History {
			if out.History[i], err = messageToA2A(&t.History[i]); err != nil {
				return nil, err
			}
		}
	}
	if out.Metadata, err = metadataToA2A(&t.Metadata); err != nil {
		return nil, err
	}
	return out, nil
}

func statusToA2A(s *parser.Status) (a2a.TaskStatus, error) {
	out := a2a.TaskStatus{}
	if s.State != parser.TaskStateUnspecified {
		out.State = a2a.TaskState(s.State.String())
	}
	if len(s.Timestamp) > 0 {
		ts, err := time.Parse(time.RFC3339Nano, string(s.Timestamp))
		if err != nil {
			return out, fmt.Errorf("a2ago: status timestamp %q: %w", s.Timestamp, err)
		}
		out.Timestamp = &ts
	}
	if s.HasMessage {
		m, err := messageToA2A(&s.Message)
		if err != nil {
			return out, err
		}
		out.Message = m
	}
	return out, nil
}

func messageToA2A(m *parser.Message) (*a2a.Message, error) {
	out := &a2a.Message{
		ID:         string(m.MessageID),
		ContextID:  string(m.ContextID),
		TaskID:     a2a.TaskID(m.TaskID),
		Extensions: toStrings(m.Extensions),
	}
	switch m.Role {
	case parser.RoleUser:
		out.Role = a2a.MessageRoleUser
	case parser.RoleAgent:
		out.Role = a2a.MessageRoleAgent
	}
	if len(m.ReferenceTaskIDs) > 0 {
		out.ReferenceTasks = make([]a2a.TaskID, len(m.ReferenceTaskIDs))
		for i, id := range m.ReferenceTaskIDs {
			out.ReferenceTasks[i] = a2a.TaskID(id)
		}
	}
	var err error
	if out.Parts, err = partsToA2A(m.Parts); err != nil {
		return nil, err
	}
	if out.Metadata, err = metadataToA2A(&m.Metadata); err != nil {
		return nil, err
	}
	return out, nil
}

func toStrings(bs [][]byte) []string {
	if len(bs) == 0 {
		return nil
	}
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = string(b)
	}
	return out
}

func artifactToA2A(a *parser.Artifact) (*a2a.Artifact, error) {
	out := &a2a.Artifact{
		ID:          a2a.ArtifactID(a.ArtifactID),
		Name:        string(a.Name),
		Description: string(a.Description),
		Extensions:  toStrings(a.Extensions),
	}
	var err error
	if out.Parts, err = partsToA2A(a.Parts); err != nil {
		return nil, err
	}
	if out.Metadata, err = metadataToA2A(&a.Metadata); err != nil {
		return nil, err
	}
	return out, nil
}

func partsToA2A(parts []parser.Part) (a2a.ContentParts, error) {
	if len(parts) == 0 {
		// a2a-go writes "parts": null for nil; an empty list stays one.
		return a2a.ContentParts{}, nil
	}
	out := make(a2a.ContentParts, len(parts))
	for i := range parts {
		p := &parts[i]
		q := &a2a.Part{Filename: string(p.Filename), MediaType: string(p.MediaType)}
		switch p.Kind {
		case parser.PartText:
			q.Content = a2a.Text(p.Text)
		case parser.PartRaw:
			q.Content = a2a.Raw(append([]byte{}, p.Raw...))
		case parser.PartURL:
			q.Content = a2a.URL(p.URL)
		case parser.PartData:
			var v any
			if err := json.Unmarshal(p.Data, &v); err != nil {
				return nil, fmt.Errorf("a2ago: data part %d: %w", i, err)
			}
			q.Content = a2a.Data{Value: v}
		}
		var err error
		if q.Metadata, err = metadataToA2A(&p.Metadata); err != nil {
			return nil, err
		}
		out[i] = q
	}
	return out, nil
}

// metadataToA2A decodes the metadata's exact JSON as a2a-go does; nil when
// absent.
func metadataToA2A(m *parser.Metadata) (map[string]any, error) {
	if m.Raw == nil {
		return nil, nil
	}
	var v map[string]any
	if err := json.Unmarshal(m.Raw, &v); err != nil {
		return nil, fmt.Errorf("a2ago: metadata: %w", err)
	}
	return v, nil
}
