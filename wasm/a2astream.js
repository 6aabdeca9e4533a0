// a2astream.js: the package's entry for browsers and bundlers. Each job has
// its file, so that a bundle holds only what it imports (every file is an
// ES module with no side effects):
//
//	errors.js   the error classes
//	loading.js  compiling a2astream.wasm from a URL, a Response or bytes
//	engine.js   A2AStream (load) and the Decoder of one stream
//	records.js  the module's records read into updates
//	client.js   the Client: the agent's calls, resubscriptions
//	http.js     URLs, the resubscription rule, redacted messages
//	view.js     the View: the updates folded into a snapshot a UI renders
//
// The Node entry (a2astream.node.js) is this one with a file reader for
// load().

export {
  A2AStreamError, TruncatedError, ServerError, HTTPError, NotEventStreamError, StreamSyntaxError, LimitError,
  RuleError, OtherError, InstanceDeadError, UsageError, NotWasmError, cleanMessage, errorFromDoc,
} from './errors.js';
export { _setFileReader } from './loading.js';
export { A2AStream, Decoder, load } from './engine.js';
export { Client } from './client.js';
export { emptyView, foldView, views } from './view.js';
