// a2astream.js: the a2astream WebAssembly core for browsers and Node.
//
// This file is structured as: the errors, the loader (A2AStream), the
// Decoder that drives one stream handle and decodes the module's records,
// then the TransformStream and async-iterator adapters.
//
// The module (a2astream.wasm, Go built for wasip1 as a reactor) keeps one
// stream per handle. Bytes cross into its linear memory through one input
// buffer; updates come back as compact records (see wasm/records.go) that
// are decoded here with TextDecoder; the final result is the same JSON
// document `a2astream --json` prints, parsed once per run.

import { wasiImports, WasiExit } from './wasi.js';

const ENOSYS = 52;

// goPrefix matches the Go package names that start the messages of Go
// errors and of the errors they wrap ("reconstruct: offset 12: parser: …").
const goPrefix = /(^|: )(?:a2astream|parser|reconstruct|citations|httpstream|resultjson|jsonx|utf8buf): /g;

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

const ERR_HANDLE = -1, ERR_PANIC = -2, ERR_CALL = -3;
const REC_TEXT = 1, REC_REPLACED = 2, REC_SEALED = 3, REC_STATE = 4, REC_DONE = 5, REC_ARTIFACT = 16;
const UNITS = { codepoints: 0, bytes: 1, utf16: 2 };
const MAX_PIECE = 1 << 20;

// wasmMagic is how every WebAssembly module starts: "\0asm".
const wasmMagic = [0x00, 0x61, 0x73, 0x6d];

/** NotWasmError: what load() was given or fetched is not a WebAssembly module (an HTML page, an error). */
export class NotWasmError extends Error {
  constructor(message, url) { super(message); this.name = 'NotWasmError'; this.url = url; }
}

// readFileURL reads a file: URL. The Node entry (a2astream.node.js) sets it
// with node:fs; the browser entry never names a Node module, so that
// bundlers for the web find none.
let readFileURL = null;

/** _setFileReader is for a2astream.node.js: it gives load() a way to read file: URLs. */
export function _setFileReader(read) { readFileURL = read; }

async function compileBytes(bytes, where, contentType) {
  const b = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 4 || wasmMagic.some((m, i) => b[i] !== m)) {
    const head = new TextDecoder().decode(b.subarray(0, 16)).replace(/[^\x20-\x7e]/g, '.');
    const ct = contentType === undefined ? '' : ` (${contentType || 'no content type'})`;
    throw new NotWasmError(`${where}${ct} is not a WebAssembly module: it starts with "${head}"`, where);
  }
  return WebAssembly.compile(b);
}

async function compileResponse(resp, where = resp.url || 'the response') {
  if (!resp.ok) throw new NotWasmError(`${where} is not a WebAssembly module: HTTP ${resp.status}`, where);
  const ct = (resp.headers.get('content-type') || '').split(';')[0].trim().toLowerCase();
  if (WebAssembly.compileStreaming && ct === 'application/wasm') return WebAssembly.compileStreaming(resp);
  return compileBytes(await resp.arrayBuffer(), where, ct);
}

async function compileURL(url) {
  if (url.protocol === 'file:') {
    if (!readFileURL) throw new NotWasmError(`Cannot read ${url.href} here: in Node import 'a2astream' (its Node entry reads files), or give load() the bytes`, url.href);
    return compileBytes(await readFileURL(url), url.href);
  }
  return compileResponse(await fetch(url), url.href);
}

async function compile(source) {
  source = await source; // also a Promise of a Response: load(fetch(url))
  if (source instanceof WebAssembly.Module) return source;
  if (typeof Response !== 'undefined' && source instanceof Response) return compileResponse(source);
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return compileBytes(source, 'the bytes given to load()');
  if (source instanceof URL) return compileURL(source);
  if (typeof source === 'string') {
    // Relative to the page; in Node (no page) a path when not a URL.
    if (!globalThis.location && !URL.canParse?.(source) && readFileURL) return compileBytes(await readFileURL(source), source);
    return compileURL(new URL(source, globalThis.location?.href));
  }
  if (source !== undefined && source !== null) throw new TypeError(`load() takes a URL, a Response, bytes or a WebAssembly.Module, not ${typeof source}`);
  // The module beside this file: bundlers (webpack, Vite, Parcel, Rollup's
  // plugins) recognise the pattern and copy a2astream.wasm into the build.
  const url = new URL('./a2astream.wasm', import.meta.url);
  try {
    return await compileURL(url);
  } catch (e) {
    // Vite's dev server serves its pre-bundled copy of this file from
    // node_modules/.vite/deps/ without the .wasm beside it (and index.html
    // in its place); the package's own copy is served from the package.
    const own = url.href.replace(/\/\.vite\/deps[^/]*\/a2astream\.wasm$/, '/a2astream/a2astream.wasm');
    if (e instanceof NotWasmError && own !== url.href) return compileURL(new URL(own));
    throw e;
  }
}

/**
 * A2AStream is one instance of the module: one per page or worker (memory
 * never shrinks), a Decoder per stream.
 */
export class A2AStream {
  // exports is the live instance's exports, kept rather than read through
  // instance.exports, whose getter costs more than a feed's crossing into
  // the module.
  // inPtr and inCap locate the module's input buffer, which every decoder
  // of the instance shares: a2a_input moves it when it grows.
  #module; #exports = null; #generation = 0; #dead = null; #inPtr = 0; #inCap = 0;
  #registry = new FinalizationRegistry(({ generation, handle }) => {
    if (generation === this.#generation && !this.#dead) this.#exports.a2a_free(handle);
  });

  constructor(module) { this.#module = module; }

  /** load compiles and instantiates the module from a URL, a Response, bytes or a compiled module. */
  static async load(source) {
    const module = await compile(source);
    const bad = WebAssembly.Module.imports(module).filter((i) => i.module !== 'wasi_snapshot_preview1' || i.kind !== 'function');
    if (bad.length) throw new Error(`The module imports what no WASI shim gives: ${bad.map((i) => `${i.module}.${i.name}`).join(', ')}`);
    const s = new A2AStream(module);
    await s.restart();
    return s;
  }

  /** module is the compiled WebAssembly.Module, to share with workers. */
  get module() { return this.#module; }

  /** dead is the error that killed the instance (a panic or a trap), or null. */
  get dead() { return this.#dead; }

  /** restart replaces the instance by a new one; decoders of the old one are dead. */
  async restart() {
    let memory = null;
    const imports = wasiImports(() => memory);
    // A WASI function the shim lacks (the tests forbid any) fails with
    // ENOSYS rather than keeping the module from loading.
    for (const i of WebAssembly.Module.imports(this.#module)) imports.wasi_snapshot_preview1[i.name] ??= () => ENOSYS;
    const instance = await WebAssembly.instantiate(this.#module, imports);
    memory = instance.exports.memory;
    instance.exports._initialize();
    this.#exports = instance.exports;
    this.#inPtr = 0;
    this.#inCap = 0;
    this.#generation++;
    this.#dead = null;
  }

  /** decoder returns a Decoder for one stream. */
  decoder(options = {}) {
    if (this.#dead) throw this.#dead;
    const unit = UNITS[options.unit ?? 'codepoints'];
    if (unit === undefined) throw new TypeError(`Unknown unit ${options.unit}`);
    const h = this._call((ex) => ex.a2a_new(options.strict ? 1 : 0, unit, options.maxEventSize ?? 0, options.maxArtifactSize ?? 0));
    const d = new Decoder(this, h, this.#generation);
    this.#registry.register(d, { generation: this.#generation, handle: h }, d);
    return d;
  }

  /** transform returns a TransformStream of byte chunks or pre-parsed SSE frames to updates. */
  transform(options = {}) {
    let dec = null;
    return new TransformStream({
      start: () => { dec = this.decoder(options); },
      transform: (chunk, ctl) => { for (const u of (isBytes(chunk) ? dec.feed(chunk) : dec.feedFrame(chunk))) ctl.enqueue(u); },
      flush: (ctl) => { for (const u of dec.end()) ctl.enqueue(u); dec.free(); },
    });
  }

  /**
   * updates iterates over the updates of a stream: a fetch() Response, its
   * body, or any (async) iterable of byte chunks or of pre-parsed SSE
   * frames ({data, event?, id?, retry?}). A read that fails ends
   * the run as truncated, with the failure as its cause.
   */
  async *updates(source, options = {}) {
    let body = source;
    if (typeof Response !== 'undefined' && source instanceof Response) {
      const err = await this.checkResponse(source);
      if (err) throw err;
      body = source.body;
    }
    const dec = this.decoder(options);
    try {
      let failed = null;
      try {
        if (body && typeof body.getReader === 'function') {
          const reader = body.getReader();
          let finished = false;
          try {
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              yield* (isBytes(value) ? dec.feed(value) : dec.feedFrame(value));
            }
            finished = true;
          } finally {
            // A consumer that stops early cancels the body: the
            // connection is not read for nothing.
            if (!finished) await reader.cancel().catch(() => {});
            reader.releaseLock();
          }
        } else {
          for await (const chunk of body) yield* (isBytes(chunk) ? dec.feed(chunk) : dec.feedFrame(chunk));
        }
      } catch (e) {
        if (e instanceof InstanceDeadError || e instanceof UsageError) throw e;
        failed = e;
      }
      yield* (failed ? dec.fail(String(failed?.message ?? failed)) : dec.end());
    } finally {
      if (!dec.freed) dec.free();
    }
  }

  /**
   * client returns a Client that sends messages to an A2A agent or
   * subscribes to its tasks, and resubscribes after a dropped connection.
   */
  client(options = {}) { return new Client(this, options); }

  /**
   * checkResponse checks the response of a streaming call before its body
   * is read as a stream, as Go's reconstruct.EventStream and ResponseError do: it returns
   * null for an event stream, and otherwise (a status outside 2xx, or a
   * Content-Type other than text/event-stream) reads the body and returns
   * the server's error (a ServerError), a NotEventStreamError (a 2xx that
   * is no error document) or an HTTPError.
   */
  async checkResponse(resp) {
    const ct = resp.headers.get('content-type') ?? '';
    const mt = ct.split(';')[0].trim().toLowerCase();
    // As Go's reconstruct.EventStream: a 2xx text/event-stream, or a 2xx
    // with no Content-Type (the bytes then tell), is read as a stream.
    if (resp.ok && (mt === 'text/event-stream' || mt === '')) return null;
    const body = await readAtMost(resp, MAX_ERROR_BODY);
    const ctBytes = new TextEncoder().encode(ct);
    const input = new Uint8Array(ctBytes.length + body.length);
    input.set(ctBytes);
    input.set(body, ctBytes.length);
    const n = this._call((ex) => {
      const p = this._input(ex, input.length);
      new Uint8Array(ex.memory.buffer).set(input, p);
      return ex.a2a_check(resp.status, ctBytes.length, input.length);
    });
    const ex = this.#exports;
    const doc = JSON.parse(utf8.decode(new Uint8Array(ex.memory.buffer, ex.a2a_out(), n)));
    return errorFromDoc(doc.error);
  }

  // Internal, for Decoder: the exports of the live instance.
  _exports(generation) {
    if (this.#dead) throw this.#dead;
    if (generation !== this.#generation) throw new InstanceDeadError('The decoder belongs to an instance that was restarted');
    return this.#exports;
  }
  _unregister(d) { this.#registry.unregister(d); }

  // Internal: _input returns where n bytes of input go in memory, growing
  // the module's input buffer when it is smaller.
  _input(ex, n) {
    if (n > this.#inCap) {
      const size = Math.max(n, 65536);
      let p;
      try { p = ex.a2a_input(size); } catch (e) { this._kill(e); }
      if (p === ERR_PANIC) this._kill(new Error(cleanMessage(outText(ex))), true);
      if (p <= 0) throw new UsageError('Input buffer refused');
      this.#inPtr = p;
      this.#inCap = size;
    }
    return this.#inPtr;
  }

  // Internal: _kill marks the instance dead because a call trapped, the Go
  // runtime exited, or (panic set) Go panicked, and throws the error.
  _kill(e, panic = false) {
    this.#dead = panic ? new InstanceDeadError(e.message)
      : new InstanceDeadError(`The module stopped: ${e instanceof WasiExit ? e.message : e}`, { cause: e });
    throw this.#dead;
  }

  // Internal: _call runs f on the exports as Decoder does, for the raw ABI.
  _call(f) {
    if (this.#dead) throw this.#dead;
    const ex = this.#exports;
    let r;
    try { r = f(ex); } catch (e) { this._kill(e); }
    if (r === ERR_PANIC) this._kill(new Error(cleanMessage(outText(ex))), true);
    return r;
  }
}

const MAX_ERROR_BODY = 1 << 20;

// readAtMost reads at most max bytes of the response's body.
async function readAtMost(resp, max) {
  if (!resp.body) return new Uint8Array(0);
  const reader = resp.body.getReader(), parts = [];
  let n = 0;
  while (n < max) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    n += value.length;
  }
  reader.cancel().catch(() => {});
  const out = new Uint8Array(Math.min(n, max));
  let off = 0;
  for (const p of parts) { const k = Math.min(p.length, out.length - off); out.set(p.subarray(0, k), off); off += k; }
  return out;
}

// The defaults of a Client's options, those of Go's httpstream.Client.
const DEFAULT_IDLE_TIMEOUT = 60_000, DEFAULT_TIMEOUT = 3_600_000, DEFAULT_RETRIES = 5,
  DEFAULT_RETRY_DELAY = 500, DEFAULT_MAX_RETRY_DELAY = 30_000, DEFAULT_JITTER = 0.5;

// positive returns v, def when v is 0 or absent, and 0 (off) when v is negative.
function positive(v, def) { return !v ? def : v < 0 ? 0 : v; }

/** IdleTimeoutError: no byte arrived on a connection for the idle timeout. */
class IdleTimeoutError extends Error { constructor(ms) { super(`No data received within the idle timeout (${ms} ms)`); this.name = 'IdleTimeoutError'; } }

/**
 * Client is the front door to an A2A 1.0 agent's streaming calls, as Go's
 * httpstream.Client: it sends a message (message:stream, or the JSON-RPC
 * method SendStreamingMessage) or subscribes to a task
 * (tasks/{id}:subscribe, or SubscribeToTask), and when the connection
 * drops, stalls or ends before the run reached a terminal or interrupted
 * state, resubscribes with the task id and Last-Event-ID, so that the
 * caller sees one uncut run.
 */
export class Client {
  #engine; #o;

  constructor(engine, options) {
    this.#engine = engine;
    const o = { ...options };
    o.baseURL = String(o.baseURL ?? '').replace(/\/+$/, '');
    o.binding = o.binding ?? 'rest';
    if (o.binding !== 'rest' && o.binding !== 'jsonrpc') throw new TypeError(`Unknown binding ${o.binding}: 'rest' or 'jsonrpc'`);
    o.fetch = o.fetch ?? ((...a) => globalThis.fetch(...a));
    o.idleTimeout = positive(o.idleTimeout, DEFAULT_IDLE_TIMEOUT);
    o.timeout = positive(o.timeout, DEFAULT_TIMEOUT);
    o.retries = !o.retries ? DEFAULT_RETRIES : o.retries;
    o.retryDelay = Math.max(!o.retryDelay ? DEFAULT_RETRY_DELAY : o.retryDelay, 0);
    o.maxRetryDelay = positive(o.maxRetryDelay, DEFAULT_MAX_RETRY_DELAY);
    o.jitter = Math.min(Math.max(!o.jitter ? DEFAULT_JITTER : o.jitter, 0), 1);
    this.#o = o;
  }

  /**
   * sendMessage sends a user message (its text, or {text, taskId?,
   * contextId?, messageId?}) and yields the run's updates, resubscriptions
   * included, ending with "done". An answer that is no event stream throws
   * its error (ServerError, HTTPError) before any update.
   */
  sendMessage(message, call = {}) {
    const m = typeof message === 'string' ? { text: message } : message;
    const msg = { role: 'ROLE_USER', parts: [{ text: String(m.text) }], messageId: m.messageId || newID() };
    if (m.taskId) msg.taskId = m.taskId;
    if (m.contextId) msg.contextId = m.contextId;
    const o = this.#o;
    const req = o.binding === 'jsonrpc'
      ? { url: o.baseURL, body: { jsonrpc: '2.0', id: newID(), method: 'SendStreamingMessage', params: { message: msg } } }
      : { url: `${o.baseURL}/message:stream`, body: { message: msg } };
    return this.#run((signal) => this.#send(req, '', signal), call);
  }

  /** subscribe follows the task taskId (tasks/{id}:subscribe), from lastEventId when given, as sendMessage does. */
  subscribe(taskId, call = {}) {
    return this.#run((signal) => this.#send(this.#subscribeRequest(taskId), call.lastEventId ?? '', signal), call);
  }

  /**
   * open reads the response of a streaming call the caller made (a fetch()
   * response or its promise) as the run, and resubscribes at baseURL after
   * a drop, as sendMessage does.
   */
  open(response, call = {}) {
    return this.#run(() => response, call);
  }

  #subscribeRequest(taskId) {
    const o = this.#o;
    return o.binding === 'jsonrpc'
      ? { url: o.baseURL, body: { jsonrpc: '2.0', id: newID(), method: 'SubscribeToTask', params: { id: taskId } } }
      : { url: `${o.baseURL}/tasks/${encodeURIComponent(taskId)}:subscribe` };
  }

  // send makes a request with the A2A headers, then the Client's, then
  // Last-Event-ID.
  #send(req, lastEventId, signal) {
    const headers = new Headers({ 'A2A-Version': '1.0', Accept: 'text/event-stream' });
    if (req.body !== undefined) headers.set('Content-Type', 'application/json');
    for (const [k, v] of new Headers(this.#o.headers ?? {})) headers.set(k, v);
    if (lastEventId) headers.set('Last-Event-ID', lastEventId);
    return this.#o.fetch(req.url, {
      method: 'POST', headers, signal, cache: 'no-store',
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
    });
  }

  async *#run(first, call) {
    const o = this.#o, engine = this.#engine;
    // run aborts everything of the run: the caller's signal, the timeout.
    const run = new AbortController();
    const onAbort = () => run.abort(call.signal.reason);
    if (call.signal?.aborted) onAbort(); else call.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = o.timeout > 0 ? setTimeout(() => run.abort(new Error(`The run exceeded its timeout (${o.timeout} ms)`)), o.timeout) : null;
    let conn = null;
    const connect = async (make) => {
      // Each connection has its own signal: the idle timeout aborts it
      // alone; the run's abort aborts all.
      const c = new AbortController();
      const stop = () => c.abort(run.signal.reason);
      if (run.signal.aborted) stop(); else run.signal.addEventListener('abort', stop, { once: true });
      const idle = { timer: null, touch() {
        if (o.idleTimeout <= 0) return;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => c.abort(new IdleTimeoutError(o.idleTimeout)), o.idleTimeout);
      } };
      const done = () => { clearTimeout(idle.timer); run.signal.removeEventListener('abort', stop); };
      idle.touch();
      try {
        if (c.signal.aborted) throw c.signal.reason;
        const resp = await abortable(make(c.signal), c.signal);
        const err = await abortable(engine.checkResponse(resp), c.signal);
        if (err) { resp.body?.cancel().catch(() => {}); throw err; }
        return { resp, signal: c.signal, idle, done };
      } catch (e) {
        done();
        throw c.signal.aborted ? c.signal.reason : e;
      }
    };
    let dec = null;
    try {
      conn = await connect(first);
      dec = engine.decoder(o);
      let attempts = 0, delay = o.retryDelay, cause = null;
      for (;;) {
        if (conn && !conn.resp.body) { conn.done(); conn = null; }
        if (conn) {
          const reader = conn.resp.body.getReader();
          const cancel = () => reader.cancel(conn.signal.reason).catch(() => {});
          conn.signal.addEventListener('abort', cancel, { once: true });
          cause = null;
          try {
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              conn.idle.touch();
              delay = o.retryDelay; // a connection that brought data resets the backoff
              yield* dec.feed(value);
              if (dec._ended()) break;
            }
          } catch (e) {
            if (e instanceof InstanceDeadError || e instanceof UsageError) throw e;
            cause = conn.signal.aborted ? conn.signal.reason : e;
          } finally {
            conn.signal.removeEventListener('abort', cancel);
            reader.cancel().catch(() => {});
            conn.done();
            conn = null;
          }
        }
        const st = dec.status();
        if (st.done) break;
        if (run.signal.aborted) { cause = run.signal.reason; break; }
        if (o.retries < 0 || !o.baseURL || !st.taskId || attempts >= o.retries) break;
        attempts++;
        let wait = delay;
        delay = Math.min(2 * delay, o.maxRetryDelay);
        if (wait > 0 && o.jitter > 0) wait -= Math.random() * o.jitter * wait;
        o.onResubscribe?.({ attempt: attempts, retries: o.retries, delay: wait, taskId: st.taskId, lastEventId: st.lastEventId, error: cause });
        if (wait > 0 && !(await sleep(wait, run.signal))) { cause = run.signal.reason; break; }
        yield* dec.resume();
        try {
          conn = await connect((signal) => this.#send(this.#subscribeRequest(st.taskId), st.lastEventId, signal));
        } catch (e) {
          cause = e;
          // The server refused (the task is gone): the run stays cut, and
          // the refusal says why. A failed connection is tried again.
          if (e instanceof A2AStreamError || run.signal.aborted) break;
        }
      }
      yield* (cause && !dec._ended() ? dec.fail(causeText(cause)) : dec.end());
    } finally {
      if (conn) { conn.resp.body?.cancel().catch(() => {}); conn.done(); }
      if (dec && !dec.done && !dec.freed) {
        // The caller left the loop early: the run ends here.
        try { dec.fail('Run closed'); } catch { /* the instance is dead */ }
      }
      if (dec && !dec.freed) dec.free();
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onAbort);
    }
  }
}

function causeText(e) {
  if (e instanceof A2AStreamError) return e.goMessage;
  if (e?.name === 'AbortError' && e.message) return `Aborted: ${e.message}`;
  return String(e?.message ?? e);
}

// abortable returns p, rejected with the signal's reason when it aborts first.
function abortable(p, signal) {
  if (signal.aborted) { Promise.resolve(p).catch(() => {}); return Promise.reject(signal.reason); }
  return new Promise((resolve, reject) => {
    const on = () => reject(signal.reason);
    signal.addEventListener('abort', on, { once: true });
    // A response that comes after the abort is not read: its body is cancelled.
    Promise.resolve(p).then((v) => { signal.removeEventListener('abort', on); if (signal.aborted) v?.body?.cancel?.().catch(() => {}); resolve(v); },
      (e) => { signal.removeEventListener('abort', on); reject(e); });
  });
}

// sleep waits ms, and reports false when the signal aborted first.
function sleep(ms, signal) {
  return new Promise((resolve) => {
    if (signal.aborted) { resolve(false); return; }
    const t = setTimeout(() => { signal.removeEventListener('abort', on); resolve(true); }, ms);
    const on = () => { clearTimeout(t); resolve(false); };
    signal.addEventListener('abort', on, { once: true });
  });
}

// newID returns a random UUID (crypto.randomUUID where it exists, which
// needs a secure context in browsers).
function newID() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** load is A2AStream.load. */
export function load(source) { return A2AStream.load(source); }

const utf8 = new TextDecoder();

// decodeUTF8 decodes m[p, p+n). Short strings (most text deltas are a
// token or two) are decoded here, as a TextDecoder call costs more than
// the decoding; longer ones, and any that is not valid UTF-8 (TextDecoder
// replaces it the WHATWG way), go to TextDecoder.
function decodeUTF8(m, p, n) {
  if (n === 0) return '';
  if (n > 64) return utf8.decode(m.subarray(p, p + n));
  let s = '';
  for (let i = p, end = p + n; i < end;) {
    const c = m[i];
    if (c < 0x80) { s += String.fromCharCode(c); i++; continue; }
    let cp, need, min;
    if (c >= 0xc2 && c <= 0xdf) { cp = c & 0x1f; need = 1; min = 0x80; }
    else if (c >= 0xe0 && c <= 0xef) { cp = c & 0x0f; need = 2; min = 0x800; }
    else if (c >= 0xf0 && c <= 0xf4) { cp = c & 0x07; need = 3; min = 0x10000; }
    else return utf8.decode(m.subarray(p, p + n));
    if (i + need >= end) return utf8.decode(m.subarray(p, p + n));
    for (let k = 1; k <= need; k++) {
      const b = m[i + k];
      if ((b & 0xc0) !== 0x80) return utf8.decode(m.subarray(p, p + n));
      cp = (cp << 6) | (b & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return utf8.decode(m.subarray(p, p + n));
    s += cp < 0x10000 ? String.fromCharCode(cp) : String.fromCharCode(0xd7c0 + (cp >> 10), 0xdc00 | (cp & 0x3ff));
    i += need + 1;
  }
  return s;
}

// outText returns the message a refused call or a panic left in the out buffer.
function outText(ex) {
  return utf8.decode(new Uint8Array(ex.memory.buffer, ex.a2a_out(), ex.a2a_out_len()));
}

/**
 * Decoder drives one stream: feed bytes, then end; each call returns the
 * updates it caused, the last one of kind "done".
 */
export class Decoder {
  #s; #h; #gen; #arts = []; #done = false; #json = null; #result = null;
  #m = null;

  constructor(stream, handle, generation) { this.#s = stream; this.#h = handle; this.#gen = generation; }

  /** done reports whether the "done" update was handed out. */
  get done() { return this.#done; }
  /** freed reports whether free was called. */
  get freed() { return this.#h === 0; }

  /** feed pushes the next bytes of the stream and returns the updates they caused. */
  feed(chunk) {
    const bytes = chunk instanceof Uint8Array ? chunk : ArrayBuffer.isView(chunk)
      ? new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength) : new Uint8Array(chunk);
    const ex = this.#ex(), out = [];
    for (let off = 0; off < bytes.length; off += MAX_PIECE) {
      const piece = off === 0 && bytes.length <= MAX_PIECE ? bytes : bytes.subarray(off, Math.min(bytes.length, off + MAX_PIECE));
      this.#put(ex, piece);
      let n;
      try { n = ex.a2a_feed(this.#h, piece.length); } catch (e) { this.#s._kill(e); }
      this.#records(ex, n, out);
    }
    return out;
  }

  /**
   * feedFrame pushes one pre-parsed SSE frame, {data, event?, id?, retry?}
   * as eventsource-parser and SSE client SDKs hand them out, and returns
   * the updates it caused: the same as feeding the frame's bytes.
   */
  feedFrame(frame) { return this.feed(utf8enc.encode(frameText(frame))); }

  /** feedFrames pushes pre-parsed SSE frames (an iterable) and returns the updates they caused. */
  feedFrames(frames) {
    let text = '';
    for (const f of frames) text += frameText(f);
    return this.feed(utf8enc.encode(text));
  }

  /** end reports the end of the input and returns the last updates, ending with "done". */
  end() {
    const ex = this.#ex(), out = [];
    let n;
    try { n = ex.a2a_end(this.#h); } catch (e) { this.#s._kill(e); }
    this.#records(ex, n, out);
    return out;
  }

  /** fail ends the input because reading it failed (reason says why): the run ends truncated. */
  fail(reason) {
    const ex = this.#ex(), out = [];
    const b = new TextEncoder().encode(String(reason));
    this.#put(ex, b);
    let n;
    try { n = ex.a2a_fail(this.#h, b.length); } catch (e) { this.#s._kill(e); }
    this.#records(ex, n, out);
    return out;
  }

  /** resume prepares the decoder for the rest of the run on a new connection (tasks/{id}:subscribe). */
  resume() {
    const ex = this.#ex(), out = [];
    let n;
    try { n = ex.a2a_resume(this.#h); } catch (e) { this.#s._kill(e); }
    this.#records(ex, n, out);
    return out;
  }

  /**
   * status returns what a resubscription needs: the task id, the last
   * event id ("" when none), and whether the run has ended (a terminal or
   * interrupted state, a direct message, an error), when it needs none.
   */
  status() {
    const ex = this.#ex();
    let done;
    try { done = ex.a2a_status(this.#h); } catch (e) { this.#s._kill(e); }
    this.#check(ex, done);
    const m = this.#view(ex), p = ex.a2a_out();
    const n = u32(m, p), taskId = decodeUTF8(m, p + 4, n);
    const lastEventId = decodeUTF8(m, p + 8 + n, u32(m, p + 4 + n));
    return { taskId, lastEventId, done: done === 1 };
  }

  // ended reports whether the run has ended, without the ids.
  _ended() {
    const ex = this.#ex();
    let done;
    try { done = ex.a2a_status(this.#h); } catch (e) { this.#s._kill(e); }
    this.#check(ex, done);
    return done === 1;
  }

  /** resultJSON returns the run's result as the `a2astream --json` document (indented, with a final newline). */
  resultJSON(indent = true) {
    if (this.#json !== null && indent) return this.#json;
    const text = this.#resultText(indent);
    if (this.#done && indent) this.#json = text;
    return text;
  }

  /** result returns the run as rebuilt so far (final after "done"). */
  result() {
    if (this.#result) return this.#result;
    // The compact document: Go writes it in two thirds of the time of the
    // indented one, and it is smaller to decode and parse.
    const r = JSON.parse(this.#resultText(false));
    if (this.#done) this.#result = r;
    return r;
  }

  /** free releases the stream handle; the decoder cannot be used any more. */
  free() {
    if (this.#h === 0) return;
    this.#s._unregister(this);
    if (!this.#s.dead) {
      try { this.#s._exports(this.#gen).a2a_free(this.#h); } catch { /* the instance was restarted */ }
    }
    this.#h = 0;
  }

  #ex() {
    if (this.#h === 0) throw new UsageError('The decoder was freed');
    return this.#s._exports(this.#gen);
  }

  #resultText(indent) {
    const ex = this.#ex();
    let n;
    try { n = ex.a2a_result(this.#h, indent ? 1 : 0); } catch (e) { this.#s._kill(e); }
    this.#check(ex, n);
    const p = ex.a2a_out();
    return utf8.decode(this.#view(ex).subarray(p, p + n));
  }

  // check turns an export's negative result into the error it stands for.
  #check(ex, n) {
    if (n >= 0) return;
    if (n === ERR_HANDLE) throw new UsageError('Unknown stream handle');
    const msg = cleanMessage(outText(ex));
    if (n === ERR_CALL) throw new UsageError(msg);
    this.#s._kill(new Error(msg), true);
  }

  // view returns a view of all memory, re-created when memory grew: growth
  // detaches the old buffer, whose views then have length 0 (a check that
  // costs far less than reading memory.buffer on every call).
  #view(ex) {
    if (this.#m === null || this.#m.length === 0) this.#m = new Uint8Array(ex.memory.buffer);
    return this.#m;
  }

  #put(ex, bytes) {
    const p = this.#s._input(ex, bytes.length);
    this.#view(ex).set(bytes, p);
  }

  // records decodes the n bytes of records the last call left in the out
  // buffer into updates appended to out.
  #records(ex, size, out) {
    this.#check(ex, size);
    if (size === 0) return;
    const m = this.#view(ex);
    let p = ex.a2a_out();
    const end = p + size;
    while (p < end) {
      const kind = m[p++];
      switch (kind) {
        case REC_TEXT: case REC_REPLACED: {
          const artifact = this.#arts[u32(m, p)], seq = u32(m, p + 4), n = u32(m, p + 8);
          out.push({ kind: kind === REC_TEXT ? 'text' : 'replaced', seq, artifact, text: decodeUTF8(m, p + 12, n) });
          p += 12 + n;
          break;
        }
        case REC_SEALED:
          out.push({ kind: 'sealed', seq: u32(m, p + 4), artifact: this.#arts[u32(m, p)] });
          p += 8;
          break;
        case REC_STATE: {
          const seq = u32(m, p);
          p += 5;
          const state = decodeUTF8(m, p + 4, u32(m, p));
          p += 4 + u32(m, p);
          let message = null;
          if (m[p++]) {
            const f = [];
            for (let i = 0; i < 3; i++) { const n = u32(m, p); f.push(decodeUTF8(m, p + 4, n)); p += 4 + n; }
            message = { messageId: f[0], role: f[1], text: f[2] };
          }
          out.push({ kind: 'state', seq, state, message });
          break;
        }
        case REC_DONE:
          out.push({ kind: 'done', seq: u32(m, p), result: null, error: null });
          p += 5;
          break;
        case REC_ARTIFACT: {
          // A new snapshot: updates already handed out keep the artifact
          // as it was when they happened, as the Go iterator shows it.
          const index = u32(m, p), flags = m[p + 4];
          p += 5;
          const idLen = u32(m, p), id = decodeUTF8(m, p + 4, idLen);
          p += 4 + idLen;
          const nameLen = u32(m, p), name = decodeUTF8(m, p + 4, nameLen);
          p += 4 + nameLen;
          this.#arts[index] = Object.freeze({ index, id, name, thinking: (flags & 1) !== 0, sealed: (flags & 2) !== 0 });
          break;
        }
        default:
          this.#s._kill(new Error(`Unknown record kind ${kind}`), true);
      }
    }
    const last = out[out.length - 1];
    if (last && last.kind === 'done' && !this.#done) {
      this.#done = true;
      last.result = this.result();
      last.error = errorFromDoc(last.result.error);
    }
  }
}

const utf8enc = new TextEncoder();

// frameText returns the SSE text of a pre-parsed frame: its fields in
// the form the SSE lexer reads back as they were. data that is neither a
// string nor bytes is written as JSON.
function frameText(f) {
  if (f === null || typeof f !== 'object') throw new TypeError('A frame is an object {data, event?, id?, retry?}');
  let s = '';
  if (f.event !== undefined && f.event !== null && f.event !== '') s += `event: ${fieldText(f.event, 'event')}\n`;
  if (f.id !== undefined && f.id !== null) s += `id: ${fieldText(f.id, 'id')}\n`;
  if (Number.isSafeInteger(f.retry) && f.retry >= 0) s += `retry: ${f.retry}\n`;
  let data = f.data;
  if (data !== undefined && data !== null) {
    if (typeof data !== 'string') data = ArrayBuffer.isView(data) || data instanceof ArrayBuffer ? utf8.decode(data) : JSON.stringify(data);
    s += `data: ${data.replace(/\r\n|\r|\n/g, '\ndata: ')}\n`;
  }
  return s + '\n';
}

function fieldText(v, name) {
  const s = String(v);
  if (/[\r\n]/.test(s)) throw new TypeError(`A frame's ${name} holds a line break`);
  return s;
}

// isBytes reports whether a chunk of an input is bytes rather than a frame.
function isBytes(c) { return c instanceof Uint8Array || ArrayBuffer.isView(c) || c instanceof ArrayBuffer; }

function u32(m, p) { return (m[p] | m[p + 1] << 8 | m[p + 2] << 16 | m[p + 3] << 24) >>> 0; }
