// The Client's whole task surface against a fake A2A server, over REST and
// JSON-RPC: sendMessage (message:send), getTask and cancelTask, whose
// result documents are what the CLI's --json makes of the same task;
// sendMessageStream's AbortSignal detaches without cancelling the task, and
// run.cancel() cancels it and reads on to CANCELED; engine.updates() and
// engine.transform() take a signal; resubscription tells a refusal from a
// transient failure, for every status of the rule; a base URL keeps its
// query string and no message echoes it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, ServerError, StreamSyntaxError, TruncatedError } from 'a2astream';
import { redact } from '../http.js';
import { cliJSON, idOf, mulberry32, playEvents, resumeIndex, samples, splitEvents, testdataDir } from './helpers.mjs';

const engine = await load();
const work = mkdtempSync(join(tmpdir(), 'a2astream-client-'));

// cliDoc returns a2astream --json of the stream bytes, parsed.
function cliDoc(bytes) {
  const path = join(work, `in-${Math.random().toString(36).slice(2)}.sse`);
  writeFileSync(path, bytes);
  return JSON.parse(cliJSON(path));
}

const text = (b) => Buffer.from(b).toString('utf8');
const dataOf = (f) => { const m = /^data: ?(.*)$/m.exec(text(f)); return m ? JSON.parse(m[1]) : {}; };

// The task the task calls answer with: the citations sample's task with
// its sealed answer artifact (text, citations, cited data parts).
const citations = splitEvents(readFileSync(join(testdataDir, 'citations.sse')));
const sealed = citations.map(dataOf).find((d) => d.artifactUpdate?.lastChunk && !d.artifactUpdate.artifact.metadata);
const first = dataOf(citations[0]).task;
const doneTask = { id: first.id, contextId: first.contextId, status: { state: 'TASK_STATE_COMPLETED' }, artifacts: [sealed.artifactUpdate.artifact], history: [] };
const workingTask = { ...doneTask, status: { state: 'TASK_STATE_WORKING' } };
const canceledTask = { ...doneTask, status: { state: 'TASK_STATE_CANCELED' } };
const directMessage = { messageId: 'm1', role: 'ROLE_AGENT', parts: [{ text: 'Bonjour, Jørgensen 🦶' }] };
const taskEvent = (task) => Buffer.from(`data: ${JSON.stringify({ task })}\n\n`);

const taskNotFound = { code: 404, status: 'NOT_FOUND', message: 'Task not found.', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }] };
const notCancelable = { code: 409, status: 'FAILED_PRECONDITION', message: 'Task is already completed.', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_CANCELABLE', domain: 'a2a-protocol.org' }] };

// The fake server: REST under /a2a (also /a2a?api_key=K), JSON-RPC at /rpc.
// Streams serve state.frames from Last-Event-ID as resume.test.mjs does,
// ending connection n as state.plan(n) says; state.answer(op, n) may answer
// a request instead ({status, headers, body}); state.task is what the task
// calls return. A cancel while a stream is open writes the CANCELED status
// to it and ends it, as a server does.
let server, base;
const state = {};
function reset(over = {}) {
  Object.assign(state, {
    frames: splitEvents(readFileSync(join(testdataDir, 'completed.sse'))), plan: () => null, answer: () => null,
    task: doneTask, reply: { task: doneTask }, requests: [], streams: 0, open: null,
  }, over);
}

function operation(req, body) {
  const path = new URL(req.url, 'http://x').pathname;
  if (path === '/rpc') {
    const m = JSON.parse(body).method;
    return { SendMessage: 'send', SendStreamingMessage: 'stream', GetTask: 'get', CancelTask: 'cancel', SubscribeToTask: 'subscribe' }[m];
  }
  if (path.endsWith('/message:send')) return 'send';
  if (path.endsWith('/message:stream')) return 'stream';
  if (path.endsWith(':cancel')) return 'cancel';
  if (path.endsWith(':subscribe')) return 'subscribe';
  return 'get';
}

// json answers with doc or error: REST with status, JSON-RPC with 200 and
// an envelope, as JSON-RPC servers do.
function json(res, rpcID, status, doc, error) {
  res.writeHead(rpcID === undefined ? status : 200, { 'content-type': 'application/json' });
  if (rpcID === undefined) res.end(JSON.stringify(error ? { error } : doc));
  else res.end(JSON.stringify(error ? { jsonrpc: '2.0', id: rpcID, error } : { jsonrpc: '2.0', id: rpcID, result: doc }));
}

before(async () => {
  reset();
  server = createServer(async (req, res) => {
    let body = '';
    for await (const c of req) body += c;
    const op = operation(req, body);
    const rpcID = req.url.startsWith('/rpc') ? JSON.parse(body).id : undefined;
    const n = state.requests.length;
    state.requests.push({ op, method: req.method, url: req.url, headers: req.headers, body });
    const a = state.answer(op, n);
    if (a) { res.writeHead(a.status, a.headers ?? {}); res.end(a.body ?? ''); return; }
    switch (op) {
      case 'send': return json(res, rpcID, 200, state.reply);
      case 'get': return json(res, rpcID, state.task ? 200 : 404, state.task, state.task ? null : (rpcID === undefined ? taskNotFound : { code: -32001, message: 'Task not found' }));
      case 'cancel': return cancel(res, rpcID);
      default: return stream(req, res, op);
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => { server.closeAllConnections(); server.close(); });

function cancel(res, rpcID) {
  if (!state.open) return json(res, rpcID, 409, null, rpcID === undefined ? notCancelable : { code: -32002, message: 'Task cannot be canceled' });
  const { res: s, next } = state.open;
  const { id: taskId, contextId } = dataOf(state.frames[0]).task;
  const id = idOf(state.frames[next - 1]) ?? '0';
  s.write(`id: ${Number(id) + 1}\ndata: ${JSON.stringify({ statusUpdate: { taskId, contextId, status: { state: 'TASK_STATE_CANCELED' } } })}\n\n`);
  s.end();
  state.open = null;
  json(res, rpcID, 200, { ...canceledTask, id: taskId, contextId });
}

function stream(req, res, op) {
  const n = state.streams++;
  const from = op === 'subscribe' ? resumeIndex(state.frames, req.headers['last-event-id']) : 0;
  const stalled = playEvents(res, state.frames, from, state.plan(n));
  if (stalled >= 0) state.open = { res, next: stalled };
}

async function collect(iter) {
  const out = [];
  for await (const u of iter) out.push(u);
  return out;
}

const fast = { retryDelay: -1 };
const bindings = [['REST', () => ({ baseURL: `${base}/a2a`, ...fast })], ['JSON-RPC', () => ({ baseURL: `${base}/rpc`, binding: 'jsonrpc', ...fast })]];

for (const [name, opts] of bindings) {
  test(`${name}: sendMessage (message:send) returns the task and its result document, as --json reads the task`, async () => {
    reset();
    const client = engine.client(opts());
    const reply = await client.sendMessage({ text: 'Résume', contextId: 'ctx.1' });
    assert.deepEqual(reply.result, cliDoc(taskEvent(doneTask)));
    assert.equal(reply.result.answer.citations.length, 5);
    assert.deepEqual(reply.task, doneTask);
    assert.equal(reply.message, null);
    const [r] = state.requests;
    assert.equal(r.op, 'send');
    assert.equal(r.method, 'POST');
    assert.equal(r.headers.accept, 'application/json');
    const sent = name === 'REST' ? JSON.parse(r.body) : JSON.parse(r.body).params;
    assert.deepEqual(sent.message.parts, [{ text: 'Résume' }]);
    assert.equal(sent.message.contextId, 'ctx.1');
    if (name === 'REST') assert.equal(r.url, '/a2a/message:send');
  });

  test(`${name}: sendMessage answered by a direct message returns the message`, async () => {
    reset({ reply: { message: directMessage } });
    const reply = await engine.client(opts()).sendMessage('Salut');
    assert.deepEqual(reply.message, directMessage);
    assert.equal(reply.task, null);
    assert.equal(reply.result.message.text, 'Bonjour, Jørgensen 🦶');
    assert.deepEqual(reply.result, cliDoc(Buffer.from(`data: ${JSON.stringify({ message: directMessage })}\n\n`)));
  });

  test(`${name}: getTask returns the raw task and the result document the core builds (a finished and a running task)`, async () => {
    reset();
    const client = engine.client(opts());
    const done = await client.getTask(doneTask.id, { historyLength: 2 });
    assert.deepEqual(done.task, doneTask);
    assert.deepEqual(done.result, cliDoc(taskEvent(doneTask)));
    assert.equal(done.result.answer.text, sealed.artifactUpdate.artifact.parts[0].text);
    const [r] = state.requests;
    if (name === 'REST') {
      assert.equal(r.method, 'GET');
      assert.equal(r.url, `/a2a/tasks/${encodeURIComponent(doneTask.id)}?historyLength=2`);
    } else {
      assert.deepEqual(JSON.parse(r.body).params, { id: doneTask.id, historyLength: 2 });
    }
    state.task = workingTask;
    const running = await client.getTask(doneTask.id);
    assert.equal(running.result.state, 'TASK_STATE_WORKING');
    assert.equal(running.result.error, null);
    assert.equal(running.result.artifacts[0].text, sealed.artifactUpdate.artifact.parts[0].text);
    if (name === 'REST') assert.equal(state.requests[1].url, `/a2a/tasks/${encodeURIComponent(doneTask.id)}`);
    await assert.rejects(client.getTask(doneTask.id, { historyLength: -1 }), TypeError);
    await assert.rejects(client.getTask(''), TypeError);
    assert.equal(state.requests.length, 2, 'no request for a bad argument');
  });

  test(`${name}: getTask of an unknown task throws the server's error`, async () => {
    reset({ task: null });
    await assert.rejects(engine.client(opts()).getTask('task.gone'), (e) => {
      assert.ok(e instanceof ServerError, String(e));
      if (name === 'REST') assert.equal(e.reason, 'TASK_NOT_FOUND');
      else assert.equal(e.code, -32001);
      return true;
    });
  });

  test(`${name}: cancelTask of a finished task throws the server's typed error with its reason`, async () => {
    reset();
    await assert.rejects(engine.client(opts()).cancelTask(doneTask.id), (e) => {
      assert.ok(e instanceof ServerError, String(e));
      if (name === 'REST') { assert.equal(e.code, 409); assert.equal(e.reason, 'TASK_NOT_CANCELABLE'); } else assert.equal(e.code, -32002);
      return true;
    });
    const [r] = state.requests;
    if (name === 'REST') {
      assert.equal(r.url, `/a2a/tasks/${encodeURIComponent(doneTask.id)}:cancel`);
      assert.equal(r.body, '{}');
    } else {
      assert.deepEqual(JSON.parse(r.body).params, { id: doneTask.id });
    }
  });

  test(`${name}: run.cancel() cancels a running stream, which reads on to CANCELED; the cancel returns the task`, async () => {
    reset({ plan: () => ({ frames: 5, how: 'stall' }) });
    const client = engine.client(opts());
    const run = client.sendMessageStream('hello');
    const updates = [];
    let reply = null;
    for await (const u of run) {
      updates.push(u);
      if (u.seq === 5 && !reply) reply = await run.cancel();
    }
    const streamed = dataOf(state.frames[0]).task;
    assert.equal(run.taskId, streamed.id);
    assert.equal(reply.result.state, 'TASK_STATE_CANCELED');
    assert.deepEqual(reply.task, { ...canceledTask, id: streamed.id, contextId: streamed.contextId });
    if (name === 'REST') assert.equal(state.requests[1].url, `/a2a/tasks/${encodeURIComponent(streamed.id)}:cancel`);
    else assert.deepEqual(JSON.parse(state.requests[1].body).params, { id: streamed.id });
    const done = updates.at(-1);
    assert.equal(done.error, null, String(done.error));
    assert.equal(done.result.state, 'TASK_STATE_CANCELED');
    assert.deepEqual(updates.filter((u) => u.kind === 'state').map((u) => u.state).at(-1), 'TASK_STATE_CANCELED');
    assert.deepEqual(state.requests.map((r) => r.op), ['stream', 'cancel']);
  });

  test(`${name}: the AbortSignal detaches without cancelling: the task goes on, and resubscribeTask reads the rest`, async () => {
    reset({ plan: (n) => (n === 0 ? { frames: 4, how: 'stall' } : null) });
    const client = engine.client(opts());
    const ctl = new AbortController();
    const run = client.sendMessageStream('hello', { signal: ctl.signal });
    const updates = [];
    for await (const u of run) {
      updates.push(u);
      if (u.seq === 4 && !ctl.signal.aborted) ctl.abort(new Error('user left'));
    }
    const cut = updates.at(-1);
    assert.ok(cut.error instanceof TruncatedError, String(cut.error));
    assert.match(cut.error.cause, /user left/);
    assert.equal(run.lastEventId, '4');
    assert.ok(!state.requests.some((r) => r.op === 'cancel'), 'no cancel was sent');
    const rest = await collect(client.resubscribeTask(run.taskId, { lastEventId: run.lastEventId }));
    assert.deepEqual(state.requests.map((r) => r.op), ['stream', 'subscribe']);
    assert.equal(state.requests[1].headers['last-event-id'], '4');
    const whole = cliDoc(Buffer.concat(state.frames));
    assert.equal(rest.at(-1).result.state, whole.state);
    assert.equal(rest.at(-1).result.answer.text, whole.answer.text);
  });
}

test('run.cancel() before the task id is known is a UsageError; a run knows the id it resubscribes to', async () => {
  reset();
  const client = engine.client({ baseURL: `${base}/a2a` });
  const run = client.sendMessageStream('hello');
  assert.equal(run.taskId, '');
  await assert.rejects(run.cancel(), { name: 'UsageError' });
  await run.return();
  assert.equal(client.resubscribeTask('task.x').taskId, 'task.x');
});

test('engine.updates() with a signal: an abort ends the run truncated with its reason and cancels the body', async () => {
  const bytes = readFileSync(join(testdataDir, 'completed.sse'));
  const parts = splitEvents(bytes);
  let cancelled = null;
  const body = new ReadableStream({
    start(ctl) { for (const f of parts.slice(0, 5)) ctl.enqueue(f); }, // then silence
    cancel(reason) { cancelled = reason; },
  });
  const ctl = new AbortController();
  const updates = [];
  for await (const u of engine.updates(body, { signal: ctl.signal })) {
    updates.push(u);
    if (u.seq === 5 && !ctl.signal.aborted) setTimeout(() => ctl.abort(new Error('page closed')), 10);
  }
  const done = updates.at(-1);
  assert.ok(done.error instanceof TruncatedError, String(done.error));
  assert.match(done.error.cause, /page closed/);
  assert.equal(done.error.lastEventId, '5');
  assert.match(String(cancelled?.message), /page closed/);

  // An async iterable that never yields again is left too.
  async function* stalled() { yield parts[0]; await new Promise(() => {}); }
  const ctl2 = new AbortController();
  setTimeout(() => ctl2.abort(new Error('gone')), 20);
  const last = (await collect(engine.updates(stalled(), { signal: ctl2.signal }))).at(-1);
  assert.match(last.error.cause, /gone/);

  const aborted = AbortSignal.abort(new Error('never'));
  await assert.rejects(collect(engine.updates(new Response(bytes, { headers: { 'content-type': 'text/event-stream' } }), { signal: aborted })), /never/);
});

test('engine.transform() with a signal: an abort ends the run truncated and closes the readable side', async () => {
  const parts = splitEvents(readFileSync(join(testdataDir, 'completed.sse')));
  let cancelled = false;
  const source = new ReadableStream({
    start(ctl) { for (const f of parts.slice(0, 3)) ctl.enqueue(f); },
    cancel() { cancelled = true; },
  });
  const ctl = new AbortController();
  const updates = [];
  for await (const u of source.pipeThrough(engine.transform({ signal: ctl.signal }))) {
    updates.push(u);
    if (u.seq === 3 && !ctl.signal.aborted) setTimeout(() => ctl.abort(new Error('tab hidden')), 10);
  }
  const done = updates.at(-1);
  assert.equal(done.kind, 'done');
  assert.ok(done.error instanceof TruncatedError, String(done.error));
  assert.match(done.error.cause, /tab hidden/);
  await new Promise((r) => setTimeout(r, 10));
  assert.ok(cancelled, 'the source was cancelled');
});

// The resubscription rule, status by status: the first resubscription is
// answered so, the next one streams the rest.
const refusals = [
  ['400', { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 400, status: 'INVALID_ARGUMENT', message: 'Bad task id' } }) }, /Bad task id/],
  ['401', { status: 401, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 401, status: 'UNAUTHENTICATED', message: 'Token expired' } }) }, /Token expired/],
  ['403', { status: 403, headers: { 'content-type': 'text/plain' }, body: 'forbidden' }, /HTTP 403/],
  ['404', { status: 404, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: taskNotFound }) }, /Task not found/],
  ['409', { status: 409, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: notCancelable }) }, /already completed/],
  ['200 with an A2A error naming the task (TASK_NOT_FOUND)', { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: taskNotFound }) }, /Task not found/],
  ['200 with a REST 403 error document (its code is the status)', { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 403, status: 'PERMISSION_DENIED', message: 'Not your task' } }) }, /Not your task/],
  ['200 with a JSON-RPC TaskNotFoundError (-32001)', { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'Task not found' } }) }, /Task not found/],
];
const transients = [
  ...[408, 425, 429, 500, 502, 503, 504].map((s) => [String(s), { status: s, headers: { 'content-type': 'text/plain' }, body: 'busy' }]),
  ['503 with an A2A error document', { status: 503, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 503, status: 'UNAVAILABLE', message: 'Overloaded' } }) }],
  ['200 with a REST 503 error document', { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 503, status: 'UNAVAILABLE', message: 'Overloaded' } }) }],
  ['200 text/html (a proxy\'s page)', { status: 200, headers: { 'content-type': 'text/html' }, body: '<!doctype html><p>Please wait</p>' }],
  ['200 application/json that is no error document', { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' }],
];

for (const [label, answer, want] of refusals) {
  test(`a resubscription refused with ${label} ends the run truncated with the refusal as its cause`, async () => {
    reset({ plan: () => ({ frames: 3, how: 'end' }), answer: (op) => (op === 'subscribe' ? answer : null) });
    const done = (await collect(engine.client({ baseURL: `${base}/a2a`, ...fast }).sendMessageStream('hello'))).at(-1);
    assert.ok(done.error instanceof TruncatedError, String(done.error));
    assert.match(done.error.cause, want);
    assert.equal(done.error.lastEventId, '3');
    assert.deepEqual(state.requests.map((r) => r.op), ['stream', 'subscribe']);
  });
}

for (const [label, answer] of transients) {
  test(`a resubscription answered with ${label} is tried again, and the run completes equal to --json`, async () => {
    let refused = 0;
    reset({ plan: (n) => (n === 0 ? { frames: 3, how: 'end' } : null), answer: (op) => (op === 'subscribe' && refused++ < 2 ? answer : null) });
    const resubs = [];
    const client = engine.client({ baseURL: `${base}/a2a`, ...fast, onResubscribe: (r) => resubs.push(r) });
    const done = (await collect(client.sendMessageStream('hello'))).at(-1);
    assert.equal(done.error, null, String(done.error));
    assert.deepEqual(done.result, cliDoc(Buffer.concat(state.frames)));
    assert.deepEqual(state.requests.map((r) => r.op), ['stream', 'subscribe', 'subscribe', 'subscribe']);
    assert.equal(resubs.length, 3);
    assert.ok(resubs[1].error, 'the failure is reported');
  });
}

test('transient failures use up the retries: the run ends truncated with the last failure as its cause', async () => {
  reset({ plan: () => ({ frames: 3, how: 'end' }), answer: (op) => (op === 'subscribe' ? { status: 503, headers: { 'content-type': 'text/plain' }, body: 'busy' } : null) });
  const done = (await collect(engine.client({ baseURL: `${base}/a2a`, retries: 3, ...fast }).sendMessageStream('hello'))).at(-1);
  assert.ok(done.error instanceof TruncatedError, String(done.error));
  assert.match(done.error.cause, /HTTP 503/);
  assert.equal(state.requests.length, 4);
});

test('Retry-After is honoured (seconds or a date), capped by maxRetryDelay: the backoff is at least that', async () => {
  // The backoff is 5 ms, then 10 ms.
  for (const [value, cap, want] of [['1', 200, 200], ['0', 30_000, 10], ['soon', 30_000, 10], [new Date(Date.now() + 120_000).toUTCString(), 150, 150]]) {
    let refused = 0;
    reset({
      plan: (n) => (n === 0 ? { frames: 3, how: 'end' } : null),
      answer: (op) => (op === 'subscribe' && refused++ < 1 ? { status: 429, headers: { 'content-type': 'text/plain', 'retry-after': value } } : null),
    });
    const resubs = [];
    const started = Date.now();
    const client = engine.client({ baseURL: `${base}/a2a`, retryDelay: 5, jitter: -1, maxRetryDelay: cap, onResubscribe: (r) => resubs.push(r) });
    const done = (await collect(client.sendMessageStream('hello'))).at(-1);
    assert.equal(done.error, null, String(done.error));
    assert.deepEqual(resubs.map((r) => r.delay), [5, want], `Retry-After: ${value}`);
    assert.ok(Date.now() - started >= want, 'the wait was waited');
  }
});

test('a base URL with a query string keeps it on every call (REST paths appended to its path, JSON-RPC posts to it)', async () => {
  reset({ plan: (n) => (n === 0 ? { frames: 3, how: 'end' } : null) });
  const rest = engine.client({ baseURL: `${base}/a2a/?api_key=K%2B1`, ...fast });
  await collect(rest.sendMessageStream('hello'));
  await rest.sendMessage('hello');
  await rest.getTask(doneTask.id, { historyLength: 1 });
  const id = encodeURIComponent(doneTask.id), streamed = encodeURIComponent(dataOf(state.frames[0]).task.id);
  assert.deepEqual(state.requests.map((r) => r.url), [
    '/a2a/message:stream?api_key=K%2B1', `/a2a/tasks/${streamed}:subscribe?api_key=K%2B1`, '/a2a/message:send?api_key=K%2B1',
    `/a2a/tasks/${id}?api_key=K%2B1&historyLength=1`]);
  reset();
  const rpc = engine.client({ baseURL: `${base}/rpc?api_key=K#frag`, binding: 'jsonrpc', ...fast });
  await rpc.getTask(doneTask.id);
  await collect(rpc.resubscribeTask(doneTask.id));
  assert.deepEqual(state.requests.map((r) => r.url), ['/rpc?api_key=K', '/rpc?api_key=K']);
});

test('no error message echoes a base URL\'s query string or userinfo', async () => {
  const secret = /s3cr3t|hunter2|alice/;
  // fetch refuses a URL with credentials, quoting it; a refused port fails to connect.
  for (const baseURL of [`http://alice:hunter2@127.0.0.1:${server.address().port}/a2a?api_key=s3cr3t`, 'http://127.0.0.1:1/a2a?api_key=s3cr3t', '/a2a?api_key=s3cr3t']) {
    const client = engine.client({ baseURL, retries: -1 });
    for (const call of [() => client.getTask('t1'), () => client.sendMessage('x'), () => client.cancelTask('t1'), () => collect(client.sendMessageStream('x'))]) {
      await assert.rejects(call(), (e) => {
        for (let c = e; c; c = c.cause) assert.doesNotMatch(String(c.message ?? c), secret);
        return true;
      });
    }
  }
  // A cause that quotes a URL, as a fetch wrapper's error may: redacted.
  reset({ plan: () => ({ frames: 3, how: 'end' }) });
  let calls = 0;
  const leaky = (url, init) => (calls++ === 0 ? fetch(url, init) : Promise.reject(new Error(`GET ${url} failed`)));
  const done = (await collect(engine.client({ baseURL: `${base}/a2a?api_key=s3cr3t`, fetch: leaky, retries: 1, ...fast }).sendMessageStream('x'))).at(-1);
  assert.ok(done.error instanceof TruncatedError);
  assert.match(done.error.cause, /a2a\/tasks\/.*:subscribe\?…/);
  assert.doesNotMatch(done.error.cause, secret);
  assert.doesNotMatch(done.error.message, secret);

  // A failed read of a body, and the response a caller's own request gave.
  const body = new ReadableStream({ pull(c) { c.error(new Error('reading https://bob:hunter2@h/a2a?api_key=s3cr3t failed')); } });
  const cut = (await collect(engine.updates(body))).at(-1);
  assert.match(cut.error.cause, /reading https:\/\/…@h\/a2a\?… failed/);
  await assert.rejects(collect(engine.client({ baseURL: base }).open(Promise.reject(new TypeError('Failed to fetch https://h/?api_key=s3cr3t')))),
    (e) => e instanceof TypeError && e.message === 'Failed to fetch https://h/?…');
});

test('every sample through sendMessageStream equals --json (the rename keeps the streaming call)', async () => {
  for (const name of samples()) {
    reset({ frames: splitEvents(readFileSync(join(testdataDir, name))) });
    const done = (await collect(engine.client({ baseURL: `${base}/a2a`, ...fast }).sendMessageStream('hello'))).at(-1);
    assert.deepEqual(done.result, cliDoc(readFileSync(join(testdataDir, name))), name);
  }
});

// liveText returns what the updates showed of an artifact: its text
// updates, restarted at each replaced.
function liveText(updates, id) {
  let t = '';
  for (const u of updates) if (u.artifact?.id === id && (u.kind === 'text' || u.kind === 'replaced')) t = u.kind === 'text' ? t + u.text : u.text;
  return t;
}

test('a run cut at any event goes on in another client from its checkpoint (JSON) to the uncut run\'s result', async () => {
  for (const name of samples()) {
    const frames = splitEvents(readFileSync(join(testdataDir, name)));
    const want = cliDoc(readFileSync(join(testdataDir, name)));
    for (let cut = 1; cut < frames.length; cut++) {
      reset({ frames, plan: (n) => (n === 0 ? { frames: cut, how: 'end' } : null) });
      const run = engine.client({ baseURL: `${base}/a2a`, retries: -1 }).sendMessageStream('hello');
      let cp = null;
      for await (const u of run) if (u.kind === 'done') cp = run.checkpoint();
      assert.equal(run.checkpoint(), null, 'a run over has a checkpoint');
      if (!cp) { assert.equal(dataOf(frames[0]).task, undefined, `${name} cut at ${cut}: no checkpoint`); continue; }
      const kept = JSON.parse(JSON.stringify(cp));
      const updates = await collect(engine.client({ baseURL: `${base}/a2a`, ...fast }).resubscribeTask(kept.taskId, { lastEventId: kept.lastEventId, events: kept.events }));
      const done = updates.at(-1);
      assert.equal(state.requests.at(-1).headers['last-event-id'], frames.slice(0, cut).map(idOf).filter(Boolean).at(-1), `${name} cut at ${cut}: Last-Event-ID`);
      assert.deepEqual(done.result, want, `${name} cut at ${cut}`);
      for (const a of want.artifacts) assert.equal(liveText(updates, a.artifactId), a.text, `${name} cut at ${cut}: the live text of ${a.artifactId}`);
    }
  }
});

test('no checkpoint while a text ends inside a character (its bytes held back until the next event), so none loses them', async () => {
  const ev = (id, json) => Buffer.concat([Buffer.from(`id: ${id}\ndata: `), ...json.map((j) => (typeof j === 'string' ? Buffer.from(j) : Buffer.from(j))), Buffer.from('\n\n')]);
  const art = (append, text) => ['{"artifactUpdate":{"taskId":"t1","contextId":"c1","append":' + append + ',"lastChunk":' + append + ',"artifact":{"artifactId":"a1","parts":[{"text":"', ...text, '"}]}}}'];
  const frames = [
    ev(1, ['{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}']),
    ev(2, art(false, ['caf', [0xc3]])), // é is C3 A9: its second byte comes in the next event
    ev(3, art(true, [[0xa9], ' ok'])),
    ev(4, ['{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}']),
  ];
  const want = cliDoc(Buffer.concat(frames));
  assert.equal(want.answer.text, 'café ok');

  // Cut after event 2: the run ends holding the byte C3.
  reset({ frames, plan: (n) => (n === 0 ? { frames: 2, how: 'end' } : null) });
  const cut = engine.client({ baseURL: `${base}/a2a`, retries: -1 }).sendMessageStream('hello');
  const atDone = [];
  for await (const u of cut) if (u.kind === 'done') atDone.push(cut.checkpoint());
  assert.deepEqual(atDone, [null]);

  // Live (one event per connection, so that each comes alone): none after
  // event 2; one after event 1 and after event 3, each going on to the
  // uncut result.
  reset({ frames, plan: () => ({ frames: 1, how: 'end' }) });
  const run = engine.client({ baseURL: `${base}/a2a`, ...fast }).sendMessageStream('hello');
  const cps = new Map(); // the last event id → the checkpoint after its updates
  for await (const u of run) if (u.kind !== 'done') cps.set(run.lastEventId, run.checkpoint());
  assert.deepEqual([...cps].map(([id, cp]) => [id, cp && cp.lastEventId]), [['1', '1'], ['2', null], ['3', '3'], ['4', '4']]);
  for (const cp of [cps.get('1'), cps.get('3')]) {
    const done = (await collect(engine.client({ baseURL: `${base}/a2a`, ...fast }).resubscribeTask(cp.taskId, JSON.parse(JSON.stringify(cp))))).at(-1);
    assert.deepEqual(done.result, want, `from event ${cp.lastEventId}`);
  }
});

// A soak: every connection of a run meets a fault drawn at random (a clean
// end or a reset at an event boundary or inside an event, a stall past the
// idle timeout, or a resubscription answered with 502 text/html, 503 with
// Retry-After: 0, 429 or 504); every run must complete equal to the uncut
// run's --json, and the live text of its answer must be the answer once.
test('soak: 200 runs with a random fault on every connection complete equal to --json', async () => {
  const rnd = mulberry32(31);
  const names = samples(), want = {};
  for (const name of names) want[name] = cliDoc(readFileSync(join(testdataDir, name)));
  const busy = [
    { status: 502, headers: { 'content-type': 'text/html' }, body: '<html>Bad gateway</html>' },
    { status: 503, headers: { 'content-type': 'text/plain', 'retry-after': '0' }, body: 'busy' },
    { status: 429, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'Slow down' } }) },
    { status: 504, headers: {}, body: '' },
  ];
  let faults = 0;
  // The first fetch of the process loads Node's HTTP client, which may take
  // longer than the idle timeout on a loaded machine.
  reset();
  await (await fetch(`${base}/a2a/tasks/warm`)).arrayBuffer();
  for (let i = 0; i < 200; i++) {
    const name = names[i % names.length];
    // Stalls are rare: each waits out the idle timeout, which is long
    // enough that a loaded machine's first connection of a run (which is
    // not retried) does not time out.
    const kinds = ['end', 'destroy'];
    reset({
      frames: splitEvents(readFileSync(join(testdataDir, name))),
      plan: () => {
        const how = rnd() < 0.05 ? 'stall' : kinds[Math.floor(rnd() * kinds.length)];
        return { frames: 1 + Math.floor(rnd() * 8), inside: rnd() < 0.5 ? 1 + Math.floor(rnd() * 50) : 0, how };
      },
      answer: (op) => (op === 'subscribe' && rnd() < 0.3 ? busy[Math.floor(rnd() * busy.length)] : null),
    });
    const client = engine.client({ baseURL: `${base}/a2a`, retries: 100, retryDelay: -1, idleTimeout: 500 });
    const updates = await collect(client.sendMessageStream('hello'));
    const done = updates.at(-1);
    assert.equal(done.error, null, `run ${i} (${name}): ${done.error}`);
    assert.deepEqual(done.result, want[name], `run ${i} (${name})`);
    if (done.result.answer) {
      let live = '';
      for (const u of updates) {
        if (u.artifact?.id !== done.result.answer.artifactId) continue;
        if (u.kind === 'text') live += u.text;
        else if (u.kind === 'replaced') live = u.text;
      }
      assert.equal(live, done.result.answer.text, `run ${i} (${name}): the live text`);
    }
    faults += state.requests.length - 1;
  }
  assert.ok(faults > 400, `${faults} resubscriptions`);
});

test('redact writes a URL\'s userinfo, query string and fragment as "…", as Go\'s httpstream does', () => {
  for (const [text, want] of [
    ['https://host/a2a?api_key=K', 'https://host/a2a?…'],
    ['https://host/a2a#K', 'https://host/a2a#…'],
    ['https://host/a2a?k=1#f', 'https://host/a2a?…'],
    ['https://u:p@host/a2a', 'https://…@host/a2a'],
    ['https://u@host', 'https://…@host'],
    ['https://u:p@host?k=@x', 'https://…@host?…'],
    ['https://u:p@q@host/x', 'https://…@host/x'],
    ['Failed to parse URL from /a2a/tasks/t:subscribe?k=v', 'Failed to parse URL from /a2a/tasks/t:subscribe?…'],
    ['GET "https://h/a2a?api_key=s" failed', 'GET "https://h/a2a?…" failed'],
    ['HTTP 503 with text/plain, not an event stream', 'HTTP 503 with text/plain, not an event stream'],
  ]) assert.equal(redact(text), want, text);
});

test('a task answer over maxEventSize, or a body that is no JSON, is the core\'s StreamSyntaxError', async () => {
  reset();
  await assert.rejects(engine.client({ baseURL: `${base}/a2a`, maxEventSize: 256 }).getTask(doneTask.id),
    (e) => e instanceof StreamSyntaxError && /^At byte 0, 257 bytes: event exceeds MaxEventSize/.test(e.message));
  reset({ answer: () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"id": nope' }) });
  await assert.rejects(engine.client({ baseURL: `${base}/a2a` }).getTask(doneTask.id), StreamSyntaxError);
  reset({ answer: () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"result":{"id":"t","status":{"state":"TASK_STATE_BOGUS"}}}' }) });
  await assert.rejects(engine.client({ baseURL: `${base}/rpc`, binding: 'jsonrpc' }).getTask('t'), (e) => e instanceof Error && e.type !== undefined);
});
