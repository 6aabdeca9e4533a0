// engine.js: the engine (A2AStream, one instance of the module) and the
// Decoder that drives one stream handle, with the TransformStream and
// async-iterator adapters.
//
// The module (a2astream.wasm, Go built for wasip1 as a reactor) keeps one
// stream per handle. Bytes cross into its linear memory through one input
// buffer; updates come back as compact records (records.js) decoded with
// TextDecoder; the final result is the same JSON document `a2astream
// --json` prints, parsed once per run.

import { wasiImports, WasiExit } from './wasi.js';
import { cleanMessage, errorFromDoc, InstanceDeadError, UsageError } from './errors.js';
import { compile } from './loading.js';
import { readRecords, readStatus, utf8 } from './records.js';
import { Client } from './client.js';
import { abortable, causeText, readAtMost } from './http.js';
import { views } from './view.js';

const ENOSYS = 52;
const ERR_HANDLE = -1, ERR_PANIC = -2, ERR_CALL = -3;
const UNITS = { codepoints: 0, bytes: 1, utf16: 2 };
const MAX_PIECE = 1 << 20;

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

  /**
   * transform returns a TransformStream of byte chunks or pre-parsed SSE
   * frames to updates. options.signal, when it aborts, ends the run
   * truncated with its reason as the cause: the last updates come out, the
   * readable side closes and the writable side errors (a pipe into it stops
   * reading its source).
   */
  transform(options = {}) {
    let dec = null, stop = null;
    const { signal } = options;
    const finish = () => { signal?.removeEventListener('abort', stop); if (!dec.freed) dec.free(); };
    return new TransformStream({
      start: (ctl) => {
        if (signal?.aborted) throw signal.reason;
        dec = this.decoder(options);
        stop = () => {
          if (dec.freed) return;
          for (const u of dec.fail(causeText(signal.reason))) ctl.enqueue(u);
          finish();
          ctl.terminate();
        };
        signal?.addEventListener('abort', stop, { once: true });
      },
      transform: (chunk, ctl) => { for (const u of (isBytes(chunk) ? dec.feed(chunk) : dec.feedFrame(chunk))) ctl.enqueue(u); },
      flush: (ctl) => { for (const u of dec.end()) ctl.enqueue(u); finish(); },
    });
  }

  /**
   * updates iterates over the updates of a stream: a fetch() Response, its
   * body, or any (async) iterable of byte chunks or of pre-parsed SSE
   * frames ({data, event?, id?, retry?}). A read that fails ends the run
   * as truncated, with the failure as its cause; so does options.signal
   * when it aborts (the body is cancelled). A signal aborted before the
   * first read throws its reason.
   */
  async *updates(source, options = {}) {
    const { signal } = options;
    let body = source;
    if (typeof Response !== 'undefined' && source instanceof Response) {
      if (signal?.aborted) { source.body?.cancel().catch(() => {}); throw signal.reason; }
      const err = await this.checkResponse(source);
      if (err) throw err;
      body = source.body;
    }
    if (signal?.aborted) throw signal.reason;
    const dec = this.decoder(options);
    try {
      let failed = null;
      try {
        for await (const chunk of chunks(body, signal)) yield* (isBytes(chunk) ? dec.feed(chunk) : dec.feedFrame(chunk));
      } catch (e) {
        if (e instanceof InstanceDeadError || e instanceof UsageError) throw e;
        failed = e;
      }
      yield* (failed ? dec.fail(causeText(failed)) : dec.end());
    } finally {
      if (!dec.freed) dec.free();
    }
  }

  /**
   * views iterates over the Views of a stream (see view.js): the snapshot
   * after each update of updates(source, options), the last one done.
   */
  views(source, options = {}) { return views(this.updates(source, options)); }

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

/** load is A2AStream.load. */
export function load(source) { return A2AStream.load(source); }

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
    const { taskId, lastEventId } = readStatus(this.#view(ex), ex.a2a_out());
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
    const p = ex.a2a_out();
    try { readRecords(this.#view(ex), p, p + size, this.#arts, out); } catch (e) { this.#s._kill(e, true); }
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

// chunks yields the chunks of a body (a ReadableStream or an (async)
// iterable) until it ends, and throws the signal's reason when it aborts
// first. A consumer that stops early, or an abort, cancels the body: the
// connection is not read for nothing.
async function* chunks(body, signal) {
  if (body && typeof body.getReader === 'function') {
    const reader = body.getReader();
    const cancel = () => reader.cancel(signal.reason).catch(() => {});
    signal?.addEventListener('abort', cancel, { once: true });
    let finished = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (signal?.aborted) throw signal.reason;
        if (done) break;
        yield value;
      }
      finished = true;
    } finally {
      signal?.removeEventListener('abort', cancel);
      if (!finished) await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
    return;
  }
  const it = body[Symbol.asyncIterator] ? body[Symbol.asyncIterator]() : body[Symbol.iterator]();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await (signal ? abortable(it.next(), signal) : it.next());
      if (done) break;
      yield value;
    }
    finished = true;
  } finally {
    if (!finished) Promise.resolve(it.return?.()).catch(() => {});
  }
}

// isBytes reports whether a chunk of an input is bytes rather than a frame.
function isBytes(c) { return c instanceof Uint8Array || ArrayBuffer.isView(c) || c instanceof ArrayBuffer; }

