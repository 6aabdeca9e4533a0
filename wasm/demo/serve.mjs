// serve.mjs serves the demo on 127.0.0.1: the wasm/ folder (the module,
// its wrapper, demo/), the recorded streams of internal/samples under
// /testdata/, and each of them again as a live event stream under
// /stream/NAME?delay=MS, one frame every MS milliseconds, so that the page
// types out as it would from an agent.
//
//	node wasm/demo/serve.mjs [PORT]     then open http://127.0.0.1:PORT/demo/
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, dirname, extname, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const wasmDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const testdataDir = join(wasmDir, '..', 'internal', 'samples');
const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.sse': 'text/event-stream; charset=utf-8',
  '.json': 'application/json', '.png': 'image/png',
};

// inside returns root/rel when it stays inside root, or null.
function inside(root, rel) {
  const p = normalize(join(root, rel));
  return p === root || p.startsWith(root + sep) ? p : null;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// frames splits a recorded stream after each blank line.
function frames(bytes) {
  const out = [];
  let start = 0;
  for (let i = 0; i + 1 < bytes.length; i++) {
    if (bytes[i] === 10 && bytes[i + 1] === 10) { out.push(bytes.subarray(start, i + 2)); start = i + 2; i++; }
  }
  if (start < bytes.length) out.push(bytes.subarray(start));
  return out;
}

/** createDemoServer returns an http.Server for the demo (not yet listening). */
export function createDemoServer() {
  return createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://127.0.0.1');
      let path = decodeURIComponent(url.pathname);
      if (path === '/' ) { res.writeHead(302, { location: '/demo/' }); res.end(); return; }
      if (path.startsWith('/stream/')) {
        const file = inside(testdataDir, path.slice('/stream/'.length));
        if (!file || !file.endsWith('.sse')) throw Object.assign(new Error('not found'), { code: 'ENOENT' });
        const bytes = await readFile(file);
        const delay = Math.min(Number(url.searchParams.get('delay') ?? 40) || 0, 2000);
        // Any origin may read the streams: pages served elsewhere (the bundler
        // tests' builds) fetch them.
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'access-control-allow-origin': '*' });
        for (const f of frames(bytes)) {
          res.write(f);
          if (delay) await sleep(delay);
        }
        res.end();
        return;
      }
      if (path.endsWith('/')) path += 'index.html';
      const file = path.startsWith('/testdata/') ? inside(testdataDir, path.slice('/testdata/'.length)) : inside(wasmDir, path.slice(1));
      if (!file) throw Object.assign(new Error('not found'), { code: 'ENOENT' });
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch (e) {
      res.writeHead(e.code === 'ENOENT' || e.code === 'EISDIR' ? 404 : 500, { 'content-type': 'text/plain' });
      res.end(String(e.message));
    }
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] ?? 8080);
  createDemoServer().listen(port, '127.0.0.1', () => console.log(`a2astream demo: http://127.0.0.1:${port}/demo/`));
}
