package fuzz

import (
	"bytes"
	"math"
	"math/big"
	"strings"
)

// This file transcribes the WHATWG HTML standard, section 9.2.6
// "Interpreting an event stream", step by step, on bytes. The quoted lines
// are the standard's; the NOTE lines are where the transcription follows
// the library's documented choices instead:
//
//   - the stream is not UTF-8 decoded: bytes pass through as they are (the
//     parser's package doc), so a BOM is matched as the bytes EF BB BF;
//   - a frame carries the retry of its own event block, and the stream's
//     reconnection time is only committed when a blank line ends the block
//     (Lexer.Retry), since a cut event must not change it;
//   - the end of the stream gives a verdict: cut (io.ErrUnexpectedEOF) when
//     it ends inside an event, with the offset where that event began.

// refFrame is one event the reference dispatched.
type refFrame struct {
	Offset   int64
	Event    string
	Data     string
	ID       string
	Retry    int64
	HasRetry bool
}

// refResult is what the reference makes of a whole stream.
type refResult struct {
	Frames []refFrame
	// Cut reports that the stream ended inside an event; CutOffset is where
	// that event began and CutSize the bytes dropped.
	Cut       bool
	CutOffset int64
	CutSize   int64
	// LastEventID is the last event ID string at the end.
	LastEventID string
	// Retry is the reconnection time at the end, and HasRetry whether one
	// was set.
	Retry    int64
	HasRetry bool
}

// whatwgParse interprets the whole stream in.
func whatwgParse(in []byte) refResult {
	var res refResult
	// "One leading U+FEFF BYTE ORDER MARK character must be ignored if
	// any are present."
	pos := 0
	if bytes.HasPrefix(in, []byte("\xEF\xBB\xBF")) {
		pos = 3
	}
	// "When a stream is parsed, a data buffer, an event type buffer, and a
	// last event ID buffer must be associated with it. They must be
	// initialized to the empty string."
	var dataBuf, eventTypeBuf, lastIDBuf []byte
	hasData := false // the data buffer is not the empty string
	lastIDString := ""
	// NOTE: per-block state the library reports: the retry of this block,
	// where the block's first non-comment line began.
	var blockRetry int64
	blockHasRetry := false
	blockStart := int64(-1)

	// "Lines must be processed, in the order they are received, as
	// follows:"
	for {
		lineStart := pos
		// "The stream must then be parsed by reading everything line by
		// line, with a U+000D CARRIAGE RETURN U+000A LINE FEED (CRLF)
		// character pair, a single U+000A LINE FEED (LF) character not
		// preceded by a U+000D CARRIAGE RETURN (CR) character, and a single
		// U+000D CARRIAGE RETURN (CR) character not followed by a U+000A
		// LINE FEED (LF) character being the ways in which a line can end."
		end := -1
		for i := pos; i < len(in); i++ {
			if in[i] == '\n' || in[i] == '\r' {
				end = i
				break
			}
		}
		if end < 0 {
			break // no complete line left
		}
		line := in[pos:end]
		pos = end + 1
		if in[end] == '\r' && pos < len(in) && in[pos] == '\n' {
			pos++
		}
		// NOTE: a CR that is the very last byte ends its line: nothing can
		// follow it any more.

		switch {
		// "If the line is empty (a blank line): Dispatch the event, as
		// defined below."
		case len(line) == 0:
			// "1. Set the last event ID string of the event source to the
			// value of the last event ID buffer. The buffer does not get
			// reset, so the last event ID string of the event source
			// remains set to this value until the next time it is set by
			// the server."
			lastIDString = string(lastIDBuf)
			// NOTE: the reconnection time is committed here.
			if blockHasRetry {
				res.Retry, res.HasRetry = blockRetry, true
			}
			// "2. If the data buffer is an empty string, set the data
			// buffer and the event type buffer to the empty string and
			// return."
			if !hasData {
				dataBuf, eventTypeBuf, hasData = nil, nil, false
				blockRetry, blockHasRetry, blockStart = 0, false, -1
				continue
			}
			// "3. If the data buffer's last character is a U+000A LINE
			// FEED (LF) character, then remove the last character from the
			// data buffer."
			data := dataBuf
			if len(data) > 0 && data[len(data)-1] == '\n' {
				data = data[:len(data)-1]
			}
			// "4. Let event be the result of creating an event using
			// MessageEvent ... initialized to "message", data initialized
			// to the value of the data buffer, lastEventId initialized to
			// the last event ID string of the event source."
			f := refFrame{Offset: blockStart, Event: "message", Data: string(data), ID: lastIDString}
			// "5. If the event type buffer has a value other than the empty
			// string, change the type of the newly created event to equal
			// the value of the event type buffer."
			if len(eventTypeBuf) > 0 {
				f.Event = string(eventTypeBuf)
			}
			f.Retry, f.HasRetry = blockRetry, blockHasRetry
			// "6. Set the data buffer and the event type buffer to the
			// empty string."
			dataBuf, eventTypeBuf, hasData = nil, nil, false
			blockRetry, blockHasRetry, blockStart = 0, false, -1
			// "7. Queue a task which, if the readyState attribute is set to
			// a value other than CLOSED, dispatches the newly created event
			// at the EventSource object."
			res.Frames = append(res.Frames, f)

		// "If the line starts with a U+003A COLON character (:) Ignore the
		// line."
		case line[0] == ':':

		// "If the line contains a U+003A COLON character (:) Collect the
		// characters on the line before the first U+003A COLON character
		// (:), and let field be that string. Collect the characters on the
		// line after the first U+003A COLON character (:), and let value be
		// that string. If value starts with a U+0020 SPACE character,
		// remove it from value. Process the field using the steps described
		// below, using field as the field name and value as the field
		// value."
		// "Otherwise, the string is not empty but does not contain a U+003A
		// COLON character (:) Process the field using the steps described
		// below, using the whole line as the field name, and the empty
		// string as the field value."
		default:
			if blockStart < 0 {
				blockStart = int64(lineStart)
			}
			field, value := line, []byte(nil)
			if i := bytes.IndexByte(line, ':'); i >= 0 {
				field, value = line[:i], line[i+1:]
				if len(value) > 0 && value[0] == ' ' {
					value = value[1:]
				}
			}
			// "The steps to process the field given a field name and a
			// field value depend on the field name, as given in the
			// following list. Field names must be compared literally, with
			// no case folding performed."
			switch string(field) {
			// "event: Set the event type buffer to field value."
			case "event":
				eventTypeBuf = append([]byte(nil), value...)
			// "data: Append the field value to the data buffer, then append
			// a single U+000A LINE FEED (LF) character to the data buffer."
			case "data":
				dataBuf = append(dataBuf, value...)
				dataBuf = append(dataBuf, '\n')
				hasData = true
			// "id: If the field value does not contain U+0000 NULL, then set
			// the last event ID buffer to the field value. Otherwise, ignore
			// the field."
			case "id":
				if bytes.IndexByte(value, 0) < 0 {
					lastIDBuf = append([]byte(nil), value...)
				}
			// "retry: If the field value consists of only ASCII digits, then
			// interpret the field value as an integer in base ten, and set
			// the event stream's reconnection time to that integer.
			// Otherwise, ignore the field."
			// NOTE: a value too large for an int64 saturates (Lexer.Retry).
			case "retry":
				if n, ok := asciiDigits(value); ok {
					blockRetry, blockHasRetry = n, true
				}
			// "Otherwise: The field is ignored."
			default:
			}
		}
	}
	res.LastEventID = lastIDString

	// "Once the end of the file is reached, any pending data must be
	// discarded. (If the file ends in the middle of an event, before the
	// final empty line, the incomplete event is not dispatched.)"
	// NOTE: the library reports that as a cut: the event began at its first
	// non-comment line, or, when only an unfinished line is left (the first
	// line of an event), where that line began. An unfinished comment line
	// outside an event is no cut: there is no pending event to discard.
	switch {
	case blockStart >= 0:
		res.Cut, res.CutOffset = true, blockStart
	case pos < len(in) && in[pos] != ':':
		// An unfinished line, a byte order mark cut short included.
		res.Cut, res.CutOffset = true, int64(pos)
	}
	if res.Cut {
		res.CutSize = int64(len(in)) - res.CutOffset
	}
	return res
}

// asciiDigits applies the WHATWG rule for the retry field to its value:
// "If the field value consists of only ASCII digits, then interpret the
// field value as an integer in base ten". It is written from the rule, not
// from the lexer: a set test for the digits and math/big for the integer.
// NOTE: an empty value counts as no digits (the library ignores "retry:"
// and "retry" alone, as browsers do), and an integer past math.MaxInt64
// saturates there, as the library documents; the rule sets no bound.
func asciiDigits(value []byte) (int64, bool) {
	s := string(value)
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, ok := new(big.Int).SetString(s, 10)
	switch {
	case !ok:
		return 0, false // not reached: s is only digits
	case !n.IsInt64():
		return math.MaxInt64, true
	}
	return n.Int64(), true
}
