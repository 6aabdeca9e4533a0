// bench.mjs compares the module with a pure-JS stack (eventsource-parser +
// JSON.parse + an append/replace reducer) on the token-streaming corpus in
// 200 B and 40 KiB chunks, in Node and in headless Chromium. Each row also
// times the module's exports driven without the wrapper (records left
// undecoded, no result document): the difference to the module is the JS
// side's share plus the final result (Go writes it, JS parses it). The Go
// side natively is `go test ./wasm -run '^$' -bench Session`.
//
//	node wasm/bench/bench.mjs            both
//	node wasm/bench/bench.mjs node       Node only
//	node wasm/bench/bench.mjs chromium   Chromium only
import { readFileSync } from 'node:fs';
import { A2AStream } from '../a2astream.js';
import { bench } from './stacks.mjs';
import { ensureModule } from '../test/helpers.mjs';

const which = process.argv[2] ?? 'both';
const minMs = Number(process.env.BENCH_MS ?? 1500);

function print(where, rows) {
  for (const r of rows) {
    console.log(`${where.padEnd(8)} ${String(r.chunk).padStart(6)} B chunks: module ${r.wasmMBps.toFixed(1).padStart(6)} MB/s (${r.wasmMs.toFixed(1)} ms)  ` +
      `JS stack ${r.jsMBps.toFixed(1).padStart(6)} MB/s (${r.jsMs.toFixed(1)} ms)  module/JS ${r.ratio.toFixed(2)}x (medians ${r.medianRatio.toFixed(2)}x)  ` +
      `exports alone ${r.exportsMBps.toFixed(1)} MB/s (${r.exportsMs.toFixed(1)} ms)  [${r.frames} frames, ${r.bytes} B, ${r.runs} runs]`);
  }
}

const results = {};
if (which === 'both' || which === 'node') {
  const engine = await A2AStream.load(readFileSync(ensureModule()));
  results.node = bench(engine, minMs);
  print('node', results.node);
}
if (which === 'both' || which === 'chromium') {
  const { launchChromium } = await import('../test/chromium.mjs');
  const { createDemoServer } = await import('../demo/serve.mjs');
  const server = createDemoServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/bench/index.html?ms=${minMs}`);
    await page.waitForFunction(() => window.benchResult || window.benchError, null, { timeout: 300000 });
    const err = await page.evaluate(() => window.benchError);
    if (err) throw new Error(err);
    results.chromium = await page.evaluate(() => window.benchResult);
    print('chromium', results.chromium);
  } finally {
    await browser.close();
    server.close();
  }
}
process.stdout.write(JSON.stringify(results) + '\n');
