// http.js: what the engine and the client need to know of HTTP: where a
// call goes (a base URL keeps its query string), which failed
// resubscription is worth another try, how long the server asked to wait,
// reading a bounded body, and messages that never echo a secret of a URL.

import { A2AStreamError } from './errors.js';

/**
 * endpoint returns the URL of a call: path appended to the path of base
 * (without its trailing slashes), then base's query string, then params
 * (a URLSearchParams string, "" for none). base may be relative (a same-
 * origin proxy); its fragment is dropped.
 * endpoint('https://h/a2a/?k=K', '/tasks/t', 'historyLength=2') is
 * 'https://h/a2a/tasks/t?k=K&historyLength=2'.
 */
export function endpoint(base, path = '', params = '') {
  const hash = base.indexOf('#');
  if (hash >= 0) base = base.slice(0, hash);
  const q = base.indexOf('?');
  const head = (q < 0 ? base : base.slice(0, q)).replace(/\/+$/, '');
  let query = q < 0 ? '' : base.slice(q + 1);
  if (params) query = query ? `${query}&${params}` : params;
  return head + path + (query ? `?${query}` : '');
}

// urlPattern matches an absolute URL in a message: scheme, userinfo (up to
// the last @ before the path), host and path, query, fragment; pathPattern
// a path with a query string (a relative URL, /a2a/message:send?k=v).
const urlPattern = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#"'<>]*@)?([^\s?#"'<>]*)(\?[^\s#"'<>]*)?(#[^\s"'<>]*)?/gi;
const pathPattern = /(^|[\s"'(])(\/[^\s?#"']*)\?[^\s#"')]*(#[^\s"')]*)?/g;

/**
 * redact returns text with the userinfo, query string and fragment of
 * every URL in it replaced by "…", as Go's httpstream writes them: an API
 * key in a base URL (https://host/a2a?api_key=K) or a password never
 * reaches a message. https://u:p@host/a?k=v#f reads https://…@host/a?….
 */
export function redact(text) {
  return String(text)
    .replace(urlPattern, (_, scheme, user, rest, query, frag) => scheme + (user ? '…@' : '') + rest + (query ? '?…' : frag ? '#…' : ''))
    .replace(pathPattern, (_, before, path) => `${before}${path}?…`);
}

/**
 * redactError returns e when neither its message nor its cause's echoes a
 * URL's secret, and otherwise an error of the same name whose message (and
 * cause, likewise) is redacted. fetch() quotes the URL it refused
 * ("Request cannot be constructed from a URL that includes credentials:
 * https://user:pass@…").
 */
export function redactError(e) {
  if (!(e instanceof Error)) return typeof e === 'string' ? redact(e) : e;
  const cause = e.cause === undefined ? undefined : redactError(e.cause);
  const message = redact(e.message);
  if (message === e.message && cause === e.cause) return e;
  const out = new (e instanceof TypeError ? TypeError : Error)(message, cause === undefined ? undefined : { cause });
  out.name = e.name;
  return out;
}

// transientStatus are the statuses of a resubscription worth trying again:
// the server or a proxy is busy, slow or restarting.
const transientStatus = new Set([408, 425, 429, 500, 502, 503, 504]);

/**
 * retryable is the resubscription rule, the same as Go's httpstream: a
 * resubscription that failed with err, answered with HTTP status (0 when
 * no answer came: a reset, a DNS failure, the idle timeout), is tried again
 * (with the backoff, within the retries and the timeout) when no answer
 * came, for 408, 425, 429, 500, 502, 503 and 504, and for a 2xx that is not
 * an event stream (a proxy's page); it ends the run for an A2A error that
 * names the task as gone (TASK_NOT_FOUND, or JSON-RPC's -32001) whatever
 * the status, and for any other status (400, 401, 403, 404, 409…). A REST
 * error document's code is an HTTP status: it counts as the status, also
 * when the document came with a 200.
 */
export function retryable(err, status) {
  if (err?.type === 'api') {
    if (err.reason === 'TASK_NOT_FOUND' || (err.binding === 'JSON-RPC' && err.code === -32001)) return false;
    if (err.binding === 'REST' && err.code >= 100 && err.code <= 599) status = err.code;
  }
  if (status === 0) return true;
  return transientStatus.has(status) || (status >= 200 && status < 300);
}

/**
 * retryAfter returns the wait a Retry-After header asks for, in ms (its
 * delay-seconds or HTTP-date form, counted from now); 0 when there is
 * none, it does not parse or it is in the past.
 */
export function retryAfter(value, now = Date.now()) {
  const v = String(value ?? '').trim();
  if (v === '') return 0;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? 0 : Math.max(0, t - now);
}

/** mediaType returns the media type of a response's Content-Type, lower case, without parameters. */
export function mediaType(resp) {
  return (resp.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
}

/** readAtMost reads at most max bytes of the response's body, and cancels the rest. */
export async function readAtMost(resp, max) {
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

/**
 * abortable returns p, rejected with the signal's reason when the signal
 * aborts first; a response that comes after the abort is not read (its
 * body is cancelled).
 */
export function abortable(p, signal) {
  if (signal.aborted) { Promise.resolve(p).catch(() => {}); return Promise.reject(signal.reason); }
  return new Promise((resolve, reject) => {
    const on = () => reject(signal.reason);
    signal.addEventListener('abort', on, { once: true });
    Promise.resolve(p).then((v) => { signal.removeEventListener('abort', on); if (signal.aborted) v?.body?.cancel?.().catch(() => {}); resolve(v); },
      (e) => { signal.removeEventListener('abort', on); reject(e); });
  });
}

/**
 * causeText returns the text a truncated run carries as its cause: an
 * A2AStreamError's Go message, "Aborted: …" for an AbortError, the message
 * of any other error, redacted (no URL's secret).
 */
export function causeText(e) {
  if (e instanceof A2AStreamError) return e.goMessage;
  if (e?.name === 'AbortError' && e.message) return redact(`Aborted: ${e.message}`);
  return redact(String(e?.message ?? e));
}
