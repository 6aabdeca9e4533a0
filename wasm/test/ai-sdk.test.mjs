// Node tests of a2astream/ai-sdk with the AI SDK's own code, ai 7 and ai 6
// (the ai6 alias): over every recorded stream, the server route's Response
// read by DefaultChatTransport (what useChat does) and readUIMessageStream
// ends with the golden message derived from the CLI's --json
// (ai-sdk-goldens.mjs), also when the agent drops the connection every
// third event; no live message shows a narration as text or the answer
// twice. The ChatTransport continues a task waiting for input, detaches on
// stop and reads on with Last-Event-ID, and cancels with one call; with a
// store, the AI SDK's Chat (what useChat runs) resumes a run after a reload
// (a new Chat and transport over the same store) or a stop, showing the
// uncut run's message once, against an agent that reads Last-Event-ID and
// one that replays the artifact in progress. The JS the bridge adds to a
// bundle is measured with esbuild.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as ai7 from 'ai';
import * as ai6 from 'ai6';
import { load } from 'a2astream';
import { A2AChatTransport, toUIMessageStream, toUIMessageStreamResponse } from 'a2astream/ai-sdk';
import { samples, ensureModule, testdataDir, wasmDir } from './helpers.mjs';
import { cliDoc, golden, goldenDir } from './ai-sdk-goldens.mjs';

const engine = await load(readFileSync(ensureModule()));
const versions = [{ name: 'ai 7', ai: ai7, key: 'ai7', resetStep: true }, { name: 'ai 6', ai: ai6, key: 'ai6', resetStep: false }];
const enc = new TextEncoder();

// fakeAgent serves a recorded stream as an A2A agent would: message:stream
// and tasks/{id}:subscribe from the events after Last-Event-ID, at most
// perConnection events per connection (then the connection ends), one
// event per delay ms; tasks/{id}:cancel answers the canceled task. calls
// lists the requests.
function fakeAgent(bytes, { perConnection = Infinity, delay = 0 } = {}) {
  const events = bytes.toString('utf8').split(/\n\n/).filter((e) => e.trim() !== '').map((e) => `${e}\n\n`);
  const idOf = (e) => Number(/^id: (\d+)/m.exec(e)?.[1] ?? 0);
  const calls = [];
  const fetch = async (url, init) => {
    const h = new Headers(init.headers);
    calls.push({ url, method: init.method, body: init.body ? JSON.parse(init.body) : null, lastEventId: h.get('last-event-id') });
    const cancel = /\/tasks\/([^/]+):cancel$/.exec(url);
    if (cancel) return Response.json({ id: decodeURIComponent(cancel[1]), contextId: 'ctx', status: { state: 'TASK_STATE_CANCELED' } });
    const last = Number(h.get('last-event-id') ?? 0);
    const from = events.findIndex((e) => idOf(e) > last);
    const slice = from < 0 ? [] : events.slice(from, from + perConnection);
    let i = 0;
    const body = new ReadableStream({
      async pull(ctl) {
        if (delay) await new Promise((r) => setTimeout(r, delay));
        if (i >= slice.length) { ctl.close(); return; }
        ctl.enqueue(enc.encode(slice[i++]));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
  return { fetch, calls };
}

// route reads a server route's Response as useChat does: DefaultChatTransport
// parses and checks the chunks, readUIMessageStream builds the message. It
// returns every message it yielded (as JSON) and the last one.
async function route(ai, response) {
  const transport = new ai.DefaultChatTransport({ api: 'http://app.test/api/chat', fetch: async () => response });
  const stream = await transport.sendMessages({
    chatId: 'c1', messageId: undefined, trigger: 'submit-message', abortSignal: undefined,
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hello' }] }],
  });
  return read(ai, stream);
}

async function read(ai, stream, message) {
  const seen = [];
  const errors = [];
  for await (const m of ai.readUIMessageStream({ stream, message, onError: (e) => errors.push(e) })) seen.push(JSON.parse(JSON.stringify(m)));
  return { seen, last: seen.at(-1), errors };
}

// checkLive asserts that no message seen shows a narration as text, nor
// the answer twice.
function checkLive(seen, doc, label) {
  const narration = doc.thinking.map((a) => a.text).filter((t) => t !== '');
  for (const [i, m] of seen.entries()) {
    const texts = m.parts.filter((p) => p.type === 'text').map((p) => p.text);
    for (const t of texts) assert.ok(!narration.some((n) => t !== '' && n.startsWith(t)), `${label}: message ${i} shows the narration "${t}" as text`);
    if (doc.answer) assert.ok(texts.filter((t) => t === doc.answer.text).length <= 1, `${label}: message ${i} shows the answer twice`);
  }
}

function plain(m) { return { metadata: m.metadata, parts: m.parts }; }

test('the goldens are those ai-sdk-goldens.mjs derives from the CLI\'s --json', () => {
  for (const name of samples()) {
    const doc = cliDoc(name);
    const want = JSON.parse(readFileSync(join(goldenDir, name.replace(/\.sse$/, '.json')), 'utf8'));
    assert.deepEqual(want, JSON.parse(JSON.stringify({ ai7: golden(doc, false), ai6: golden(doc, true) })), `${name}: run node wasm/test/ai-sdk-goldens.mjs`);
  }
});

for (const name of samples()) {
  const bytes = readFileSync(join(testdataDir, name));
  const want = JSON.parse(readFileSync(join(goldenDir, name.replace(/\.sse$/, '.json')), 'utf8'));
  for (const v of versions) {
    test(`${name}, ${v.name}: the server route's message is the golden, whole and with drops every third event`, async () => {
      const doc = cliDoc(name);
      const whole = await route(v.ai, toUIMessageStreamResponse(bytes, { engine, resetStep: v.resetStep }));
      assert.deepEqual(whole.errors, []);
      assert.deepEqual(plain(whole.last), want[v.key], 'bytes');
      checkLive(whole.seen, doc, `${name} bytes`);

      const agent = fakeAgent(bytes, { perConnection: 3 });
      const client = engine.client({ baseURL: 'https://agent.test/a2a', fetch: agent.fetch, retryDelay: -1, retries: 100 });
      const dropped = await route(v.ai, toUIMessageStreamResponse(client.sendMessageStream('Hello'), { resetStep: v.resetStep }));
      assert.ok(agent.calls.length > 1, 'the run was not cut');
      assert.deepEqual(dropped.errors, []);
      assert.deepEqual(plain(dropped.last), want[v.key], 'with drops');
      checkLive(dropped.seen, doc, `${name} with drops`);
    });
  }
}

test('live, the answer is typed as reasoning, then shown once as text at its close', async () => {
  const bytes = readFileSync(join(testdataDir, 'thinking-tool-answer.sse'));
  const { seen } = await read(ai7, toUIMessageStream(engine.updates(chunks(bytes, 7))));
  const typing = seen.find((m) => m.parts.some((p) => p.type === 'reasoning' && p.text.startsWith('HbA1c') && p.state === 'streaming'));
  assert.ok(typing, 'the answer was not typed live');
  assert.ok(!typing.parts.some((p) => p.type === 'text'), 'text before the close');
  const narrated = seen.find((m) => m.parts.some((p) => p.type === 'reasoning' && p.text.startsWith('Let me') && p.state === 'streaming'));
  assert.ok(narrated, 'the narration was not typed live');
  assert.equal(seen.at(-1).parts.filter((p) => p.type === 'reasoning').length, 1);
});

// chunks splits bytes into pieces of n bytes.
function chunks(bytes, n) {
  const out = [];
  for (let i = 0; i < bytes.length; i += n) out.push(bytes.subarray(i, i + n));
  return out;
}

test('the transport continues a task waiting for input, with its task and context ids', async () => {
  const agent = fakeAgent(readFileSync(join(testdataDir, 'input-required.sse')));
  const transport = new A2AChatTransport({ client: engine.client({ baseURL: 'https://agent.test/a2a', fetch: agent.fetch }) });
  const user1 = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Draft a cardiology referral' }] };
  const first = await read(ai7, await transport.sendMessages({ chatId: 'c1', messages: [user1], trigger: 'submit-message', messageId: undefined, abortSignal: undefined }));
  const doc = cliDoc('input-required.sse');
  assert.equal(first.last.metadata.state, 'TASK_STATE_INPUT_REQUIRED');
  assert.equal(first.last.parts.at(-1).text, doc.statusMessage.text, 'the question is shown');
  const assistant = { ...first.last, id: 'a1' };
  const user2 = { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Rigshospitalet' }] };
  await read(ai7, await transport.sendMessages({ chatId: 'c1', messages: [user1, assistant, user2], trigger: 'submit-message', messageId: undefined, abortSignal: undefined }));
  const sent = agent.calls.map((c) => c.body?.message).filter(Boolean);
  assert.equal(sent.length, 2);
  assert.equal(sent[0].taskId, undefined);
  assert.equal(sent[1].taskId, doc.taskId);
  assert.equal(sent[1].contextId, doc.contextId);
  assert.deepEqual(sent[1].parts, [{ text: 'Rigshospitalet' }]);
});

test('stop() detaches without cancelling; resumeStream replays the message from Last-Event-ID to the golden; cancelTask is one call', async () => {
  const bytes = readFileSync(join(testdataDir, 'thinking-tool-answer.sse'));
  const agent = fakeAgent(bytes, { delay: 2 });
  const transport = new A2AChatTransport({ client: engine.client({ baseURL: 'https://agent.test/a2a', fetch: agent.fetch }) });
  const stop = new AbortController();
  const stream = await transport.sendMessages({
    chatId: 'c2', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Labs?' }] }], trigger: 'submit-message', messageId: undefined, abortSignal: stop.signal,
  });
  let last;
  for await (const m of ai7.readUIMessageStream({ stream })) {
    last = JSON.parse(JSON.stringify(m));
    if (m.parts.some((p) => p.type === 'reasoning' && p.text.length > 10)) stop.abort(new Error('stopped'));
  }
  assert.ok(last.parts.some((p) => p.type === 'reasoning'), 'nothing was read before the stop');
  assert.ok(!agent.calls.some((c) => c.url.endsWith(':cancel')), 'stop cancelled the task');

  const resumed = await transport.reconnectToStream({ chatId: 'c2' });
  assert.ok(resumed, 'no stream to resume');
  // The message again, whole (as useChat reads a resumed stream: from no
  // message, resumeStreamIsReplay), with the same id.
  assert.equal(transport.resumeStreamIsReplay, true);
  const { last: end, errors } = await read(ai7, resumed);
  assert.equal(end.id, last.id);
  const sub = agent.calls.at(-1);
  assert.match(sub.url, /\/tasks\/[^/]+:subscribe$/);
  assert.ok(Number(sub.lastEventId) > 0, `Last-Event-ID ${sub.lastEventId}`);
  assert.deepEqual(errors, []);
  const want = JSON.parse(readFileSync(join(goldenDir, 'thinking-tool-answer.json'), 'utf8'));
  assert.deepEqual(plain(end), want.ai7);
  assert.equal(await transport.reconnectToStream({ chatId: 'c2' }), null, 'a finished run has nothing to resume');

  const reply = await transport.cancelTask('c2');
  assert.equal(reply.result.state, 'TASK_STATE_CANCELED');
  assert.match(agent.calls.at(-1).url, /\/tasks\/task\.019e4024-95c0-70a1-b4c2-d9e8f7a6b5c4:cancel$/);
});

// cortiAgent serves a recorded stream as Corti's agent does today: a
// subscription ignores Last-Event-ID and replays the events from the start
// of the artifact in progress (the one the last event served belongs to,
// when not closed yet), then the rest.
function cortiAgent(bytes, { delay = 0 } = {}) {
  const events = bytes.toString('utf8').split(/\n\n/).filter((e) => e.trim() !== '').map((e) => `${e}\n\n`);
  const artifact = (e) => /"artifactId":"([^"]+)"/.exec(e)?.[1];
  let served = -1;
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url, lastEventId: new Headers(init.headers).get('last-event-id') });
    let from = 0;
    if (/:subscribe$/.test(url)) {
      from = served + 1;
      const open = artifact(events[served] ?? '');
      if (open && !/"lastChunk":true/.test(events[served])) from = events.findIndex((e) => artifact(e) === open);
      calls.at(-1).replayed = served + 1 - from;
    }
    let i = from;
    const body = new ReadableStream({
      async pull(ctl) {
        if (delay) await new Promise((r) => setTimeout(r, delay));
        if (i >= events.length) { ctl.close(); return; }
        served = Math.max(served, i);
        ctl.enqueue(enc.encode(events[i++]));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
  return { fetch, calls };
}

// chatOf returns the AI SDK's Chat (AbstractChat, what useChat runs) over
// transport, its state plain objects as in a page; renders receives every
// message list the chat shows.
function chatOf(ai, transport, id, messages, renders) {
  const state = {
    status: 'ready', error: undefined, messages: [...messages],
    pushMessage(m) { this.messages = [...this.messages, m]; renders.push(JSON.parse(JSON.stringify(this.messages))); },
    popMessage() { this.messages = this.messages.slice(0, -1); },
    replaceMessage(i, m) { this.messages = this.messages.map((x, j) => (j === i ? m : x)); renders.push(JSON.parse(JSON.stringify(this.messages))); },
    snapshot: (x) => structuredClone(x),
  };
  return new (class extends ai.AbstractChat {})({ id, transport, state });
}

// pageStore is a page's view of one sessionStorage: after the page is
// gone (dead), its writes are lost.
function pageStore(map) {
  const page = { dead: false };
  page.store = {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => { if (!page.dead) map.set(k, String(v)); },
    removeItem: (k) => { if (!page.dead) map.delete(k); },
  };
  return page;
}

for (const v of versions) {
  for (const server of ['an agent that reads Last-Event-ID', "Corti's agent (replays the artifact in progress)"]) {
    for (const kept of ['the partial message', 'the user message only', 'no reload']) {
      const title = kept === 'no reload' ? 'stop() then resumeStream() in the same page' : `the app kept ${kept}: after a reload mid-run, useChat({ resume: true })`;
      test(`${v.name}, ${server}, ${title} shows the run's message once`, async () => {
        const bytes = readFileSync(join(testdataDir, 'thinking-tool-answer.sse'));
        const want = JSON.parse(readFileSync(join(goldenDir, 'thinking-tool-answer.json'), 'utf8'))[v.key];
        const doc = cliDoc('thinking-tool-answer.sse');
        const corti = server.startsWith('Corti') ? cortiAgent(bytes, { delay: 2 }) : null;
        const agent = corti ?? fakeAgent(bytes, { delay: 2 });
        const storage = new Map();
        const client = () => engine.client({ baseURL: 'https://agent.test/a2a', fetch: agent.fetch });

        // The first page: the run is read until the answer is being typed.
        const page1 = pageStore(storage);
        const renders1 = [];
        const transport1 = new A2AChatTransport({ client: client(), resetStep: v.resetStep, store: page1.store });
        const chat1 = chatOf(v.ai, transport1, 'c3', [], renders1);
        const sent = chat1.sendMessage({ text: 'Labs?' });
        const typing = (ms) => ms[1]?.parts.some((p) => p.type === 'reasoning' && p.text.startsWith('HbA1c is 8.2'));
        while (!renders1.some(typing)) await new Promise((r) => setTimeout(r, 1));
        // The reload: the page's state is gone, its store keeps what it wrote.
        page1.dead = kept !== 'no reload';
        const shown = renders1.at(-1);
        await chat1.stop();
        await sent;
        assert.ok(storage.size === 1, 'nothing was kept');

        const messages = kept === 'the partial message' ? shown : shown.slice(0, 1);
        const renders2 = [];
        const transport2 = kept === 'no reload' ? transport1 : new A2AChatTransport({ client: client(), resetStep: v.resetStep, store: pageStore(storage).store });
        const chat2 = kept === 'no reload' ? chat1 : chatOf(v.ai, transport2, 'c3', messages, renders2);
        if (kept === 'no reload') renders1.length = 0;
        await chat2.resumeStream();
        assert.equal(chat2.error, undefined);
        assert.equal(chat2.messages.length, 2, JSON.stringify(chat2.messages.map((m) => m.role)));
        assert.equal(chat2.messages[1].id, shown[1].id, 'the message has a new id');
        assert.deepEqual(JSON.parse(JSON.stringify(plain(chat2.messages[1]))), want);
        const after = kept === 'no reload' ? renders1 : renders2;
        checkLive(after.map((ms) => ms.at(-1)), doc, 'after the reload');
        assert.ok(after.length > 0 && after.every((ms) => ms.length === 2), 'a render shows a second assistant message');
        const sub = agent.calls.at(-1);
        assert.match(sub.url, /\/tasks\/[^/]+:subscribe$/);
        assert.ok(Number(sub.lastEventId) > 0, `Last-Event-ID ${sub.lastEventId}`);
        if (agent === corti) assert.ok(sub.replayed > 1, `the subscription replayed ${sub.replayed} events`);
        assert.equal(storage.size, 0, 'the ended run is still kept');
        assert.equal(await transport2.reconnectToStream({ chatId: 'c3' }), null, 'an ended run has nothing to resume');
      });
    }
  }
}

// A task the server no longer has (it expired while the page was closed)
// is refused; the stored run is forgotten, so that the next reload does not
// try again, and an error is shown once.
for (const when of ['on the reload', 'on a resubscription after the reload']) {
  test(`a run the server refuses ${when} is forgotten by the store`, async () => {
    const bytes = readFileSync(join(testdataDir, 'thinking-tool-answer.sse'));
    const agent = fakeAgent(bytes, { delay: 2 });
    const storage = new Map();
    const page1 = pageStore(storage);
    const renders1 = [];
    const transport1 = new A2AChatTransport({ client: engine.client({ baseURL: 'https://agent.test/a2a', fetch: agent.fetch }), store: page1.store });
    const chat1 = chatOf(ai7, transport1, 'c4', [], renders1);
    const sent = chat1.sendMessage({ text: 'Labs?' });
    while (!renders1.some((ms) => ms[1]?.parts.some((p) => p.type === 'reasoning'))) await new Promise((r) => setTimeout(r, 1));
    page1.dead = true;
    await chat1.stop();
    await sent;
    assert.equal(storage.size, 1, 'the run is kept');

    // The task is gone: a subscription gets 404. On a resubscription, the
    // first subscription is cut after one event, and the next is refused.
    let subscriptions = 0;
    const gone = async (url, init) => {
      if (/:subscribe$/.test(url) && (when === 'on the reload' || ++subscriptions > 1)) {
        return new Response(JSON.stringify({ error: { code: 404, status: 'NOT_FOUND', message: 'no such task' } }), { status: 404, headers: { 'content-type': 'application/json' } });
      }
      const resp = await agent.fetch(url, init);
      const reader = resp.body.getReader();
      const { value } = await reader.read();
      reader.cancel();
      return new Response(value, { headers: { 'content-type': 'text/event-stream' } });
    };
    const transport2 = new A2AChatTransport({ client: engine.client({ baseURL: 'https://agent.test/a2a', fetch: gone, retryDelay: 1 }), store: pageStore(storage).store });
    const chat2 = chatOf(ai7, transport2, 'c4', renders1.at(-1).slice(0, 1), []);
    await chat2.resumeStream();
    assert.equal(chat2.status, 'error');
    assert.match(String(chat2.error?.message), /no such task/i, 'the refusal is the error shown');
    assert.equal(storage.size, 0, 'the refused run is still kept');
    assert.equal(await transport2.reconnectToStream({ chatId: 'c4' }), null, 'a refused run is resumed again');
    const transport3 = new A2AChatTransport({ client: engine.client({ baseURL: 'https://agent.test/a2a', fetch: gone }), store: pageStore(storage).store });
    assert.equal(await transport3.reconnectToStream({ chatId: 'c4' }), null, 'the next reload resumes the refused run');
  });
}

test('the bridge adds under 10 KB gzip of JS to a bundle (esbuild, minified)', async () => {
  const esbuildPath = join(wasmDir, 'test', 'bundlers', 'node_modules', 'esbuild', 'lib', 'main.js');
  assert.ok(existsSync(esbuildPath), 'esbuild is missing: npm ci in wasm/test/bundlers');
  const esbuild = (await import(esbuildPath)).default;
  const dir = join(wasmDir, 'test', 'out', 'ai-sdk-size');
  mkdirSync(dir, { recursive: true });
  const size = async (entry) => {
    const file = join(dir, 'entry.js');
    writeFileSync(file, entry);
    const out = await esbuild.build({
      entryPoints: [file], bundle: true, minify: true, format: 'esm', platform: 'browser', write: false,
      alias: { a2astream: wasmDir }, external: ['*.wasm'], logLevel: 'silent',
    });
    return gzipSync(out.outputFiles[0].contents, { level: 9 }).length;
  };
  const core = await size("export * from 'a2astream';\n");
  const both = await size("export * from 'a2astream';\nexport * from 'a2astream/ai-sdk';\n");
  const alone = await size("export * from 'a2astream/ai-sdk';\n");
  console.log(`gzip: a2astream ${core} B, with a2astream/ai-sdk ${both} B (+${both - core} B), a2astream/ai-sdk alone ${alone} B`);
  assert.ok(both - core < 10_000, `the bridge adds ${both - core} B gzip`);
  assert.ok(alone < 10_000, `the bridge alone is ${alone} B gzip`);
});
