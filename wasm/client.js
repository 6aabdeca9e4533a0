// client.js: the Client of an A2A 1.0 agent, which makes the requests
// (fetch) and reads their answers with the engine it was made by: the
// streams with a Decoder that resubscribes after a dropped connection, the
// JSON answers (a task, a message) as a one-event stream.

import { InstanceDeadError, UsageError } from './errors.js';
import { abortable, causeText, endpoint, mediaType, readAtMost, redactError, retryable, retryAfter } from './http.js';
import { utf8 } from './records.js';

// The defaults of a Client's options, those of Go's httpstream.Client.
const DEFAULT_IDLE_TIMEOUT = 60_000, DEFAULT_TIMEOUT = 3_600_000, DEFAULT_RETRIES = 5,
  DEFAULT_RETRY_DELAY = 500, DEFAULT_MAX_RETRY_DELAY = 30_000, DEFAULT_JITTER = 0.5,
  DEFAULT_MAX_EVENT_SIZE = 16 << 20;

// positive returns v, def when v is 0 or absent, and 0 (off) when v is negative.
function positive(v, def) { return !v ? def : v < 0 ? 0 : v; }

/** IdleTimeoutError: no byte arrived on a connection for the idle timeout. */
class IdleTimeoutError extends Error { constructor(ms) { super(`No data received within the idle timeout (${ms} ms)`); this.name = 'IdleTimeoutError'; } }

// Answered is how a connection failed when the server answered with no
// event stream: the error it gave, the HTTP status and the wait its
// Retry-After asked for (ms, 0 for none). Only the error leaves the run.
class Answered {
  constructor(error, resp) {
    this.error = error;
    this.status = resp.status;
    this.wait = retryAfter(resp.headers.get('retry-after'));
  }
}

// calls are the operations: the JSON-RPC method, and the REST method, path
// and body of each (params are the JSON-RPC params). stream marks the
// calls answered with an event stream.
const calls = {
  send: { rpc: 'SendMessage', rest: (p) => ({ method: 'POST', path: '/message:send', body: { message: p.message } }) },
  stream: { rpc: 'SendStreamingMessage', stream: true, rest: (p) => ({ method: 'POST', path: '/message:stream', body: { message: p.message } }) },
  get: {
    rpc: 'GetTask',
    rest: (p) => ({ method: 'GET', path: taskPath(p.id), query: p.historyLength === undefined ? '' : `historyLength=${p.historyLength}` }),
  },
  cancel: { rpc: 'CancelTask', rest: (p) => ({ method: 'POST', path: `${taskPath(p.id)}:cancel`, body: {} }) },
  subscribe: { rpc: 'SubscribeToTask', stream: true, rest: (p) => ({ method: 'POST', path: `${taskPath(p.id)}:subscribe` }) },
};

function taskPath(id) {
  if (typeof id !== 'string' || id === '') throw new TypeError('A task id is a non-empty string');
  return `/tasks/${encodeURIComponent(id)}`;
}

/**
 * Client is the front door to an A2A 1.0 agent, as Go's httpstream.Client,
 * with the operations named as @a2a-js/sdk names them: sendMessage
 * (message:send), sendMessageStream (message:stream), getTask, cancelTask
 * and resubscribeTask (tasks/{id}:subscribe), over REST or JSON-RPC. A
 * stream that drops, stalls or ends before the run reached a terminal or
 * interrupted state is resubscribed with the task id and Last-Event-ID,
 * so that the caller sees one uncut run.
 */
export class Client {
  #engine; #o;

  constructor(engine, options) {
    this.#engine = engine;
    const o = { ...options };
    o.baseURL = String(o.baseURL ?? '');
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
   * contextId?, messageId?}) with message:send (JSON-RPC SendMessage) and
   * returns the reply: the task (or the direct message) and its result
   * document. A server error is thrown as its A2AStreamError.
   */
  async sendMessage(message, call = {}) {
    return this.#call(this.#request('send', { message: userMessage(message) }), 'send', call);
  }

  /**
   * sendMessageStream sends a user message with message:stream (JSON-RPC
   * SendStreamingMessage) and returns the Run: its updates, resubscriptions
   * included, ending with "done". An answer that is no event stream throws
   * its error (ServerError, HTTPError) before any update. Aborting
   * call.signal detaches (the task goes on); run.cancel() cancels the task.
   */
  sendMessageStream(message, call = {}) {
    const req = this.#request('stream', { message: userMessage(message) });
    return this.#stream((signal) => this.#send(req, '', signal), call, '');
  }

  /**
   * getTask reads the task taskId (GET tasks/{id}, JSON-RPC GetTask; at most
   * call.historyLength messages of history) and returns it with its result
   * document, built by the same core as a stream's: state, status message,
   * answer, thinking, artifacts, usage, citations.
   */
  async getTask(taskId, call = {}) {
    const n = call.historyLength;
    if (n !== undefined && !(Number.isSafeInteger(n) && n >= 0)) throw new TypeError(`historyLength is a whole number >= 0, not ${n}`);
    return this.#call(this.#request('get', { id: taskId, historyLength: call.historyLength }), 'task', call);
  }

  /**
   * cancelTask cancels the task taskId (POST tasks/{id}:cancel, JSON-RPC
   * CancelTask) and returns the task after the cancel, as getTask does. A
   * task that already ended is the server's ServerError (REST: code 409,
   * with its reason, such as TASK_NOT_CANCELABLE).
   */
  async cancelTask(taskId, call = {}) {
    return this.#call(this.#request('cancel', { id: taskId }), 'task', call);
  }

  /**
   * resubscribeTask follows the task taskId (tasks/{id}:subscribe, JSON-RPC
   * SubscribeToTask), from call.lastEventId when given, as sendMessageStream
   * does. call.events, the events of a checkpoint (run.checkpoint(), kept
   * by another page), are applied before the subscription's: the run goes
   * on from what the checkpoint held, its updates beginning with that.
   */
  resubscribeTask(taskId, call = {}) {
    const req = this.#request('subscribe', { id: taskId });
    return this.#stream((signal) => this.#send(req, call.lastEventId ?? '', signal), call, taskId);
  }

  /**
   * open reads the response of a streaming call the caller made (a fetch()
   * response or its promise) as the run, and resubscribes at baseURL after
   * a drop, as sendMessageStream does.
   */
  open(response, call = {}) {
    return this.#stream(() => response, call, '');
  }

  // request returns the request of the operation op with params: its URL
  // (the base URL keeps its query string), method, JSON body and whether
  // it is answered with a stream.
  #request(op, params) {
    const o = this.#o, c = calls[op];
    if (o.binding === 'jsonrpc') {
      if (params.id !== undefined) taskPath(params.id);
      return { url: endpoint(o.baseURL), method: 'POST', stream: !!c.stream, body: { jsonrpc: '2.0', id: newID(), method: c.rpc, params } };
    }
    const r = c.rest(params);
    return { url: endpoint(o.baseURL, r.path, r.query), method: r.method, stream: !!c.stream, body: r.body };
  }

  // send makes a request with the A2A headers, then the Client's, then
  // Last-Event-ID. A failed fetch's message is redacted (fetch quotes the
  // URLs it refuses).
  async #send(req, lastEventId, signal) {
    const headers = new Headers({ 'A2A-Version': '1.0', Accept: req.stream ? 'text/event-stream' : 'application/json' });
    if (req.body !== undefined) headers.set('Content-Type', 'application/json');
    for (const [k, v] of new Headers(this.#o.headers ?? {})) headers.set(k, v);
    if (lastEventId) headers.set('Last-Event-ID', lastEventId);
    try {
      return await this.#o.fetch(req.url, {
        method: req.method, headers, signal, cache: 'no-store',
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
      });
    } catch (e) {
      throw redactError(e);
    }
  }

  // call makes a request answered with JSON, within call.signal and the
  // timeout, and returns its reply (a task or a message, and the result).
  async #call(req, kind, call) {
    const ctl = new AbortController();
    const onAbort = () => ctl.abort(call.signal.reason);
    if (call.signal?.aborted) throw call.signal.reason;
    call.signal?.addEventListener('abort', onAbort, { once: true });
    const o = this.#o;
    const timer = o.timeout > 0 ? setTimeout(() => ctl.abort(new Error(`The call exceeded its timeout (${o.timeout} ms)`)), o.timeout) : null;
    try {
      const resp = await abortable(this.#send(req, '', ctl.signal), ctl.signal);
      return await abortable(this.#reply(resp, kind), ctl.signal);
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onAbort);
    }
  }

  // reply reads a JSON answer: kind 'send' (a SendMessage response: a task
  // or a message) or 'task' (a task). The core reads it as a stream of one
  // event, so that its result is what a stream of that task would give.
  async #reply(resp, kind) {
    const engine = this.#engine, mt = mediaType(resp);
    if (!resp.ok || !(mt === '' || mt === 'application/json' || mt.endsWith('+json'))) {
      const err = await engine.checkResponse(resp);
      if (err) throw err;
    }
    // One byte over the event cap is enough for the core to refuse it.
    const body = await readAtMost(resp, (this.#o.maxEventSize > 0 ? this.#o.maxEventSize : DEFAULT_MAX_EVENT_SIZE) + 1);
    const { data, raw } = replyEvent(body, kind, this.#o.binding);
    const dec = engine.decoder(this.#o);
    try {
      const updates = dec.feed(eventBytes(data));
      // A task still running is no cut run: its result is the state so far.
      if (dec.status().done && !dec.done) updates.push(...dec.end());
      const last = dec.done ? updates.at(-1) : null;
      if (last?.error) throw last.error;
      const result = last ? last.result : dec.result();
      return { result, task: kind === 'task' ? raw : raw?.task ?? null, message: kind === 'task' ? null : raw?.message ?? null };
    } finally {
      dec.free();
    }
  }

  // stream returns the Run of a streaming call: the updates of #run, with
  // the task id and last event id so far, checkpoint, and cancel.
  #stream(first, call, taskId) {
    const track = new RunTrack(taskId, call.lastEventId ?? '');
    const run = this.#run(first, call, track);
    return Object.defineProperties(run, {
      taskId: { get: () => track.read().taskId, enumerable: true },
      lastEventId: { get: () => track.read().lastEventId, enumerable: true },
      refused: { get: () => track.refused, enumerable: true },
      checkpoint: { value: () => track.checkpoint() },
      cancel: {
        value: (options = {}) => {
          const id = track.read().taskId;
          if (!id) return Promise.reject(new UsageError('The run has no task id yet: cancel it once its first event has arrived'));
          return this.cancelTask(id, options);
        },
      },
    });
  }

  // run yields the updates of a streaming call: first makes its request;
  // track follows the decoder's task id and last event id.
  async *#run(first, call, track) {
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
        if (err) { resp.body?.cancel().catch(() => {}); throw new Answered(err, resp); }
        return { resp, signal: c.signal, idle, done };
      } catch (e) {
        done();
        throw c.signal.aborted ? c.signal.reason : e;
      }
    };
    let dec = null;
    try {
      try {
        conn = await connect(first);
      } catch (e) {
        if (e instanceof Answered) {
          track.refused = !retryable(e.error, e.status);
          throw e.error;
        }
        throw redactError(e);
      }
      dec = engine.decoder(o);
      track.dec = dec;
      if (call.events?.length) yield* dec.feedFrames(call.events.map((data, i) => (i === call.events.length - 1 && call.lastEventId ? { data, id: call.lastEventId } : { data })));
      // serverWait is the wait the last answer's Retry-After asked for
      // (ms; 0 when none): the backoff is at least that, up to its cap.
      let attempts = 0, delay = o.retryDelay, cause = null, serverWait = 0;
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
        wait = Math.max(wait, Math.min(serverWait, o.maxRetryDelay));
        serverWait = 0;
        o.onResubscribe?.({ attempt: attempts, retries: o.retries, delay: wait, taskId: st.taskId, lastEventId: st.lastEventId, error: cause });
        if (wait > 0 && !(await sleep(wait, run.signal))) { cause = run.signal.reason; break; }
        yield* dec.resume();
        try {
          const req = this.#request('subscribe', { id: st.taskId });
          conn = await connect((signal) => this.#send(req, st.lastEventId, signal));
        } catch (e) {
          // A refusal (the task is gone, the caller may not see it) ends
          // the run, which stays cut with the refusal as its cause; a
          // failed connection or a busy server is tried again.
          const answered = e instanceof Answered ? e : null;
          cause = answered ? answered.error : e;
          if (run.signal.aborted) break;
          if (!retryable(answered?.error, answered ? answered.status : 0)) { track.refused = true; break; }
          serverWait = answered ? answered.wait : 0;
        }
      }
      const cut = !dec._ended();
      // A cut result holds back an incomplete character's bytes: no checkpoint then.
      if (cut) track.held = holdsBytes(dec.result());
      yield* (cause && cut ? dec.fail(causeText(cause)) : dec.end());
    } finally {
      if (conn) { conn.resp.body?.cancel().catch(() => {}); conn.done(); }
      if (dec && !dec.done && !dec.freed) {
        // The caller left the loop early: the run ends here.
        try { dec.fail('Run closed'); } catch { /* the instance is dead */ }
      }
      track.close();
      if (dec && !dec.freed) dec.free();
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onAbort);
    }
  }
}


// RunTrack follows a run's task id and last event id: from its decoder
// while the run reads (dec), and as they were when it ended.
class RunTrack {
  constructor(taskId, lastEventId) { this.dec = null; this.held = false; this.refused = false; this.ids = { taskId, lastEventId }; }

  // read returns the ids so far.
  read() {
    if (this.dec && !this.dec.freed) {
      try {
        const st = this.dec.status();
        if (st.taskId) this.ids = { taskId: st.taskId, lastEventId: st.lastEventId };
      } catch { /* the instance died: the ids as last read */ }
    }
    return this.ids;
  }

  // close keeps the ids of the decoder, which is about to be freed.
  close() { this.read(); this.dec = null; }

  // checkpoint returns the run so far as resubscribeTask takes it: the task
  // id, the last event id, and events that rebuild the run's task and
  // artifacts; null before the task id is known, once the run is over, and
  // while an artifact's text may end with the bytes of an incomplete
  // character (the decoder holds them until the next event completes it; a
  // server that reads Last-Event-ID would not send them again).
  checkpoint() {
    if (!this.dec || this.dec.freed || this.held) return null;
    const r = this.dec.result(), { taskId, lastEventId } = this.read();
    if (!taskId || holdsBytes(r)) return null;
    const status = { state: r.state || 'TASK_STATE_WORKING' };
    if (r.statusMessage) status.message = a2aMessage(r.statusMessage);
    const events = [{ task: { id: taskId, contextId: r.contextId, status } }];
    for (const a of r.artifacts) {
      const artifact = { artifactId: a.artifactId, parts: a.parts.map(a2aPart) };
      for (const k of ['name', 'description', 'metadata', 'extensions']) if (a[k] !== undefined) artifact[k] = a[k];
      events.push({ artifactUpdate: { taskId, contextId: r.contextId, artifact, lastChunk: a.sealed } });
    }
    return { taskId, lastEventId, events };
  }
}

// holdsBytes reports whether a live result's open artifact may end with
// held bytes, which its text shows as U+FFFD (an agent's own U+FFFD at
// the end looks the same: its checkpoint waits for the next text).
function holdsBytes(r) {
  return r.artifacts.some((a) => !a.sealed && a.text.endsWith('\ufffd'));
}

// a2aMessage and a2aPart write a result's message and part as A2A 1.0 JSON.
function a2aMessage(m) {
  const msg = { messageId: m.messageId, role: m.role, parts: m.parts.map(a2aPart) };
  if (m.metadata !== undefined) msg.metadata = m.metadata;
  return msg;
}

function a2aPart(p) {
  const out = {};
  if (p.kind === 'text') out.text = p.text;
  else if (p.kind === 'data') out.data = p.dataText ?? p.data;
  else if (p.kind === 'url') out.url = p.url;
  else if (p.kind === 'raw') out.raw = p.raw;
  for (const k of ['filename', 'mediaType', 'metadata']) if (p[k] !== undefined) out[k] = p[k];
  return out;
}

// userMessage returns the A2A message of a user's text or {text, taskId?,
// contextId?, messageId?}.
function userMessage(message) {
  const m = typeof message === 'string' ? { text: message } : message;
  const msg = { role: 'ROLE_USER', parts: [{ text: String(m.text) }], messageId: m.messageId || newID() };
  if (m.taskId) msg.taskId = m.taskId;
  if (m.contextId) msg.contextId = m.contextId;
  return msg;
}

// replyEvent returns the data of the event that stands for a JSON answer
// (kind 'send': a SendMessage response, {task} or {message}; 'task': a
// task) and the answer's task or message as JSON (raw; null when it does
// not parse, and then the core's error says why). A REST task is wrapped
// as {"task": …} byte for byte; a JSON-RPC envelope's result is parsed and
// written again; an error envelope is given as it came (a ServerError).
function replyEvent(body, kind, binding) {
  let doc = null;
  try { doc = JSON.parse(utf8.decode(body)); } catch { /* the core reports it */ }
  if (binding === 'jsonrpc') {
    const result = doc?.result;
    if (result === undefined || result === null) return { data: body, raw: null };
    return { data: new TextEncoder().encode(JSON.stringify(kind === 'task' ? { task: result } : result)), raw: result };
  }
  if (kind === 'send') return { data: body, raw: doc };
  return { data: concat(new TextEncoder().encode('{"task":'), body, new TextEncoder().encode('}')), raw: doc };
}

// eventBytes returns the SSE event whose data is the JSON text json: its
// line breaks (whitespace in JSON) become spaces, so that it is one line.
function eventBytes(json) {
  const out = concat(new TextEncoder().encode('data: '), json, new TextEncoder().encode('\n\n'));
  for (let i = 6; i < out.length - 2; i++) if (out[i] === 10 || out[i] === 13) out[i] = 32;
  return out;
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) { out.set(p, off); off += p.length; }
  return out;
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

