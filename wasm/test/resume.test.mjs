// The Client: a run that the server drops at event boundaries, inside
// events, or lets go silent is resubscribed with the task id and
// Last-Event-ID and yields one uncut run, whose result is a2astream --json
// of the whole stream byte for byte; the caller's AbortSignal, the retry
// limit and a refused resubscription end it truncated.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { load, ServerError, TruncatedError } from 'a2astream';
import { cliJSON, playEvents, resumeIndex, samples, splitEvents, testdataDir, mulberry32 } from './helpers.mjs';

const engine = await load();




// The server streams one recorded run. plan(n) says how connection n
// (0 is the first) ends: after `frames` more frames, `inside` bytes into
// the next one, by `how`: 'end' (a clean end), 'destroy' (a reset) or
// 'stall' (silence); null sends the rest. A subscription starts after the
// frame whose id is Last-Event-ID. refuse answers subscriptions with 404.
let server, base;
const state = { frames: [], plan: () => null, requests: [], refuse: false };

before(async () => {
  server = createServer(async (req, res) => {
    let body = '';
    for await (const c of req) body += c;
    const n = state.requests.length;
    state.requests.push({ method: req.method, url: req.url, headers: req.headers, body });
    const subscribe = /:subscribe$/.test(req.url) || /SubscribeToTask/.test(body);
    if (subscribe && state.refuse) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 404, status: 'NOT_FOUND', message: 'Task not found' } }));
      return;
    }
    // A stalled connection stays open and silent until the client gives up.
    playEvents(res, state.frames, subscribe ? resumeIndex(state.frames, req.headers['last-event-id']) : 0, state.plan(n));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => { server.closeAllConnections(); server.close(); });

function serve(name, plan) {
  state.frames = splitEvents(readFileSync(join(testdataDir, name)));
  state.plan = plan;
  state.requests = [];
  state.refuse = false;
}

async function collect(iter) {
  const out = [];
  for await (const u of iter) out.push(u);
  return out;
}

const fast = { retryDelay: -1 };

test('drops at event boundaries and inside events: resubscribed with task id and Last-Event-ID, one uncut run equal to --json', async () => {
  serve('completed.sse', (n) => [{ frames: 3, how: 'end' }, { frames: 4, inside: 40, how: 'destroy' }, { frames: 5, inside: 7, how: 'end' }][n] ?? null);
  const resubs = [];
  const client = engine.client({ baseURL: `${base}/a2a/`, headers: { Authorization: 'Bearer t0k' }, ...fast, onResubscribe: (r) => resubs.push(r) });
  const updates = await collect(client.sendMessageStream('Résume la consultation'));
  const done = updates.at(-1);
  assert.equal(done.kind, 'done');
  assert.equal(done.error, null, String(done.error));
  const whole = cliJSON(join(testdataDir, 'completed.sse'));
  assert.deepEqual(done.result, JSON.parse(whole));
  // The text typed out over the four connections is the answer, once.
  const typed = updates.filter((u) => u.kind === 'text' && u.artifact.id === done.result.answer.artifactId).map((u) => u.text).join('');
  assert.equal(typed, done.result.answer.text);

  const [first, ...subs] = state.requests;
  assert.equal(first.url, '/a2a/message:stream');
  const sent = JSON.parse(first.body);
  assert.equal(sent.message.role, 'ROLE_USER');
  assert.deepEqual(sent.message.parts, [{ text: 'Résume la consultation' }]);
  assert.equal(first.headers['a2a-version'], '1.0');
  assert.equal(first.headers.accept, 'text/event-stream');
  assert.equal(first.headers['content-type'], 'application/json');
  assert.equal(first.headers.authorization, 'Bearer t0k');
  assert.equal(first.headers['last-event-id'], undefined);
  const taskId = done.result.taskId;
  assert.deepEqual(subs.map((r) => [r.method, r.url, r.headers['last-event-id'], r.headers.authorization]), [
    ['POST', `/a2a/tasks/${encodeURIComponent(taskId)}:subscribe`, '3', 'Bearer t0k'],
    ['POST', `/a2a/tasks/${encodeURIComponent(taskId)}:subscribe`, '7', 'Bearer t0k'],
    ['POST', `/a2a/tasks/${encodeURIComponent(taskId)}:subscribe`, '12', 'Bearer t0k'],
  ]);
  assert.deepEqual(resubs.map((r) => [r.attempt, r.taskId, r.lastEventId, r.error === null]), [
    [1, taskId, '3', true], [2, taskId, '7', false], [3, taskId, '12', true],
  ]);
});

for (const name of samples()) {
  test(`${name}: random drops, at boundaries and inside events, give --json of the whole stream`, async () => {
    const rnd = mulberry32(name.length);
    serve(name, (n) => (n < 4 ? { frames: 1 + Math.floor(rnd() * 6), inside: rnd() < 0.5 ? 1 + Math.floor(rnd() * 60) : 0, how: rnd() < 0.5 ? 'end' : 'destroy' } : null));
    const client = engine.client({ baseURL: `${base}/a2a`, ...fast });
    const updates = await collect(client.sendMessageStream('hello'));
    assert.ok(state.requests.length > 1, 'the run was resubscribed');
    const done = updates.at(-1);
    assert.deepEqual(done.result, JSON.parse(cliJSON(join(testdataDir, name))));
  });
}

test('a connection that goes silent is given up after the idle timeout and resubscribed', async () => {
  serve('completed.sse', (n) => (n === 0 ? { frames: 5, how: 'stall' } : null));
  const resubs = [];
  const client = engine.client({ baseURL: `${base}/a2a`, idleTimeout: 300, ...fast, onResubscribe: (r) => resubs.push(r) });
  const done = (await collect(client.sendMessageStream('hello'))).at(-1);
  assert.equal(done.error, null, String(done.error));
  assert.equal(done.result.state, 'TASK_STATE_COMPLETED');
  assert.equal(resubs.length, 1);
  assert.match(String(resubs[0].error?.message), /idle timeout/);
  assert.equal(resubs[0].lastEventId, '5');
});

test('the caller\'s AbortSignal ends the run truncated, with the reason as cause, and makes no more requests', async () => {
  serve('completed.sse', () => ({ frames: 4, how: 'stall' }));
  const ctl = new AbortController();
  const client = engine.client({ baseURL: `${base}/a2a`, ...fast });
  const updates = [];
  for await (const u of client.sendMessageStream('hello', { signal: ctl.signal })) {
    updates.push(u);
    if (u.seq === 4 && !ctl.signal.aborted) setTimeout(() => ctl.abort(new Error('user left')), 50);
  }
  const done = updates.at(-1);
  assert.ok(done.error instanceof TruncatedError, String(done.error));
  assert.match(done.error.cause, /user left/);
  assert.equal(done.error.lastEventId, '4');
  assert.equal(state.requests.length, 1);
});

test('a run that keeps dropping gives up after the retries, truncated with what a later resubscription needs', async () => {
  serve('completed.sse', () => ({ frames: 1, how: 'destroy' }));
  const resubs = [];
  const client = engine.client({ baseURL: `${base}/a2a`, retries: 3, ...fast, onResubscribe: (r) => resubs.push(r) });
  const done = (await collect(client.sendMessageStream('hello'))).at(-1);
  assert.ok(done.error instanceof TruncatedError, String(done.error));
  assert.equal(resubs.length, 3);
  assert.equal(state.requests.length, 4);
  assert.equal(done.error.lastEventId, '4');
  assert.equal(done.error.taskId, done.result.taskId);
});

test('a refused resubscription ends the run truncated with the refusal as cause', async () => {
  serve('completed.sse', () => ({ frames: 2, how: 'end' }));
  state.refuse = true;
  const client = engine.client({ baseURL: `${base}/a2a`, ...fast });
  const done = (await collect(client.sendMessageStream('hello'))).at(-1);
  assert.ok(done.error instanceof TruncatedError, String(done.error));
  assert.match(done.error.cause, /Task not found/);
  assert.equal(state.requests.length, 2);
});

test('an answer that is no event stream throws the server\'s error before any update', async () => {
  serve('completed.sse', () => null);
  state.refuse = true;
  const client = engine.client({ baseURL: `${base}/a2a`, ...fast });
  await assert.rejects(collect(client.resubscribeTask('task.gone')), (e) => e instanceof ServerError && e.code === 404);
});

test('subscribe and JSON-RPC: the methods and Last-Event-ID, through a fetch-like function', async () => {
  serve('completed.sse', (n) => (n === 0 ? { frames: 3, inside: 10, how: 'destroy' } : null));
  const seen = [];
  const myFetch = (url, init) => { seen.push(url); return fetch(url, init); };
  const client = engine.client({ baseURL: `${base}/rpc`, binding: 'jsonrpc', fetch: myFetch, ...fast });
  const done = (await collect(client.resubscribeTask('task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62', { lastEventId: '1' }))).at(-1);
  assert.deepEqual(seen, [`${base}/rpc`, `${base}/rpc`]);
  const bodies = state.requests.map((r) => JSON.parse(r.body));
  assert.deepEqual(bodies.map((b) => [b.jsonrpc, b.method, b.params.id]), [
    ['2.0', 'SubscribeToTask', 'task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62'], ['2.0', 'SubscribeToTask', 'task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62']]);
  assert.deepEqual(state.requests.map((r) => r.headers['last-event-id']), ['1', '4']);
  assert.equal(done.result.state, 'TASK_STATE_COMPLETED');
});

test('open reads a response the caller made, and resubscribes at baseURL', async () => {
  serve('completed.sse', (n) => (n === 0 ? { frames: 6, how: 'end' } : null));
  const client = engine.client({ baseURL: `${base}/a2a`, ...fast });
  const done = (await collect(client.open(fetch(`${base}/a2a/message:stream`, { method: 'POST', body: '{}' })))).at(-1);
  assert.deepEqual(done.result, JSON.parse(cliJSON(join(testdataDir, 'completed.sse'))));
  assert.equal(state.requests[1].headers['last-event-id'], '6');
});

test('a signal aborted before the call makes no request; the run timeout ends a silent run', async () => {
  serve('completed.sse', () => ({ frames: 3, how: 'stall' }));
  const client = engine.client({ baseURL: `${base}/a2a`, ...fast });
  const ctl = new AbortController();
  ctl.abort(new Error('never mind'));
  await assert.rejects(collect(client.sendMessageStream('hello', { signal: ctl.signal })), /never mind/);
  assert.equal(state.requests.length, 0);

  const slow = engine.client({ baseURL: `${base}/a2a`, idleTimeout: -1, timeout: 400, ...fast });
  const done = (await collect(slow.sendMessageStream('hello'))).at(-1);
  assert.ok(done.error instanceof TruncatedError, String(done.error));
  assert.match(done.error.cause, /exceeded its timeout/);
  assert.equal(done.error.lastEventId, '3');
  assert.equal(state.requests.length, 1);
});
