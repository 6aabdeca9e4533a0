package reconstruct

// This file tells input that is not an event stream at all (an HTML page,
// a binary file, a JSON document piped from curl) from a stream that was
// cut, from the first bytes the Stream saw.

import (
	"io"

	"github.com/a2astream/a2astream/parser"
)

// sniffer holds what a Stream keeps of its input's start: its first
// headSize bytes, and the input while it may be a JSON document (its first
// byte that is not white space is '{'), up to MaxErrorBody bytes.
type sniffer struct {
	head  [headSize]byte
	nhead int
	// decided is set once the first byte that is not white space was
	// seen; doc holds the input from it while it may be a JSON document
	// within MaxErrorBody (docOn).
	decided bool
	docOn   bool
	doc     []byte
}

// watching reports whether the sniffer still wants to see the input: its
// start, and past it the white space before the first other byte (which
// decides whether the input may be a JSON document) and the document.
func (sn *sniffer) watching() bool { return sn.nhead < headSize || !sn.decided || sn.docOn }

// observe takes the next bytes of the input.
func (sn *sniffer) observe(p []byte) {
	if sn.nhead < headSize {
		sn.nhead += copy(sn.head[sn.nhead:], p)
	}
	if !sn.decided {
		for i, c := range p {
			if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
				continue
			}
			sn.decided = true
			sn.docOn = c == '{'
			p = p[i:]
			break
		}
	}
	if sn.docOn {
		if len(sn.doc)+len(p) > MaxErrorBody {
			sn.docOn, sn.doc = false, nil
			return
		}
		sn.doc = append(sn.doc, p...)
	}
}

// verdict returns the error for input that ended without a frame: a
// *NotEventStreamError when the input is not an event stream (holding the
// server's *parser.APIError when it was a JSON error document), nil when it
// may be one that was cut (nothing, or blank lines and comments only, or a
// first field line that is an SSE field).
func (sn *sniffer) verdict() error {
	h := sn.head[:sn.nhead]
	if sn.docOn {
		if api, err := parser.DecodeAPIError(sn.doc); err == nil {
			return &NotEventStreamError{Head: head(h), Err: api}
		}
	}
	if looksLikeSSE(h) {
		return nil
	}
	return &NotEventStreamError{Head: head(h)}
}

// looksLikeSSE reports whether b, the start of the input, may be an event
// stream: it holds only blank lines and comments, or its first other line
// is a data, id, event or retry field, or b ends before that can be told
// (inside a comment, or inside a line that starts as such a field's name,
// as a stream cut in its first bytes does).
func looksLikeSSE(b []byte) bool {
	if len(b) >= 3 && string(b[:3]) == "\xEF\xBB\xBF" {
		b = b[3:]
	}
	for len(b) > 0 {
		end := len(b)
		for i, c := range b {
			if c == '\n' || c == '\r' {
				end = i
				break
			}
		}
		line := b[:end]
		switch {
		case len(line) == 0:
			b = b[1:]
			continue
		case line[0] == ':':
			if end == len(b) {
				return true // a comment running past what was kept
			}
			b = b[end+1:]
			continue
		}
		name, colon := line, false
		for i, c := range line {
			if c == ':' {
				name, colon = line[:i], true
				break
			}
		}
		for _, f := range [...]string{"data", "id", "event", "retry"} {
			if string(name) == f {
				return true
			}
			if !colon && end == len(b) && len(name) < len(f) && string(name) == f[:len(name)] {
				return true // the name may go on
			}
		}
		return false
	}
	return true
}

// sniffReader is the reader readFrom fills the lexer from while the
// sniffer watches: it shows the sniffer what r yields.
type sniffReader struct {
	sn *sniffer
	r  io.Reader
}

func (t *sniffReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if 0 < n && n <= len(p) {
		t.sn.observe(p[:n])
	}
	return n, err
}
