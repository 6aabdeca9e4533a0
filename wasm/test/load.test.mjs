// How the package loads: the export conditions, the sources load() takes,
// and an entry for browsers that names no Node module.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { load, A2AStream, NotWasmError } from 'a2astream';
import * as browserEntry from '../a2astream.js';
import { ensureModule, wasmDir } from './helpers.mjs';

const wasmPath = ensureModule();
const wasmBytes = readFileSync(wasmPath);
const pkg = JSON.parse(readFileSync(join(wasmDir, 'package.json'), 'utf8'));
let server, base;

before(async () => {
  server = createServer((req, res) => {
    if (req.url === '/a2astream.wasm') { res.writeHead(200, { 'content-type': 'application/wasm' }); res.end(wasmBytes); return; }
    if (req.url === '/octet') { res.writeHead(200, { 'content-type': 'application/octet-stream' }); res.end(wasmBytes); return; }
    // What a dev server's history fallback answers for a file it lacks.
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><html></html>');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => server?.close());

// works checks that the engine runs a stream to its end.
function works(engine) {
  const d = engine.decoder();
  d.end();
  assert.equal(d.result().error.type, 'truncated');
  d.free();
}

test('package.json maps types, browser, node and default, in that order', () => {
  const conds = pkg.exports['.'];
  assert.deepEqual(Object.keys(conds), ['types', 'browser', 'node', 'default']);
  assert.equal(conds.browser, './a2astream.js');
  assert.equal(conds.default, './a2astream.js');
  assert.equal(conds.node, './a2astream.node.js');
  assert.ok(pkg.files.includes('a2astream.node.js'));
});

test('in Node, load() with no source reads a2astream.wasm beside the module', async () => {
  works(await load());
  works(await A2AStream.load());
});

test('load() takes a path, a file: URL, an http URL, a Response, a promise of one, bytes and a compiled module', async () => {
  const sources = {
    path: wasmPath,
    'file: URL': pathToFileURL(wasmPath),
    'http URL': new URL('/a2astream.wasm', base),
    'http URL as a string': `${base}/a2astream.wasm`,
    'http URL served as application/octet-stream': `${base}/octet`,
    Response: new Response(wasmBytes, { headers: { 'content-type': 'application/wasm' } }),
    'promise of a Response': fetch(`${base}/a2astream.wasm`),
    Uint8Array: wasmBytes,
    ArrayBuffer: wasmBytes.buffer.slice(wasmBytes.byteOffset, wasmBytes.byteOffset + wasmBytes.byteLength),
    'WebAssembly.Module': new WebAssembly.Module(wasmBytes),
  };
  for (const [name, source] of Object.entries(sources)) {
    await test(name, async () => works(await load(source)));
  }
});

test('a page where the module should be is a NotWasmError that names the URL and what came instead', async () => {
  await assert.rejects(load(`${base}/elsewhere/a2astream.wasm`), (e) => {
    assert.ok(e instanceof NotWasmError, String(e));
    assert.equal(e.url, `${base}/elsewhere/a2astream.wasm`);
    assert.match(e.message, /is not a WebAssembly module/);
    assert.match(e.message, /text\/html/);
    assert.match(e.message, /<!doctype/);
    return true;
  });
  await assert.rejects(load(new Response('nope', { status: 404 })), NotWasmError);
  await assert.rejects(load(new Uint8Array([1, 2, 3])), NotWasmError);
  await assert.rejects(load(42), TypeError);
});

test('the browser entry cannot read files, and says what to do instead', async () => {
  // The loader alone, without the Node entry's reader, in a fresh module
  // instance (a query makes Node load the file again): what load() runs
  // when a2astream.js is the entry.
  const fresh = await import(`../loading.js?fresh=${Date.now()}`);
  await assert.rejects(fresh.compile(pathToFileURL(wasmPath)), (e) => e instanceof NotWasmError && /in Node import 'a2astream'/.test(e.message));
  assert.ok(await fresh.compile(wasmBytes) instanceof WebAssembly.Module);
  assert.equal(typeof browserEntry.load, 'function');
});

// imports returns the module specifiers src imports, statically or not.
function imports(src) {
  return [...src.matchAll(/^\s*(?:import|export)\s[^;]*?from\s*'([^']+)'|^\s*import\s*'([^']+)'|\bimport\s*\(([^)]*)\)|\brequire\s*\(/gm)]
    .map((m) => m[1] ?? m[2] ?? `import(${m[3] ?? 'require'})`);
}

test('nothing the browser entry imports names a Node module, a dynamic import or require', () => {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of imports(readFileSync(file, 'utf8'))) {
      assert.ok(spec.startsWith('./'), `${file} imports ${spec}`);
      visit(join(dirname(file), spec));
    }
  };
  visit(join(wasmDir, 'a2astream.js'));
  assert.deepEqual([...seen].map((f) => f.slice(wasmDir.length + 1)).sort(), ['a2astream.js', 'client.js', 'engine.js', 'errors.js', 'http.js', 'loading.js', 'records.js', 'view.js', 'wasi.js']);
  // a2astream/ai-sdk imports nothing (not even ai: its types only).
  assert.deepEqual(imports(readFileSync(join(wasmDir, 'ai-sdk.js'), 'utf8')), []);
  // The check itself sees the Node entry's import.
  assert.deepEqual(imports(readFileSync(join(wasmDir, 'a2astream.node.js'), 'utf8')), ['node:fs/promises', './loading.js', './a2astream.js']);
});
