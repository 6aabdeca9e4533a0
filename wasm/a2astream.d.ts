// Type declarations of a2astream.js, written by hand.

/** A task state, as a2a.proto names it. */
export type TaskState =
  | 'TASK_STATE_UNSPECIFIED'
  | 'TASK_STATE_SUBMITTED'
  | 'TASK_STATE_WORKING'
  | 'TASK_STATE_COMPLETED'
  | 'TASK_STATE_FAILED'
  | 'TASK_STATE_CANCELED'
  | 'TASK_STATE_INPUT_REQUIRED'
  | 'TASK_STATE_REJECTED'
  | 'TASK_STATE_AUTH_REQUIRED';

/** Who sent a message, as a2a.proto names it. */
export type Role = 'ROLE_UNSPECIFIED' | 'ROLE_USER' | 'ROLE_AGENT';

/** The protocol binding of a server error. */
export type Binding = 'REST' | 'JSON-RPC';

/** Which content a part holds; "unknown" for a part with none of them. */
export type PartKind = 'text' | 'data' | 'raw' | 'url' | 'unknown';

/** What an update reports. */
export type UpdateKind = 'text' | 'replaced' | 'sealed' | 'state' | 'done';

/** What kind of error ended a run: see the A2AStreamError subclasses ("other" for none of them). */
export type ErrorType = 'truncated' | 'api' | 'http' | 'notEventStream' | 'syntax' | 'limit' | 'rule' | 'other';

/** What a citation's target is in the cited data. */
export type TargetKind = 'None' | 'Object' | 'Array' | 'String' | 'Number' | 'True' | 'False' | 'Null' | 'Text';

/** The "error" member of a result: what ended the run, and where (offsets are 0-based bytes, seq the 1-based frame ordinal). */
export interface ErrorDoc {
  /** What kind of error: see the A2AStreamError subclasses. */
  type: ErrorType;
  /** The Go error's message, with its package prefixes ("reconstruct: "). */
  message: string;
  binding?: Binding;
  code?: number;
  status?: string;
  reason?: string;
  domain?: string;
  details?: unknown;
  httpStatus?: number;
  contentType?: string;
  /** The first bytes of a response or input that is not an event stream (notEventStream). */
  head?: string;
  taskId?: string;
  lastEventId?: string;
  /** The task's state when the stream was cut ("" when none was seen). */
  state?: TaskState | '';
  /** Whether the stream was cut inside an event (truncated). */
  insideEvent?: boolean;
  /** The bytes of the cut event dropped (truncated). */
  dropped?: number;
  offset?: number;
  seq?: number;
  id?: string;
  jsonOffset?: number;
  jsonPointer?: string;
  cause?: string;
}

/** A2AStreamError is why a run did not end normally; its fields are the Go error's (ErrorDoc). */
export class A2AStreamError extends Error {
  constructor(doc: ErrorDoc);
  readonly type: ErrorType;
  /** The message as Go wrote it, with package prefixes ("reconstruct: stream ended …"); message is without them. */
  readonly goMessage: string;
  readonly binding?: Binding;
  /** The HTTP status (REST) or the JSON-RPC error code of a server error. */
  readonly code?: number;
  readonly status?: string;
  readonly reason?: string;
  readonly domain?: string;
  readonly details?: unknown;
  readonly httpStatus?: number;
  readonly contentType?: string;
  /** The task to resubscribe to (truncated). */
  readonly taskId?: string;
  /** The Last-Event-ID to resubscribe with (truncated). */
  readonly lastEventId?: string;
  readonly state?: TaskState | '';
  /** 0-based byte offset in the stream (UTF-8 bytes, not UTF-16 units). */
  readonly offset?: number;
  /** 1-based ordinal of the frame concerned. */
  readonly seq?: number;
  /** The SSE id in force for the frame. */
  readonly id?: string;
  /** 0-based byte offset in the data of the frame that did not decode (syntax). */
  readonly jsonOffset?: number;
  /** The RFC 6901 JSON Pointer of the member concerned, such as "/artifactUpdate/artifact/parts/0/text" (syntax). */
  readonly jsonPointer?: string;
  /** Whether a truncated stream was cut inside an event (whose bytes were dropped) rather than between events. */
  readonly insideEvent?: boolean;
  /** The bytes of the event a truncated stream was cut inside, dropped; 0 between events. */
  readonly dropped?: number;
  /** The read error that ended a truncated stream (a reset, a deadline, an idle timeout); absent when the input simply ended. */
  readonly cause?: string;
}
/** The stream ended before the run did: resubscribe with taskId and lastEventId. */
export class TruncatedError extends A2AStreamError {}
/** The server's error document (REST or JSON-RPC), before or inside the stream. */
export class ServerError extends A2AStreamError {}
/** A response that is neither an event stream nor an error document. */
export class HTTPError extends A2AStreamError {}
/** A 2xx response, or input, that is not an event stream (an HTML page, a JSON body, binary): contentType and head say what came. */
export class NotEventStreamError extends A2AStreamError {}
/** Bytes that do not lex or decode as A2A events. */
export class StreamSyntaxError extends A2AStreamError {}
/** An error of the "other" type. */
export class OtherError extends A2AStreamError {}
/** A limit was exceeded (maxArtifactSize…). */
export class LimitError extends A2AStreamError {}
/** A protocol rule was broken under the strict option. */
export class RuleError extends A2AStreamError {}
/** The module panicked or trapped: call A2AStream.restart() and start over. */
export class InstanceDeadError extends Error {}
/** A call the stream refused, such as feed after end or after free. */
export class UsageError extends Error {}

/** cleanMessage returns a Go error's message without its package prefixes ("reconstruct: ", "parser: "). */
export function cleanMessage(goMessage: string): string;

/** errorFromDoc returns the typed error of a result's "error" member, or null. */
export function errorFromDoc(doc: ErrorDoc | null | undefined): A2AStreamError | null;

/** Options of a stream; every field is optional. */
export interface DecoderOptions {
  /** Turn every broken protocol rule into an error that ends the run. */
  strict?: boolean;
  /** Unit of the citation offsets the agent sends; default "codepoints". */
  unit?: 'codepoints' | 'bytes' | 'utf16';
  /** Cap of one SSE event in bytes; 0 or absent means the default (16 MiB). */
  maxEventSize?: number;
  /** Cap of one artifact in bytes; 0 or absent means the default (64 MiB). */
  maxArtifactSize?: number;
}

/** An artifact as it was when the update happened. */
export interface ArtifactRef {
  /** 0-based, in the order the run first saw the artifacts. */
  readonly index: number;
  readonly id: string;
  readonly name: string;
  /** Tagged intermediate thinking: narration, not the answer. */
  readonly thinking: boolean;
  /** A lastChunk closed it. */
  readonly sealed: boolean;
}

/** New text of an artifact, whole characters: append it. */
export interface TextUpdate { kind: 'text'; seq: number; artifact: ArtifactRef; text: string }
/** The artifact's text was replaced: show text instead. */
export interface ReplacedUpdate { kind: 'replaced'; seq: number; artifact: ArtifactRef; text: string }
/** A lastChunk closed the artifact: as thinking, or as the answer so far. */
export interface SealedUpdate { kind: 'sealed'; seq: number; artifact: ArtifactRef }
/** The task entered a state, with its status message (narration, a question, a failure). */
export interface StateUpdate { kind: 'state'; seq: number; state: TaskState; message: StatusMessage | null }
/** The run ended: result holds everything, error why it did not end normally. */
export interface DoneUpdate { kind: 'done'; seq: number; result: Result; error: A2AStreamError | null }
export type Update = TextUpdate | ReplacedUpdate | SealedUpdate | StateUpdate | DoneUpdate;

export interface StatusMessage { messageId: string; role: Role; text: string }

export interface Part {
  kind: PartKind;
  text?: string;
  data?: unknown;
  /** Data that is not valid JSON, as text. */
  dataText?: string;
  /** Base64. */
  raw?: string;
  url?: string;
  filename?: string;
  mediaType?: string;
  metadata?: unknown;
}

/** A resolved citation: every offset is 0-based; utf16Index indexes the JS string of text. */
export interface Citation {
  /** 1-based marker number of the target (cited part and locator), shared by the citations of that target. */
  number: number;
  /** The cited data part's id. */
  id: string;
  /** The offset as the agent sent it, in the unit of the options. */
  offset: number;
  byteOffset: number;
  runeIndex: number;
  utf16Index: number;
  /** The locator, such as "/labs/0" or "L12-L20"; "" when none. */
  locator: string;
  /** What the locator designates in the cited data (JSON, or a string of lines). */
  target: unknown;
  targetKind: TargetKind;
  /** Why the locator did not resolve; null when it did. */
  error: string | null;
}

export interface CitationDiagnostic { part: number; index: number; id: string; offset: number; error: string }

export interface Artifact {
  artifactId: string;
  name?: string;
  description?: string;
  /** The text of the text parts joined: what citation offsets count in. */
  text: string;
  parts: Part[];
  metadata?: unknown;
  extensions?: string[];
  thinking: boolean;
  sealed: boolean;
  citations: Citation[];
  citationDiagnostics: CitationDiagnostic[];
}

export interface Message { messageId: string; role: Role; text: string; parts: Part[]; metadata?: unknown }

export interface Usage {
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  cacheCreationInputTokens?: number;
  totalTokens?: number;
  credits?: number;
}

export interface Diagnostic {
  offset: number;
  seq: number;
  id: string;
  artifactId?: string;
  taskId?: string;
  /** The RFC 6901 JSON Pointer of the member concerned, such as "/statusUpdate/final". */
  jsonPointer?: string;
  /** The transition a rule forbade: from and to. */
  from?: TaskState;
  to?: TaskState;
  error: string;
}

/** The run: the document `a2astream --json` prints. */
export interface Result {
  /** Such as "TASK_STATE_COMPLETED"; "" when no status was seen. */
  state: TaskState | '';
  taskId: string;
  contextId: string;
  /** The deliverable; null for a failed, interrupted or cut run. */
  answer: Artifact | null;
  thinking: Artifact[];
  artifacts: Artifact[];
  /** Never the answer: narration, a question or a failure. */
  statusMessage: Message | null;
  /** A direct message reply without a task. */
  message: Message | null;
  usage: Usage | null;
  lastEventId: string;
  diagnostics: Diagnostic[];
  error: ErrorDoc | null;
}

/** A source of the module: a URL (relative to the page; in Node also a path), a fetch() response or its promise, the bytes, or a compiled module. */
export type ModuleSource = string | URL | Response | Promise<Response> | ArrayBuffer | ArrayBufferView | WebAssembly.Module;

/** What load() was given or fetched is not a WebAssembly module (an HTML page, an HTTP error). */
export class NotWasmError extends Error {
  /** Where it came from. */
  readonly url: string;
}

/**
 * A pre-parsed SSE frame, as eventsource-parser and SSE client SDKs hand
 * them out. data that is neither a string nor bytes is written as JSON.
 */
export interface Frame {
  data?: unknown;
  event?: string;
  id?: string;
  retry?: number;
}

/** Byte chunks (or pre-parsed frames) as a fetch body or any (async) iterable yields them. */
export type ByteSource =
  | Response
  | ReadableStream<Uint8Array | Frame>
  | AsyncIterable<Uint8Array | Frame>
  | Iterable<Uint8Array | Frame>;

/** One instance of the module: one per page or worker, a Decoder per stream. */
export class A2AStream {
  private constructor();
  /** Compiles and instantiates the module; the default source is a2astream.wasm beside a2astream.js. */
  static load(source?: ModuleSource): Promise<A2AStream>;
  /** The compiled module, to share with workers. */
  readonly module: WebAssembly.Module;
  /** The error that killed the instance, or null. */
  readonly dead: InstanceDeadError | null;
  /** Replaces a dead (or live) instance by a new one; the old decoders are dead. */
  restart(): Promise<void>;
  decoder(options?: DecoderOptions): Decoder;
  /** A TransformStream of byte chunks to updates; options.signal, when it aborts, ends the run truncated with its reason as the cause. */
  transform(options?: StreamOptions): TransformStream<Uint8Array | Frame, Update>;
  /** A Client of an agent, which resubscribes after dropped connections. */
  client(options?: ClientOptions): Client;
  /**
   * Checks the response of a streaming call as Go's reconstruct.EventStream and ResponseError:
   * null for an event stream; otherwise (a status outside 2xx, or a Content-Type other than text/event-stream)
   * it reads the body and returns the server's error (ServerError), a NotEventStreamError or an HTTPError.
   */
  checkResponse(response: Response): Promise<A2AStreamError | null>;
  /**
   * The updates of a fetch() response or body; a failed read ends the run
   * truncated, and so does options.signal when it aborts (the body is
   * cancelled; a signal aborted before the first read throws its reason).
   * A response that is no event stream throws checkResponse's error.
   */
  updates(source: ByteSource, options?: StreamOptions): AsyncGenerator<Update, void, undefined>;
  /** The View after each update of updates(source, options): what a UI renders, the last one done. */
  views(source: ByteSource, options?: StreamOptions): AsyncGenerator<View, void, undefined>;
}

/** Options of engine.updates() and engine.transform(): the decoder's, and a signal. */
export interface StreamOptions extends DecoderOptions {
  /** Aborting it ends the run truncated, with the reason as the cause. */
  signal?: AbortSignal;
}

/** Options of a Client: where the agent is, how to reach it, and how to resubscribe; and the decoder's options. */
export interface ClientOptions extends DecoderOptions {
  /**
   * The agent's A2A base URL, such as https://host/v2/agents/{id}/a2a; without it a run cannot resubscribe.
   * Its query string (?api_key=…) is kept on every call: REST paths are appended to its path, JSON-RPC posts
   * to it. No error message echoes its query string or userinfo (they read "…").
   */
  baseURL?: string;
  /** The protocol binding; default "rest". */
  binding?: 'rest' | 'jsonrpc';
  /** Added to every request (authorization, tenant); replaces the A2A defaults of the same name. */
  headers?: HeadersInit;
  /** The fetch-like function that makes the requests; default globalThis.fetch. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** Milliseconds a connection may go without a byte before it is given up and the run resubscribes; 0 or absent: 60,000; negative: off. */
  idleTimeout?: number;
  /** Milliseconds the whole run may take; 0 or absent: one hour; negative: off. */
  timeout?: number;
  /** Resubscriptions a run may make; 0 or absent: 5; negative: none. */
  retries?: number;
  /** Backoff before the first resubscription in ms, doubled after each one that brought nothing; 0 or absent: 500; negative: no wait. */
  retryDelay?: number;
  /** Cap of the backoff and of a Retry-After in ms; 0 or absent: 30,000. */
  maxRetryDelay?: number;
  /** Random part of each backoff (a delay d is waited as between d*(1-jitter) and d); 0 or absent: 0.5; negative: none. */
  jitter?: number;
  /** Called before each resubscription, before its backoff. */
  onResubscribe?: (r: Resubscription) => void;
}

/** A connection that ended before the run did, and the resubscription about to be made. */
export interface Resubscription {
  /** 1-based number of the resubscription in the run. */
  attempt: number;
  retries: number;
  /** The wait in ms before it: the backoff, or the Retry-After of the last answer when longer (capped by maxRetryDelay). */
  delay: number;
  taskId: string;
  /** The Last-Event-ID sent; "" when none. */
  lastEventId: string;
  /** Why the connection ended (a reset, the idle timeout, a failed request, a busy server's answer); null when the server ended it. */
  error: unknown;
}

/** The user message sendMessage and sendMessageStream send, as one text part. */
export interface UserMessage {
  text: string;
  /** Continues a task, such as one waiting in TASK_STATE_INPUT_REQUIRED. */
  taskId?: string;
  contextId?: string;
  /** Default: a random UUID. */
  messageId?: string;
}

/** Options of one call of a Client. */
export interface CallOptions {
  /**
   * Aborting it ends the call. For a stream it detaches: the run ends
   * truncated with the reason as the cause, and the task goes on on the
   * server (resubscribeTask reads on; cancelTask cancels it).
   */
  signal?: AbortSignal;
}

/** A task's status, as the server sent it. */
export interface TaskStatus {
  state: TaskState;
  message?: unknown;
  timestamp?: string;
}

/** A task as the server sent it (JSON); its result document is what to read. */
export interface Task {
  id: string;
  contextId: string;
  status: TaskStatus;
  artifacts?: unknown[];
  history?: unknown[];
  metadata?: unknown;
  [member: string]: unknown;
}

/** A message as the server sent it (JSON). */
export interface A2AMessage {
  messageId: string;
  role: Role;
  parts: unknown[];
  [member: string]: unknown;
}

/**
 * The answer of sendMessage, getTask or cancelTask: the result document
 * the core builds from the task or message (the same as a stream of it
 * gives: state, status message, answer, thinking, artifacts, usage,
 * citations), and the task or message as the server sent it. A task still
 * running has the result so far (no error).
 */
export interface Reply {
  result: Result;
  /** The task; null for a direct message reply. */
  task: Task | null;
  /** The direct message reply of sendMessage; null for a task. */
  message: A2AMessage | null;
}

/**
 * A streaming call: its updates, ending with "done", and what to resume or
 * cancel it with. Leaving the loop, or aborting the call's signal, detaches
 * without cancelling the task.
 */
export interface Run extends AsyncGenerator<Update, void, undefined> {
  /** The task's id ("" until the first event names it). */
  readonly taskId: string;
  /** The id of the last event read ("" when none). */
  readonly lastEventId: string;
  /**
   * True once the server refused the run's request or a resubscription by
   * the resubscription rule (400, 401, 403, 404, 409, TASK_NOT_FOUND…: the
   * task is gone or not the caller's): subscribing again will not help. A
   * run cut by a failed connection or a busy server is not refused.
   */
  readonly refused: boolean;
  /**
   * Cancels the task on the server (cancelTask with taskId); the run reads
   * on to the CANCELED status. A UsageError before the task id is known.
   */
  cancel(options?: CallOptions): Promise<Reply>;
  /**
   * The run so far, to go on with in another page or process
   * (resubscribeTask(cp.taskId, cp)); JSON. Each call rebuilds the events
   * from the whole run (its cost grows with the text). null before the
   * task id is known, once the run is over, and while an artifact's text
   * ends inside a character (its bytes held until the next event, which a
   * server reading Last-Event-ID would not send again): keep the one before.
   */
  checkpoint(): Checkpoint | null;
}

/**
 * What a run held, for resubscribeTask to go on from: its task id, last
 * event id, and events (A2A stream events as JSON: a task and each
 * artifact as it was) that rebuild it.
 */
export interface Checkpoint {
  taskId: string;
  lastEventId: string;
  events: unknown[];
}

/**
 * Client is the front door to an A2A 1.0 agent, its operations named as
 * @a2a-js/sdk names them, over REST or JSON-RPC. A stream that drops,
 * stalls or ends before the run did is resubscribed with the task id and
 * Last-Event-ID: its updates are one uncut run, ending with "done". A
 * resubscription answered with 408, 425, 429, 500, 502, 503 or 504, or
 * with a 2xx that is no event stream, is tried again (after the backoff, or
 * longer when its Retry-After asks, up to maxRetryDelay); any other answer
 * (a REST error document's code counts as its status), and an A2A error
 * naming the task as gone (TASK_NOT_FOUND), ends the run truncated with
 * that error as the cause.
 */
export class Client {
  private constructor();
  /** message:send (JSON-RPC SendMessage): the task or direct message it returns, with its result. */
  sendMessage(message: string | UserMessage, options?: CallOptions): Promise<Reply>;
  /**
   * message:stream (JSON-RPC SendStreamingMessage). An answer that is no
   * event stream throws its error (ServerError, HTTPError) before any update.
   */
  sendMessageStream(message: string | UserMessage, options?: CallOptions): Run;
  /** GET tasks/{id} (JSON-RPC GetTask), with at most historyLength messages of history. */
  getTask(taskId: string, options?: CallOptions & { historyLength?: number }): Promise<Reply>;
  /**
   * POST tasks/{id}:cancel (JSON-RPC CancelTask): the task after the cancel.
   * A task that already ended is a ServerError (REST: code 409 and its reason).
   */
  cancelTask(taskId: string, options?: CallOptions): Promise<Reply>;
  /**
   * tasks/{id}:subscribe (JSON-RPC SubscribeToTask), from lastEventId. With
   * a checkpoint's events, the run goes on from what they hold: its updates
   * begin with them, and a replay of the artifact in progress shows
   * nothing twice.
   */
  resubscribeTask(taskId: string, options?: CallOptions & { lastEventId?: string; events?: readonly unknown[] }): Run;
  /** Reads the response of a call the caller made; resubscribes at baseURL. */
  open(response: Response | Promise<Response>, options?: CallOptions): Run;
}

/** load is A2AStream.load. */
export function load(source?: ModuleSource): Promise<A2AStream>;

/** Decoder drives one stream: feed bytes, then end; each call returns the updates it caused. */
export class Decoder {
  private constructor();
  /** Whether the "done" update was handed out. */
  readonly done: boolean;
  /** Whether free was called. */
  readonly freed: boolean;
  feed(chunk: ArrayBufferView | ArrayBuffer): Update[];
  /** Pushes one pre-parsed SSE frame: the same as feeding its bytes. */
  feedFrame(frame: Frame): Update[];
  /** Pushes pre-parsed SSE frames. */
  feedFrames(frames: Iterable<Frame>): Update[];
  /** Ends the input; the last update is "done". */
  end(): Update[];
  /** Ends the input because reading it failed: the run ends truncated with reason as its cause. */
  fail(reason: unknown): Update[];
  /** Continues the run on a new connection (tasks/{id}:subscribe with Last-Event-ID). */
  resume(): Update[];
  /** What a resubscription needs, and whether the run has ended (then it needs none). */
  status(): { taskId: string; lastEventId: string; done: boolean };
  /** The run as rebuilt so far (final after "done"). */
  result(): Result;
  /** The result as the `a2astream --json` document text (indented, with a final newline). */
  resultJSON(indent?: boolean): string;
  /** Releases the stream handle. */
  free(): void;
}

/** An artifact as a View shows it: its text so far and what it is known to be. Frozen. */
export interface ViewArtifact {
  /** 0-based, in the order the run first saw the artifacts. */
  readonly index: number;
  readonly id: string;
  readonly name: string;
  /** The text so far (all of it: the deltas appended, a replacement applied). */
  readonly text: string;
  /** Narration, not the answer: known when the artifact says so, at the latest when its close does. */
  readonly thinking: boolean;
  /** A lastChunk closed it. */
  readonly sealed: boolean;
}

/**
 * A snapshot of a run that a UI renders after each update, frozen. The next
 * View shares what an update did not change: an artifact that did not
 * change is the same object, and so is the artifact list when none did.
 */
export interface View {
  /** The seq of the last update folded in; 0 for emptyView. */
  readonly seq: number;
  readonly state: TaskState | '';
  /** The last status's message (narration, a question, a failure); never the answer. */
  readonly statusMessage: StatusMessage | null;
  /** Every artifact in arrival order, thinking included. */
  readonly artifacts: readonly ViewArtifact[];
  /**
   * The last artifact sealed as no thinking (one of artifacts): the answer so
   * far, never a narration; after "done", the result's answer (null for a
   * failed, interrupted or cut run).
   */
  readonly answer: ViewArtifact | null;
  /** The answer's citations, known at "done"; utf16Index indexes answer.text. */
  readonly citations: readonly Citation[];
  /** Known at "done". */
  readonly usage: Usage | null;
  /** Known at "done" ("" before). */
  readonly taskId: string;
  readonly contextId: string;
  /** The run ended: the View is the result document's. */
  readonly done: boolean;
  /** Why the run did not end normally; null while it runs and when it ended normally. */
  readonly error: A2AStreamError | null;
  /** The result document, at "done". */
  readonly result: Result | null;
}

/** The View before any update. */
export const emptyView: View;

/** The View after the update u: a reducer, as useReducer(foldView, emptyView) takes it. */
export function foldView(view: View, u: Update): View;

/** The View after each update of updates (engine.updates(), a Client's Run, or any iterable of updates). */
export function views(updates: AsyncIterable<Update> | Iterable<Update>): AsyncGenerator<View, void, undefined>;
