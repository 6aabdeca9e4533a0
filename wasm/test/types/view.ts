// Compiled with tsc --strict --noEmit: the View as a React-style reducer
// and as an async iterator.
import { A2AStream, emptyView, foldView, views, View, ViewArtifact, Update, Client } from '../../a2astream.js';

export function reduce(updates: Update[]): View {
  return updates.reduce(foldView, emptyView);
}

export async function render(engine: A2AStream, client: Client, response: Response): Promise<string> {
  let last: View = emptyView;
  for await (const v of engine.views(response, { unit: 'utf16' })) last = v;
  for await (const v of views(client.sendMessageStream('Hello'))) last = v;
  const thinking: readonly ViewArtifact[] = last.artifacts.filter((a) => a.thinking);
  const answer = last.answer?.text ?? '';
  const marks = last.citations.map((c) => answer.slice(0, c.utf16Index));
  // @ts-expect-error: a View is read-only
  last.answer = null;
  return `${thinking.length} ${marks.length} ${last.state} ${last.error?.message ?? ''} ${last.usage?.totalTokens ?? 0}`;
}
