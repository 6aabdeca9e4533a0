package parser

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseID(t *testing.T) {
	tests := []struct {
		name string
		kind IDKind
		in   string
		want string
	}{
		{"prefixed task", IDTask, "task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62", "task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62"},
		{"bare task", IDTask, "0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62", "task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62"},
		{"context", IDContext, "ctx.0192f4c8-3d6b-7c4f-a02b-4d9e7f3c8b51", "ctx.0192f4c8-3d6b-7c4f-a02b-4d9e7f3c8b51"},
		{"bare message", IDMessage, "0192f4c8-5f8d-7e61-924d-6fb09b5ead73", "msg.0192f4c8-5f8d-7e61-924d-6fb09b5ead73"},
		{"artifact", IDArtifact, "art.0192f4c8-6a9e-7f72-a35e-70c1ac6fbe84", "art.0192f4c8-6a9e-7f72-a35e-70c1ac6fbe84"},
		{"agent", IDAgent, "agt.0192f4c8-2c5a-7b3e-9f1a-3c8d6e2b7a40", "agt.0192f4c8-2c5a-7b3e-9f1a-3c8d6e2b7a40"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := ParseID(tt.kind, tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, id.String(), "String()")
			assert.Equal(t, "id="+tt.want, string(id.AppendTo([]byte("id="))), "AppendTo")
			assert.Equal(t, tt.kind, id.Kind(), "Kind()")
			assert.Equal(t, tt.want[len(tt.kind.Prefix()):], id.UUID(), "UUID()")
		})
	}
}

func TestParseIDErrors(t *testing.T) {
	tests := []struct {
		name string
		kind IDKind
		in   string
	}{
		{"empty", IDTask, ""},
		{"free string", IDTask, "answer"},
		{"prefix only", IDTask, "task."},
		{"other kind's prefix", IDTask, "ctx.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62"},
		{"uppercase hex", IDTask, "task.0192F4C8-4E7C-7D50-B13C-5EAF8A4D9C62"},
		{"UUIDv4", IDTask, "6f1c1f9e-8b0e-4b5a-9d57-1a2b3c4d5e6f"},
		{"wrong variant", IDTask, "0192f4c8-4e7c-7d50-c13c-5eaf8a4d9c62"},
		{"missing dash", IDTask, "0192f4c8-4e7c-7d50b13c-5eaf8a4d9c62x"},
		{"too short", IDTask, "0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c6"},
		{"too long", IDTask, "0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c621"},
		{"non-hex", IDTask, "0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c6g"},
		{"double prefix", IDTask, "task.task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62"},
		{"invalid kind", IDKind(0), "0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62"},
		{"kind out of range", IDKind(9), "0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := ParseID(tt.kind, tt.in)
			assert.ErrorIs(t, err, ErrInvalidID, "ParseID(%v, %q) = %v", tt.kind, tt.in, id)
		})
	}
}

func TestIDTime(t *testing.T) {
	id, err := ParseID(IDTask, "task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62")
	require.NoError(t, err)
	// 0x0192f4c84e7c ms after the epoch.
	const ms = 0x0192f4c84e7c
	assert.Equal(t, int64(ms), id.UnixMilli(), "UnixMilli()")
	got := time.UnixMilli(id.UnixMilli()).UTC()
	assert.Equal(t, 2024, got.Year(), "year of time.UnixMilli(UnixMilli()) = %v", got)
	assert.Equal(t, time.November, got.Month(), "month of time.UnixMilli(UnixMilli()) = %v", got)
}

func TestIDKindStrings(t *testing.T) {
	tests := []struct {
		kind         IDKind
		name, prefix string
	}{
		{IDTask, "task", "task."},
		{IDContext, "ctx", "ctx."},
		{IDMessage, "msg", "msg."},
		{IDArtifact, "art", "art."},
		{IDAgent, "agt", "agt."},
		{IDKind(0), "Invalid(0)", ""},
		{IDKind(6), "Invalid(6)", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.name, tt.kind.String(), "String()")
			assert.Equal(t, tt.prefix, tt.kind.Prefix(), "Prefix()")
		})
	}
	assert.Empty(t, (ID{}).String(), "the zero ID's String()")
	assert.Empty(t, (ID{}).AppendTo(nil), "the zero ID's AppendTo(nil)")
}

// An id as the decoder and the Result hold it, []byte, parses as its
// string does.
func TestParseIDBytes(t *testing.T) {
	const s = "task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62"
	want, err := ParseID(IDTask, s)
	require.NoError(t, err)
	got, err := ParseID(IDTask, []byte(s))
	require.NoError(t, err)
	assert.Equal(t, want, got)
	_, err = ParseID(IDContext, []byte(s))
	assert.ErrorIs(t, err, ErrInvalidID, "another kind's prefix")
	assert.Zero(t, testing.AllocsPerRun(10, func() { ParseID(IDTask, []byte(s)) }), "allocations")
}
