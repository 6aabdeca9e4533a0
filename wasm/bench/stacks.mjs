// The benchmark's corpus and the two stacks it compares, shared by the
// Node runner (bench.mjs) and the page Chromium runs (index.html).
//
// The corpus is the token-streaming shape of the parser benchmark: one
// task, then answer artifacts each typed out in 60 token deltas (id lines,
// a keep-alive every 50 events, words with accents, CJK and an emoji) and
// closed by a consolidating lastChunk that replaces them with the whole
// text, then COMPLETED with $usage: about 20,000 frames.
import { createParser } from 'eventsource-parser';

const TASK = 'task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62';
const CTX = 'ctx.0192f4c8-3d6b-7c4f-a02b-4d9e7f3c8b51';
const WORDS = ['The ', 'patient ', 'reports ', 'mild ', 'intermittent ', 'asthma', ', ', 'café ', 'au ', 'lait ',
  'spots; ', '血压 ', '正常 ', '🩺 ', 'no ', 'wheeze ', 'on ', 'auscultation', '. ', 'Plan: ', 'salbutamol ', 'PRN', '.\n'];

/** corpus returns the stream of about frames events as bytes. */
export function corpus(frames = 20000) {
  const parts = [];
  let n = 0;
  const event = (data) => {
    n++;
    parts.push(`id: ${n}\ndata: ${data}\n\n`);
    if (n % 50 === 0) parts.push(': keep-alive\n\n');
  };
  const ids = `"taskId":"${TASK}","contextId":"${CTX}"`;
  event(`{"task":{"id":"${TASK}","contextId":"${CTX}","status":{"state":"TASK_STATE_WORKING","timestamp":"2026-05-19T12:00:00Z"}}}`);
  for (let run = 0; n < frames - 62; run++) {
    const art = `art.0192f4c8-${5000 + run}-7a1b-8c2d-3e4f5a6b7c8d`;
    let answer = '';
    for (let i = 0; i < 60; i++) {
      const w = WORDS[(i + run) % WORDS.length];
      answer += w;
      event(`{"artifactUpdate":{${ids},${i > 0 ? '"append":true,' : ''}"artifact":{"artifactId":"${art}","parts":[{"text":${JSON.stringify(w)}}]}}}`);
    }
    event(`{"artifactUpdate":{${ids},"lastChunk":true,"artifact":{"artifactId":"${art}","parts":[{"text":${JSON.stringify(answer)}}]}}}`);
  }
  event(`{"statusUpdate":{${ids},"status":{"state":"TASK_STATE_COMPLETED","timestamp":"2026-05-19T12:00:01Z"},"metadata":{"$usage":{"model":"corti-default","inputTokens":100,"outputTokens":60,"totalTokens":160,"credits":1.6}}}}`);
  return { bytes: new TextEncoder().encode(parts.join('')), frames: n };
}

/** chunks splits bytes into pieces of size n. */
export function chunks(bytes, n) {
  const out = [];
  for (let i = 0; i < bytes.length; i += n) out.push(bytes.subarray(i, i + n));
  return out;
}

/** runModule decodes the chunks with the module; it returns the answer's text and the count of text updates. */
export function runModule(engine, pieces) {
  const d = engine.decoder();
  let texts = 0, answer = '', state = '';
  const take = (us) => {
    for (const u of us) {
      if (u.kind === 'text') texts++;
      else if (u.kind === 'state') state = u.state;
      else if (u.kind === 'done') answer = u.result.answer.text;
    }
  };
  for (const p of pieces) take(d.feed(p));
  take(d.end());
  d.free();
  return { answer, texts, state };
}

/**
 * runExports drives the module's exports directly, as the Decoder does,
 * but leaves the records undecoded and asks for no result document: the
 * module's time without the JS side (the Go core, its records and the
 * boundary crossings). It returns the bytes of records the run produced.
 */
export function runExports(engine, pieces) {
  return engine._call((ex) => {
    const h = ex.a2a_new(0, 0, 0, 0);
    const p = engine._input(ex, Math.max(...pieces.map((c) => c.length)));
    let m = new Uint8Array(ex.memory.buffer), records = 0;
    for (const c of pieces) {
      if (m.buffer !== ex.memory.buffer) m = new Uint8Array(ex.memory.buffer);
      m.set(c, p);
      records += ex.a2a_feed(h, c.length);
    }
    records += ex.a2a_end(h);
    ex.a2a_free(h);
    return records;
  });
}

/**
 * runJS is the pure-JS stack: eventsource-parser, JSON.parse per event and
 * a plain append/replace reducer handing out the same kinds of updates.
 */
export function runJS(pieces) {
  const arts = new Map();
  let state = '', texts = 0, last = null;
  const updates = [];
  const textOf = (parts) => { let s = ''; for (const p of parts) if (typeof p.text === 'string') s += p.text; return s; };
  const parser = createParser({
    onEvent(ev) {
      const msg = JSON.parse(ev.data);
      if (msg.task) {
        state = msg.task.status?.state ?? state;
        updates.push({ kind: 'state', state });
      } else if (msg.artifactUpdate) {
        const u = msg.artifactUpdate, id = u.artifact.artifactId;
        let a = arts.get(id);
        if (!a) arts.set(id, (a = { id, text: '', sealed: false }));
        const t = textOf(u.artifact.parts);
        if (u.append) {
          a.text += t;
          updates.push({ kind: 'text', artifact: a, text: t });
        } else if (t.startsWith(a.text)) {
          const rest = t.slice(a.text.length);
          a.text = t;
          if (rest) updates.push({ kind: 'text', artifact: a, text: rest });
        } else {
          a.text = t;
          updates.push({ kind: 'replaced', artifact: a, text: t });
        }
        if (u.lastChunk) { a.sealed = true; last = a; updates.push({ kind: 'sealed', artifact: a }); }
      } else if (msg.statusUpdate) {
        state = msg.statusUpdate.status.state;
        updates.push({ kind: 'state', state });
      }
    },
  });
  const dec = new TextDecoder();
  for (const p of pieces) {
    parser.feed(dec.decode(p, { stream: true }));
    for (const u of updates) if (u.kind === 'text') texts++;
    updates.length = 0;
  }
  return { answer: last?.text ?? '', texts, state };
}

/**
 * measure runs the stacks in turn (module, JS, module, JS…) over the pieces
 * for minMs after a warm-up, at least 5 times each, and returns the fastest
 * and the median run of each: on a shared machine the minimum of
 * interleaved runs is the steadiest estimate of each stack's own speed and
 * of their ratio; the median includes what happens only now and then (a
 * garbage collection) and the machine's load.
 */
export function measure(fs, pieces, minMs = 1500) {
  for (const f of fs) f(pieces);
  const times = fs.map(() => []);
  const t0 = performance.now();
  while (performance.now() - t0 < minMs || times[0].length < 5) {
    fs.forEach((f, i) => {
      const t = performance.now();
      f(pieces);
      times[i].push(performance.now() - t);
    });
  }
  const median = (a) => a.toSorted((x, y) => x - y)[a.length >> 1];
  return { best: times.map((a) => Math.min(...a)), median: times.map(median), runs: times[0].length };
}

/** bench runs both stacks on both chunk sizes and returns the rows of the table. */
export function bench(engine, minMs) {
  const { bytes, frames } = corpus();
  const rows = [];
  for (const size of [200, 40 * 1024]) {
    const pieces = chunks(bytes, size);
    const a = runModule(engine, pieces), b = runJS(pieces);
    if (a.answer !== b.answer || a.state !== b.state || a.texts !== b.texts || a.answer.length === 0) {
      throw new Error(`the stacks disagree: ${JSON.stringify([a.state, b.state, a.answer.length, b.answer.length, a.texts, b.texts])}`);
    }
    const { best: [wasmMs, exportsMs, jsMs], median: [wasmMedMs, exportsMedMs, jsMedMs], runs } =
      measure([(p) => runModule(engine, p), (p) => runExports(engine, p), runJS], pieces, minMs);
    const mbps = (ms) => bytes.length / 1e6 / (ms / 1e3);
    rows.push({
      chunk: size, frames, bytes: bytes.length, runs, wasmMs, exportsMs, jsMs, wasmMedMs, exportsMedMs, jsMedMs,
      wasmMBps: mbps(wasmMs), exportsMBps: mbps(exportsMs), jsMBps: mbps(jsMs), ratio: jsMs / wasmMs, medianRatio: jsMedMs / wasmMedMs,
    });
  }
  return rows;
}
