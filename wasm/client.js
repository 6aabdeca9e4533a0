// client.js: the Client of an A2A 1.0 agent, which makes the requests
// (fetch) and reads their streams with a Decoder of the engine it was made
// by, resubscribing after a dropped connection.

import { A2AStreamError, InstanceDeadError, UsageError } from './errors.js';

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

