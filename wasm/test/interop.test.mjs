// The Client against a real A2A 1.0 server, the @a2a-js/sdk agent of the
// CLI's interop test (cmd/a2astream/interop/server.js), over REST and
// JSON-RPC: sendMessage, sendMessageStream, getTask, cancelTask of a
// finished task (the server's typed refusal) and of a running one
// (run.cancel(), read on to CANCELED). The server's dependencies are
// installed from its lock file when missing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { load, ServerError } from 'a2astream';
import { repoDir } from './helpers.mjs';

// The answer the agent streams (server.js's ANSWER_DELTAS, joined).
const ANSWER = 'Café crème brûlée: 東京の天気は晴れ 🎉 — naïve résumé.';
const dir = join(repoDir, 'cmd', 'a2astream', 'interop');
const engine = await load();
let server, base;

before(async () => {
  if (!existsSync(join(dir, 'node_modules', '@a2a-js', 'sdk'))) execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
  server = spawn(process.execPath, ['server.js'], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
  base = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (b) => {
      out += b;
      const m = /^listening (\S+)$/m.exec(out);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
});
after(() => server?.kill());

async function collect(iter) {
  const out = [];
  for await (const u of iter) out.push(u);
  return out;
}

for (const [name, options] of [['REST', () => ({ baseURL: `${base}/a2a/rest` })], ['JSON-RPC', () => ({ baseURL: `${base}/a2a/jsonrpc`, binding: 'jsonrpc' })]]) {
  test(`${name}: sendMessage, getTask and cancelTask of a finished task against @a2a-js/sdk`, async () => {
    const client = engine.client(options());
    const sent = await client.sendMessage('hello');
    assert.equal(sent.result.state, 'TASK_STATE_COMPLETED');
    assert.equal(sent.result.answer.text, ANSWER);
    assert.equal(sent.result.usage?.model, 'interop-agent');
    const id = sent.task.id;
    const got = await client.getTask(id, { historyLength: 1 });
    assert.equal(got.task.id, id);
    assert.equal(got.result.taskId, id);
    assert.equal(got.result.state, 'TASK_STATE_COMPLETED');
    assert.equal(got.result.answer.text, ANSWER);
    assert.ok(got.task.history.length <= 1, `history of ${got.task.history.length}`);
    await assert.rejects(client.cancelTask(id), (e) => {
      assert.ok(e instanceof ServerError, String(e));
      assert.match(e.message, /cancel/i);
      return true;
    });
    await assert.rejects(client.getTask('no-such-task'), ServerError);
  });

  test(`${name}: run.cancel() cancels a running stream against @a2a-js/sdk, which reads on to CANCELED`, async () => {
    const client = engine.client(options());
    const run = client.sendMessageStream('slow hello');
    const updates = [];
    let reply = null;
    for await (const u of run) {
      updates.push(u);
      if (u.kind === 'text' && !reply) {
        // The task as it stands, mid-answer: its result so far.
        const now = await client.getTask(run.taskId);
        assert.equal(now.result.state, 'TASK_STATE_WORKING');
        assert.equal(now.result.error, null);
        assert.ok(ANSWER.startsWith(now.result.artifacts.at(-1)?.text ?? ''), `partial text ${now.result.artifacts.at(-1)?.text}`);
        reply = await run.cancel();
      }
    }
    assert.equal(reply.task.id, run.taskId);
    assert.equal(reply.result.state, 'TASK_STATE_CANCELED');
    const done = updates.at(-1);
    assert.equal(done.error, null, String(done.error));
    assert.equal(done.result.state, 'TASK_STATE_CANCELED');
    assert.equal((await client.getTask(run.taskId)).result.state, 'TASK_STATE_CANCELED');
  });

  test(`${name}: sendMessageStream against @a2a-js/sdk gives the answer once`, async () => {
    const updates = await collect(engine.client(options()).sendMessageStream('hello'));
    const done = updates.at(-1);
    assert.equal(done.error, null, String(done.error));
    assert.equal(done.result.answer.text, ANSWER);
    assert.equal(done.result.usage.model, 'interop-agent');
  });
}
