// ai-sdk-goldens.mjs writes the goldens of the AI SDK bridge: for each
// recorded stream, the assistant UIMessage (its parts and metadata) that
// useChat ends with, derived from the CLI's --json document of that stream
// by the rules the bridge documents, not from the bridge:
//
//   - each artifact with text is a step (the samples' artifacts do not
//     overlap): a step-start, then its reasoning part (thinking) or its text
//     part (the answer); with ai 6 (no reset-step) the answer's draft stays
//     before it as a reasoning part marked { a2a: { draft: true } };
//   - a run without an answer that waits for input or ended shows its
//     status message as a text part, in a step of its own;
//   - each citation of the answer is a source part (source-document for
//     data): sourceId "{dataPartId}#{locator}", title "[n] locator",
//     providerMetadata.a2a { dataPartId, locator, number, utf16Index };
//   - the metadata holds the state, status message, task and context ids,
//     usage and last event id.
//
//	node wasm/test/ai-sdk-goldens.mjs   (writes wasm/test/testdata/ai-sdk/)
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { samples, tool, testdataDir, wasmDir } from './helpers.mjs';

const INTERRUPTED_OR_ENDED = ['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED', 'TASK_STATE_COMPLETED', 'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED'];

/** goldenDir holds one JSON file per sample: { ai7, ai6 }, each { metadata, parts }. */
export const goldenDir = join(wasmDir, 'test', 'testdata', 'ai-sdk');

/** golden returns the message of the --json document doc; draft says whether the answer's draft stays (ai 6). */
export function golden(doc, draft) {
  const parts = [];
  for (const a of doc.artifacts) {
    if (a.text === '') continue;
    parts.push({ type: 'step-start' });
    if (a.thinking || !a.sealed) {
      parts.push({ type: 'reasoning', id: a.artifactId, text: a.text, state: 'done' });
      continue;
    }
    if (draft) parts.push({ type: 'reasoning', id: a.artifactId, text: a.text, providerMetadata: { a2a: { draft: true } }, state: 'done' });
    parts.push({ type: 'text', text: a.text, state: 'done' });
  }
  if (!doc.answer && doc.statusMessage && INTERRUPTED_OR_ENDED.includes(doc.state)) {
    parts.push({ type: 'step-start' }, { type: 'text', text: doc.statusMessage.text, state: 'done' });
  }
  for (const c of doc.answer?.citations ?? []) {
    const a2a = { dataPartId: c.id, locator: c.locator, number: c.number, utf16Index: c.utf16Index };
    if (c.error !== null) a2a.error = c.error;
    parts.push({ type: 'source-document', sourceId: c.locator ? `${c.id}#${c.locator}` : c.id, mediaType: 'application/json', title: `[${c.number}] ${c.locator}`.trim(), providerMetadata: { a2a } });
  }
  const metadata = {
    state: doc.state, statusMessage: doc.statusMessage?.text ?? null, taskId: doc.taskId, contextId: doc.contextId,
    usage: doc.usage, lastEventId: doc.lastEventId,
  };
  return { metadata, parts };
}

/** cliDoc returns the --json document of a sample (whatever the CLI's exit code). */
export function cliDoc(name) {
  const cli = tool('cmd/a2astream', 'A2ASTREAM_CLI');
  try {
    return JSON.parse(execFileSync(cli, ['--json', join(testdataDir, name)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  } catch (e) {
    if (typeof e.stdout !== 'string' || e.stdout === '') throw e;
    return JSON.parse(e.stdout);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(goldenDir, { recursive: true });
  for (const name of samples()) {
    const doc = cliDoc(name);
    const file = join(goldenDir, name.replace(/\.sse$/, '.json'));
    writeFileSync(file, `${JSON.stringify({ ai7: golden(doc, false), ai6: golden(doc, true) }, null, 2)}\n`);
    console.log(`wrote ${file}`);
  }
}
