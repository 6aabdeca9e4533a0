package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMessagesSayItOnce checks the messages a person reads: a server
// error's status said once, a count of one byte in the singular, and an
// empty input told as such (exit 6), not as a cut stream (exit 4).
func TestMessagesSayItOnce(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.sse")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	unauthenticated := `{"error":{"code":401,"status":"UNAUTHENTICATED","message":"Missing bearer token.","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"UNAUTHENTICATED","domain":"a2a-protocol.org"}]}}`
	tests := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		say    string // a part of stderr
		notSay string // never on stderr
	}{
		{"a reason that repeats the status", []string{"-"}, unauthenticated + "\n", exitAPI,
			"401 UNAUTHENTICATED: Missing bearer token.", "reason UNAUTHENTICATED"},
		{"one byte", []string{"-"}, "d", exitTruncated, "after 1 byte, inside an event (1 byte dropped)", "1 bytes"},
		{"an answer of one byte", []string{"-"}, sseEvent("1", `{"task":{"id":"`+exitTask+`","status":{"state":"TASK_STATE_WORKING"}}}`) +
			sseEvent("2", `{"artifactUpdate":{"taskId":"`+exitTask+`","lastChunk":true,"artifact":{"artifactId":"a","parts":[{"text":"x"}]}}}`) +
			sseEvent("3", `{"statusUpdate":{"taskId":"`+exitTask+`","status":{"state":"TASK_STATE_COMPLETED"}}}`), exitOK,
			"answer: 1 byte, 0 citations", "1 bytes"},
		{"empty stdin", []string{"-"}, "", exitProtocol, "error: empty input", "truncated"},
		{"empty file", []string{empty}, "", exitProtocol, "error: empty input", "truncated"},
		{"empty stdin, --json", []string{"--json", "-"}, "", exitProtocol, "", "truncated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runWith(t, tt.args, strings.NewReader(tt.stdin), nil)
			assert.Equal(t, tt.code, got.code, "exit code\nstdout:\n%s\nstderr:\n%s", got.stdout, got.stderr)
			assert.Contains(t, got.stderr, tt.say)
			assert.NotContains(t, got.stderr+got.stdout, tt.notSay)
		})
	}
	t.Run("the --json error of an empty input", func(t *testing.T) {
		got := runWith(t, []string{"--json", "-"}, strings.NewReader(""), nil)
		doc := jsonDoc(t, got.stdout)
		require.NotNil(t, doc.Error, got.stdout)
		assert.Equal(t, "empty", doc.Error.Type)
		assert.Equal(t, "empty input", doc.Error.Message)
	})
}

// TestSignalNames checks that a signal is named as people know it.
func TestSignalNames(t *testing.T) {
	assert.Equal(t, "interrupted (SIGINT)", (&interruptError{os.Interrupt}).Error())
	assert.Equal(t, "interrupted (SIGTERM)", (&interruptError{syscall.SIGTERM}).Error())
}
