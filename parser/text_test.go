package parser_test

import (
	"encoding"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
)

// Every named value of each enum writes its name and reads back from it;
// an unnamed value and an unknown name are *NameErrors matching
// ErrUnknownName.
func TestEnumText(t *testing.T) {
	type enum interface {
		encoding.TextMarshaler
	}
	tests := []struct {
		name    string
		values  []enum
		names   []string
		read    func(text string) (enum, error)
		invalid enum
	}{
		{"TaskState", []enum{parser.TaskStateUnspecified, parser.TaskStateWorking, parser.TaskStateCompleted, parser.TaskStateAuthRequired},
			[]string{"TASK_STATE_UNSPECIFIED", "TASK_STATE_WORKING", "TASK_STATE_COMPLETED", "TASK_STATE_AUTH_REQUIRED"},
			func(s string) (enum, error) { var v parser.TaskState; err := v.UnmarshalText([]byte(s)); return v, err }, parser.TaskState(9)},
		{"Role", []enum{parser.RoleUnspecified, parser.RoleUser, parser.RoleAgent}, []string{"ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"},
			func(s string) (enum, error) { var v parser.Role; err := v.UnmarshalText([]byte(s)); return v, err }, parser.Role(3)},
		{"PartKind", []enum{parser.PartKind(0), parser.PartText, parser.PartRaw, parser.PartURL, parser.PartData}, []string{"", "text", "raw", "url", "data"},
			func(s string) (enum, error) { var v parser.PartKind; err := v.UnmarshalText([]byte(s)); return v, err }, parser.PartKind(5)},
		{"Binding", []enum{parser.Binding(0), parser.BindingREST, parser.BindingJSONRPC}, []string{"", "REST", "JSON-RPC"},
			func(s string) (enum, error) { var v parser.Binding; err := v.UnmarshalText([]byte(s)); return v, err }, parser.Binding(3)},
		{"Kind", []enum{parser.KindTask, parser.KindMessage, parser.KindStatusUpdate, parser.KindArtifactUpdate, parser.KindError, parser.KindUnknown},
			[]string{"task", "message", "statusUpdate", "artifactUpdate", "error", "unknown"},
			func(s string) (enum, error) { var v parser.Kind; err := v.UnmarshalText([]byte(s)); return v, err }, parser.Kind(7)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i, v := range tt.values {
				text, err := v.MarshalText()
				require.NoError(t, err, "%v", v)
				assert.Equal(t, tt.names[i], string(text), "%v", v)
				back, err := tt.read(tt.names[i])
				require.NoError(t, err, "%q", tt.names[i])
				assert.Equal(t, v, back, "%q", tt.names[i])
			}
			_, err := tt.invalid.MarshalText()
			var ne *parser.NameError
			require.ErrorAs(t, err, &ne, "%v", tt.invalid)
			assert.ErrorIs(t, err, parser.ErrUnknownName)
			_, err = tt.read("NO_SUCH_NAME")
			assert.ErrorIs(t, err, parser.ErrUnknownName)
			assert.Contains(t, err.Error(), `"NO_SUCH_NAME"`)
		})
	}
}

// encoding/json writes and reads the names, and a name of A2A 0.3 is
// refused as such.
func TestEnumJSON(t *testing.T) {
	b, err := json.Marshal(struct {
		State parser.TaskState
		Role  parser.Role
	}{parser.TaskStateInputRequired, parser.RoleAgent})
	require.NoError(t, err)
	assert.JSONEq(t, `{"State":"TASK_STATE_INPUT_REQUIRED","Role":"ROLE_AGENT"}`, string(b))
	var s parser.TaskState
	assert.ErrorIs(t, json.Unmarshal([]byte(`"input-required"`), &s), parser.ErrLegacyShape)
	require.NoError(t, s.UnmarshalText([]byte("3")), "a ProtoJSON number")
	assert.Equal(t, parser.TaskStateCompleted, s)
}
