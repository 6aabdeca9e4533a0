// ai-sdk.js: the bridge to the AI SDK (the `ai` package): a ChatTransport
// for useChat that talks to an A2A 1.0 agent with the package's Client,
// and the UI message stream of a run, which a server route returns so that
// the agent's token stays on the server. It imports nothing of `ai` (its
// types only): the chunks are plain objects of the UIMessageChunk shapes.
//
// What the message shows. An artifact's kind is known only when its close
// says so: a narration is typed exactly as an answer is. So every artifact
// is streamed as reasoning while it is open (the text appears as it is
// typed), and its close settles it: as thinking, its reasoning part ends;
// as the answer, it becomes a text part. UI message chunks cannot take
// text back, except `reset-step` (ai 7), which removes the parts of the
// current step: each run of artifacts is a step, and when an open artifact
// turns out to be the answer the step is reset and rendered again, the
// answer as text. The message ends with the thinking as reasoning parts
// and the answer once as text. With `resetStep: false` (ai 6, whose chunk
// schema has no reset-step) the answer's draft stays as a reasoning part
// whose providerMetadata is { a2a: { draft: true } }: hide those.

const INTERRUPTED = new Set(['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED']);
const ENDED = new Set(['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED']);

/**
 * Render turns the updates of a run into UI message chunks (emit receives
 * each). It keeps what the message shows, by artifact id, so that it can
 * go on after a resubscription: the parts of the current step and their
 * text.
 */
class Render {
  constructor(resetStep) {
    this.resetStep = resetStep;
    this.arts = new Map(); // artifact id → {id, text, thinking, sealed, part}
    this.step = null; // the ids of the current step's artifacts, null between steps
    this.emit = null;
  }

  // update renders the update u.
  update(u) {
    switch (u.kind) {
      case 'text': case 'replaced': this.#text(u); break;
      case 'sealed': this.#sealed(u); break;
      case 'state':
        this.emit({ type: 'message-metadata', messageMetadata: { state: u.state, statusMessage: u.message ? u.message.text : null } });
        break;
    }
    if (this.step !== null && this.step.every((id) => this.arts.get(id).sealed)) {
      this.emit({ type: 'finish-step' });
      this.step = null;
    }
  }

  #text(u) {
    let a = this.arts.get(u.artifact.id);
    if (!a) {
      a = { id: u.artifact.id, text: '', thinking: false, sealed: false, part: null };
      this.arts.set(a.id, a);
    }
    const shown = a.part ? a.text : '';
    const reopened = a.sealed;
    a.text = u.kind === 'text' ? a.text + u.text : u.text;
    a.thinking = u.artifact.thinking;
    a.sealed = u.artifact.sealed;
    if (a.part && a.part.open && !reopened && a.text.startsWith(shown)) {
      if (a.text.length > shown.length) this.emit({ type: `${a.part.type}-delta`, id: a.part.id, delta: a.text.slice(shown.length) });
      return;
    }
    this.#settle(a);
  }

  #sealed(u) {
    let a = this.arts.get(u.artifact.id);
    if (!a) {
      a = { id: u.artifact.id, text: '', thinking: false, sealed: false, part: null };
      this.arts.set(a.id, a);
    }
    a.thinking = u.artifact.thinking;
    a.sealed = true;
    if (a.part && a.part.open && a.part.type === 'reasoning' && a.thinking) {
      this.emit({ type: 'reasoning-end', id: a.part.id });
      a.part.open = false;
      return;
    }
    // A text update that came with the close showed it already.
    if (a.part && !a.part.open && a.part.type === (a.thinking ? 'reasoning' : 'text')) return;
    this.#settle(a);
  }

  // settle shows a as it now is when its part cannot be continued: the
  // step rendered again (reset-step), or a new part after the old one.
  #settle(a) {
    if (this.resetStep && this.step !== null && this.step.includes(a.id)) {
      this.emit({ type: 'reset-step' });
      for (const id of this.step) this.#show(this.arts.get(id));
      return;
    }
    if (a.part && a.part.open) {
      this.emit({ type: `${a.part.type}-end`, id: a.part.id, providerMetadata: { a2a: { draft: true } } });
      a.part.open = false;
    }
    if (this.step === null) {
      this.emit({ type: 'start-step' });
      this.step = [];
    }
    if (!this.step.includes(a.id)) this.step.push(a.id);
    this.#show(a);
  }

  // show makes a's part: reasoning while open or thinking, text once sealed
  // as no thinking (the answer so far); none while a has no text.
  #show(a) {
    a.part = null;
    if (a.text === '') return;
    const type = a.sealed && !a.thinking ? 'text' : 'reasoning';
    // The part's id is the artifact's: a part made again replaces one
    // that reset-step removed or that ended.
    a.part = { type, id: a.id, open: !a.sealed };
    this.emit({ type: `${type}-start`, id: a.part.id });
    this.emit({ type: `${type}-delta`, id: a.part.id, delta: a.text });
    if (a.sealed) this.emit({ type: `${type}-end`, id: a.part.id });
  }

  // done ends the message with the result: the open parts ended, the
  // question or failure of a run with no answer as text, the citations as
  // sources, the error, and the metadata.
  done(u, aborted) {
    for (const a of this.arts.values()) {
      if (a.part && a.part.open) {
        this.emit({ type: `${a.part.type}-end`, id: a.part.id });
        a.part.open = false;
      }
    }
    // A stopped run's message ends here; a resubscription replays it whole.
    if (aborted) return;
    if (this.step !== null) {
      this.emit({ type: 'finish-step' });
      this.step = null;
    }
    const r = u.result;
    const question = !r.answer && r.statusMessage && (INTERRUPTED.has(r.state) || ENDED.has(r.state)) ? r.statusMessage.text : '';
    if (question) {
      const id = 'status';
      this.emit({ type: 'start-step' });
      this.emit({ type: 'text-start', id });
      this.emit({ type: 'text-delta', id, delta: question });
      this.emit({ type: 'text-end', id });
      this.emit({ type: 'finish-step' });
    }
    const shown = r.answer ? this.arts.get(r.answer.artifactId) : null;
    if (r.answer && (!shown || shown.text === r.answer.text)) for (const s of sources(r.answer)) this.emit(s);
    if (u.error) this.emit({ type: 'error', errorText: u.error.message });
    this.emit({ type: 'finish', finishReason: finishReason(r, u.error), messageMetadata: metadata(r) });
  }
}

// sources returns the source chunks of the answer's citations: a
// source-url for a cited URL part, a source-document for data (its
// providerMetadata.a2a says which part, where in it and where in the text).
function sources(answer) {
  return answer.citations.map((c) => {
    const part = answer.parts.find((p) => p.metadata && p.metadata.dataPartId === c.id);
    const a2a = { dataPartId: c.id, locator: c.locator, number: c.number, utf16Index: c.utf16Index };
    if (c.error !== null) a2a.error = c.error;
    const sourceId = c.locator ? `${c.id}#${c.locator}` : c.id;
    if (part && part.kind === 'url') return { type: 'source-url', sourceId, url: part.url, title: `[${c.number}] ${c.locator}`.trim(), providerMetadata: { a2a } };
    const s = { type: 'source-document', sourceId, mediaType: (part && part.mediaType) || 'application/json', title: `[${c.number}] ${c.locator}`.trim(), providerMetadata: { a2a } };
    if (part && part.filename) s.filename = part.filename;
    return s;
  });
}

// metadata returns the message metadata of a result: what a follow-up
// needs (taskId, contextId, state) and what to show (usage, status).
function metadata(r) {
  return {
    taskId: r.taskId, contextId: r.contextId, state: r.state,
    statusMessage: r.statusMessage ? r.statusMessage.text : null, usage: r.usage, lastEventId: r.lastEventId,
  };
}

function finishReason(r, error) {
  if (error) return 'error';
  if (r.state === 'TASK_STATE_COMPLETED' || r.message) return 'stop';
  return 'other';
}

// updatesOf returns the updates of a source: a Run or any (async) iterable
// of updates as it is; a Response, a body or bytes decoded by options.engine.
function updatesOf(source, options) {
  const bytes = source instanceof Uint8Array || source instanceof ArrayBuffer;
  const raw = bytes || (typeof Response !== 'undefined' && source instanceof Response) || (typeof source.getReader === 'function');
  if (!raw) return source;
  if (!options.engine) throw new TypeError('A Response, a body or bytes needs options.engine (await load()) to decode it');
  return options.engine.updates(bytes ? [new Uint8Array(source)] : source, options);
}

/**
 * toUIMessageStream returns the UI message stream of a run: a
 * ReadableStream of UIMessageChunk objects, as createUIMessageStream makes
 * them. source is a Client's Run (client.sendMessageStream(…)), any
 * (async) iterable of updates, or, with options.engine, a Response, a body
 * or bytes of the agent's event stream. options.resetStep (default true)
 * lets the stream take an answer's draft back with reset-step (ai 7); set
 * it to false for ai 6. Cancelling the stream leaves the run (detaches:
 * the task goes on).
 */
export function toUIMessageStream(source, options = {}) {
  return chunkStream(updatesOf(source, options), new Render(options.resetStep !== false), options);
}

// chunkStream reads updates into the chunks render makes, beginning with
// the "start" chunk (options.messageId its id). options.signal, when
// aborted, ends the message quietly (the user stopped it); options.onUpdate
// and options.onDone see each update after it is rendered, options.onCancel
// the stream's cancel, options.onError an error that ends it (a refused
// first request).
function chunkStream(updates, render, options) {
  const it = updates[Symbol.asyncIterator] ? updates[Symbol.asyncIterator]() : updates[Symbol.iterator]();
  let sentId = false;
  return new ReadableStream({
    start(ctl) {
      render.emit = (c) => ctl.enqueue(c);
      render.emit(options.messageId ? { type: 'start', messageId: options.messageId } : { type: 'start' });
    },
    async pull(ctl) {
      let next;
      try {
        next = await it.next();
      } catch (e) {
        options.onError?.(e);
        throw e;
      }
      const { done, value: u } = next;
      if (done) { ctl.close(); return; }
      if (u.kind === 'done') {
        const aborted = options.signal ? options.signal.aborted : false;
        render.done(u, aborted);
        options.onDone?.(u, aborted);
        ctl.close();
        // The run's generator ends (its timers cleared, its decoder freed).
        await it.return?.();
        return;
      }
      render.update(u);
      // A Run knows its task id from its first event: sent once, with the
      // first state, so that a UI can cancel the task while it runs.
      if (!sentId && u.kind === 'state' && typeof updates.taskId === 'string' && updates.taskId) {
        sentId = true;
        render.emit({ type: 'message-metadata', messageMetadata: { taskId: updates.taskId } });
      }
      options.onUpdate?.(u);
    },
    cancel() {
      options.onCancel?.();
      return it.return?.();
    },
  });
}

/**
 * toUIMessageStreamResponse returns the Response a server route answers
 * with: the UI message stream of the run as Server-Sent Events, with the
 * headers of the AI SDK's UI message stream protocol (useChat's default
 * transport reads it). source and options are toUIMessageStream's;
 * options.headers and options.status go on the response.
 */
export function toUIMessageStreamResponse(source, options = {}) {
  const enc = new TextEncoder();
  const sse = toUIMessageStream(source, options).pipeThrough(new TransformStream({
    transform(chunk, ctl) { ctl.enqueue(enc.encode(`data: ${JSON.stringify(chunk)}\n\n`)); },
    flush(ctl) { ctl.enqueue(enc.encode('data: [DONE]\n\n')); },
  }));
  const headers = new Headers(options.headers);
  for (const [k, v] of Object.entries({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-vercel-ai-ui-message-stream': 'v1', 'x-accel-buffering': 'no' })) {
    if (!headers.has(k)) headers.set(k, v);
  }
  return new Response(sse, { status: options.status ?? 200, headers });
}

/**
 * A2AChatTransport is a ChatTransport for useChat that sends the last user
 * message to an A2A 1.0 agent with a Client (engine.client(…), or its
 * promise): message:stream, resubscribed after dropped connections. A
 * follow-up continues the task of the previous assistant message when it
 * is waiting for input (TASK_STATE_INPUT_REQUIRED, AUTH_REQUIRED), and its
 * context otherwise (the ids are in that message's metadata). stop()
 * detaches: the task goes on, and resumeStream() (reconnectToStream)
 * subscribes again (tasks/{id}:subscribe, Last-Event-ID) and replays the
 * message whole (resumeStreamIsReplay), from the run's checkpoint: the
 * one in memory, or after a page reload the one options.store keeps.
 * cancelTask(chatId) cancels the task.
 */
export class A2AChatTransport {
  #client; #resetStep; #store; #chats = new Map(); #writes = Promise.resolve();

  /** The stream reconnectToStream returns replays the message from its start. */
  resumeStreamIsReplay = true;

  constructor(options) {
    this.#client = options.client;
    this.#resetStep = options.resetStep !== false;
    this.#store = options.store ?? null;
  }

  /** sendMessages sends the last message's text and returns the UI message stream of the run. */
  async sendMessages({ chatId, messages, abortSignal }) {
    const client = await this.#client;
    const user = messages[messages.length - 1];
    const text = user.parts.filter((p) => p.type === 'text').map((p) => p.text).join('\n');
    const msg = { text };
    const prev = [...messages].reverse().find((m) => m.role === 'assistant' && m.metadata && m.metadata.contextId);
    if (prev) {
      msg.contextId = prev.metadata.contextId;
      if (INTERRUPTED.has(prev.metadata.state) && prev.metadata.taskId) msg.taskId = prev.metadata.taskId;
    }
    const chat = { chatId, run: client.sendMessageStream(msg, { signal: abortSignal }), messageId: newId(), checkpoint: null, saved: 0, done: false };
    this.#chats.set(chatId, chat);
    await this.#forget(chatId);
    return this.#stream(chat, abortSignal);
  }

  /**
   * reconnectToStream subscribes again to the run of the chat that stopped
   * or dropped before its end, from its checkpoint (in memory, else in
   * options.store), and returns the whole message again; null when there
   * is none.
   */
  async reconnectToStream({ chatId, abortSignal }) {
    let chat = this.#chats.get(chatId);
    if (chat && (chat.done || chat.run?.refused)) return null;
    if (!chat) {
      chat = await this.#kept(chatId);
      if (!chat) return null;
      this.#chats.set(chatId, chat);
    }
    const cp = chat.run?.checkpoint() ?? chat.checkpoint;
    if (!cp) return null;
    const client = await this.#client;
    chat.run = client.resubscribeTask(cp.taskId, { lastEventId: cp.lastEventId, events: cp.events, signal: abortSignal });
    return this.#stream(chat, abortSignal);
  }

  /** cancelTask cancels the task of the chat's last run (tasks/{id}:cancel); the Reply of the cancel. */
  async cancelTask(chatId) {
    const chat = this.#chats.get(chatId);
    const taskId = chat?.run?.taskId || chat?.checkpoint?.taskId;
    if (!taskId) throw new Error(`The chat ${chatId} has no task to cancel`);
    return (await this.#client).cancelTask(taskId);
  }

  // stream returns the UI message stream of the chat's run. The run's
  // checkpoint is kept (in memory, and in the store when there is one) at
  // each state and artifact close, with a store also at most once a second
  // while text streams (each checkpoint holds the text so far: not per
  // token), and when the stream stops before the run's end. A run that
  // gives none at a point keeps the one before. The stored one is removed
  // when the run ends.
  #stream(chat, signal) {
    const keep = () => {
      const cp = chat.run.checkpoint();
      chat.saved = Date.now();
      if (!cp) return;
      chat.checkpoint = cp;
      if (this.#store) this.#save(chat);
    };
    const onUpdate = (u) => {
      if (u.kind === 'state' || u.kind === 'sealed' || (this.#store && Date.now() - chat.saved >= SAVE_INTERVAL)) keep();
    };
    // A run the server refused (the task is gone: a resubscription after
    // a day, a reload after the task expired) is not kept to try again.
    const onDone = (u, aborted) => {
      chat.done = !u.error;
      if (aborted || (!chat.done && !chat.run.refused)) keep(); else this.#forget(chat.chatId);
    };
    const onError = () => { if (chat.run.refused) this.#forget(chat.chatId); };
    return chunkStream(chat.run, new Render(this.#resetStep), { signal, messageId: chat.messageId, onUpdate, onDone, onError, onCancel: keep });
  }

  // kept returns the chat the store keeps for chatId, null when it keeps
  // none (or what it keeps is no checkpoint of this transport's).
  async #kept(chatId) {
    let kept = null;
    try { kept = this.#store && JSON.parse(await this.#store.getItem(storeKey(chatId))); } catch { /* none */ }
    const cp = kept && kept.checkpoint;
    if (!cp || typeof cp.taskId !== 'string' || typeof cp.lastEventId !== 'string' || !Array.isArray(cp.events)) return null;
    return { chatId, run: null, messageId: String(kept.messageId), checkpoint: cp, saved: 0, done: false };
  }

  // save writes the chat's checkpoint to the store; forget removes it.
  // The writes are made in order, one at a time (a store may be async). A
  // store that fails loses the resume after a reload, not the chat.
  #save(chat) {
    const value = JSON.stringify({ messageId: chat.messageId, checkpoint: chat.checkpoint });
    return this.#write(() => this.#store.setItem(storeKey(chat.chatId), value));
  }

  #forget(chatId) {
    return this.#store ? this.#write(() => this.#store.removeItem(storeKey(chatId))) : undefined;
  }

  #write(op) {
    this.#writes = this.#writes.then(op).catch(() => {});
    return this.#writes;
  }
}

const SAVE_INTERVAL = 1000;

function storeKey(chatId) { return `a2astream/ai-sdk:${chatId}`; }

// newId returns a random message id.
function newId() {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
}
