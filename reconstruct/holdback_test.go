package reconstruct_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/reconstruct"
)

// A cut run's Result holds back, at the end of an artifact still streaming
// (not sealed), the bytes of an incomplete character or a lone high
// surrogate, as the live text does: every text of the cut Result is a
// prefix of the uncut one. A sealed artifact keeps its bytes as sent.
func TestCutHoldsBackIncompleteCharacters(t *testing.T) {
	tests := []struct {
		name string
		// deltas streamed into artifact "a" (raw JSON string contents).
		deltas []string
		want   string
	}{
		{"truncated 4-byte sequence", []string{"Hi ", "\xf0\x9f"}, "Hi "},
		{"truncated 3-byte sequence in one delta", []string{"Hi \xe2\x82"}, "Hi "},
		{"split surrogate escape", []string{"Hi ", `\ud83e`}, "Hi "},
		{"high surrogate then half a low one", []string{"Hi ", `\ud83e\udc`[:6] + "\xed\xb0"}, "Hi "},
		{"whole characters stay", []string{"Hi ", "\xf0\x9f\xab\x81"}, "Hi \U0001FAC1"},
		{"bytes that can never be valid stay", []string{"Hi \xff", "\xc0"}, "Hi \xff\xc0"},
		{"a truncated sequence inside the text stays", []string{"A\xe2\x82 B"}, "A\xe2\x82 B"},
		{"lone low surrogate stays", []string{"Hi ", `\udc00`}, "Hi \xed\xb0\x80"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events := []string{task("TASK_STATE_WORKING")}
			for i, d := range tt.deltas {
				events = append(events, artifactUpdate("a", i > 0, false, "", textRaw(d)))
			}
			cut := sseStream("h", events...)
			for _, split := range []splitter{whole, oneByte} {
				for _, read := range []bool{false, true} {
					var res *reconstruct.Result
					var err error
					if read {
						res, err = reconstruct.Read(strings.NewReader(cut), nil)
					} else {
						r := runStream(cut, split, nil)
						res, err = r.res, r.err
						assert.Equal(t, tt.want, r.live["a"], "the live text holds back the same")
					}
					require.ErrorIs(t, err, reconstruct.ErrTruncated)
					a := artifact(t, res, "a")
					assert.False(t, a.Sealed)
					assert.Equal(t, tt.want, string(a.Text()))
					require.Len(t, a.Parts, 1)
					assert.Equal(t, tt.want, string(a.Parts[0].Text))
				}
			}
		})
	}
}

// A sealed artifact, and one of several text parts, keep their bytes
// exactly as sent at a cut; an unsealed one with several parts holds back
// at the end of its last text part.
func TestCutKeepsSealedBytes(t *testing.T) {
	in := sseStream("k", task("TASK_STATE_WORKING"),
		artifactUpdate("sealed", false, true, "", textRaw("done \xf0\x9f")),
		artifactUpdate("open", false, false, "", `{"text":"x\u00e9","metadata":{"k":1}}`, textRaw("y \xe2\x82")),
	)
	res, err := reconstruct.Read(strings.NewReader(in), nil)
	require.ErrorIs(t, err, reconstruct.ErrTruncated)
	assert.Equal(t, "done \xf0\x9f", string(artifact(t, res, "sealed").Text()))
	open := artifact(t, res, "open")
	assert.Equal(t, "xéy ", string(open.Text()))
	require.Len(t, open.Parts, 2)
	assert.Equal(t, "y ", string(open.Parts[1].Text))
}

// A character split between two text parts of one event is held back from
// both, so that the artifact's text ends on a whole character.
func TestCutHoldsBackCharacterSplitBetweenParts(t *testing.T) {
	in := sseStream("p", task("TASK_STATE_WORKING"),
		artifactUpdate("a", false, false, "", textRaw("ok \xf0\x9f"), textRaw("\xa9")),
		artifactUpdate("b", false, false, "", textRaw("x"), `{"data":{}}`, textRaw("\xe2"), textRaw("\x82")),
	)
	res, err := reconstruct.Read(strings.NewReader(in), nil)
	require.ErrorIs(t, err, reconstruct.ErrTruncated)
	a := artifact(t, res, "a")
	assert.Equal(t, "ok ", string(a.Text()))
	require.Len(t, a.Parts, 2)
	assert.Equal(t, "ok ", string(a.Parts[0].Text))
	assert.Empty(t, a.Parts[1].Text)
	b := artifact(t, res, "b")
	assert.Equal(t, "x", string(b.Text()))
	require.Len(t, b.Parts, 4)
	assert.Equal(t, "x", string(b.Parts[0].Text))
	assert.Empty(t, b.Parts[2].Text)
	assert.Empty(t, b.Parts[3].Text)
}
