package reconstruct_test

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
)

// TestConstructorResetShape checks the one shape of constructors and Reset
// across the packages a Stream composes: Reset takes what the constructor
// takes, and options come as *Options (nil for the defaults), never as a
// value. (parser.Decoder has no options: NewDecoder() and Reset() is the
// same shape with none.)
func TestConstructorResetShape(t *testing.T) {
	tests := []struct {
		name        string
		ctor, reset any
	}{
		{"citations.Resolver", citations.NewResolver, (*citations.Resolver).Reset},
		{"parser.Decoder", parser.NewDecoder, (*parser.Decoder).Reset},
		{"sse.Lexer", sse.NewLexer, (*sse.Lexer).Reset},
		{"sse.Reader", sse.NewReader, (*sse.Reader).Reset},
		{"reconstruct.Reducer", reconstruct.NewReducer, (*reconstruct.Reducer).Reset},
		{"reconstruct.Stream", reconstruct.NewStream, (*reconstruct.Stream).Reset},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctor, reset := reflect.TypeOf(tt.ctor), reflect.TypeOf(tt.reset)
			var ctorIn, resetIn []reflect.Type
			for i := range ctor.NumIn() {
				ctorIn = append(ctorIn, ctor.In(i))
			}
			for i := 1; i < reset.NumIn(); i++ { // after the receiver
				resetIn = append(resetIn, reset.In(i))
			}
			assert.Equal(t, ctorIn, resetIn, "Reset takes the constructor's arguments")
			for _, in := range ctorIn {
				assert.NotEqual(t, "Options", in.Name(), "options by value: %v", in)
			}
		})
	}
}
