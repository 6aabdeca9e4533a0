// Live text after a resubscription equals the uncut run's, for both replay
// models of tasks/{id}:subscribe: the events after Last-Event-ID, and
// Corti's replay from the start of the artifact in progress (its server
// does not read Last-Event-ID yet), also when a task snapshot comes first.
// Every recorded stream is cut at every event boundary and inside every
// event; the decoder is resumed as the Client resumes it, and the text
// updates (a typing UI's log) and the result must be the uncut run's. The
// Client itself is run through a server that replays as Corti's does.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { load } from 'a2astream';
import { samples, testdataDir } from './helpers.mjs';

const engine = await load();
const enc = new TextEncoder();

// events splits a recorded stream after each blank line, with what a
// replay needs of each: its artifact, whether it seals it, the task.
function events(bytes) {
  const out = [];
  let start = 0;
  const push = (end) => {
    const b = bytes.subarray(start, end);
    const m = /^data: ?(.*)$/m.exec(Buffer.from(b).toString('utf8'));
    let doc = {};
    try { doc = m ? JSON.parse(m[1]) : {}; } catch { /* not JSON: no artifact */ }
    const a = doc.artifactUpdate;
    const task = doc.task ?? doc.statusUpdate ?? a ?? {};
    out.push({
      bytes: b, artifact: a?.artifact?.artifactId ?? null, last: !!a?.lastChunk,
      taskId: task.id ?? task.taskId ?? '', contextId: task.contextId ?? '', state: (doc.task ?? doc.statusUpdate)?.status?.state ?? '',
    });
  };
  for (let i = 0; i + 1 < bytes.length; i++) {
    if (bytes[i] === 10 && bytes[i + 1] === 10) { push(i + 2); start = i + 2; i++; }
  }
  if (start < bytes.length) push(bytes.length);
  return out;
}

// replayFrom returns the first event a replay from the start of the
// artifact in progress sends, after the client received evs[:k] whole: the
// first event of the earliest artifact not yet sealed, or k.
function replayFrom(evs, k) {
  const first = new Map(), sealed = new Set();
  evs.slice(0, k).forEach((e, i) => {
    if (!e.artifact) return;
    if (!first.has(e.artifact)) first.set(e.artifact, i);
    if (e.last) sealed.add(e.artifact);
  });
  let from = k;
  for (const [id, i] of first) if (!sealed.has(id)) from = Math.min(from, i);
  return from;
}

// snapshot returns the task event a subscription may start with: the task
// as it stands (its id, context and state), without its artifacts.
function snapshot(evs, k) {
  let taskId = '', contextId = '', state = '';
  for (const e of evs.slice(0, k)) {
    taskId ||= e.taskId;
    contextId ||= e.contextId;
    state = e.state || state;
  }
  return enc.encode(`data: ${JSON.stringify({ task: { id: taskId, contextId, status: { state: state || 'TASK_STATE_WORKING' } } })}\n\n`);
}

// models are what a subscription sends after the client received evs[:k].
const models = {
  'Last-Event-ID': (evs, k) => evs.slice(k).map((e) => e.bytes),
  'artifact replayed': (evs, k) => evs.slice(replayFrom(evs, k)).map((e) => e.bytes),
  'snapshot, artifact replayed': (evs, k) => [snapshot(evs, k), ...evs.slice(replayFrom(evs, k)).map((e) => e.bytes)],
};

// live returns a typing UI's log of the updates: consecutive text updates
// of one artifact as one entry, each replaced update an entry of its own.
function live(updates) {
  const log = [];
  for (const u of updates) {
    if (u.kind !== 'text' && u.kind !== 'replaced') continue;
    const prev = log.at(-1);
    if (u.kind === 'text' && prev && !prev.replaced && prev.artifact === u.artifact.id) prev.text += u.text;
    else log.push({ artifact: u.artifact.id, replaced: u.kind === 'replaced', text: u.text });
  }
  return log;
}

const typed = (log) => log.filter((e) => !e.replaced).map((e) => e.text).join('');

// resumed feeds bytes of evs up to the cut (k whole events, then inside
// bytes of the next), resumes the decoder as the Client does when the
// connection ends there, and feeds what the model's subscription sends.
function resumed(evs, k, inside, model) {
  const d = engine.decoder();
  const updates = [];
  try {
    for (const e of evs.slice(0, k)) updates.push(...d.feed(e.bytes));
    if (inside) updates.push(...d.feed(evs[k].bytes.subarray(0, inside)));
    if (d.status().done) return null; // the run ended before the cut: nothing to resume
    updates.push(...d.resume());
    for (const b of models[model](evs, k)) updates.push(...d.feed(b));
    updates.push(...d.end());
    return updates;
  } finally {
    d.free();
  }
}

for (const name of samples()) {
  test(`${name}: cut at every event boundary and inside every event, resumed with each replay model, the live text is the uncut run's`, () => {
    const bytes = readFileSync(join(testdataDir, name));
    const evs = events(bytes);
    const d = engine.decoder();
    const whole = [...d.feed(bytes), ...d.end()];
    d.free();
    const want = live(whole);
    let runs = 0;
    const names = Object.keys(models);
    for (let k = 1; k < evs.length; k++) {
      for (const inside of [0, evs[k].bytes.length >> 1]) {
        for (const model of names) {
          const got = resumed(evs, k, inside, model);
          if (!got) continue;
          runs++;
          const where = `${model}, cut after event ${k}${inside ? ` and ${inside} bytes of the next` : ''}`;
          assert.equal(typed(live(got)), typed(want), `${where}: the typed text`);
          assert.deepEqual(live(got), want, `${where}: the text updates`);
          assert.deepEqual(got.at(-1).result, whole.at(-1).result, `${where}: the result`);
        }
      }
    }
    assert.ok(runs > 10, `${runs} resumed runs`);
  });
}

// The Client against a server that replays as Corti's does: it ignores
// Last-Event-ID and sends the events from the start of the artifact in
// progress, after a task snapshot.
let server, base;
const state = { evs: [], cutAt: 0, inside: 0, requests: 0 };
before(async () => {
  server = createServer(async (req, res) => {
    for await (const c of req) void c;
    const n = state.requests++;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (n === 0) {
      for (const e of state.evs.slice(0, state.cutAt)) res.write(e.bytes);
      if (state.inside) res.write(state.evs[state.cutAt].bytes.subarray(0, state.inside));
    } else {
      for (const b of models['snapshot, artifact replayed'](state.evs, state.cutAt)) res.write(b);
    }
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => server.close());

test('the Client resubscribed to a server that replays from the artifact\'s start shows the text once', async () => {
  for (const name of samples()) {
    const bytes = readFileSync(join(testdataDir, name));
    const evs = events(bytes);
    const d = engine.decoder();
    const whole = [...d.feed(bytes), ...d.end()];
    d.free();
    // Cuts inside the artifact updates after the first one of an artifact.
    const cuts = evs.map((e, k) => k).filter((k) => k > 1 && evs[k].artifact && evs[k - 1].artifact === evs[k].artifact);
    for (const k of cuts.filter((_, i) => i % 3 === 0)) {
      Object.assign(state, { evs, cutAt: k, inside: evs[k].bytes.length >> 1, requests: 0 });
      const updates = [];
      for await (const u of engine.client({ baseURL: base, retryDelay: -1 }).sendMessageStream('hello')) updates.push(u);
      assert.equal(state.requests, 2, `${name}, cut inside event ${k}`);
      assert.equal(typed(live(updates)), typed(live(whole)), `${name}, cut inside event ${k}: the typed text`);
      assert.deepEqual(updates.at(-1).result, whole.at(-1).result, `${name}, cut inside event ${k}: the result`);
    }
  }
});
