package a2ago_test

import (
	"context"
	"encoding/json"
	"sort"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/a2ago"
	"github.com/a2astream/a2astream/reconstruct/httpstream"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// update is what a typing UI takes from a reconstruct.Update, with the
// views copied.
type update struct {
	Kind     reconstruct.UpdateKind
	Seq      int64
	Artifact string
	Text     string
	State    parser.TaskState
	Message  string
	Err      string
}

func record(u reconstruct.Update, err error) update {
	r := update{Kind: u.Kind, Seq: u.Seq, Text: string(u.Text), State: u.State, Message: string(reconstruct.MessageText(u.Message))}
	if u.Artifact != nil {
		r.Artifact = string(u.Artifact.ArtifactID)
	}
	if err == nil {
		err = u.Err
	}
	if err != nil {
		r.Err = err.Error()
	}
	return r
}

// resultDiff compares two Results of two tasks of the same run: the ids the
// server gave each task, and the SSE ids that a2a-go's client does not hand
// on, are left out.
var resultDiff = []cmp.Option{
	cmpopts.IgnoreFields(reconstruct.Result{}, "TaskID", "ContextID", "LastEventID"),
	cmpopts.IgnoreFields(parser.Message{}, "TaskID", "ContextID"),
	cmpopts.IgnoreUnexported(reconstruct.Artifact{}),
	cmpopts.EquateEmpty(),
	cmp.Comparer(func(a, b error) bool { return (a == nil) == (b == nil) }),
}

// viaSDK reads the run named msg with a2a-go's client through the adapter.
func viaSDK(t *testing.T, s *server, path string, protocol a2a.TransportProtocol, msg string, opts *reconstruct.Options) (*reconstruct.Result, []update, error) {
	c := s.client(t, path, protocol)
	var ups []update
	var res *reconstruct.Result
	var runErr error
	for u, err := range a2ago.Updates(c.SendStreamingMessage(context.Background(), request(msg)), opts) {
		if err != nil {
			runErr = err
			continue
		}
		ups = append(ups, record(u, nil))
		if u.Kind == reconstruct.UpdateDone {
			res = u.Result
		}
	}
	require.NotNil(t, res, "no UpdateDone")
	if msg == runError {
		return res, ups, runErr // a2a-go's server makes each such run differ
	}
	// Reduce gives the same Result as Updates.
	again, err := a2ago.Reduce(c.SendStreamingMessage(context.Background(), request(msg)), opts)
	assert.Equal(t, runErr == nil, err == nil, "Reduce: %v, Updates: %v", err, runErr)
	assert.Empty(t, cmp.Diff(res, again, resultDiff...), "Reduce vs Updates")
	return res, ups, runErr
}

// viaWire reads the run named msg with a2astream's own client.
func viaWire(t *testing.T, s *server, path string, msg string, opts *reconstruct.Options) (*reconstruct.Result, []update, error) {
	binding := parser.BindingREST
	if path == "/rpc" {
		binding = parser.BindingJSONRPC
	}
	c := &httpstream.Client{BaseURL: s.URL + path, Binding: binding, Options: opts, Retries: -1}
	run, err := c.SendStreamingMessage(context.Background(), &httpstream.UserMessage{Text: msg})
	require.NoError(t, err)
	var ups []update
	var runErr error
	for u, err := range run.Updates() {
		if err != nil {
			runErr = err
			continue
		}
		ups = append(ups, record(u, nil))
	}
	return run.Result(), ups, runErr
}

// storedParts is a part as the task store holds it, in the Result's terms:
// the store appends every delta as a part of its own, the Result joins the
// plain text parts that follow each other (and drops empty ones).
type storedPart struct {
	Kind     parser.PartKind
	Text     string
	Data     string
	Metadata string
}

type storedArtifact struct {
	ID       string
	Parts    []storedPart
	Metadata string
}

func jsonOf(t *testing.T, v any) string {
	if v == nil {
		return ""
	}
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func fromStore(t *testing.T, task *a2a.Task) []storedArtifact {
	var out []storedArtifact
	for _, a := range task.Artifacts {
		sa := storedArtifact{ID: string(a.ID)}
		if a.Metadata != nil {
			sa.Metadata = jsonOf(t, a.Metadata)
		}
		for _, p := range a.Parts {
			var sp storedPart
			if p.Metadata != nil {
				sp.Metadata = jsonOf(t, p.Metadata)
			}
			switch v := p.Content.(type) {
			case a2a.Text:
				sp.Kind, sp.Text = parser.PartText, string(v)
				if sp.Metadata == "" && p.Filename == "" && p.MediaType == "" {
					if sp.Text == "" {
						continue
					}
					if n := len(sa.Parts); n > 0 && sa.Parts[n-1].Kind == parser.PartText && sa.Parts[n-1].Metadata == "" {
						sa.Parts[n-1].Text += sp.Text
						continue
					}
				}
			case a2a.Data:
				sp.Kind, sp.Data = parser.PartData, jsonOf(t, v.Value)
			default:
				t.Fatalf("unexpected part %T", v)
			}
			sa.Parts = append(sa.Parts, sp)
		}
		out = append(out, sa)
	}
	return out
}

func fromResult(res *reconstruct.Result) []storedArtifact {
	var out []storedArtifact
	for _, a := range res.Artifacts {
		sa := storedArtifact{ID: string(a.ArtifactID), Metadata: string(a.Metadata.Raw)}
		for _, p := range a.Parts {
			sa.Parts = append(sa.Parts, storedPart{Kind: p.Kind, Text: string(p.Text), Data: string(p.Data), Metadata: string(p.Metadata.Raw)})
		}
		out = append(out, sa)
	}
	return out
}

// sortedUnits returns the names of the citation units, only the default one
// under -short.
func sortedUnits() []string {
	if testing.Short() {
		return []string{"codepoints"}
	}
	var names []string
	for n := range units {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// TestInterop runs a2a-go's server with an agent that streams as Corti's
// does, reads each run (a) with a2a-go's client through the adapter and (b)
// with a2astream's client over the wire, on both bindings and with the
// citation offsets in each unit, and checks that both give the same Result
// and the same live updates, that the Result is the run the agent streamed,
// and that its artifacts are those the server's task store holds.
func TestInterop(t *testing.T) {
	s := newServer(t)
	for _, b := range bindings {
		for _, run := range []string{runCompleted, runInputRequired, runFailed} {
			for _, uname := range sortedUnits() {
				t.Run(b.name+"/"+run+"/"+uname, func(t *testing.T) {
					unit := units[uname]
					opts := &reconstruct.Options{Citations: citations.Options{Unit: unit}}
					msg := run + " " + uname
					resA, upsA, errA := viaSDK(t, s, b.path, b.protocol, msg, opts)
					resB, upsB, errB := viaWire(t, s, b.path, msg, opts)
					require.NoError(t, errA)
					require.NoError(t, errB)

					assert.Empty(t, cmp.Diff(resB, resA, resultDiff...), "wire (-) vs a2a-go client (+)")
					assert.Empty(t, cmp.Diff(upsB, upsA), "updates: wire (-) vs a2a-go client (+)")
					for _, res := range []*reconstruct.Result{resA, resB} {
						require.NotEmpty(t, res.TaskID)
						assert.Empty(t, cmp.Diff(fromStore(t, s.stored(t, string(res.TaskID))), fromResult(res)), "task store (-) vs Result (+)")
						checkRun(t, run, unit, res)
					}
				})
			}
		}
	}
}

// checkRun checks that res is the run the agent streamed.
func checkRun(t *testing.T, run string, unit citations.Unit, res *reconstruct.Result) {
	t.Helper()
	assert.Empty(t, res.Diagnostics)
	thinking := res.Thinking()
	require.Len(t, thinking, 1)
	assert.Equal(t, thinkingText, string(thinking[0].Text()))
	assert.True(t, thinking[0].Sealed)
	switch run {
	case runCompleted:
		assert.Equal(t, parser.TaskStateCompleted, res.State)
		require.NotNil(t, res.Answer)
		assert.Equal(t, answerID, string(res.Answer.ArtifactID))
		assert.Equal(t, answerText, string(res.Answer.Text()))
		assert.Nil(t, res.StatusMessage)
		require.NotNil(t, res.Usage)
		assert.Equal(t, parser.Usage{
			Model: []byte("corti-default"), InputTokens: 5120, OutputTokens: 188, CachedInputTokens: 4096, TotalTokens: 5308, Credits: 53.08,
			Fields: parser.UsageModel | parser.UsageInputTokens | parser.UsageOutputTokens | parser.UsageCachedInputTokens | parser.UsageTotalTokens | parser.UsageCredits,
		}, *res.Usage)
		assert.Empty(t, res.Answer.CitationDiagnostics)
		require.Len(t, res.Answer.Citations, 2)
		c0, c1 := res.Answer.Citations[0], res.Answer.Citations[1]
		assert.Equal(t, offset(answerText, "(E11.65)", unit), c0.Offset)
		assert.Equal(t, conditions, string(c0.ID))
		assert.JSONEq(t, `{"system":"ICD-10-CM","code":"E11.65","display":"Diabète de type 2 — hyperglycémie"}`, string(c0.Target))
		assert.Equal(t, transcript, string(c1.ID))
		assert.Equal(t, "Patient : oui, aux deux pieds 🦶", string(c1.Target))
		// Both sit after their text, whatever the unit.
		assert.Equal(t, offset(answerText, "(E11.65)", citations.Bytes), c0.ByteOffset)
		assert.Equal(t, offset(answerText, "🦶", citations.UTF16), c1.UTF16Index)
	case runInputRequired:
		assert.Equal(t, parser.TaskStateInputRequired, res.State)
		assert.Nil(t, res.Answer)
		assert.Equal(t, question, string(reconstruct.MessageText(res.StatusMessage)))
	case runFailed:
		assert.Equal(t, parser.TaskStateFailed, res.State)
		assert.Nil(t, res.Answer)
		assert.Equal(t, failure, string(reconstruct.MessageText(res.StatusMessage)))
	}
}

// TestInteropCut checks a run whose stream ends before a final state: the
// executor returns early and a2a-go's server ends the stream. a2a-go's
// client ends its sequence without an error; the adapter reports a
// *reconstruct.TruncatedError with the task to subscribe to again, as
// a2astream's client does, and keeps the text received.
func TestInteropCut(t *testing.T) {
	s := newServer(t)
	for _, b := range bindings {
		t.Run(b.name, func(t *testing.T) {
			resA, upsA, errA := viaSDK(t, s, b.path, b.protocol, runCut, nil)
			resB, upsB, errB := viaWire(t, s, b.path, runCut, nil)
			for _, err := range []error{errA, errB} {
				var te *reconstruct.TruncatedError
				require.ErrorAs(t, err, &te)
				assert.ErrorIs(t, err, reconstruct.ErrTruncated)
				assert.Equal(t, parser.TaskStateWorking, te.State)
				assert.NotEmpty(t, te.TaskID)
			}
			var te *reconstruct.TruncatedError
			require.ErrorAs(t, errA, &te)
			assert.Equal(t, resA.TaskID, te.TaskID)
			assert.Empty(t, te.LastEventID, "a2a-go's client hands on no SSE id")
			assert.Empty(t, cmp.Diff(resB, resA, resultDiff...), "wire (-) vs a2a-go client (+)")
			// The last update's error text names the task and, on the
			// wire, the last event id: compare the updates without it.
			assert.Empty(t, cmp.Diff(upsB[:len(upsB)-1], upsA[:len(upsA)-1]))
			require.Len(t, resA.Artifacts, 1)
			assert.Equal(t, thinkingText, string(resA.Artifacts[0].Text()))
			assert.Nil(t, resA.Answer)
		})
	}
}

// TestInteropServerError checks a run whose executor fails with an error.
// a2a-go's server races with itself there: it either sends the error in the
// stream (with the executor's error text as its message), or stops
// broadcasting the executor's events and ends the task FAILED without a
// message (in a task snapshot holding the artifacts stored so far, which
// the snapshot seals). Each client sees one of the two, as the server sent it: an
// *reconstruct.EventError matching reconstruct.ErrServer, or a FAILED run;
// the task store may then hold events the stream never carried, so it is not
// compared.
func TestInteropServerError(t *testing.T) {
	s := newServer(t)
	for _, b := range bindings {
		t.Run(b.name, func(t *testing.T) {
			resA, _, errA := viaSDK(t, s, b.path, b.protocol, runError, nil)
			resB, _, errB := viaWire(t, s, b.path, runError, nil)
			for _, r := range []struct {
				res *reconstruct.Result
				err error
			}{{resA, errA}, {resB, errB}} {
				if r.err != nil {
					require.ErrorIs(t, r.err, reconstruct.ErrServer)
					var ee *reconstruct.EventError
					require.ErrorAs(t, r.err, &ee)
					var api *parser.APIError
					require.ErrorAs(t, r.err, &api)
					assert.Equal(t, "the model's transport failed", api.Message)
				} else {
					assert.Equal(t, parser.TaskStateFailed, r.res.State)
					assert.Nil(t, r.res.StatusMessage)
				}
			}
		})
	}
}
