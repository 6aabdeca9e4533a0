// The demo chat (app/: React and useChat) built with Vite 8 (from
// ../bundlers) and run in headless Chromium against a server that plays
// the recorded streams as an A2A agent, dropping the connection every third
// event: with the package's A2AChatTransport in the page, and with
// useChat's default transport to a server route made with
// toUIMessageStreamResponse. For every sample the last UIMessage (its parts
// and metadata, as JSON) equals the golden derived from the CLI's --json
// (../ai-sdk-goldens.mjs), and no render shows the narration as text or
// the answer twice. With a store, the page reloaded while the answer is
// typed resumes (useChat's resume): the same message, the golden, with the
// answer once. The same route in front of the @a2a-js/sdk agent of
// the CLI's interop test ends with what `a2astream --json -m` gives for the
// same question. A screenshot of the chat is written to a temporary folder
// and its path printed.
//
//	(cd wasm/test/chat && npm ci) && node --test wasm/test/chat/chat.test.mjs
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
// (relative: this folder's package.json hides the package's own name)
import { load } from '../../a2astream.node.js';
import { toUIMessageStreamResponse } from '../../ai-sdk.js';
import { samples, ensureModule, testdataDir, wasmDir, tool } from '../helpers.mjs';
import { cliDoc, golden, goldenDir } from '../ai-sdk-goldens.mjs';
import { launchChromium } from '../chromium.mjs';

const chatDir = join(wasmDir, 'test', 'chat');
const engine = await load(readFileSync(ensureModule()));
const vitePath = join(wasmDir, 'test', 'bundlers', 'node_modules', 'vite', 'dist', 'node', 'index.js');
if (!existsSync(vitePath)) throw new Error('Vite is missing: npm ci in wasm/test/bundlers');
const vite = await import(pathToFileURL(vitePath).href);

const dist = join(wasmDir, 'test', 'out', 'chat-dist');
await vite.build({
  root: join(chatDir, 'app'), configFile: false, logLevel: 'error', build: { outDir: dist, emptyOutDir: true },
  resolve: {
    alias: [
      { find: /^a2astream\/ai-sdk$/, replacement: join(wasmDir, 'ai-sdk.js') },
      { find: /^a2astream$/, replacement: join(wasmDir, 'a2astream.js') },
    ],
  },
});

const PER_CONNECTION = 3;
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };

// events returns the SSE events of a sample with their ids.
function events(name) {
  return readFileSync(join(testdataDir, name), 'utf8').split(/\n\n/).filter((e) => e.trim() !== '')
    .map((e) => ({ id: Number(/^id: (\d+)/m.exec(e)?.[1] ?? 0), text: `${e}\n\n` }));
}

const connections = new Map(); // sample → connections made to the agent
const server = createServer(async (req, res) => {
  try {
    const url = new URL(req.url, 'http://localhost');
    let m = /^\/a2a\/([\w.-]+\.sse)\/(?:message:stream|tasks\/[^/]+:subscribe)$/.exec(url.pathname);
    if (m) {
      // The agent: the events after Last-Event-ID, a few per connection.
      connections.set(m[1], (connections.get(m[1]) ?? 0) + 1);
      const last = Number(req.headers['last-event-id'] ?? 0);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const e of events(m[1]).filter((x) => x.id > last).slice(0, PER_CONNECTION)) {
        res.write(e.text);
        await new Promise((r) => setTimeout(r, 15));
      }
      res.end();
      return;
    }
    m = /^\/api\/chat\/sdk\/(\w+)$/.exec(url.pathname);
    if (m) {
      // The server route in front of the @a2a-js/sdk agent, asked m[1].
      for await (const _ of req) { /* the messages: the test names the question */ }
      const r = toUIMessageStreamResponse(engine.client({ baseURL: `${sdkBase}/a2a/rest` }).sendMessageStream(m[1]));
      res.writeHead(r.status, Object.fromEntries(r.headers));
      for await (const c of r.body) res.write(c);
      res.end();
      return;
    }
    m = /^\/api\/chat\/([\w.-]+\.sse)$/.exec(url.pathname);
    if (m) {
      // The server route: the agent's run as the UI message stream.
      for await (const _ of req) { /* the messages: this agent answers any */ }
      const client = engine.client({ baseURL: `http://127.0.0.1:${server.address().port}/a2a/${m[1]}`, retryDelay: -1, retries: 100 });
      const r = toUIMessageStreamResponse(client.sendMessageStream('Hello'));
      res.writeHead(r.status, Object.fromEntries(r.headers));
      for await (const c of r.body) res.write(c);
      res.end();
      return;
    }
    const file = join(dist, normalize(url.pathname === '/' ? '/index.html' : url.pathname));
    if (!file.startsWith(dist) || !existsSync(file)) { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  } catch (e) {
    res.destroy(e);
  }
});
// The @a2a-js/sdk agent of the CLI's interop test (its dependencies
// installed from its lock file when missing).
const sdkDir = join(wasmDir, '..', 'cmd', 'a2astream', 'interop');
if (!existsSync(join(sdkDir, 'node_modules', '@a2a-js', 'sdk'))) execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: sdkDir, stdio: 'inherit' });
const sdk = spawn(process.execPath, ['server.js'], { cwd: sdkDir, stdio: ['ignore', 'pipe', 'inherit'] });
const sdkBase = await new Promise((resolve, reject) => {
  let out = '';
  sdk.stdout.on('data', (b) => {
    out += b;
    const found = /^listening (\S+)$/m.exec(out);
    if (found) resolve(found[1]);
  });
  sdk.on('exit', (code) => reject(new Error(`the @a2a-js/sdk agent exited with ${code}`)));
});

await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await launchChromium();
after(async () => { await browser.close(); server.close(); sdk.kill(); });

let shot = false;
for (const name of samples()) {
  const want = JSON.parse(readFileSync(join(goldenDir, name.replace(/\.sse$/, '.json')), 'utf8')).ai7;
  const doc = cliDoc(name);
  for (const mode of ['transport', 'route']) {
    test(`${name}, useChat with ${mode === 'transport' ? 'A2AChatTransport' : 'a server route'}: the last message is the golden`, async () => {
      const page = await browser.context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      const before = connections.get(name) ?? 0;
      await page.goto(`${origin}/index.html?mode=${mode}&sample=${name}`);
      await page.waitForFunction(() => {
        const c = window.__chat;
        return c.error || (c.status === 'ready' && c.messages.length === 2 && c.messages[1].metadata?.state);
      }, null, { timeout: 60_000 });
      const chat = await page.evaluate(() => window.__chat);
      assert.deepEqual(errors, []);
      assert.equal(chat.error, null);
      assert.ok((connections.get(name) ?? 0) - before > 1, 'the run was not cut');
      const m = chat.messages[1];
      assert.deepEqual({ metadata: m.metadata, parts: m.parts }, want);
      const narration = doc.thinking.map((a) => a.text).filter((t) => t !== '');
      for (const texts of chat.texts) {
        for (const t of texts) assert.ok(!narration.some((n) => t !== '' && n.startsWith(t)), `a render shows the narration "${t}" as text`);
        if (doc.answer) assert.ok(texts.filter((t) => t === doc.answer.text).length <= 1, 'a render shows the answer twice');
      }
      if (!shot && name === 'thinking-tool-answer.sse') {
        shot = true;
        const path = join(mkdtempSync(join(tmpdir(), 'a2astream-chat-')), 'chat.png');
        await page.screenshot({ path, fullPage: true });
        console.log(`screenshot of the demo chat: ${path}`);
      }
      await page.close();
    });
  }
}

// A reload while the answer is typed: the page comes back with the
// messages it kept and useChat({ resume: true }), and the transport's store
// (sessionStorage) lets it subscribe to the task again.
test('thinking-tool-answer.sse, useChat with A2AChatTransport and a store, reloaded while the answer is typed: the answer once, COMPLETED', async () => {
  const name = 'thinking-tool-answer.sse';
  const want = JSON.parse(readFileSync(join(goldenDir, name.replace(/\.sse$/, '.json')), 'utf8')).ai7;
  const doc = cliDoc(name);
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${origin}/index.html?mode=transport&resume=1&sample=${name}`);
  await page.waitForFunction(() => window.__chat.messages[1]?.parts.some((p) => p.type === 'reasoning' && p.text.startsWith('HbA1c')), null, { timeout: 60_000 });
  const before = await page.evaluate(() => window.__chat);
  assert.notEqual(before.status, 'ready', 'the run ended before the reload');
  assert.ok(!before.messages[1].parts.some((p) => p.type === 'text'), 'the answer was shown before the reload');
  const reloadedAt = connections.get(name);
  await page.reload();
  await page.waitForFunction(() => {
    const c = window.__chat;
    return c.error || (c.status === 'ready' && c.messages[1]?.metadata?.state === 'TASK_STATE_COMPLETED');
  }, null, { timeout: 60_000 });
  const chat = await page.evaluate(() => window.__chat);
  await page.close();
  assert.deepEqual(errors, []);
  assert.equal(chat.error, null);
  assert.ok(connections.get(name) > reloadedAt, 'the reloaded page did not subscribe to the task');
  assert.equal(chat.messages.length, 2);
  assert.equal(chat.messages[1].id, before.messages[1].id);
  assert.deepEqual({ metadata: chat.messages[1].metadata, parts: chat.messages[1].parts }, want);
  for (const texts of chat.texts) assert.ok(texts.filter((t) => t === doc.answer.text).length <= 1, 'a render shows the answer twice');
});

// withoutIds drops what differs between two runs of the @a2a-js/sdk agent:
// the task, context and artifact ids (the reasoning parts' ids).
function withoutIds(m) {
  const { taskId, contextId, ...metadata } = m.metadata;
  return { metadata, parts: m.parts.map(({ id, ...p }) => p) };
}

// Against the @a2a-js/sdk agent (no drops: it never drops), through a
// server route: the golden is derived from the CLI's --json of the same
// question asked of the same agent.
for (const question of ['hello', 'input', 'fail']) {
  test(`the @a2a-js/sdk agent asked "${question}", useChat with a server route: the last message is the CLI's`, async () => {
    const cli = tool('cmd/a2astream', 'A2ASTREAM_CLI');
    let out;
    try {
      out = execFileSync(cli, ['--json', '-m', question, `${sdkBase}/a2a/rest`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch (e) {
      out = e.stdout;
    }
    const doc = JSON.parse(out);
    const page = await browser.context.newPage();
    await page.goto(`${origin}/index.html?mode=route&sample=sdk/${question}`);
    await page.waitForFunction(() => {
      const c = window.__chat;
      return c.error || (c.status === 'ready' && c.messages.length === 2 && c.messages[1].metadata?.state);
    }, null, { timeout: 60_000 });
    const chat = await page.evaluate(() => window.__chat);
    await page.close();
    assert.equal(chat.error, null);
    assert.deepEqual(withoutIds(chat.messages[1]), withoutIds(golden(doc, false)));
    if (doc.answer) {
      for (const texts of chat.texts) assert.ok(texts.filter((t) => t === doc.answer.text).length <= 1, 'a render shows the answer twice');
    }
  });
}
