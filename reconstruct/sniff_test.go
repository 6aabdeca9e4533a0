package reconstruct_test

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
)

// TestNotEventStream feeds input that is no event stream, and streams cut
// in their first bytes, through Read and through a Stream written whole and
// one byte at a time: the first are a *NotEventStreamError quoting their
// start (the server's *parser.APIError when they are its JSON error
// document), the others stay truncated.
func TestNotEventStream(t *testing.T) {
	html := "<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>" + strings.Repeat("<p>x</p>", 20) + "</body></html>\n"
	tests := []struct {
		name   string
		in     string
		not    bool   // not an event stream; else a truncated one
		apiMsg string // the API error's message, when the input is one
	}{
		{"HTML page", html, true, ""},
		{"HTML page after a BOM", "\xEF\xBB\xBF" + html, true, ""},
		{"binary", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", true, ""},
		{"plain text", "Unauthorized\n", true, ""},
		{"REST error document", "  {\"error\":{\"code\":401,\"status\":\"UNAUTHENTICATED\",\"message\":\"Missing bearer token.\"}}\n", true, "Missing bearer token."},
		{"REST error document after more white space than the kept start", strings.Repeat(" ", 70) + "\t{\"error\":{\"code\":401,\"status\":\"UNAUTHENTICATED\",\"message\":\"Missing bearer token.\"}}\n", true, "Missing bearer token."},
		{"JSON-RPC error document", `{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Task not found"}}`, true, "Task not found"},
		{"JSON document that is no error", "{\n  \"task\": {\"id\": \"t\"}\n}\n", true, ""},
		{"comments, then HTML", ": hello\n\n<html>\n", true, ""},
		{"empty", "", false, ""},
		{"blank lines and keep-alives", "\n: keep-alive\n\n: keep-alive\n", false, ""},
		{"a comment longer than the kept start", ": " + strings.Repeat("p", 100) + "\n<html>", false, ""},
		{"cut in the first field's name", "da", false, ""},
		{"cut in the first field", "data: {\"task\":{\"id\":\"t", false, ""},
		{"an id, then the cut", "id: 7\n", false, ""},
		{"an unknown field name", "dato: x\n\n", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check := func(t *testing.T, how string, err error) {
				t.Helper()
				if !tt.not {
					var trunc *reconstruct.TruncatedError
					require.ErrorAs(t, err, &trunc, how)
					require.NotErrorIs(t, err, reconstruct.ErrNotEventStream, how)
					return
				}
				var ne *reconstruct.NotEventStreamError
				require.ErrorAs(t, err, &ne, how)
				require.ErrorIs(t, err, reconstruct.ErrNotEventStream, how)
				assert.Equal(t, tt.in[:min(len(tt.in), 64)], string(ne.Head), how)
				assert.Zero(t, ne.StatusCode, how)
				var api *parser.APIError
				if tt.apiMsg != "" {
					require.ErrorAs(t, err, &api, how)
					assert.Equal(t, tt.apiMsg, api.Message, how)
					assert.Contains(t, err.Error(), tt.apiMsg, how)
				} else {
					require.False(t, errorsAs(err, &api), how)
					assert.Contains(t, err.Error(), `starting "`, how)
				}
			}
			res, err := reconstruct.Read(strings.NewReader(tt.in), nil)
			check(t, "Read", err)
			assert.Equal(t, err, res.Err)
			_, err = reconstruct.Read(iotest.OneByteReader(strings.NewReader(tt.in)), nil)
			check(t, "Read, one byte at a time", err)
			for _, size := range []int{len(tt.in), 1} {
				s := reconstruct.NewStream(nil)
				dones := 0
				for p := []byte(tt.in); len(p) > 0; p = p[min(size, len(p)):] {
					_, werr := s.Write(p[:min(size, len(p))])
					require.NoError(t, werr)
					for s.Next() {
						dones += countDone(s.Update())
					}
				}
				err := s.Close()
				for s.Next() {
					dones += countDone(s.Update())
				}
				check(t, "Stream", err)
				assert.Equal(t, err, s.Result().Err)
				assert.Equal(t, 1, dones, "one UpdateDone")
			}
		})
	}
}

func countDone(u *reconstruct.Update) int {
	if u.Kind == reconstruct.UpdateDone {
		return 1
	}
	return 0
}

// errorsAs is errors.As for a check that must be false.
func errorsAs(err error, target **parser.APIError) bool {
	for _, e := range unwrapAll(err) {
		if a, ok := e.(*parser.APIError); ok {
			*target = a
			return true
		}
	}
	return false
}

func unwrapAll(err error) []error {
	out := []error{err}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		if e := u.Unwrap(); e != nil {
			out = append(out, unwrapAll(e)...)
		}
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			out = append(out, unwrapAll(e)...)
		}
	}
	return out
}

// TestNotEventStreamAfterFrames checks that input with a frame is an event
// stream, whatever follows: the rest is judged by the decoder and the
// reducer.
func TestNotEventStreamAfterFrames(t *testing.T) {
	in := "id: 1\ndata: " + `{"task":{"id":"task.1","contextId":"ctx.1","status":{"state":"TASK_STATE_WORKING"}}}` + "\n\n<html>\n"
	_, err := reconstruct.Read(bytes.NewReader([]byte(in)), nil)
	require.ErrorIs(t, err, reconstruct.ErrTruncated)
	require.NotErrorIs(t, err, reconstruct.ErrNotEventStream)
}
