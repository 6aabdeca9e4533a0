// Compiled with tsc --strict --noEmit: the declarations must type this
// frontend-style use of the wrapper.
import {
  A2AStream, Decoder, Update, Result, Citation, TruncatedError, InstanceDeadError, A2AStreamError,
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

export function pipe(engine: A2AStream, body: ReadableStream<Uint8Array>): ReadableStream<Update> {
  return body.pipeThrough(engine.transform());
}

export async function raw(bytes: Uint8Array): Promise<number> {
  const { wasiImports, wasiAllowList } = await import('../../wasi.js');
  let memory: WebAssembly.Memory | null = null;
  const module = await WebAssembly.compile(new Uint8Array(bytes));
  const instance = await WebAssembly.instantiate(module, wasiImports(() => memory, { GOGC: '100' }));
  memory = instance.exports.memory as WebAssembly.Memory;
  return wasiAllowList.length;
}
