package a2ago_test

// The in-process a2a-go v2 agent of the interop tests: a2a-go's own server
// packages (a2asrv's handler with its in-memory task store, its JSON-RPC and
// REST bindings) on 127.0.0.1, with an executor that streams as Corti's
// agent does.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
	"github.com/a2astream/a2astream/citations"
	"github.com/stretchr/testify/require"
)

// The texts the agent streams: non-ASCII in every delta kind (2-, 3- and
// 4-byte UTF-8, a character outside the BMP).
const (
	thinkingText = "Je vérifie les résultats du laboratoire…"
	narration    = "Appel du connecteur 🔌 (HbA1c)…"
	answerText   = "Résumé : diabète de type 2 (E11.65) 日本語 — HbA1c 8,2 % 🦶 au-dessus de la cible ≤ 7 %."
	question     = "Quel patient ? 患者"
	failure      = "Le connecteur a échoué ❌"
)

// The ids the agent gives its artifacts and data parts.
const (
	thinkingID = "art-thinking"
	answerID   = "art-answer"
	draftID    = "art-draft"
	conditions = "dp-conditions"
	transcript = "dp-transcript"
)

// The runs the agent knows, named by the first word of the user's message;
// the second word is the unit of the citation offsets it writes.
const (
	runCompleted     = "completed"
	runInputRequired = "input-required"
	runFailed        = "failed"
	runCut           = "cut"    // the connection drops before a final state
	runError         = "error"  // the executor fails with an error
	runLong          = "long"   // completed, with an answer 10 times as long
	runResume        = "resume" // completed, the connection drops after the narration
)

var units = map[string]citations.Unit{"codepoints": citations.CodePoints, "bytes": citations.Bytes, "utf16": citations.UTF16}

// deltas cuts s into pieces of at most n characters: a2a-go's server
// writes a Go string with encoding/json, which turns a piece that ends
// inside a character into U+FFFD, so its deltas must end on characters.
func deltas(s string, n int) []string {
	var out []string
	for s != "" {
		i, k := 0, 0
		for i < len(s) && k < n {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			k++
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

// offset returns the offset of the end of the first sub in s, in unit.
func offset(s, sub string, unit citations.Unit) int {
	prefix := s[:strings.Index(s, sub)+len(sub)]
	switch unit {
	case citations.Bytes:
		return len(prefix)
	case citations.UTF16:
		return len(utf16.Encode([]rune(prefix)))
	}
	return utf8.RuneCountInString(prefix)
}

// agent is the AgentExecutor: it streams the run the message names. In a
// resumed run it waits for gate to close before it streams the answer.
type agent struct{ gate chan struct{} }

func (a agent) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	words := strings.Fields(ec.Message.Parts[0].Text())
	run, unit := words[0], citations.CodePoints
	if len(words) > 1 {
		unit = units[words[1]]
	}
	return func(yield func(a2a.Event, error) bool) {
		evs := script(ec, run, unit)
		for i, ev := range evs {
			if run == runResume && i == resumeCut {
				select {
				case <-a.gate:
				case <-ctx.Done():
					return
				}
			}
			if !yield(ev, nil) {
				return
			}
		}
		if run == runError {
			yield(nil, errors.New("the model's transport failed"))
		}
	}
}

// resumeCut is the number of events of a resumed run before the drop: the
// task, the thinking deltas and close, the narration.
var resumeCut = 1 + len(deltas(thinkingText, 3)) + 2

func (agent) Cancel(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

// script returns the events of run, as Corti's agent sends them.
func script(ec *a2asrv.ExecutorContext, run string, unit citations.Unit) []a2a.Event {
	info := ec.TaskInfo()
	evs := []a2a.Event{&a2a.Task{ID: ec.TaskID, ContextID: ec.ContextID, Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}}
	stream := func(id a2a.ArtifactID, text string) {
		for i, d := range deltas(text, 3) {
			ev := a2a.NewArtifactUpdateEvent(info, id, a2a.NewTextPart(d))
			ev.Append = i > 0 // the first delta creates the artifact
			evs = append(evs, ev)
		}
	}
	closeThinking := func(id a2a.ArtifactID) {
		ev := a2a.NewArtifactUpdateEvent(info, id, a2a.NewTextPart(""))
		ev.LastChunk = true
		ev.Artifact.Metadata = map[string]any{"type": "intermediate-thinking"}
		evs = append(evs, ev)
	}
	status := func(state a2a.TaskState, text string, meta map[string]any) {
		var msg *a2a.Message
		if text != "" {
			msg = a2a.NewMessageForTask(a2a.MessageRoleAgent, info, a2a.NewTextPart(text))
			msg.ID = "msg-" + string(state)
			msg.Metadata = map[string]any{"$timestamp": "2026-05-19T12:10:02Z"}
		}
		ev := &a2a.TaskStatusUpdateEvent{TaskID: ec.TaskID, ContextID: ec.ContextID, Status: a2a.TaskStatus{State: state, Message: msg}, Metadata: meta}
		evs = append(evs, ev)
	}
	answerText := answerText
	if run == runLong {
		answerText = strings.Repeat(answerText, 10)
	}
	switch run {
	case runCompleted, runLong, runResume:
		stream(thinkingID, thinkingText)
		closeThinking(thinkingID)
		status(a2a.TaskStateWorking, narration, nil)
		stream(answerID, answerText)
		// The consolidated close: append false replaces the deltas with
		// the whole text, its citations and the cited data parts.
		text := a2a.NewTextPart(answerText)
		text.Metadata = map[string]any{"citations": []any{
			map[string]any{"data_part_id": conditions, "offset": offset(answerText, "(E11.65)", unit), "locator": "/conditions/0"},
			map[string]any{"data_part_id": transcript, "offset": offset(answerText, "🦶", unit), "locator": "L2-L2"},
		}}
		data := a2a.NewDataPart(map[string]any{"conditions": []any{map[string]any{"system": "ICD-10-CM", "code": "E11.65", "display": "Diabète de type 2 — hyperglycémie"}}})
		data.Metadata = map[string]any{"dataPartId": conditions}
		lines := a2a.NewDataPart("Médecin : des fourmis ?\nPatient : oui, aux deux pieds 🦶\nMédecin : d'accord.")
		lines.Metadata = map[string]any{"dataPartId": transcript}
		closing := a2a.NewArtifactUpdateEvent(info, answerID, text, data, lines)
		closing.Append, closing.LastChunk = false, true
		evs = append(evs, closing)
		status(a2a.TaskStateCompleted, "", map[string]any{"$usage": map[string]any{
			"model": "corti-default", "inputTokens": 5120, "outputTokens": 188,
			"cachedInputTokens": 4096, "totalTokens": 5308, "credits": 53.08,
		}})
	case runInputRequired:
		stream(draftID, thinkingText)
		closeThinking(draftID)
		status(a2a.TaskStateInputRequired, question, nil)
	case runFailed:
		stream(draftID, thinkingText)
		closeThinking(draftID)
		status(a2a.TaskStateFailed, failure, nil)
	case runCut, runError:
		stream(draftID, thinkingText)
	}
	return evs
}

// server is a2a-go's server for the agent, serving JSON-RPC at /rpc and
// REST at /rest.
type server struct {
	*httptest.Server
	store *taskstore.InMemory
	// gate lets a resumed run go on.
	gate chan struct{}
}

func newServer(t testing.TB) *server {
	store := taskstore.NewInMemory(nil)
	gate := make(chan struct{})
	h := a2asrv.NewHandler(agent{gate}, a2asrv.WithTaskStore(store), a2asrv.WithLogger(slog.New(slog.DiscardHandler)))
	mux := http.NewServeMux()
	mux.Handle("/rpc", a2asrv.NewJSONRPCHandler(h))
	mux.Handle("/rest/", http.StripPrefix("/rest", a2asrv.NewRESTHandler(h)))
	s := &server{Server: httptest.NewServer(cutter(mux)), store: store, gate: gate}
	t.Cleanup(s.Close)
	return s
}

// cutter drops the connection of a run named "cut" once the events of its
// script are written, and of a run named "resume" once the events before
// its gate are: a2a-go's server keeps a stream open while its task
// is not final, so the test cuts it as a network would.
func cutter(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			panic(http.ErrAbortHandler)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		switch {
		case bytes.Contains(body, []byte(`"text":"`+runCut+`"`)):
			w = &cutWriter{ResponseWriter: w, left: 1 + len(deltas(thinkingText, 3))}
		case bytes.Contains(body, []byte(`"text":"`+runResume+`"`)):
			w = &cutWriter{ResponseWriter: w, left: resumeCut}
		}
		next.ServeHTTP(w, r)
	})
}

// cutWriter aborts the response once left events were written.
type cutWriter struct {
	http.ResponseWriter
	left int
}

func (w *cutWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	if w.left -= bytes.Count(p, []byte("\n\n")); w.left <= 0 {
		w.Flush()
		panic(http.ErrAbortHandler)
	}
	return n, err
}

func (w *cutWriter) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

// bindings are the two bindings a2a-go v2.4.0 serves over HTTP.
var bindings = []struct {
	name     string
	path     string
	protocol a2a.TransportProtocol
}{
	{"JSON-RPC", "/rpc", a2a.TransportProtocolJSONRPC},
	{"REST", "/rest", a2a.TransportProtocolHTTPJSON},
}

// client returns a2a-go's client for the server's binding at path.
func (s *server) client(t testing.TB, path string, protocol a2a.TransportProtocol) *a2aclient.Client {
	c, err := a2aclient.NewFromEndpoints(context.Background(), []*a2a.AgentInterface{a2a.NewAgentInterface(s.URL+path, protocol)})
	require.NoError(t, err)
	return c
}

// request is the streaming request for a run.
func request(text string) *a2a.SendMessageRequest {
	return &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))}
}

// stored returns the server's task as its task store holds it.
func (s *server) stored(t testing.TB, id string) *a2a.Task {
	st, err := s.store.Get(context.Background(), a2a.TaskID(id))
	require.NoError(t, err)
	return st.Task
}
