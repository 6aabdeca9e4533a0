package parser_test

import (
	"encoding/json"
	"testing"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/internal/corpus"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/stretchr/testify/require"
)

// The encoding/json baseline decodes each frame into these structs, which
// hold what the Decoder's Event exposes: ids, states and roles as strings,
// parts with text, raw, url and data, and the metadata keys the Decoder
// picks out ($usage, $timestamp, type, dataPartId, citations). It does not
// keep the metadata's raw bytes, which the Decoder also does, so the
// comparison favours the baseline.
type (
	jUsage struct {
		Model                    string  `json:"model"`
		InputTokens              int64   `json:"inputTokens"`
		OutputTokens             int64   `json:"outputTokens"`
		CachedInputTokens        int64   `json:"cachedInputTokens"`
		CacheCreationInputTokens int64   `json:"cacheCreationInputTokens"`
		TotalTokens              int64   `json:"totalTokens"`
		Credits                  float64 `json:"credits"`
	}
	jMetadata struct {
		Usage      *jUsage         `json:"$usage"`
		Timestamp  string          `json:"$timestamp"`
		Type       string          `json:"type"`
		DataPartID string          `json:"dataPartId"`
		Citations  json.RawMessage `json:"citations"`
	}
	jPart struct {
		Text      *string         `json:"text"`
		Raw       []byte          `json:"raw"`
		URL       string          `json:"url"`
		Data      json.RawMessage `json:"data"`
		Metadata  *jMetadata      `json:"metadata"`
		Filename  string          `json:"filename"`
		MediaType string          `json:"mediaType"`
	}
	jMessage struct {
		MessageID        string     `json:"messageId"`
		ContextID        string     `json:"contextId"`
		TaskID           string     `json:"taskId"`
		Role             string     `json:"role"`
		Parts            []jPart    `json:"parts"`
		Metadata         *jMetadata `json:"metadata"`
		Extensions       []string   `json:"extensions"`
		ReferenceTaskIDs []string   `json:"referenceTaskIds"`
	}
	jStatus struct {
		State     string    `json:"state"`
		Message   *jMessage `json:"message"`
		Timestamp string    `json:"timestamp"`
	}
	jArtifact struct {
		ArtifactID  string     `json:"artifactId"`
		Name        string     `json:"name"`
		Description string     `json:"description"`
		Parts       []jPart    `json:"parts"`
		Metadata    *jMetadata `json:"metadata"`
		Extensions  []string   `json:"extensions"`
	}
	jTask struct {
		ID        string      `json:"id"`
		ContextID string      `json:"contextId"`
		Status    jStatus     `json:"status"`
		Artifacts []jArtifact `json:"artifacts"`
		History   []jMessage  `json:"history"`
		Metadata  *jMetadata  `json:"metadata"`
	}
	jStatusUpdate struct {
		TaskID    string     `json:"taskId"`
		ContextID string     `json:"contextId"`
		Status    jStatus    `json:"status"`
		Metadata  *jMetadata `json:"metadata"`
	}
	jArtifactUpdate struct {
		TaskID    string     `json:"taskId"`
		ContextID string     `json:"contextId"`
		Artifact  jArtifact  `json:"artifact"`
		Append    bool       `json:"append"`
		LastChunk bool       `json:"lastChunk"`
		Metadata  *jMetadata `json:"metadata"`
	}
	jStreamResponse struct {
		Task           *jTask           `json:"task"`
		Message        *jMessage        `json:"message"`
		StatusUpdate   *jStatusUpdate   `json:"statusUpdate"`
		ArtifactUpdate *jArtifactUpdate `json:"artifactUpdate"`
	}
)

// lexFrames lexes in and calls fn with every frame.
func lexFrames(tb testing.TB, lx *sse.Lexer, in []byte, fn func(f *sse.Frame)) {
	lx.Write(in)
	for lx.Next() {
		fn(lx.Frame())
	}
	require.NoError(tb, lx.Err())
}

// TestDecodeCorpusMatchesEncodingJSON decodes every frame of the benchmark
// corpus with the Decoder and with encoding/json, and checks that both read
// the same kinds, ids, states, flags, texts and usage.
func TestDecodeCorpusMatchesEncodingJSON(t *testing.T) {
	in := corpus.Tokens(2000)
	var d parser.Decoder
	lx := sse.NewLexer(nil)
	frames := 0
	lexFrames(t, lx, in, func(f *sse.Frame) {
		frames++
		// Thousands of frames, several checks each: every check keeps its
		// own condition and calls require only on failure.
		ev, err := d.Decode(f)
		if err != nil {
			require.NoError(t, err, "frame %d", f.Seq)
		}
		var j jStreamResponse
		if err := json.Unmarshal(f.Data, &j); err != nil {
			require.NoError(t, err, "frame %d: encoding/json", f.Seq)
		}
		switch {
		case j.Task != nil:
			if ev.Kind != parser.KindTask || string(ev.Task.ID) != j.Task.ID ||
				ev.Task.Status.State.String() != j.Task.Status.State {
				require.Failf(t, "task differs from encoding/json's", "frame %d: kind %v, task %q %v, encoding/json %+v", f.Seq, ev.Kind, ev.Task.ID, ev.Task.Status.State, j.Task)
			}
		case j.ArtifactUpdate != nil:
			u, ju := &ev.ArtifactUpdate, j.ArtifactUpdate
			if ev.Kind != parser.KindArtifactUpdate || string(u.TaskID) != ju.TaskID ||
				string(u.Artifact.ArtifactID) != ju.Artifact.ArtifactID ||
				u.Append != ju.Append || u.LastChunk != ju.LastChunk ||
				len(u.Artifact.Parts) != 1 || string(u.Artifact.Parts[0].Text) != *ju.Artifact.Parts[0].Text {
				require.Failf(t, "artifact update differs from encoding/json's", "frame %d: kind %v, %+v, encoding/json %+v", f.Seq, ev.Kind, *u, ju)
			}
		case j.StatusUpdate != nil:
			u, ju := &ev.StatusUpdate, j.StatusUpdate
			usage := &u.Metadata.Usage
			if ev.Kind != parser.KindStatusUpdate || u.Status.State.String() != ju.Status.State ||
				string(u.Status.Timestamp) != ju.Status.Timestamp || string(usage.Model) != ju.Metadata.Usage.Model ||
				usage.TotalTokens != ju.Metadata.Usage.TotalTokens || usage.Credits != ju.Metadata.Usage.Credits {
				require.Failf(t, "status update differs from encoding/json's", "frame %d: kind %v, %+v, encoding/json %+v", f.Seq, ev.Kind, *u, ju)
			}
		default:
			require.Failf(t, "encoding/json found no payload", "frame %d", f.Seq)
		}
	})
	require.GreaterOrEqual(t, frames, 2000, "frames in the corpus")
}

// BenchmarkDecode lexes and decodes the lexer's token-streaming corpus
// (about 20,000 frames) end to end, beside the same lexing followed by
// encoding/json.Unmarshal of every frame into equivalent structs. The
// Decode/* and EncodingJSON/* pairs isolate the decoding of the pre-lexed
// frames' data. Throughput is of the SSE bytes in every case.
func BenchmarkDecode(b *testing.B) {
	in := corpus.Tokens(corpus.Frames)
	var datas [][]byte
	lexFrames(b, sse.NewLexer(nil), in, func(f *sse.Frame) {
		datas = append(datas, append([]byte(nil), f.Data...))
	})

	// The loops are written out rather than calling lexFrames: a Frame
	// passed through a func value escapes, which would cost an allocation
	// per frame that the Decoder does not make. Each benchmark runs its
	// body once before timing, so that allocs/op shows the steady state.
	for _, chunk := range []int{len(in), 4 << 10} {
		name := "whole"
		if chunk != len(in) {
			name = "4KiB"
		}
		b.Run("LexDecode/"+name, func(b *testing.B) {
			var d parser.Decoder
			lx, f := sse.NewLexer(nil), new(sse.Frame)
			measure(b, len(in), func() {
				lexEach(lx, f, in, chunk, func(f *sse.Frame) {
					// Per frame in the timed loop: require is called only on failure.
					if _, err := d.Decode(f); err != nil {
						require.NoError(b, err)
					}
				})
			})
		})
		b.Run("LexEncodingJSON/"+name, func(b *testing.B) {
			lx, f := sse.NewLexer(nil), new(sse.Frame)
			measure(b, len(in), func() {
				lexEach(lx, f, in, chunk, func(f *sse.Frame) {
					var j jStreamResponse
					// Per frame in the timed loop: require is called only on failure.
					if err := json.Unmarshal(f.Data, &j); err != nil {
						require.NoError(b, err)
					}
				})
			})
		})
	}
	b.Run("Decode", func(b *testing.B) {
		var d parser.Decoder
		f := &sse.Frame{}
		measure(b, len(in), func() {
			for _, data := range datas {
				f.Data = data
				// Per frame in the timed loop: require is called only on failure.
				if _, err := d.Decode(f); err != nil {
					require.NoError(b, err)
				}
			}
		})
	})
	b.Run("EncodingJSON", func(b *testing.B) {
		measure(b, len(in), func() {
			for _, data := range datas {
				var j jStreamResponse
				// Per frame in the timed loop: require is called only on failure.
				if err := json.Unmarshal(data, &j); err != nil {
					require.NoError(b, err)
				}
			}
		})
	})
}

// measure runs body once untimed, so that allocs/op shows the steady
// state, then times it over n bytes per op with the process CPU time.
func measure(b *testing.B, n int, body func()) {
	body()
	b.SetBytes(int64(n))
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		body()
	}
	reportCPU(b, start)
}

// lexEach writes in to lx in chunks of chunk bytes and calls fn with each
// frame, held in *f: the caller's variable, so that handing fn a pointer
// allocates nothing per frame or per call.
func lexEach(lx *sse.Lexer, f *sse.Frame, in []byte, chunk int, fn func(f *sse.Frame)) {
	for p := in; len(p) > 0; {
		c := p[:min(chunk, len(p))]
		p = p[len(c):]
		lx.Write(c)
		for lx.Next() {
			*f = *lx.Frame()
			fn(f)
		}
	}
}
