// errors.js: the errors of a2astream. A run that did not end normally
// carries an A2AStreamError (a class per type of the result's "error"
// member); InstanceDeadError, UsageError and NotWasmError are thrown.
// No other module of the package is imported: a bundle that names only
// errors holds only this file.

// goPrefix matches the Go package names that start the messages of Go
// errors and of the errors they wrap ("reconstruct: offset 12: parser: …").
const goPrefix = /(^|: )(?:a2astream|parser|sse|reconstruct|citations|httpstream|resultjson|jsonx|utf8buf): /g;

/** cleanMessage returns a Go error's message without its package prefixes. */
export function cleanMessage(goMessage) {
  const s = String(goMessage).replace(goPrefix, '$1');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * A2AStreamError is why a run did not end normally; its fields are those
 * of the Go error (the result's "error" member), its message the Go
 * error's without package prefixes, which goMessage keeps.
 */
export class A2AStreamError extends Error {
  constructor(doc) {
    super(cleanMessage(doc.message));
    this.name = 'A2AStreamError';
    /** "truncated" | "api" | "http" | "notEventStream" | "syntax" | "limit" | "rule" | "other" */
    this.type = doc.type;
    this.goMessage = doc.message;
    for (const k of ['binding', 'code', 'status', 'reason', 'domain', 'details', 'httpStatus', 'contentType', 'head',
      'taskId', 'lastEventId', 'state', 'insideEvent', 'dropped', 'offset', 'seq', 'id', 'jsonOffset', 'jsonPointer', 'cause']) {
      if (doc[k] !== undefined) this[k] = doc[k];
    }
  }
}
/** TruncatedError: the stream ended before the run did; resubscribe with taskId and lastEventId. */
export class TruncatedError extends A2AStreamError { constructor(d) { super(d); this.name = 'TruncatedError'; } }
/** ServerError: the server's error document (REST or JSON-RPC), before or inside the stream. */
export class ServerError extends A2AStreamError { constructor(d) { super(d); this.name = 'ServerError'; } }
/** HTTPError: a response that is neither an event stream nor an error document. */
export class HTTPError extends A2AStreamError { constructor(d) { super(d); this.name = 'HTTPError'; } }
/** NotEventStreamError: a 2xx response, or input, that is not an event stream (an HTML page, a JSON body, binary). */
export class NotEventStreamError extends A2AStreamError { constructor(d) { super(d); this.name = 'NotEventStreamError'; } }
/** StreamSyntaxError: bytes that do not lex or decode as A2A events (Go's *sse.SyntaxError or *parser.DecodeError). */
export class StreamSyntaxError extends A2AStreamError { constructor(d) { super(d); this.name = 'StreamSyntaxError'; } }
/** LimitError: a limit was exceeded (MaxArtifactSize, MaxArtifacts...). */
export class LimitError extends A2AStreamError { constructor(d) { super(d); this.name = 'LimitError'; } }
/** RuleError: a protocol rule was broken under the strict option. */
export class RuleError extends A2AStreamError { constructor(d) { super(d); this.name = 'RuleError'; } }
/** OtherError: an error of the "other" type. */
export class OtherError extends A2AStreamError { constructor(d) { super(d); this.name = 'OtherError'; } }

const errorClasses = { truncated: TruncatedError, api: ServerError, http: HTTPError, notEventStream: NotEventStreamError, syntax: StreamSyntaxError, limit: LimitError, rule: RuleError, other: OtherError };

/** errorFromDoc returns the typed error of a result's "error" member. */
export function errorFromDoc(doc) {
  if (!doc) return null;
  return new (errorClasses[doc.type] ?? A2AStreamError)(doc);
}

/** InstanceDeadError: the module panicked or trapped; call A2AStream.restart() and start over. */
export class InstanceDeadError extends Error {
  constructor(message, options) { super(message, options); this.name = 'InstanceDeadError'; }
}

/** UsageError: a call the stream refused, such as feed after end. */
export class UsageError extends Error {
  constructor(message) { super(message); this.name = 'UsageError'; }
}

/** NotWasmError: what load() was given or fetched is not a WebAssembly module (an HTML page, an error). */
export class NotWasmError extends Error {
  constructor(message, url) { super(message); this.name = 'NotWasmError'; this.url = url; }
}

