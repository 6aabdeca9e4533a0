package resultjson

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/reconstruct"
)

// whatwg decodes b with the WHATWG Encoding Standard's UTF-8 decoder
// (what JavaScript's TextDecoder runs), transcribed from its steps: "UTF-8
// bytes needed", "seen", "lower boundary" and "upper boundary"; an
// unexpected byte ends the sequence with one U+FFFD and is processed
// again, and the end of input inside a sequence gives one U+FFFD.
func whatwg(b []byte) string {
	var out []rune
	var cp rune
	needed, seen := 0, 0
	lower, upper := byte(0x80), byte(0xBF)
	for i := 0; i < len(b); i++ {
		c := b[i]
		if needed == 0 {
			switch {
			case c <= 0x7F:
				out = append(out, rune(c))
			case c >= 0xC2 && c <= 0xDF:
				needed, cp = 1, rune(c&0x1F)
			case c >= 0xE0 && c <= 0xEF:
				if c == 0xE0 {
					lower = 0xA0
				}
				if c == 0xED {
					upper = 0x9F
				}
				needed, cp = 2, rune(c&0xF)
			case c >= 0xF0 && c <= 0xF4:
				if c == 0xF0 {
					lower = 0x90
				}
				if c == 0xF4 {
					upper = 0x8F
				}
				needed, cp = 3, rune(c&0x7)
			default:
				out = append(out, '\uFFFD')
			}
			continue
		}
		if c < lower || c > upper {
			cp, needed, seen, lower, upper = 0, 0, 0, 0x80, 0xBF
			out = append(out, '\uFFFD')
			i-- // "prepend byte to stream"
			continue
		}
		lower, upper = 0x80, 0xBF
		cp = cp<<6 | rune(c&0x3F)
		if seen++; seen == needed {
			out = append(out, cp)
			cp, needed, seen = 0, 0, 0
		}
	}
	if needed > 0 {
		out = append(out, '\uFFFD')
	}
	return string(out)
}

// The README's promise, on invalid input: a citation's utf16Index indexes
// the --json document's answer.text (as a JavaScript string, UTF-16 units)
// and runeIndex its code points, whatever ill-formed bytes the text holds
// before the cited place. The document writes one U+FFFD per maximal
// subpart of an ill-formed sequence, as citations counts and as TextDecoder
// decodes.
func TestCitationIndexesAnswerText(t *testing.T) {
	tests := []struct {
		name   string
		before string // the text before the cited place, which is "B…"
		after  string
	}{
		{"truncated 3-byte sequence", "A\xe2\x82 ", "B"},
		{"truncated 4-byte sequence", "\xf0\x9f ", "B"},
		{"truncated 4-byte sequence of 3 bytes", "x\xf0\x9f\x98", "B c"},
		{"bad bytes", "\xff\xfe\x80 ", "B"},
		{"WTF-8 lone high surrogate", "\xed\xa0\xbd ", "B"},
		{"WTF-8 lone low surrogate", "\xed\xb8\x80", "B"},
		{"overlong", "\xc0\xaf\xe0\x80\xaf ", "B"},
		{"above U+10FFFF", "\xf4\x90\x80\x80", "B"},
		{"mixed with astral characters", "é\xe2\x82\xe2\x82 😀\xf0\x9f", "B 🫁"},
		{"invalid after the citation too", "😀 ", "B\xe2\x82"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := tt.before + tt.after
			var esc strings.Builder
			for i := 0; i < len(text); i++ {
				if c := text[i]; c == '"' || c == '\\' {
					esc.WriteByte('\\')
				}
				esc.WriteByte(text[i])
			}
			in := `data: {"task":{"id":"t","status":{"state":"TASK_STATE_WORKING"}}}` + "\n\n" +
				`data: {"artifactUpdate":{"taskId":"t","lastChunk":true,"artifact":{"artifactId":"a","parts":[` +
				`{"text":"` + esc.String() + `","metadata":{"citations":[{"data_part_id":"g","offset":` + strconv.Itoa(len(tt.before)) + `,"locator":"/x"}]}},` +
				`{"data":{"x":"y"},"metadata":{"dataPartId":"g"}}]}}}` + "\n\n" +
				`data: {"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_COMPLETED"}}}` + "\n\n"
			res, err := reconstruct.Read(strings.NewReader(in), &reconstruct.Options{Citations: citations.Options{Unit: citations.Bytes}})
			require.NoError(t, err)
			require.Equal(t, text, string(res.Answer.Text()), "the Result keeps the bytes")
			for _, indent := range []bool{false, true} {
				var doc struct {
					Answer struct {
						Text      string
						Citations []struct {
							ByteOffset int `json:"byteOffset"`
							RuneIndex  int `json:"runeIndex"`
							UTF16Index int `json:"utf16Index"`
							Error      *string
						}
					}
				}
				require.NoError(t, json.Unmarshal(Append(nil, res, nil, &Options{Indent: indent}), &doc))
				assert.Equal(t, whatwg([]byte(text)), doc.Answer.Text, "answer.text is the text as TextDecoder decodes it")
				require.Len(t, doc.Answer.Citations, 1)
				c := doc.Answer.Citations[0]
				require.Nil(t, c.Error)
				assert.Equal(t, len(tt.before), c.ByteOffset)
				units := utf16.Encode([]rune(doc.Answer.Text))
				require.LessOrEqual(t, c.UTF16Index, len(units))
				assert.Equal(t, whatwg([]byte(tt.before)), string(utf16.Decode(units[:c.UTF16Index])), "utf16Index")
				assert.Equal(t, whatwg([]byte(tt.after)), string(utf16.Decode(units[c.UTF16Index:])), "utf16Index")
				runes := []rune(doc.Answer.Text)
				require.LessOrEqual(t, c.RuneIndex, len(runes))
				assert.Equal(t, "B", string(runes[c.RuneIndex]), "runeIndex")
			}
		})
	}
}

// Ill-formed UTF-8 is written as one \ufffd per maximal subpart, where
// encoding/json writes one per byte; the rest is as encoding/json writes it.
func TestAppendStringInvalidUTF8(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"truncated 3-byte sequence", "A\xe2\x82 B", `"A\ufffd B"`},
		{"truncated 4-byte sequence at the end", "a\xf0\x9f\x98", `"a\ufffd"`},
		{"two truncated sequences", "\xe2\x82\xe2\x82", `"\ufffd\ufffd"`},
		{"bad leads and stray continuations", "\xc0\xc1\xf5\xff\x80\xbf", `"\ufffd\ufffd\ufffd\ufffd\ufffd\ufffd"`},
		{"overlong", "\xe0\x80\xaf", `"\ufffd\ufffd\ufffd"`},
		{"WTF-8 surrogates", "\xed\xa0\xbd\xed\xb8\x80", `"\ufffd\ufffd\ufffd\ufffd\ufffd\ufffd"`},
		{"above U+10FFFF", "\xf4\x90\x80\x80", `"\ufffd\ufffd\ufffd\ufffd"`},
		{"truncated then an escape", "\xe2\x82\"<", `"\ufffd\"<"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(AppendString(nil, []byte(tt.in))))
			var got string
			require.NoError(t, json.Unmarshal([]byte(tt.want), &got))
			assert.Equal(t, whatwg([]byte(tt.in)), got, "what TextDecoder makes of the bytes")
		})
	}
}
