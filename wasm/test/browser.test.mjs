// The browser test: the demo page served on 127.0.0.1, loaded in Debian's
// headless Chromium driven by playwright-core (never a downloaded browser),
// streams samples through fetch() into the module's TransformStream and
// async iterator; the rendered answer, thinking and citations are checked
// against what the same module computes in Node. Screenshots go to
// wasm/test/out/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from './chromium.mjs';
import { A2AStream } from '../a2astream.js';
import { createDemoServer } from '../demo/serve.mjs';
import { ensureModule, testdataDir, wasmDir } from './helpers.mjs';

const outDir = join(wasmDir, 'test', 'out');
let server, base, browser, engine;

before(async () => {
  engine = await A2AStream.load(readFileSync(ensureModule()));
  server = createDemoServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await launchChromium();
  mkdirSync(outDir, { recursive: true });
});

after(async () => {
  await browser?.close();
  server?.close();
});

// expected runs the sample through the module in Node.
function expected(name) {
  const d = engine.decoder();
  d.feed(readFileSync(join(testdataDir, name)));
  d.end();
  const r = d.result();
  d.free();
  return r;
}

async function open(query) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(new Error(m.text())); });
  await page.goto(`${base}/demo/?${query}`);
  await page.waitForSelector('body[data-state="done"]', { timeout: 30000 });
  return { page, errors };
}

test('citations.sse through fetch() and the TransformStream: the answer with clickable footnotes', async () => {
  const want = expected('citations.sse');
  const { page, errors } = await open('sample=citations.sse&delay=5&via=transform');
  assert.deepEqual(errors, []);
  assert.deepEqual(await page.evaluate(() => window.a2aDemo.result), want);
  assert.ok(await page.evaluate(() => window.a2aDemo.updates) > 10, 'the answer typed out in many updates');
  // The answer with a marker at each citation's UTF-16 index.
  let text = '', at = 0;
  for (const c of want.answer.citations) { text += want.answer.text.slice(at, c.utf16Index) + `[${c.number}]`; at = c.utf16Index; }
  text += want.answer.text.slice(at);
  assert.equal(await page.textContent('#answer'), text);
  assert.equal(await page.locator('sup.cite').count(), want.answer.citations.length);
  const numbers = new Set(want.answer.citations.map((c) => c.number));
  assert.equal(await page.locator('#footnotes > li').count(), numbers.size);
  for (const c of want.answer.citations) {
    const shown = await page.textContent(`#fn-${c.number}`);
    assert.ok(shown.includes(c.id), `footnote ${c.number} names the part`);
    const data = typeof c.target === 'string' ? c.target : JSON.stringify(c.target, null, 2);
    assert.ok(shown.includes(data), `footnote ${c.number} shows the cited data ${data}`);
  }
  // Clicking the first marker shows what it cites.
  assert.equal(await page.isVisible('#cite-card'), false);
  await page.click('sup.cite >> nth=0');
  assert.equal(await page.isVisible('#cite-card'), true);
  const first = want.answer.citations[0];
  assert.ok((await page.textContent('#cite-card')).includes(JSON.stringify(first.target, null, 2)));
  assert.equal(await page.textContent('#state'), 'COMPLETED');
  await page.screenshot({ path: join(outDir, 'demo-citations.png'), fullPage: true });
  await page.close();
});

test('thinking-tool-answer.sse through fetch() and the async iterator: thinking set apart from the answer', async () => {
  const want = expected('thinking-tool-answer.sse');
  assert.ok(want.thinking.length > 0);
  const { page, errors } = await open('sample=thinking-tool-answer.sse&delay=5&via=iterator');
  assert.deepEqual(errors, []);
  assert.deepEqual(await page.evaluate(() => window.a2aDemo.result), want);
  assert.equal(await page.isVisible('#thinking'), true);
  const thinking = await page.locator('#thinking .artifact').allTextContents();
  assert.deepEqual(thinking, want.thinking.map((a) => a.artifactId + a.text));
  assert.equal(await page.textContent('#answer'), want.answer.text);
  assert.equal(await page.locator('#live .artifact').count(), 0, 'no artifact left outside the thinking and the answer');
  await page.screenshot({ path: join(outDir, 'demo-thinking.png'), fullPage: true });
  await page.close();
});

test('failed.sse: the state and the status message, no answer', async () => {
  const want = expected('failed.sse');
  const { page, errors } = await open('sample=failed.sse&delay=0');
  assert.deepEqual(errors, []);
  assert.equal(await page.textContent('#state'), want.state.replace('TASK_STATE_', ''));
  assert.equal(await page.isVisible('#answer-section'), want.answer !== null);
  if (want.statusMessage) assert.equal(await page.textContent('#status-message'), want.statusMessage.text);
  await page.close();
});
