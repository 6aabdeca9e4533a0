// Type declarations of ai-sdk.js (a2astream/ai-sdk), written by hand. They
// use the types of the `ai` package (an optional peer dependency, 6 or 7).

import type { ChatTransport, UIMessage, UIMessageChunk } from 'ai';
import type { A2AStream, ByteSource, Client, Reply, StreamOptions, TaskState, Update, Usage } from './a2astream.js';

/** The metadata of the assistant messages this bridge makes (UIMessage<A2AMessageMetadata>). */
export interface A2AMessageMetadata {
  /** The task the message belongs to: a follow-up continues it when it waits for input. */
  taskId?: string;
  contextId?: string;
  state?: TaskState | '';
  /** The last status's message: narration while working, the question, the failure. */
  statusMessage?: string | null;
  usage?: Usage | null;
  lastEventId?: string;
}

/** An assistant message of this bridge. */
export type A2AUIMessage = UIMessage<A2AMessageMetadata>;

/** Options of toUIMessageStream and toUIMessageStreamResponse. */
export interface UIMessageStreamOptions extends StreamOptions {
  /**
   * Take an answer's draft back with reset-step (ai 7; default true). With
   * false (ai 6, whose chunk schema has none), the draft stays as a reasoning
   * part whose providerMetadata is { a2a: { draft: true } }.
   */
  resetStep?: boolean;
  /** Decodes a Response, a body or bytes (await load()); not needed for a Run or updates. */
  engine?: A2AStream;
  /** The id of the assistant message (its "start" chunk). */
  messageId?: string;
}

/** What toUIMessageStream reads: a Client's Run or any updates; with options.engine, the agent's response, its body or bytes. */
export type RunSource = AsyncIterable<Update> | Iterable<Update> | ByteSource | Uint8Array | ArrayBuffer;

/**
 * The UI message stream of a run: the thinking as reasoning, the answer once
 * as text, the question or failure of a run without an answer as text, each
 * citation as a source part (providerMetadata.a2a: dataPartId, locator,
 * number, utf16Index), and the task's ids, state and usage as message
 * metadata. Cancelling it leaves the run (the task goes on).
 */
export function toUIMessageStream(source: RunSource, options?: UIMessageStreamOptions): ReadableStream<UIMessageChunk<A2AMessageMetadata>>;

/** The Response of a server route: toUIMessageStream as the AI SDK's UI message stream (SSE), which useChat's default transport reads. */
export function toUIMessageStreamResponse(
  source: RunSource,
  options?: UIMessageStreamOptions & { headers?: HeadersInit; status?: number },
): Response;

/** Options of A2AChatTransport. */
export interface A2AChatTransportOptions {
  /** The agent's client (engine.client({ baseURL, headers })), or its promise. */
  client: Client | Promise<Client>;
  /** As UIMessageStreamOptions.resetStep: false for ai 6. */
  resetStep?: boolean;
  /**
   * Where each chat's run checkpoint is kept, so that
   * useChat({ resume: true }) goes on with the run after a page reload:
   * sessionStorage, localStorage, or any object with these methods (which
   * may return promises). Without one (the default) a run can be resumed
   * only while the page lives.
   */
  store?: ChatStore;
}

/**
 * A key-value store of strings, as Web Storage (sessionStorage,
 * localStorage) is. The transport writes one key per chat,
 * "a2astream/ai-sdk:" + the chat's id: the message id and the run's
 * checkpoint (task id, last event id, the text so far), at each state and
 * artifact close and at most once a second while text streams, and removes
 * it when the run ends. Its errors are ignored: they cost the resume only.
 */
export interface ChatStore {
  getItem(key: string): string | null | Promise<string | null>;
  setItem(key: string, value: string): void | Promise<void>;
  removeItem(key: string): void | Promise<void>;
}

/**
 * A ChatTransport for useChat that talks to an A2A 1.0 agent with a Client.
 * A follow-up continues the previous assistant message's task when it waits
 * for input, and its context otherwise. stop() detaches (the task goes on);
 * resumeStream() (and useChat({ resume: true }) after a reload, with
 * options.store) subscribes again with tasks/{id}:subscribe and
 * Last-Event-ID and replays the message whole, with the same message id:
 * useChat shows it in place of the partial one. cancelTask(chatId) cancels
 * the task.
 */
export class A2AChatTransport implements ChatTransport<A2AUIMessage> {
  constructor(options: A2AChatTransportOptions);
  /** The stream of reconnectToStream is the whole message again (ai 7 resets the message at its start). */
  readonly resumeStreamIsReplay: true;
  sendMessages: ChatTransport<A2AUIMessage>['sendMessages'];
  reconnectToStream: ChatTransport<A2AUIMessage>['reconnectToStream'];
  /** Cancels the task of the chat's last run (tasks/{id}:cancel). */
  cancelTask(chatId: string): Promise<Reply>;
}
