// Node tests of the View (view.js): over every recorded stream, in several
// chunkings and with the connection dropped mid-run, the last View equals
// the CLI's --json document (answer, thinking, state, status message,
// usage, citations and their UTF-16 offsets), no live View shows a
// narration as the answer, and Views share what did not change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { A2AStream, emptyView, foldView, views } from 'a2astream';
import { samples, tool, ensureModule, chunk, chunkings, testdataDir } from './helpers.mjs';

const engine = await A2AStream.load(readFileSync(ensureModule()));
const cli = tool('cmd/a2astream', 'A2ASTREAM_CLI');

// cliResult returns the document `a2astream --json FILE` prints, parsed;
// its exit code says how the run ended and is not checked here.
function cliResult(path) {
  let out;
  try {
    out = execFileSync(cli, ['--json', path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (e) {
    if (typeof e.stdout !== 'string' || e.stdout === '') throw e;
    out = e.stdout;
  }
  return JSON.parse(out);
}

// fold returns the Views of the updates of bytes fed in chunks of n.
function fold(bytes, n) {
  const dec = engine.decoder();
  const updates = [];
  for (const c of chunk(bytes, n)) updates.push(...dec.feed(c));
  updates.push(...dec.end());
  dec.free();
  const out = [];
  let v = emptyView;
  for (const u of updates) out.push(v = foldView(v, u));
  return { updates, views: out };
}

// checkFinal asserts that the last View says what the result document says.
function checkFinal(v, want, label) {
  assert.equal(v.done, true, `${label}: done`);
  assert.equal(v.state, want.state, `${label}: state`);
  assert.equal(v.taskId, want.taskId, `${label}: taskId`);
  assert.equal(v.contextId, want.contextId, `${label}: contextId`);
  assert.deepEqual(v.usage, want.usage, `${label}: usage`);
  assert.equal(v.answer?.text ?? null, want.answer?.text ?? null, `${label}: answer text`);
  assert.equal(v.answer?.id ?? null, want.answer?.artifactId ?? null, `${label}: answer id`);
  assert.deepEqual(v.citations, want.answer?.citations ?? [], `${label}: citations`);
  for (const c of v.citations) {
    assert.equal(new TextEncoder().encode(v.answer.text.slice(0, c.utf16Index)).length, c.byteOffset, `${label}: citation ${c.number} utf16Index`);
  }
  assert.deepEqual(v.artifacts.map((a) => ({ id: a.id, text: a.text, thinking: a.thinking, sealed: a.sealed })),
    want.artifacts.map((a) => ({ id: a.artifactId, text: a.text, thinking: a.thinking, sealed: a.sealed })), `${label}: artifacts`);
  assert.deepEqual(v.artifacts.filter((a) => a.thinking).map((a) => a.text), want.thinking.map((a) => a.text), `${label}: thinking`);
  assert.equal(v.statusMessage?.text ?? null, want.statusMessage?.text ?? null, `${label}: status message`);
  assert.equal(v.error?.type ?? null, want.error?.type ?? null, `${label}: error`);
  assert.deepEqual(v.result, want, `${label}: result`);
}

// checkLive asserts that no View before the end shows a narration (an
// artifact the result has as thinking) as the answer, and that the
// answer, when there is one, is the object listed in artifacts.
function checkLive(vs, want, label) {
  const narration = new Set(want.thinking.map((a) => a.artifactId));
  for (const [i, v] of vs.entries()) {
    if (v.answer === null) continue;
    assert.ok(!narration.has(v.answer.id), `${label}: view ${i} shows the narration ${v.answer.id} as the answer`);
    assert.equal(v.answer.thinking, false, `${label}: view ${i}: a thinking answer`);
    assert.equal(v.answer.sealed, true, `${label}: view ${i}: an open answer`);
    assert.ok(v.artifacts.includes(v.answer), `${label}: view ${i}: the answer is not the listed artifact`);
  }
}

for (const name of samples()) {
  const path = join(testdataDir, name);
  const bytes = readFileSync(path);
  test(`${name}: the last View is the --json document, and no View shows the narration as the answer`, () => {
    const want = cliResult(path);
    for (const n of chunkings) {
      const { views: vs } = fold(bytes, n);
      checkFinal(vs.at(-1), want, `${name}, chunking ${n}`);
      checkLive(vs, want, `${name}, chunking ${n}`);
    }
  });

  test(`${name}: the Views through engine.views() and a Client that resubscribes after drops`, async () => {
    const want = cliResult(path);
    const got = [];
    for await (const v of engine.views(new Response(bytes, { headers: { 'content-type': 'text/event-stream' } }))) got.push(v);
    checkFinal(got.at(-1), want, `${name}, engine.views`);

    // The server drops the connection after every third event; each
    // resubscription goes on after its Last-Event-ID.
    const events = bytes.toString('utf8').split(/\n\n/).filter((e) => e.trim() !== '').map((e) => `${e}\n\n`);
    let connections = 0;
    const fetch = async (url, init) => {
      const last = Number(new Headers(init.headers).get('last-event-id') ?? 0);
      const from = events.findIndex((e) => Number(/^id: (\d+)/m.exec(e)?.[1] ?? 0) > last);
      connections++;
      return new Response(events.slice(from, from + 3).join(''), { headers: { 'content-type': 'text/event-stream' } });
    };
    const client = engine.client({ baseURL: 'https://agent.test/a2a', fetch, retryDelay: -1, retries: 100 });
    const live = [];
    for await (const v of views(client.sendMessageStream('Hello'))) live.push(v);
    assert.ok(connections > 1, `${name}: ${connections} connection(s): the run was not cut`);
    checkFinal(live.at(-1), want, `${name}, resubscribed`);
    checkLive(live, want, `${name}, resubscribed`);
  });
}

test('a View shares what an update did not change, and is frozen', () => {
  const { updates, views: vs } = fold(readFileSync(join(testdataDir, 'thinking-tool-answer.sse')), 'random');
  let prev = emptyView;
  for (const [i, v] of vs.entries()) {
    const u = updates[i];
    assert.ok(Object.isFrozen(v) && Object.isFrozen(v.artifacts), `view ${i} is not frozen`);
    for (const a of v.artifacts) assert.ok(Object.isFrozen(a), `view ${i}: artifact ${a.id} is not frozen`);
    if (u.kind === 'state') assert.equal(v.artifacts, prev.artifacts, `view ${i} (state): a new artifact list`);
    if (u.kind === 'text' || u.kind === 'replaced' || u.kind === 'sealed') {
      for (const a of v.artifacts) {
        if (a.index === u.artifact.index) continue;
        assert.equal(a, prev.artifacts.find((x) => x.index === a.index), `view ${i}: artifact ${a.index} was copied though unchanged`);
      }
    }
    prev = v;
  }
  // The narration, closed before the answer began, is the same object
  // from its close to the end, the last View included.
  const closed = vs.findIndex((v) => v.artifacts[0]?.thinking);
  assert.ok(closed > 0);
  for (const v of vs.slice(closed)) assert.equal(v.artifacts[0], vs[closed].artifacts[0]);
});

test('the narration is typed as an artifact, marked thinking at its close, and never the answer', () => {
  const { views: vs } = fold(readFileSync(join(testdataDir, 'thinking-tool-answer.sse')), 1);
  const typing = vs.find((v) => v.artifacts.length === 1 && v.artifacts[0].text === 'Let me ');
  assert.ok(typing, 'no View with the narration half typed');
  assert.equal(typing.artifacts[0].thinking, false);
  assert.equal(typing.answer, null);
  const closed = vs.find((v) => v.artifacts[0]?.thinking);
  assert.equal(closed.artifacts[0].text, 'Let me check the latest lab results before answering…');
  assert.equal(closed.answer, null);
  const sealed = vs.find((v) => v.answer !== null);
  assert.ok(sealed.answer.text.startsWith('HbA1c is 8.2 %'), sealed.answer.text);
  assert.equal(sealed.done, false, 'the answer shows once sealed, before the run ends');
});

test('an answer re-opened or re-sealed as thinking is no longer the answer', () => {
  const art = (thinking, sealed) => Object.freeze({ index: 0, id: 'a', name: '', thinking, sealed });
  let v = foldView(emptyView, { kind: 'text', seq: 1, artifact: art(false, false), text: 'Draft' });
  v = foldView(v, { kind: 'sealed', seq: 2, artifact: art(false, true) });
  assert.equal(v.answer, v.artifacts[0]);
  const reopened = foldView(v, { kind: 'text', seq: 3, artifact: art(false, false), text: ' more' });
  assert.equal(reopened.answer, null);
  assert.equal(reopened.artifacts[0].text, 'Draft more');
  const rethought = foldView(v, { kind: 'sealed', seq: 3, artifact: art(true, true) });
  assert.equal(rethought.answer, null);
  assert.equal(rethought.artifacts[0].thinking, true);
  const replaced = foldView(v, { kind: 'replaced', seq: 3, artifact: art(false, true), text: 'Final' });
  assert.equal(replaced.answer, replaced.artifacts[0]);
  assert.equal(replaced.answer.text, 'Final');
});
