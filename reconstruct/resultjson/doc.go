// Package resultjson writes a run's [reconstruct.Result] as the JSON
// document that `a2astream --json` prints, without encoding/json, so that
// the WebAssembly module (which must not link encoding/json or fmt) and the
// command-line tool produce the same bytes. It is the last step of the
// pipeline, on top of package reconstruct, for any host that wants a run as
// that document: the command-line tool, the WebAssembly module, a service
// that logs or forwards runs.
//
// The document's members, in order:
//
//	state, taskId, contextId, answer, thinking, artifacts, statusMessage,
//	message, usage, lastEventId, diagnostics, error
//
// Artifacts carry artifactId, name, description, text, parts, metadata,
// extensions, thinking, sealed, citations (number, id, offset, byteOffset,
// runeIndex, utf16Index, locator, target, targetKind, error) and
// citationDiagnostics. Every offset is 0-based; utf16Index indexes a
// JavaScript string directly.
//
// The text is byte for byte what encoding/json's Encoder writes for the
// same document with SetEscapeHTML(false) (and SetIndent("", "  ") when
// indented), followed by a newline, except for ill-formed UTF-8: strings
// escape '"', '\\' and control characters ('\b', '\f', '\n', '\r', '\t', the
// others as \u00XX), replace ill-formed UTF-8 with one \ufffd per maximal
// subpart (encoding/json writes one per byte; this is the WHATWG rule that
// JavaScript's TextDecoder and package citations follow, so that citation
// offsets index the text) and escape U+2028 and U+2029; raw JSON members
// (metadata, data, details, targets) are compacted and re-indented;
// numbers use encoding/json's float format. A text target is a JSON string
// whose '<', '>' and '&' are escaped as encoding/json.Marshal does.
//
// The "error" member names the kind of error in its "type" member, by one
// table that [AppendError] documents and writes on its own (the tool's
// --events lines use it, and write their messages and parts with
// [reconstruct.AppendMessageJSON] and [reconstruct.AppendPartsJSON]);
// [Options].ErrorType names a host's own errors.
//
// Append builds the document in memory and allocates only what it needs;
// it is not on a hot path (once per run). [Write] writes the same bytes to
// an io.Writer in pieces of about 64 KiB as it makes them, so that its
// memory does not grow with the run: `a2astream --json` uses it, as a run
// of several hundred MiB would otherwise be held twice.
//
// Package reconstruct writes the document (reconstruct.AppendJSON,
// reconstruct.WriteJSON), so that json.Marshal of a reconstruct.Result or
// Artifact gives it too, and reads it back (json.Unmarshal into a
// reconstruct.Result); this package is the entry point that hosts call.
package resultjson
