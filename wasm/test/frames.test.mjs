// Frames input: every recorded stream parsed into frames by
// eventsource-parser (as Corti's SDK and other SSE clients hand them out)
// and fed as frames gives the result and updates its bytes give, in each
// of the ways a stream goes in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { load, UsageError } from 'a2astream';
import { cliJSON, samples, testdataDir, chunk } from './helpers.mjs';

const engine = await load();


// frames parses bytes with eventsource-parser, fed in random chunks.
function frames(bytes) {
  const out = [];
  const parser = createParser({ onEvent: (e) => out.push(e), onRetry: (retry) => out.push({ retry }) });
  const dec = new TextDecoder();
  for (const c of chunk(bytes, 'random', 3)) parser.feed(dec.decode(c, { stream: true }));
  parser.feed(dec.decode());
  return out;
}

// plain copies updates for comparison: the result is compared apart, the error by its message.
const plain = (updates) => updates.map((u) => ({ ...u, artifact: u.artifact && { ...u.artifact }, result: undefined, error: u.error && u.error.message }));

function viaBytes(bytes) {
  const d = engine.decoder();
  const updates = [...d.feed(bytes), ...d.end()];
  const json = d.resultJSON();
  d.free();
  return { updates, json };
}

for (const name of samples()) {
  const path = join(testdataDir, name);
  const bytes = readFileSync(path);
  test(`${name}: fed as frames, the result is a2astream --json byte for byte and the updates those of its bytes`, async () => {
    const fs = frames(bytes);
    assert.ok(fs.length > 1);
    const want = viaBytes(bytes);
    assert.equal(want.json, cliJSON(path));

    const all = engine.decoder();
    const allUpdates = [...all.feedFrames(fs), ...all.end()];
    assert.equal(all.resultJSON(), want.json, 'feedFrames');
    assert.deepEqual(plain(allUpdates), plain(want.updates), 'feedFrames updates');
    all.free();

    const one = engine.decoder();
    const oneUpdates = [];
    for (const f of fs) oneUpdates.push(...one.feedFrame(f));
    oneUpdates.push(...one.end());
    assert.equal(one.resultJSON(), want.json, 'feedFrame');
    assert.deepEqual(plain(oneUpdates), plain(want.updates), 'feedFrame updates');
    one.free();

    async function* source() { for (const f of fs) yield f; }
    const iterated = [];
    for await (const u of engine.updates(source())) iterated.push(u);
    assert.deepEqual(plain(iterated), plain(want.updates), 'updates() over an async iterable of frames');
    assert.deepEqual(iterated.at(-1).result, JSON.parse(want.json));

    const piped = [];
    const readable = new ReadableStream({ start(ctl) { for (const f of fs) ctl.enqueue(f); ctl.close(); } });
    for await (const u of readable.pipeThrough(engine.transform())) piped.push(u);
    assert.deepEqual(plain(piped), plain(want.updates), 'transform() of frames');
  });
}

test('a frame\'s fields are written as SSE reads them back: multi-line data, event, id, retry, JSON data', () => {
  const task = { task: { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } } };
  const d = engine.decoder();
  d.feedFrames([
    { id: '1', event: 'message', retry: 1000, data: JSON.stringify(task, null, 2) }, // data over several lines
    { id: '2', data: { statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } } } }, // JSON data
  ]);
  d.end();
  const r = d.result();
  assert.equal(r.state, 'TASK_STATE_COMPLETED');
  assert.equal(r.taskId, 't1');
  assert.equal(r.lastEventId, '2');
  d.free();
});

test('a frame that is not an object, or whose id or event holds a line break, is a TypeError', () => {
  const d = engine.decoder();
  assert.throws(() => d.feedFrame('data: x'), TypeError);
  assert.throws(() => d.feedFrame({ id: '1\ndata: x', data: '{}' }), TypeError);
  assert.throws(() => d.feedFrame({ event: 'a\rb', data: '{}' }), TypeError);
  d.end();
  assert.throws(() => d.feedFrame({ data: '{}' }), UsageError);
  d.free();
});
