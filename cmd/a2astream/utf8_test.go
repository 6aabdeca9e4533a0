package main

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// invalidCited is a completed run whose answer holds a truncated 3-byte
// sequence before a citation placed, in code points, at "B".
const invalidCited = `data: {"task":{"id":"t","status":{"state":"TASK_STATE_WORKING"}}}` + "\n\n" +
	`data: {"artifactUpdate":{"taskId":"t","lastChunk":true,"artifact":{"artifactId":"a","parts":[` +
	"{\"text\":\"A\xe2\x82 B\",\"metadata\":{\"citations\":[{\"data_part_id\":\"g\",\"offset\":3,\"locator\":\"/x\"}]}}," +
	`{"data":{"x":"y"},"metadata":{"dataPartId":"g"}}]}}}` + "\n\n" +
	`data: {"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_COMPLETED"}}}` + "\n\n"

// Invalid UTF-8 is written the one way, one U+FFFD per maximal subpart of
// an ill-formed sequence (as TextDecoder decodes it), in --json, where
// utf16Index then indexes answer.text, and in the --events lines.
func TestInvalidUTF8OnePolicy(t *testing.T) {
	res := runWith(t, []string{"--json", "-"}, strings.NewReader(invalidCited), nil)
	require.Equal(t, 0, res.code, res.stderr)
	var doc resultDoc
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &doc))
	require.NotNil(t, doc.Answer)
	assert.Equal(t, "A\uFFFD B", doc.Answer.Text)
	require.Len(t, doc.Answer.Citations, 1)
	c := doc.Answer.Citations[0]
	units := utf16.Encode([]rune(doc.Answer.Text))
	require.Less(t, c.UTF16Index, len(units))
	assert.Equal(t, "B", string(utf16.Decode(units[c.UTF16Index:c.UTF16Index+1])), "utf16Index indexes answer.text")
	assert.Equal(t, "B", string([]rune(doc.Answer.Text)[c.RuneIndex]), "runeIndex indexes answer.text")

	res = runWith(t, []string{"--events", "-"}, strings.NewReader(invalidCited), nil)
	require.Equal(t, 0, res.code, res.stderr)
	found := false
	for sc := bufio.NewScanner(strings.NewReader(res.stdout)); sc.Scan(); {
		var line struct{ Parts []struct{ Text *string } }
		require.NoError(t, json.Unmarshal(sc.Bytes(), &line))
		for _, p := range line.Parts {
			if p.Text != nil {
				assert.Equal(t, "A\uFFFD B", *p.Text)
				found = true
			}
		}
	}
	assert.True(t, found, "an --events line with the text: %s", res.stdout)
}

// TestFramesInvalidUTF8 holds --frames and --events to the same policy:
// the ill-formed bytes of a frame's data, id and event type, and of an
// event's ids, are one U+FFFD per maximal subpart, as in --json.
func TestFramesInvalidUTF8(t *testing.T) {
	stream := "event: m\xe2\x82\nid: 7\xe2\x82 x\ndata: {\"statusUpdate\":{\"taskId\":\"t\xe2\x82 1\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}},\"x\":\"A\xf0\x9f B\"}\n\n"
	res := runWith(t, []string{"--frames", "-"}, strings.NewReader(stream), nil)
	var frame struct{ ID, Event, Data string }
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(res.stdout)), &frame), res.stdout)
	assert.Equal(t, "7\uFFFD x", frame.ID)
	assert.Equal(t, "m\uFFFD", frame.Event)
	assert.Contains(t, frame.Data, `"A`+"\uFFFD"+` B"`)

	res = runWith(t, []string{"--events", "-"}, strings.NewReader("id: 7\xe2\x82 x\ndata: {\"statusUpdate\":{\"taskId\":\"t\xe2\x82 1\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}\n\n"), nil)
	var ev struct{ ID, TaskID string }
	require.NoError(t, json.Unmarshal([]byte(strings.SplitN(res.stdout, "\n", 2)[0]), &ev), res.stdout)
	assert.Equal(t, "7\uFFFD x", ev.ID)
	assert.Equal(t, "t\uFFFD 1", ev.TaskID)
}
