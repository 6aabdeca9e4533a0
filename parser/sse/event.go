package sse

// This file is the event's state: the pending event (the lines since the
// last blank line), the last event ID with its copy-out (it outlives events
// and moves of the input buffer), and the field classifier.

import (
	"bytes"
	"math"
)

// event is the pending event: the field lines received since the last
// blank line. Its indices point into the input buffer and move with it
// (shift). Invariants, while active:
//
//	in.start ≤ start, and start is the first byte of its first line that
//	is not a comment;
//	nData = 1: its data is buf[dataFrom:dataTo]; nData ≥ 2: data, the
//	lines joined with LF;
//	buf[typeFrom:typeTo] is its last event line's value (empty: none);
//	idSet: buf[idFrom:idTo] is its last id line's value that holds no NUL.
//
// When not active, nData is 0, typeFrom = typeTo, idSet and retry.ok are
// false, and the other indices mean nothing.
type event struct {
	active   bool
	start    int
	nData    int
	dataFrom int
	dataTo   int
	data     []byte
	typeFrom int
	typeTo   int
	idFrom   int
	idTo     int
	idSet    bool
	retry    retry // its most recent valid retry field
}

// clear ends the event. Its indices are left: they mean nothing until a
// field line starts the next one.
func (ev *event) clear() {
	ev.active = false
	ev.nData = 0
	ev.typeFrom, ev.typeTo = 0, 0
	ev.idSet = false
	ev.retry = retry{}
}

// shift subtracts d from the event's indices after buf[:d] was dropped.
func (ev *event) shift(d int) {
	ev.start -= d
	ev.dataFrom -= d
	ev.dataTo -= d
	ev.typeFrom -= d
	ev.typeTo -= d
	ev.idFrom -= d
	ev.idTo -= d
}

// addData appends the data line value b[v:e] to the data buffer. One line
// stays a view into b; the second one starts the joined copy.
func (ev *event) addData(b []byte, v, e int) {
	if ev.nData == 0 {
		ev.dataFrom, ev.dataTo, ev.nData = v, e, 1
		return
	}
	if ev.nData == 1 {
		ev.data = append(ev.data[:0], b[ev.dataFrom:ev.dataTo]...)
	}
	ev.data = append(ev.data, '\n')
	ev.data = append(ev.data, b[v:e]...)
	ev.nData++
}

// dataView returns the event's data buffer, with at least one data line.
func (ev *event) dataView(b []byte) []byte {
	if ev.nData == 1 {
		return b[ev.dataFrom:ev.dataTo:ev.dataTo]
	}
	return ev.data[:len(ev.data):len(ev.data)]
}

// idField applies an id field line, whose value is b[v:e] (clean: known
// to hold no NUL). This is the id rule, in one place: a value that
// contains NUL is ignored; any other, empty included, becomes the event's
// id, and when a blank line ends the event (dispatched or not: dispatch)
// the stream's last event ID (lastID.set), which persists across events
// until a later event's id field changes it. An event cut or skipped for
// its size changes nothing.
func (ev *event) idField(b []byte, v, e int, clean bool) {
	if !clean {
		for _, c := range b[v:e] {
			if c == 0 {
				return
			}
		}
	}
	ev.idFrom, ev.idTo, ev.idSet = v, e, true
}

// lastID is the stream's last event ID, with its copy-out: it is
// buf[from:to] while inBuf (no copy per event), and own otherwise. Only the
// dispatch of an event with an id changes it (set); before the input
// buffer's bytes move or leave the Lexer (reserve, release), copyOut copies
// it into own. It also says where the last Frame's ID lives (shown), so
// that copyOut keeps that ID valid: it points the Frame's ID at a copy that
// nothing overwrites until the next frame. Invariants:
//
//	inBuf: from ≤ to ≤ start (the id line belongs to a dispatched event);
//	shown is showBuf only while the Frame's ID views buf (then, when
//	same, it is buf[from:to] with inBuf); showOwn while it views own,
//	which copyOut rewrites only after moving it to kept; showKept while
//	it views kept, which only copyOut writes, and only when shown is not
//	showKept.
type lastID struct {
	from, to int
	inBuf    bool
	own      []byte
	shown    idHome
	same     bool // the Frame's ID is the last event ID
	kept     []byte
}

// idHome is where the last Frame's ID lives.
type idHome uint8

const (
	showNone idHome = iota
	showBuf
	showOwn
	showKept
)

// set makes buf[from:to] the last event ID.
func (l *lastID) set(from, to int) {
	l.from, l.to, l.inBuf, l.same = from, to, true, false
}

// get returns the last event ID; a view of buf while inBuf.
func (l *lastID) get(buf []byte) []byte {
	if l.inBuf {
		return buf[l.from:l.to:l.to]
	}
	return l.own
}

// show returns the last event ID as the ID of the frame being built.
func (l *lastID) show(buf []byte) []byte {
	l.shown, l.same = showOwn, true
	if l.inBuf {
		l.shown = showBuf
	}
	return l.get(buf)
}

// copyOut copies what of the last event ID and of f's ID (the last Frame)
// still views buf into the Lexer's own memory, and points f.ID at its
// copy, before buf's bytes move or leave the Lexer.
func (l *lastID) copyOut(buf []byte, f *Frame) {
	if l.shown == showBuf && !l.same || l.shown == showOwn && l.inBuf {
		// f's ID is not the last event ID, or own is about to change.
		l.kept = append(l.kept[:0], f.ID...)
		f.ID, l.shown = l.kept[:len(l.kept):len(l.kept)], showKept
	}
	if l.inBuf {
		l.own = append(l.own[:0], buf[l.from:l.to]...)
		l.inBuf = false
		if l.shown == showBuf {
			f.ID, l.shown = l.own[:len(l.own):len(l.own)], showOwn
		}
	}
}

// reset empties l for a new stream, keeping its memory unless it grew past
// keepBufferSize.
func (l *lastID) reset() { *l = lastID{own: keep(l.own), kept: keep(l.kept)} }

// fieldKind is the field a line sets.
type fieldKind uint8

const (
	fieldUnknown fieldKind = iota // not classified yet (knownField)
	fieldOther                    // a field the standard ignores
	fieldData
	fieldID
	fieldEvent
	fieldRetry
)

// fieldOf classifies a field line (neither blank nor a comment): it
// returns the field the line sets, named by what comes before its first
// colon, and the index in line just past that colon, where the value
// starts (see valueAt). A line without a colon is a field name with an
// empty value, at len(line).
func fieldOf(line []byte) (fieldKind, int) {
	name, v := line, len(line)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, v = line[:i], i+1
	}
	switch string(name) {
	case "data":
		return fieldData, v
	case "id":
		return fieldID, v
	case "event":
		return fieldEvent, v
	case "retry":
		return fieldRetry, v
	}
	return fieldOther, v
}

// dataPrefix and idPrefix are "data:" and "id:" as the low bytes of a
// little-endian word.
const (
	dataPrefix = 'd' | 'a'<<8 | 't'<<16 | 'a'<<24 | ':'<<32
	idPrefix   = 'i' | 'd'<<8 | ':'<<16
)

// knownField is fieldOf's cheap case, small enough to be inlined: it
// recognises "data:" and "id:", which every A2A event has, by the first
// word w of a line (its first 8 bytes, which may run past its end), and
// returns the index in the line where the value starts, after the one
// space that may follow the colon; fieldUnknown for any other line. The
// bytes compared hold no line end, so they are the line's.
func knownField(w uint64) (fieldKind, int) {
	if w&(1<<40-1) == dataPrefix {
		return fieldData, 5 + spaceAt(w, 5)
	}
	if w&(1<<24-1) == idPrefix {
		return fieldID, 3 + spaceAt(w, 3)
	}
	return fieldUnknown, 0
}

// spaceAt returns 1 if byte i of w is a space, 0 otherwise.
func spaceAt(w uint64, i uint) int {
	if byte(w>>(8*i)) == ' ' {
		return 1
	}
	return 0
}

// valueAt returns the start of the field value that follows the colon
// before line[v]: v, or v+1 when line[v] is the one space that may follow
// the colon.
func valueAt(line []byte, v int) int {
	if v < len(line) && line[v] == ' ' {
		v++
	}
	return v
}

// parseRetry reads a retry value: one or more ASCII digits, base ten,
// saturating at math.MaxInt64.
func parseRetry(v []byte) (int64, bool) {
	if len(v) == 0 {
		return 0, false
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if n > (math.MaxInt64-d)/10 {
			n = math.MaxInt64
		} else {
			n = n*10 + d
		}
	}
	return n, true
}
