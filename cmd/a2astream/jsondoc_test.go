package main

import "encoding/json"

// The --json document read back by the tests: resultjson writes it, these
// types only decode it for assertions.

// resultDoc is the --json document.
type resultDoc struct {
	State         string        `json:"state"`
	TaskID        string        `json:"taskId"`
	ContextID     string        `json:"contextId"`
	Answer        *artifactDoc  `json:"answer"`
	Thinking      []artifactDoc `json:"thinking"`
	Artifacts     []artifactDoc `json:"artifacts"`
	StatusMessage *messageDoc   `json:"statusMessage"`
	Message       *messageDoc   `json:"message"`
	Usage         *usageDoc     `json:"usage"`
	LastEventID   string        `json:"lastEventId"`
	Diagnostics   []diagDoc     `json:"diagnostics"`
	Error         *errorDoc     `json:"error"`
}

type artifactDoc struct {
	ArtifactID          string          `json:"artifactId"`
	Name                string          `json:"name,omitempty"`
	Description         string          `json:"description,omitempty"`
	Text                string          `json:"text"`
	Parts               []partDoc       `json:"parts"`
	Metadata            json.RawMessage `json:"metadata,omitempty"`
	Extensions          []string        `json:"extensions,omitempty"`
	Thinking            bool            `json:"thinking"`
	Sealed              bool            `json:"sealed"`
	Citations           []citationDoc   `json:"citations"`
	CitationDiagnostics []citeDiagDoc   `json:"citationDiagnostics"`
}

type citationDoc struct {
	Number     int             `json:"number"`
	ID         string          `json:"id"`
	Offset     int             `json:"offset"`
	ByteOffset int             `json:"byteOffset"`
	RuneIndex  int             `json:"runeIndex"`
	UTF16Index int             `json:"utf16Index"`
	Locator    string          `json:"locator"`
	Target     json.RawMessage `json:"target"`
	TargetKind string          `json:"targetKind"`
	Error      *string         `json:"error"`
}

type citeDiagDoc struct {
	Part   int    `json:"part"`
	Index  int    `json:"index"`
	ID     string `json:"id"`
	Offset int    `json:"offset"`
	Error  string `json:"error"`
}

type messageDoc struct {
	MessageID string          `json:"messageId"`
	Role      string          `json:"role"`
	Text      string          `json:"text"`
	Parts     []partDoc       `json:"parts"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

type usageDoc struct {
	Model                    *string  `json:"model,omitempty"`
	InputTokens              *int64   `json:"inputTokens,omitempty"`
	OutputTokens             *int64   `json:"outputTokens,omitempty"`
	CachedInputTokens        *int64   `json:"cachedInputTokens,omitempty"`
	CacheCreationInputTokens *int64   `json:"cacheCreationInputTokens,omitempty"`
	TotalTokens              *int64   `json:"totalTokens,omitempty"`
	Credits                  *float64 `json:"credits,omitempty"`
}

type diagDoc struct {
	Offset     int64  `json:"offset"`
	Seq        int64  `json:"seq"`
	ID         string `json:"id"`
	ArtifactID string `json:"artifactId,omitempty"`
	TaskID     string `json:"taskId,omitempty"`
	From       string `json:"from,omitempty"`
	To         string `json:"to,omitempty"`
	Error      string `json:"error"`
}

// errorDoc is the "error" member, of the --json document and of the
// --events lines alike.
type errorDoc struct {
	Type        string          `json:"type"`
	Message     string          `json:"message"`
	Binding     string          `json:"binding,omitempty"`
	Code        int64           `json:"code,omitempty"`
	Status      string          `json:"status,omitempty"`
	Reason      string          `json:"reason,omitempty"`
	Domain      string          `json:"domain,omitempty"`
	Details     json.RawMessage `json:"details,omitempty"`
	HTTPStatus  int             `json:"httpStatus,omitempty"`
	ContentType string          `json:"contentType,omitempty"`
	TaskID      string          `json:"taskId,omitempty"`
	LastEventID string          `json:"lastEventId,omitempty"`
	State       string          `json:"state,omitempty"`
	Offset      *int64          `json:"offset,omitempty"`
	InsideEvent *bool           `json:"insideEvent,omitempty"` // truncated: cut inside an event
	Dropped     *int64          `json:"dropped,omitempty"`     // truncated: the bytes of that event
	Seq         int64           `json:"seq,omitempty"`
	ID          string          `json:"id,omitempty"`
	JSONOffset  *int64          `json:"jsonOffset,omitempty"`  // syntax: the byte in the frame's data
	JSONPointer string          `json:"jsonPointer,omitempty"` // syntax: the member, RFC 6901
	Cause       string          `json:"cause,omitempty"`
	Head        string          `json:"head,omitempty"`
}

type partDoc struct {
	Kind      string          `json:"kind"`
	Text      *string         `json:"text,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"`
	DataText  *string         `json:"dataText,omitempty"`
	Raw       []byte          `json:"raw,omitempty"`
	URL       string          `json:"url,omitempty"`
	Filename  string          `json:"filename,omitempty"`
	MediaType string          `json:"mediaType,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}
