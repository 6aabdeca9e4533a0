// Package fuzz holds the cross-package fuzz targets of a2astream and the
// plain reference implementations they are checked against. It has no API:
// everything is in its tests.
//
// The references are written for clarity, not speed, and share no code with
// the library:
//
//   - whatwgParse, a line-by-line transcription of the WHATWG HTML
//     standard's "interpreting an event stream" algorithm, against which the
//     Lexer (push, random chunks) and the Reader (pull, random-sized reads)
//     are checked frame by frame, with the verdict for a stream cut at its end;
//   - naiveReduce, a reducer that rebuilds artifacts by string concatenation
//     per artifact id, against which reconstruct's Result is checked on
//     generated A2A event sequences;
//   - joinSurrogates and whatwgUnits, a surrogate joiner and a WHATWG UTF-8
//     decoder count, for utf8buf and citations;
//   - encoding/json, for JSON Pointers (citations) and for the run's JSON
//     document (reconstruct/resultjson, what the CLI's --json prints and the
//     WebAssembly module's a2a_result returns).
//
// go test ./fuzz/ runs every target on its seed corpus (unit-test tables,
// generated streams and the internal/samples/*.sse recordings); fuzz/run.sh fuzzes
// every target of the module for a bounded time.
package fuzz
