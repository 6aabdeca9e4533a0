// The package as a frontend developer gets it: `npm pack`, the tarball
// installed into throwaway projects, each built with a bundler at its
// defaults (webpack 5, Vite's build and its dev server, esbuild), and each
// bundle run in headless Chromium against a local server that streams
// internal/samples/: every result must be a2astream --json byte for byte. The
// bundlers come from this folder's lock file (npm ci --ignore-scripts).
// The only setting is the one wasm/README.md names: esbuild does not copy
// files referenced by new URL(…, import.meta.url), so a2astream.wasm is
// copied beside the bundle. BUNDLER_LOG=warn shows Vite's warnings (none
// at the time of writing).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, extname, normalize, sep } from 'node:path';
import webpack from 'webpack';
import * as vite from 'vite';
import * as vite7 from 'vite7';
import * as esbuild from 'esbuild';
import { launchChromium } from '../chromium.mjs';
import { createDemoServer } from '../../demo/serve.mjs';
import { ensureModule, samples, tool, testdataDir, wasmDir } from '../helpers.mjs';

const names = samples();
let work, tarball, streams, streamServer, browser;
const want = {};
const servers = [];

before(async () => {
  ensureModule();
  work = mkdtempSync(join(tmpdir(), 'a2astream-bundlers-'));
  // --ignore-scripts: prepack would build the module again; it is built.
  const [info] = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: wasmDir, encoding: 'utf8' }));
  tarball = join(work, info.filename);
  const cli = tool('cmd/a2astream', 'A2ASTREAM_CLI');
  for (const name of names) {
    try {
      want[name] = execFileSync(cli, ['--json', join(testdataDir, name)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch (e) {
      want[name] = e.stdout;
    }
  }
  streamServer = createDemoServer();
  await new Promise((r) => streamServer.listen(0, '127.0.0.1', r));
  streams = `http://127.0.0.1:${streamServer.address().port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  streamServer?.close();
  for (const s of servers) await s.close();
  if (work && !process.env.KEEP) rmSync(work, { recursive: true, force: true });
});

// The app: it loads the module with no argument, as the README shows,
// reads each stream with a decoder (for the --json text) and with
// updates() (for the result object).
const mainJS = `import { load } from 'a2astream';

async function run() {
  const q = new URLSearchParams(location.search);
  const streams = q.get('streams');
  const engine = await load();
  const out = {};
  for (const name of q.get('names').split(',')) {
    const d = engine.decoder();
    const reader = (await fetch(streams + '/stream/' + name + '?delay=0')).body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      d.feed(value);
    }
    d.end();
    let last = null;
    for await (const u of engine.updates(await fetch(streams + '/stream/' + name + '?delay=0'))) last = u;
    out[name] = { json: d.resultJSON(), result: last.result };
    d.free();
  }
  return out;
}
run().then((r) => { window.a2aResults = r; }, (e) => { window.a2aError = String((e && e.stack) || e); });
`;

// project creates a throwaway project with the tarball installed.
function project(name, html) {
  const dir = join(work, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `app-${name}`, private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: dir, stdio: 'ignore' });
  writeFileSync(join(dir, 'src', 'main.js'), mainJS);
  if (html) writeFileSync(join(dir, 'index.html'), html);
  return dir;
}

const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };

// serveDir serves a build's output folder on 127.0.0.1.
async function serveDir(root) {
  const s = createServer(async (req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname).slice(1) || 'index.html';
    const file = normalize(join(root, rel));
    if (!file.startsWith(root + sep)) { res.writeHead(404); res.end(); return; }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  servers.push({ close: () => new Promise((r) => s.close(r)) });
  return `http://127.0.0.1:${s.address().port}`;
}

// check opens the page in Chromium and compares every result with --json.
async function check(url) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`${url}?streams=${encodeURIComponent(streams)}&names=${names.join(',')}`);
    // A dev server may reload the page once it has optimised its
    // dependencies: wait across reloads.
    let got;
    for (let i = 0; i < 600 && !got; i++) {
      got = await page.evaluate(() => window.a2aResults ?? (window.a2aError ? { error: window.a2aError } : null)).catch(() => null);
      if (!got) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(got, 'the page reported no results within 60 s');
    assert.equal(got.error, undefined, `the page failed: ${got.error}`);
    assert.deepEqual(errors, []);
    assert.deepEqual(Object.keys(got).sort(), [...names].sort());
    for (const name of names) {
      assert.equal(got[name].json, want[name], `${name}: resultJSON()`);
      assert.deepEqual(got[name].result, JSON.parse(want[name]), `${name}: the result of updates()`);
    }
  } finally {
    await page.close();
  }
}

const moduleHTML = (src) => `<!doctype html><html><head><meta charset="utf-8"><title>app</title></head><body><script type="module" src="${src}"></script></body></html>`;

test('webpack 5, production build at its defaults', async () => {
  const dir = project('webpack');
  const dist = join(dir, 'dist');
  const stats = await new Promise((resolve, reject) => webpack({
    mode: 'production', context: dir, entry: './src/main.js', output: { path: dist, filename: 'main.js' },
  }, (err, s) => (err ? reject(err) : resolve(s))));
  assert.ok(!stats.hasErrors(), stats.toString('errors-only'));
  // Only webpack's performance hints, about the size of the .wasm.
  const warnings = stats.toJson({ all: false, warnings: true }).warnings.map((w) => w.message)
    .filter((m) => !/^(asset size limit|entrypoint size limit|webpack performance recommendations)/.test(m));
  assert.deepEqual(warnings, [], 'no warnings but the performance hints');
  assert.ok(readdirSync(dist).some((f) => f.endsWith('.wasm')), 'webpack emitted the module');
  assert.doesNotMatch(readFileSync(join(dist, 'main.js'), 'utf8'), /node:fs/);
  writeFileSync(join(dist, 'index.html'), `<!doctype html><html><head><meta charset="utf-8"></head><body><script src="main.js"></script></body></html>`);
  await check(`${await serveDir(dist)}/index.html`);
});

for (const [label, v] of [['Vite 8', vite], ['Vite 7', vite7]]) {
  test(`${label} build at its defaults`, async () => {
    assert.equal(v.version.split('.')[0], label.split(' ')[1]);
    const dir = project(`vite${v.version}-build`, moduleHTML('/src/main.js'));
    await v.build({ root: dir, configFile: false, logLevel: process.env.BUNDLER_LOG ?? 'error', build: { outDir: join(dir, 'dist') } });
    const assets = readdirSync(join(dir, 'dist', 'assets'));
    assert.ok(assets.some((f) => f.endsWith('.wasm')), `Vite emitted the module: ${assets}`);
    await check(`${await serveDir(join(dir, 'dist'))}/index.html`);
  });

  test(`${label} dev server at its defaults (the package pre-bundled into .vite/deps), in Chromium`, async () => {
    const dir = project(`vite${v.version}-dev`, moduleHTML('/src/main.js'));
    const server = await v.createServer({ root: dir, configFile: false, logLevel: process.env.BUNDLER_LOG ?? 'error', server: { host: '127.0.0.1', port: 0 } });
    await server.listen();
    servers.push({ close: () => server.close() });
    await check(`${server.resolvedUrls.local[0]}index.html`);
    // The dev server did pre-bundle the package: Vite 7 leaves the
    // module's new URL pointing into .vite/deps, where no .wasm is.
    const deps = readdirSync(join(dir, 'node_modules', '.vite', 'deps'));
    assert.ok(deps.some((f) => f.startsWith('a2astream')), `pre-bundled: ${deps}`);
  });
}

test('esbuild, bundle for the browser (target es2020: no top-level await), with a2astream.wasm copied beside it', async () => {
  const dir = project('esbuild', null);
  const dist = join(dir, 'dist');
  const r = await esbuild.build({
    entryPoints: [join(dir, 'src', 'main.js')], bundle: true, format: 'esm', platform: 'browser', target: 'es2020',
    outdir: dist, logLevel: 'silent',
  });
  assert.deepEqual(r.warnings, []);
  // The one setting: esbuild leaves new URL('./a2astream.wasm', import.meta.url) as it is.
  copyFileSync(join(dir, 'node_modules', 'a2astream', 'a2astream.wasm'), join(dist, 'a2astream.wasm'));
  writeFileSync(join(dist, 'index.html'), moduleHTML('main.js'));
  await check(`${await serveDir(dist)}/index.html`);
});

// A bundle holds only what it imports: the package is ES modules with no
// side effects, a file per job. Code that names only the errors gets
// errors.js, not the loader, the engine, the records or the client.
test('esbuild: a bundle that imports only the errors holds neither the loader, the engine nor the client', async () => {
  const dir = project('esbuild-errors', null);
  writeFileSync(join(dir, 'src', 'errors.js'), `import { errorFromDoc, TruncatedError } from 'a2astream';
console.log(errorFromDoc({ type: 'truncated', message: 'reconstruct: cut' }) instanceof TruncatedError);
`);
  const build = async (entry) => {
    const r = await esbuild.build({ entryPoints: [join(dir, 'src', entry)], bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent' });
    return r.outputFiles[0].text;
  };
  const errorsOnly = await build('errors.js'), whole = await build('main.js');
  for (const [what, mark] of [['the loader', 'a2astream.wasm'], ['the engine', 'a2a_feed'], ['the records', 'Unknown record kind'], ['the client', 'message:stream']]) {
    assert.ok(whole.includes(mark), `the app that loads the module holds ${what} (${mark})`);
    assert.ok(!errorsOnly.includes(mark), `the bundle of the errors holds ${what} (${mark})`);
  }
  assert.match(errorsOnly, /TruncatedError = class/);
  assert.ok(errorsOnly.length < whole.length / 4, `${errorsOnly.length} bytes of ${whole.length}`);
});
