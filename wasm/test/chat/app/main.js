// The demo chat of chat.test.mjs: React and useChat, with either the
// package's A2AChatTransport (?mode=transport: the page talks to the agent)
// or useChat's default transport to a server route (?mode=route: the
// route holds the agent's token). It sends "Hello" once, renders the
// messages, and leaves what the test reads in window.__chat: the messages
// as JSON, useChat's status, and the text parts of every render. With
// ?resume=1 it keeps its messages, and the transport its run, in
// sessionStorage, and after a reload resumes (useChat's resume) instead.
import { createElement as h, useEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import { load } from 'a2astream';
import { A2AChatTransport } from 'a2astream/ai-sdk';

const params = new URLSearchParams(location.search);
const sample = params.get('sample');
// ?resume=1: the chat survives a reload, as an app that keeps its messages
// does: the transport keeps the run in sessionStorage, the app its
// messages, and a reloaded page resumes instead of sending.
const reloadable = params.get('resume') === '1';
const chatId = `chat-${sample}`;
const saved = reloadable ? JSON.parse(sessionStorage.getItem(`app:${chatId}`) ?? 'null') : null;
const transport = params.get('mode') === 'route'
  ? new DefaultChatTransport({ api: `/api/chat/${sample}` })
  : new A2AChatTransport({
    client: load().then((e) => e.client({ baseURL: `${location.origin}/a2a/${sample}`, retryDelay: -1, retries: 100 })),
    store: reloadable ? sessionStorage : undefined,
  });

window.__chat = { status: '', error: null, messages: [], texts: [] };

function App() {
  const { messages, sendMessage, status, error } = useChat({ id: chatId, transport, messages: saved ?? undefined, resume: saved !== null });
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current || saved) return;
    sent.current = true;
    sendMessage({ text: 'Hello' });
  }, []);
  if (reloadable) sessionStorage.setItem(`app:${chatId}`, JSON.stringify(messages));
  const last = messages.at(-1);
  if (last?.role === 'assistant') window.__chat.texts.push(last.parts.filter((p) => p.type === 'text').map((p) => p.text));
  Object.assign(window.__chat, { status, error: error ? String(error) : null, messages: JSON.parse(JSON.stringify(messages)) });
  return h('main', null,
    messages.map((m) => h('div', { key: m.id, className: m.role }, m.parts.map(part))),
    h('p', { id: 'status' }, `${status} ${last?.metadata?.state ?? ''}`));
}

function part(p, i) {
  if (p.type === 'reasoning') return h('details', { key: i, open: true }, h('summary', null, 'Thinking'), p.text);
  if (p.type === 'text') return h('p', { key: i }, p.text);
  if (p.type === 'source-document') return h('cite', { key: i }, `${p.title} `);
  return null;
}

createRoot(document.getElementById('root')).render(h(App));
