package reconstruct_test

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// TestSurrogatePairAcrossParts: a surrogate pair whose halves end one text
// part and start a later one (in the same event or after a data part) is
// joined in the artifact's text, as the concatenation of every part's text
// gives, and the live text hands it out whole, never as two halves. These
// were findings of the fuzz package's generated runs.
func TestSurrogatePairAcrossParts(t *testing.T) {
	dataPart := `{"data":{"k":1},"metadata":{"dataPartId":"g"}}`
	tests := []struct {
		name   string
		stream string
		want   string
	}{
		{
			name: "two text parts of one event",
			stream: sseStream("seam1",
				task("TASK_STATE_WORKING"),
				artifactUpdate("a", false, true, "", textRaw(`x\ud83d`), textRaw(`\ude00y`)),
				status("TASK_STATE_COMPLETED", "", "")),
			want: "x\U0001F600y",
		},
		{
			name: "a data part between, the low half in a later append",
			stream: sseStream("seam2",
				task("TASK_STATE_WORKING"),
				artifactUpdate("a", false, false, "", textRaw(`x\ud83d`), dataPart),
				artifactUpdate("a", true, true, "", textRaw(`\ude00y`)),
				status("TASK_STATE_COMPLETED", "", "")),
			want: "x\U0001F600y",
		},
		{
			name: "raw UTF-8 of one character over two parts, completed by an append",
			stream: sseStream("seam4",
				task("TASK_STATE_WORKING"),
				artifactUpdate("a", false, false, "", text("x\xf0"), text("\x9d\x84")),
				artifactUpdate("a", true, true, "", text("\x9ey")),
				status("TASK_STATE_COMPLETED", "", "")),
			want: "x\U0001D11Ey",
		},
		{
			name: "a high half no later part completes",
			stream: sseStream("seam3",
				task("TASK_STATE_WORKING"),
				artifactUpdate("a", false, false, "", textRaw(`x\ud83d`), dataPart),
				artifactUpdate("a", true, true, "", dataPart),
				status("TASK_STATE_COMPLETED", "", "")),
			want: "x\xed\xa0\xbd",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, split := range map[string]splitter{"whole": whole, "one byte": oneByte} {
				r := runStream(tt.stream, split, nil)
				if !assert.NoError(t, r.err, name) {
					continue
				}
				assert.Equal(t, tt.want, string(r.res.Answer.Text()), name)
				assert.Equal(t, tt.want, r.live["a"], "%s: live text", name)
				if utf8.ValidString(tt.want) {
					assert.Empty(t, invalidTexts(r.texts), "%s: live updates in whole characters", name)
				}
			}
		})
	}
}
