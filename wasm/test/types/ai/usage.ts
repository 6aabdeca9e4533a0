// Compiled with tsc --strict --noEmit: a2astream/ai-sdk against the types
// of ai 7 (tsconfig.json) and of ai 6 (tsconfig.ai6.json maps ai to the ai6 alias).
import type { ChatTransport, UIMessageChunk } from 'ai';
import { readUIMessageStream } from 'ai';
import { load } from 'a2astream';
import { A2AChatTransport, toUIMessageStream, toUIMessageStreamResponse, type A2AUIMessage } from 'a2astream/ai-sdk';

export async function route(req: Request): Promise<Response> {
  const engine = await load();
  const client = engine.client({ baseURL: 'https://agent.example/a2a', headers: { Authorization: 'Bearer …' } });
  const { text } = (await req.json()) as { text: string };
  return toUIMessageStreamResponse(client.sendMessageStream(text, { signal: req.signal }));
}

export async function read(engine: Awaited<ReturnType<typeof load>>, response: Response): Promise<string> {
  const stream: ReadableStream<UIMessageChunk> = toUIMessageStream(response, { engine });
  let last: A2AUIMessage | undefined;
  for await (const m of readUIMessageStream<A2AUIMessage>({ stream })) last = m;
  return `${last?.metadata?.taskId} ${last?.metadata?.usage?.totalTokens}`;
}

export function transport(): ChatTransport<A2AUIMessage> {
  const t = new A2AChatTransport({ client: load().then((e) => e.client({ baseURL: '/a2a' })), store: sessionStorage });
  const asyncStore = new A2AChatTransport({
    client: load().then((e) => e.client({ baseURL: '/a2a' })),
    store: { getItem: async (k: string) => k, setItem: async () => {}, removeItem: () => {} },
  });
  void asyncStore.reconnectToStream({ chatId: 'chat-1' });
  void t.cancelTask('chat-1');
  return t;
}
