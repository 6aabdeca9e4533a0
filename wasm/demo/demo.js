// The demo page: plays a recorded stream from the demo server as a live
// event stream, through the module's TransformStream (or its async
// iterator), typing the text out; thinking goes to its own section once
// sealed as such; at the end the answer is shown with its citations as
// clickable footnotes that show the cited data.
import { A2AStream } from '../a2astream.js';

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
};

const params = new URLSearchParams(location.search);
for (const k of ['sample', 'delay', 'via']) if (params.has(k)) $(k).value = params.get(k);

const engine = await A2AStream.load(new URL('../a2astream.wasm', import.meta.url));
const demo = (window.a2aDemo = { engine, result: null, updates: 0, runs: 0 });

let blocks = new Map(); // artifact index → its element in #live or #thinking

function block(artifact) {
  let b = blocks.get(artifact.index);
  if (!b) {
    const text = document.createTextNode('');
    b = el('div', { className: 'artifact' }, el('div', { className: 'label', textContent: artifact.id }), text);
    b.text = text;
    b.dataset.artifactId = artifact.id;
    blocks.set(artifact.index, b);
    $('live').append(b);
  }
  return b;
}

function apply(u) {
  demo.updates++;
  switch (u.kind) {
    case 'text':
      block(u.artifact).text.appendData(u.text);
      break;
    case 'replaced':
      block(u.artifact).text.data = u.text;
      break;
    case 'sealed': {
      const b = block(u.artifact);
      b.classList.add('sealed');
      if (u.artifact.thinking) {
        $('thinking').hidden = false;
        b.classList.add('thinking');
        $('thinking').append(b);
      }
      break;
    }
    case 'state':
      $('state').textContent = u.state.replace('TASK_STATE_', '');
      $('status-message').textContent = u.message ? u.message.text : '';
      break;
    case 'done':
      finish(u.result, u.error);
      break;
  }
}

// finish shows the answer with a marker at every citation and the cited
// data under it.
function finish(result, error) {
  demo.result = result;
  const answer = result.answer;
  if (answer) {
    blocks.get([...blocks.keys()].find((k) => blocks.get(k).dataset.artifactId === answer.artifactId))?.remove();
    const p = $('answer');
    let at = 0;
    for (const c of answer.citations) {
      p.append(answer.text.slice(at, c.utf16Index));
      at = c.utf16Index;
      const a = el('a', { href: `#fn-${c.number}`, textContent: `[${c.number}]` });
      a.addEventListener('click', (ev) => { ev.preventDefault(); show(c, a); });
      p.append(el('sup', { className: 'cite' }, a));
    }
    p.append(answer.text.slice(at));
    const seen = new Set();
    for (const c of answer.citations) {
      if (seen.has(c.number)) continue;
      seen.add(c.number);
      // One number per cited part and locator: its first citation says all.
      $('footnotes').append(el('li', { id: `fn-${c.number}` }, el('code', { textContent: c.id }), cited(c)));
    }
    $('sources').hidden = answer.citations.length === 0;
    $('answer-section').hidden = false;
  }
  $('state').textContent = result.state ? result.state.replace('TASK_STATE_', '') : 'ENDED';
  if (error) {
    $('error').hidden = false;
    $('error').textContent = `${error.name}: ${error.message}`;
  }
  if (result.usage) {
    const u = result.usage;
    $('usage').textContent = `${u.model ?? ''} · ${u.inputTokens ?? '?'} tokens in, ${u.outputTokens ?? '?'} out${u.credits !== undefined ? ` · ${u.credits} credits` : ''}`;
  }
  document.body.dataset.state = 'done';
}

function cited(c) {
  const data = c.error ? c.error : typeof c.target === 'string' ? c.target : JSON.stringify(c.target, null, 2);
  return el('div', {}, el('code', { textContent: c.locator || '(whole part)' }), el('pre', { textContent: data }));
}

function show(c, anchor) {
  const card = $('cite-card');
  document.querySelectorAll('.active').forEach((e) => e.classList.remove('active'));
  card.replaceChildren(el('strong', { textContent: `[${c.number}] ` }), el('code', { textContent: c.id }), cited(c));
  card.hidden = false;
  card.dataset.number = c.number;
  anchor.classList.add('active');
  $(`fn-${c.number}`).classList.add('active');
}

async function play() {
  demo.runs++;
  document.body.dataset.state = 'streaming';
  blocks = new Map();
  for (const id of ['live', 'answer', 'footnotes', 'usage', 'status-message']) $(id).replaceChildren();
  $('thinking').replaceChildren($('thinking').firstElementChild);
  for (const id of ['thinking', 'answer-section', 'error', 'cite-card']) $(id).hidden = true;
  $('state').textContent = 'connecting…';
  const resp = await fetch(`/stream/${encodeURIComponent($('sample').value)}?delay=${Number($('delay').value) || 0}`);
  const updates = $('via').value === 'iterator' ? engine.updates(resp) : resp.body.pipeThrough(engine.transform());
  for await (const u of updates) apply(u);
}

$('controls').addEventListener('submit', (ev) => { ev.preventDefault(); play().catch(fail); });
function fail(e) {
  $('error').hidden = false;
  $('error').textContent = String(e);
  document.body.dataset.state = 'failed';
}
play().catch(fail);
