package main

// This file is structured as: the record layout, the session that turns a
// stream's updates into records, then the little-endian writers. It has no
// build constraint so that its tests run on the host.

import (
	"errors"
	"math"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/resultjson"
)

// The record kinds. Every record starts with its kind byte; integers are
// little-endian, u32 unless said otherwise; a string is a u32 byte length
// and the UTF-8 bytes.
//
//	recText     u32 artifact, u32 seq, string text   new text to append
//	recReplaced u32 artifact, u32 seq, string text   text that replaces it
//	recSealed   u32 artifact, u32 seq                a lastChunk closed it
//	recState    u32 seq, u8 state, string stateName, u8 hasMessage,
//	            [string messageId, string role, string text]
//	recDone     u32 seq, u8 hasError                  the run ended
//	recArtifact u32 artifact, u8 flags (1 thinking, 2 sealed),
//	            string id, string name
//
// A recArtifact describes artifact number n (0-based, in the order the
// run first saw them) before the first record that names it, and again
// whenever its flags change.
const (
	recText     = 1
	recReplaced = 2
	recSealed   = 3
	recState    = 4
	recDone     = 5
	recArtifact = 16
)

// Artifact flags of recArtifact.
const (
	flagThinking = 1 << iota
	flagSealed
)

// errEnded is the error of a feed after the input ended.
var errEnded = errors.New("a2astream: the input has already ended")

// session is one stream handle: the Stream and what the host was told of
// its artifacts.
type session struct {
	s *reconstruct.Stream
	// arts are the artifacts announced, by number; flags are the flags
	// last announced for each.
	arts  []*reconstruct.Artifact
	flags []uint8
	// last caches the artifact of the previous record and its number.
	last    *reconstruct.Artifact
	lastNum int
	ended   bool
}

func newSession(opts *reconstruct.Options) *session {
	return &session{s: reconstruct.NewStream(opts)}
}

// options maps the ABI's parameters onto reconstruct.Options.
func options(flags, unit, maxEvent, maxArtifact int32) *reconstruct.Options {
	o := &reconstruct.Options{
		Strict:          flags&1 != 0,
		MaxEventSize:    int(max(maxEvent, 0)),
		MaxArtifactSize: int(max(maxArtifact, 0)),
	}
	switch unit {
	case 1:
		o.Citations.Unit = citations.Bytes
	case 2:
		o.Citations.Unit = citations.UTF16
	default:
		o.Citations.Unit = citations.CodePoints
	}
	return o
}

// feed writes p and appends the records of the updates it caused to dst.
func (ss *session) feed(dst, p []byte) ([]byte, error) {
	if ss.ended {
		return dst, errEnded
	}
	ss.s.Write(p)
	return ss.drain(dst), nil
}

// end closes the input (with cause, when not nil) and appends the last
// records, ending with recDone.
func (ss *session) end(dst []byte, cause error) ([]byte, error) {
	if ss.ended {
		return dst, errEnded
	}
	ss.ended = true
	if cause != nil {
		ss.s.CloseWithError(cause)
	} else {
		ss.s.Close()
	}
	return ss.drain(dst), nil
}

// resume prepares the session for the rest of the run on a new connection.
func (ss *session) resume(dst []byte) ([]byte, error) {
	if ss.ended {
		return dst, errEnded
	}
	if err := ss.s.Resume(); err != nil {
		return dst, err
	}
	return ss.drain(dst), nil
}

// status appends the task id and the last event id, as two strings, for
// a resubscription, and reports whether the run has ended (a terminal or
// interrupted state, a direct message, an error): no resubscription then.
func (ss *session) status(dst []byte) ([]byte, bool) {
	dst = appendString(dst, ss.s.TaskID())
	dst = appendBytes(dst, ss.s.LastEventID())
	return dst, ss.s.Done()
}

// result appends the run's JSON document.
func (ss *session) result(dst []byte, indent bool) []byte {
	res := ss.s.Result()
	return resultjson.Append(dst, res, res.Err, &resultjson.Options{Indent: indent})
}

func (ss *session) drain(dst []byte) []byte {
	for ss.s.Next() {
		dst = ss.record(dst, ss.s.Update())
	}
	return dst
}

// record appends the records of one update.
func (ss *session) record(dst []byte, u *reconstruct.Update) []byte {
	seq := u32(u.Seq)
	switch u.Kind {
	case reconstruct.UpdateText, reconstruct.UpdateReplaced:
		var n int
		dst, n = ss.artifact(dst, u.Artifact)
		kind := byte(recText)
		if u.Kind == reconstruct.UpdateReplaced {
			kind = recReplaced
		}
		dst = append(dst, kind)
		dst = appendU32(dst, uint32(n))
		dst = appendU32(dst, seq)
		dst = appendBytes(dst, u.Text)
	case reconstruct.UpdateSealed:
		var n int
		dst, n = ss.artifact(dst, u.Artifact)
		dst = append(dst, recSealed)
		dst = appendU32(dst, uint32(n))
		dst = appendU32(dst, seq)
	case reconstruct.UpdateState:
		dst = append(dst, recState)
		dst = appendU32(dst, seq)
		dst = append(dst, byte(u.State))
		dst = appendString(dst, u.State.String())
		if m := u.Message; m != nil {
			dst = append(dst, 1)
			dst = appendBytes(dst, m.MessageID)
			dst = appendString(dst, m.Role.String())
			dst = appendBytes(dst, reconstruct.MessageText(m))
		} else {
			dst = append(dst, 0)
		}
	case reconstruct.UpdateDone:
		// Artifacts the run changed without an update (a task snapshot)
		// are announced with their final flags.
		if u.Result != nil {
			for _, a := range u.Result.Artifacts {
				dst, _ = ss.artifact(dst, a)
			}
		}
		dst = append(dst, recDone)
		dst = appendU32(dst, seq)
		if u.Err != nil {
			dst = append(dst, 1)
		} else {
			dst = append(dst, 0)
		}
	}
	return dst
}

// artifact returns the number of a, announcing it first when it is new or
// its flags changed.
func (ss *session) artifact(dst []byte, a *reconstruct.Artifact) ([]byte, int) {
	var f uint8
	if a.Thinking {
		f |= flagThinking
	}
	if a.Sealed {
		f |= flagSealed
	}
	n := -1
	if a == ss.last {
		n = ss.lastNum
	} else {
		for i, b := range ss.arts {
			if b == a {
				n = i
				break
			}
		}
	}
	if n < 0 {
		n = len(ss.arts)
		ss.arts = append(ss.arts, a)
		ss.flags = append(ss.flags, f)
		dst = appendArtifact(dst, n, f, a)
	} else if ss.flags[n] != f {
		ss.flags[n] = f
		dst = appendArtifact(dst, n, f, a)
	}
	ss.last, ss.lastNum = a, n
	return dst, n
}

func appendArtifact(dst []byte, n int, f uint8, a *reconstruct.Artifact) []byte {
	dst = append(dst, recArtifact)
	dst = appendU32(dst, uint32(n))
	dst = append(dst, f)
	dst = appendBytes(dst, a.ArtifactID)
	return appendBytes(dst, a.Name)
}

func u32(n int64) uint32 {
	if n < 0 {
		return 0
	}
	if n > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(n)
}

func appendU32(dst []byte, v uint32) []byte {
	return append(dst, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}

func appendString(dst []byte, s string) []byte {
	dst = appendU32(dst, uint32(len(s)))
	return append(dst, s...)
}

func appendBytes(dst []byte, b []byte) []byte {
	dst = appendU32(dst, uint32(len(b)))
	return append(dst, b...)
}

// checkResponse appends the JSON document of the error of a streaming
// call's response that is not an event stream (a status outside 2xx, or a
// JSON body), as reconstruct.ResponseError classifies it: the server's
// error document, or an HTTP error. The document has the shape of a
// result whose run never started.
func checkResponse(dst []byte, status int, contentType string, body []byte) []byte {
	return resultjson.Append(dst, nil, reconstruct.ResponseError(status, contentType, body), nil)
}
