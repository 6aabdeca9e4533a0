// Compiled with tsc --strict --noEmit: the declarations must type this
// frontend-style use of the wrapper.
import {
  A2AStream, Decoder, Update, Result, Citation, TruncatedError, InstanceDeadError, A2AStreamError,
  Client, Reply, Run, Task, ServerError, Checkpoint,
} from '../../a2astream.js';

export async function show(url: string): Promise<string> {
  const engine = await A2AStream.load(new URL('../../a2astream.wasm', import.meta.url));
  let answer = '';
  for await (const u of engine.updates(await fetch(url), { unit: 'codepoints' })) {
    switch (u.kind) {
      case 'text':
        if (!u.artifact.thinking) answer += u.text;
        break;
      case 'replaced':
        answer = u.text;
        break;
      case 'sealed':
        console.log(u.artifact.id, u.artifact.thinking ? 'thinking' : 'answer');
        break;
      case 'state':
        console.log(u.state, u.message?.text ?? '');
        break;
      case 'done': {
        const r: Result = u.result;
        const cites: Citation[] = r.answer?.citations ?? [];
        for (const c of cites) answer.slice(0, c.utf16Index);
        if (u.error instanceof TruncatedError) console.log(u.error.taskId, u.error.lastEventId, u.error.offset);
        else if (u.error) console.log(u.error.type, u.error.message);
        break;
      }
    }
  }
  return answer;
}

export function push(engine: A2AStream, chunks: Uint8Array[]): Update[] {
  const d: Decoder = engine.decoder({ strict: false, maxEventSize: 1 << 20 });
  const out: Update[] = [];
  try {
    for (const c of chunks) out.push(...d.feed(c));
    out.push(...d.end());
  } catch (e) {
    if (e instanceof InstanceDeadError) void engine.restart();
    else if (e instanceof A2AStreamError) console.log(e.type);
    throw e;
  } finally {
    d.free();
  }
  return out;
}

export function pipe(engine: A2AStream, body: ReadableStream<Uint8Array>, signal: AbortSignal): ReadableStream<Update> {
  void engine.updates(body, { signal, unit: 'utf16' });
  return body.pipeThrough(engine.transform({ signal }));
}

// The whole task surface of a Client: send (streaming or not), get,
// cancel, resubscribe, detach with a signal.
export async function tasks(engine: A2AStream): Promise<string> {
  const client: Client = engine.client({ baseURL: 'https://host/a2a?api_key=K', binding: 'jsonrpc' });
  const sent: Reply = await client.sendMessage({ text: 'Hello', contextId: 'c1' });
  const task: Task | null = sent.task;
  console.log(sent.message?.messageId, task?.status.state, sent.result.answer?.text);
  const stop = new AbortController();
  const run: Run = client.sendMessageStream('Summarise', { signal: stop.signal });
  for await (const u of run) {
    if (u.kind === 'state' && u.state === 'TASK_STATE_WORKING') {
      const after: Reply = await run.cancel();
      console.log(after.result.state, run.taskId, run.lastEventId);
    }
  }
  const got = await client.getTask(run.taskId, { historyLength: 0, signal: stop.signal });
  try {
    await client.cancelTask(got.task?.id ?? '');
  } catch (e) {
    if (e instanceof ServerError && e.code === 409) console.log(e.reason);
  }
  const cp: Checkpoint | null = run.checkpoint();
  if (cp) for await (const u of client.resubscribeTask(cp.taskId, { lastEventId: cp.lastEventId, events: JSON.parse(JSON.stringify(cp.events)) as unknown[] })) if (u.kind === 'done') return u.result.state;
  for await (const u of client.resubscribeTask(run.taskId, { lastEventId: run.lastEventId })) if (u.kind === 'done') return u.result.state;
  return '';
}

export async function raw(bytes: Uint8Array): Promise<number> {
  const { wasiImports, wasiAllowList } = await import('../../wasi.js');
  let memory: WebAssembly.Memory | null = null;
  const module = await WebAssembly.compile(new Uint8Array(bytes));
  const instance = await WebAssembly.instantiate(module, wasiImports(() => memory, { GOGC: '100' }));
  memory = instance.exports.memory as WebAssembly.Memory;
  return wasiAllowList.length;
}
