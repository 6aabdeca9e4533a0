package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// partsStream is a run whose status message and reply hold a part of each
// kind, with what the writers could escape differently: ill-formed UTF-8,
// HTML characters, U+2028, control characters, data that is and is not
// JSON, raw bytes, a URL with its file name, media type and metadata.
const partsStream = `data: {"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}` + "\n\n" +
	"data: {\"statusUpdate\":{\"taskId\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_INPUT_REQUIRED\",\"message\":{\"messageId\":\"m\xe2\x82 1\",\"role\":\"ROLE_AGENT\",\"parts\":[" +
	"{\"text\":\"<b>&amp; A\xf0\x9f B \u2028 \\u0001\\t\\\"\"}," +
	`{"data":{"a": [1, 2], "h":"<&>"},"metadata":{"k": "v"}},` +
	`{"raw":"aGk=","filename":"h.txt","mediaType":"text/plain"},` +
	`{"url":"https://example.org/f.pdf?a=1&b=<2>","filename":"f.pdf","mediaType":"application/pdf"}` +
	`],"metadata":{"x":1}}}}}` + "\n\n" +
	`data: {"message":{"messageId":"r","role":"ROLE_AGENT","parts":[{"text":"one "},{"data":{"n":1}},{"text":"two"}]}}` + "\n\n"

// TestEventsPartsAsDocument checks that --events writes a message and its
// parts with the --json document's writer: the statusMessage of the
// status line and the message of the reply line are byte for byte the
// document's statusMessage and message (compacted).
func TestEventsPartsAsDocument(t *testing.T) {
	res := runWith(t, []string{"--json", "-"}, strings.NewReader(partsStream), nil)
	require.Equal(t, exitInterrupted, res.code, res.stderr)
	var doc struct{ StatusMessage, Message json.RawMessage }
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &doc), res.stdout)
	compact := func(raw []byte) string {
		var b bytes.Buffer
		require.NoError(t, json.Compact(&b, raw))
		return b.String()
	}

	res = runWith(t, []string{"--events", "-"}, strings.NewReader(partsStream), nil)
	require.Equal(t, exitInterrupted, res.code, res.stderr)
	var lines []struct {
		Kind          string
		StatusMessage json.RawMessage
		Message       json.RawMessage
	}
	for sc := bufio.NewScanner(strings.NewReader(res.stdout)); sc.Scan(); {
		var l struct {
			Kind          string
			StatusMessage json.RawMessage
			Message       json.RawMessage
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l), sc.Text())
		lines = append(lines, l)
	}
	require.Len(t, lines, 3, res.stdout)
	assert.Equal(t, compact(doc.StatusMessage), string(lines[1].StatusMessage), "the status message")
	assert.Equal(t, compact(doc.Message), string(lines[2].Message), "the reply")
}
