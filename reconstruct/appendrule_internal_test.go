package reconstruct

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/a2astream/a2astream/parser"
)

// TestAppendRule states the append rule case by case, as appendRule, the
// one place it is written, decides it: a plain text part extends the plain
// text part that ends the artifact; an empty one adds nothing where there
// is none; any other part follows as its own.
func TestAppendRule(t *testing.T) {
	plain := func(s string) parser.Part { return parser.Part{Kind: parser.PartText, Text: []byte(s)} }
	tagged := parser.Part{Kind: parser.PartText, Text: []byte("t"), Metadata: parser.Metadata{Raw: []byte(`{"k":1}`)}}
	named := parser.Part{Kind: parser.PartText, Text: []byte("t"), Filename: []byte("f.txt")}
	typed := parser.Part{Kind: parser.PartText, Text: []byte("t"), MediaType: []byte("text/plain")}
	data := parser.Part{Kind: parser.PartData, Data: []byte(`{"k":1}`)}
	tests := []struct {
		name  string
		parts []parser.Part // the artifact's parts before the append
		p     parser.Part
		want  appending
	}{
		{"plain after plain", []parser.Part{plain("x")}, plain("y"), asText},
		{"empty plain after plain", []parser.Part{plain("x")}, plain(""), asText},
		{"plain after a data part and plain", []parser.Part{plain("x"), data, plain("z")}, plain("y"), asText},
		{"plain into no parts", nil, plain("y"), asPart},
		{"plain after a data part", []parser.Part{plain("x"), data}, plain("y"), asPart},
		{"plain after a text part with metadata", []parser.Part{tagged}, plain("y"), asPart},
		{"plain after a text part with a file name", []parser.Part{named}, plain("y"), asPart},
		{"plain after a text part with a media type", []parser.Part{typed}, plain("y"), asPart},
		{"empty plain into no parts", nil, plain(""), asNothing},
		{"empty plain after a data part", []parser.Part{data}, plain(""), asNothing},
		{"text with metadata after plain", []parser.Part{plain("x")}, tagged, asPart},
		{"text with a file name after plain", []parser.Part{plain("x")}, named, asPart},
		{"text with a media type after plain", []parser.Part{plain("x")}, typed, asPart},
		{"data after plain", []parser.Part{plain("x")}, data, asPart},
	}
	for _, tt := range tests {
		a := &Artifact{Artifact: parser.Artifact{Parts: tt.parts}}
		assert.Equal(t, tt.want, appendRule(a, &tt.p), tt.name)
	}
}
