// loading.js: compiling a2astream.wasm from what load() is given (a URL, a
// Response, bytes or a compiled module), and, without a source, from the
// file beside this one.

import { NotWasmError } from './errors.js';

// wasmMagic is how every WebAssembly module starts: "\0asm".
const wasmMagic = [0x00, 0x61, 0x73, 0x6d];

// readFileURL reads a file: URL. The Node entry (a2astream.node.js) sets it
// with node:fs; the browser entry never names a Node module, so that
// bundlers for the web find none.
let readFileURL = null;

/** _setFileReader is for a2astream.node.js: it gives load() a way to read file: URLs. */
export function _setFileReader(read) { readFileURL = read; }

async function compileBytes(bytes, where, contentType) {
  const b = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 4 || wasmMagic.some((m, i) => b[i] !== m)) {
    const head = new TextDecoder().decode(b.subarray(0, 16)).replace(/[^\x20-\x7e]/g, '.');
    const ct = contentType === undefined ? '' : ` (${contentType || 'no content type'})`;
    throw new NotWasmError(`${where}${ct} is not a WebAssembly module: it starts with "${head}"`, where);
  }
  return WebAssembly.compile(b);
}

async function compileResponse(resp, where = resp.url || 'the response') {
  if (!resp.ok) throw new NotWasmError(`${where} is not a WebAssembly module: HTTP ${resp.status}`, where);
  const ct = (resp.headers.get('content-type') || '').split(';')[0].trim().toLowerCase();
  if (WebAssembly.compileStreaming && ct === 'application/wasm') return WebAssembly.compileStreaming(resp);
  return compileBytes(await resp.arrayBuffer(), where, ct);
}

async function compileURL(url) {
  if (url.protocol === 'file:') {
    if (!readFileURL) throw new NotWasmError(`Cannot read ${url.href} here: in Node import 'a2astream' (its Node entry reads files), or give load() the bytes`, url.href);
    return compileBytes(await readFileURL(url), url.href);
  }
  return compileResponse(await fetch(url), url.href);
}

/**
 * compile returns the compiled module of a load() source: a URL (in Node
 * also a path), a Response or its promise, bytes, a compiled module, or
 * nothing for a2astream.wasm beside this file. What is not a module is a
 * NotWasmError naming where it came from.
 */
export async function compile(source) {
  source = await source; // also a Promise of a Response: load(fetch(url))
  if (source instanceof WebAssembly.Module) return source;
  if (typeof Response !== 'undefined' && source instanceof Response) return compileResponse(source);
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return compileBytes(source, 'the bytes given to load()');
  if (source instanceof URL) return compileURL(source);
  if (typeof source === 'string') {
    // Relative to the page; in Node (no page) a path when not a URL.
    if (!globalThis.location && !URL.canParse?.(source) && readFileURL) return compileBytes(await readFileURL(source), source);
    return compileURL(new URL(source, globalThis.location?.href));
  }
  if (source !== undefined && source !== null) throw new TypeError(`load() takes a URL, a Response, bytes or a WebAssembly.Module, not ${typeof source}`);
  // The module beside this file: bundlers (webpack, Vite, Parcel, Rollup's
  // plugins) recognise the pattern and copy a2astream.wasm into the build.
  const url = new URL('./a2astream.wasm', import.meta.url);
  try {
    return await compileURL(url);
  } catch (e) {
    // Vite's dev server serves its pre-bundled copy of this file from
    // node_modules/.vite/deps/ without the .wasm beside it (and index.html
    // in its place); the package's own copy is served from the package.
    const own = url.href.replace(/\/\.vite\/deps[^/]*\/a2astream\.wasm$/, '/a2astream/a2astream.wasm');
    if (e instanceof NotWasmError && own !== url.href) return compileURL(new URL(own));
    throw e;
  }
}
