// Shared helpers of the Node and browser tests: paths, the tools built
// from the Go sources, chunkings of a byte stream.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const wasmDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const repoDir = join(wasmDir, '..');
export const testdataDir = join(repoDir, 'internal', 'samples');
export const wasmPath = join(wasmDir, 'a2astream.wasm');

/** samples lists the recorded streams, internal/samples/*.sse. */
export function samples() {
  return readdirSync(testdataDir).filter((f) => f.endsWith('.sse')).sort();
}

let toolDir = null;
/**
 * tool returns the path of a Go command of the repository (cmd/a2astream,
 * wasm/internal/updatedump), built once into a temporary folder unless the
 * environment names it (A2ASTREAM_CLI, A2ASTREAM_UPDATEDUMP).
 */
export function tool(pkg, envName) {
  if (process.env[envName]) return process.env[envName];
  toolDir ??= mkdtempSync(join(tmpdir(), 'a2astream-tools-'));
  const out = join(toolDir, pkg.replaceAll('/', '_'));
  if (!existsSync(out)) execFileSync('go', ['build', '-o', out, `./${pkg}`], { cwd: repoDir, stdio: 'inherit' });
  return out;
}

/** ensureModule builds wasm/a2astream.wasm when it is missing. */
export function ensureModule() {
  if (!existsSync(wasmPath)) execFileSync('sh', [join(wasmDir, 'build.sh')], { stdio: 'inherit' });
  return wasmPath;
}

/** mulberry32 is a small seeded PRNG, so that random chunkings repeat. */
export function mulberry32(seed) {
  return () => {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** chunk splits bytes into pieces: of size n, or random sizes 1..max when n is 'random'. */
export function chunk(bytes, n, seed = 1, max = 512) {
  const out = [];
  const rnd = mulberry32(seed);
  for (let i = 0; i < bytes.length;) {
    const size = n === 'random' ? 1 + Math.floor(rnd() * max) : n === 'whole' ? bytes.length : n;
    out.push(bytes.subarray(i, i + size));
    i += size;
  }
  return out;
}

export const chunkings = ['whole', 1, 200, 'random'];

/**
 * cliJSON returns what `a2astream --json FILE` prints for the file at
 * path; its exit code says how the run ended and is not checked here.
 */
export function cliJSON(path) {
  const cli = tool('cmd/a2astream', 'A2ASTREAM_CLI');
  try {
    return execFileSync(cli, ['--json', path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (e) {
    if (typeof e.stdout === 'string' && e.stdout !== '') return e.stdout;
    throw e;
  }
}

/** splitEvents splits a recorded stream (LF line ends) after each blank line: one piece per event. */
export function splitEvents(bytes) {
  const out = [];
  let start = 0;
  for (let i = 0; i + 1 < bytes.length; i++) {
    if (bytes[i] === 10 && bytes[i + 1] === 10) { out.push(bytes.subarray(start, i + 2)); start = i + 2; i++; }
  }
  if (start < bytes.length) out.push(bytes.subarray(start));
  return out;
}

/** idOf returns the id field of one event's bytes (splitEvents), or undefined. */
export const idOf = (event) => /^id: ?(.*)$/m.exec(Buffer.from(event).toString('utf8'))?.[1];

/**
 * resumeIndex returns the index of the event a subscription with the
 * Last-Event-ID header lastEventId starts at: the one after the event of
 * that id; 0 without the header.
 */
export function resumeIndex(events, lastEventId) {
  return lastEventId === undefined ? 0 : events.findIndex((e) => idOf(e) === lastEventId) + 1;
}

/**
 * playEvents answers res with events[from…] as an event stream, as plan
 * says: null sends the rest; { frames, inside, how } sends that many
 * events, then `inside` bytes of the next one, and ends the connection by
 * how: 'end' (a clean end), 'destroy' (a reset) or 'stall' (open and
 * silent). It returns the index of the next event when the connection
 * stalls, else -1.
 */
export function playEvents(res, events, from, plan) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  res.flushHeaders();
  const stop = plan === null ? events.length : Math.min(from + plan.frames, events.length);
  for (let i = from; i < stop; i++) res.write(events[i]);
  if (plan === null || stop === events.length) { res.end(); return -1; }
  if (plan.inside) res.write(events[stop].subarray(0, plan.inside));
  if (plan.how === 'end') res.end();
  else if (plan.how === 'destroy') setTimeout(() => res.destroy(), 20);
  else return stop;
  return -1;
}
