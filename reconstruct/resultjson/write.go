package resultjson

import (
	"io"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
)

// Options configures Append and Write. The zero value writes one compact
// line. It is reconstruct.JSONOptions, which package reconstruct's writer
// of the same document takes.
type Options = reconstruct.JSONOptions

// Append appends the JSON document of the run res, which ended with err
// (nil when it reached a terminal or interrupted state; usually
// res.Err), followed by a newline, to dst and returns the extended slice.
// res may be nil when the run never started: the document then holds only
// the error. A result holding a number JSON cannot represent (a NaN or
// infinite credit count) gives a document holding only an "other" error
// saying so. It is [reconstruct.AppendJSON].
func Append(dst []byte, res *reconstruct.Result, err error, opts *Options) []byte {
	return reconstruct.AppendJSON(dst, res, err, opts)
}

// Write writes the document that Append would append to out, in pieces
// of about 64 KiB as it makes them: its memory does not grow with the
// size of the result (a run's texts, data and citations), so that a large
// run is not held twice, once as a Result and once as its document. It
// returns the first error of out.Write, after which it writes nothing
// more. It is [reconstruct.WriteJSON].
func Write(out io.Writer, res *reconstruct.Result, err error, opts *Options) error {
	return reconstruct.WriteJSON(out, res, err, opts)
}

// AppendError appends err as the document's "error" member, one compact
// JSON object (Options.Indent does not apply), and returns the extended
// slice; it appends null when err is nil. `a2astream --events` writes the
// error of its error lines with it, so that every output names an error
// alike. See [reconstruct.AppendErrorJSON] for its members.
func AppendError(dst []byte, err error, opts *Options) []byte {
	return reconstruct.AppendErrorJSON(dst, err, opts)
}

// AppendString appends s as a JSON string escaped as the document's
// strings are (ill-formed UTF-8 as one \ufffd per maximal subpart), and
// returns the extended slice. It is [reconstruct.AppendJSONString].
func AppendString(dst []byte, s []byte) []byte {
	return reconstruct.AppendJSONString(dst, s)
}

// StateName returns the name the document gives state s: its
// [parser.TaskState.String], or "" for parser.TaskStateUnspecified (no
// status seen).
func StateName(s parser.TaskState) string {
	if s == parser.TaskStateUnspecified {
		return ""
	}
	return s.String()
}
