// view.js: the View, an immutable snapshot of a run that a UI renders
// after each update, folded from the updates the engine and the client
// yield. A snapshot shares what did not change with the one before it: an
// artifact that did not change is the same object, and so is the list of
// artifacts when none changed, so that a UI compares by identity (React's
// memo, useSyncExternalStore) rather than by content.

/**
 * emptyView is the View before any update: no state, no artifact, no
 * answer. It is frozen, as every View is.
 */
export const emptyView = Object.freeze({
  seq: 0,
  state: '',
  statusMessage: null,
  artifacts: Object.freeze([]),
  answer: null,
  citations: Object.freeze([]),
  usage: null,
  taskId: '',
  contextId: '',
  done: false,
  error: null,
  result: null,
});

/**
 * foldView returns the View after the update u, a new frozen object that
 * shares with view everything u did not change (it has the shape of a
 * React reducer: useReducer(foldView, emptyView)). The rules are the
 * reducer's of the Go core:
 *
 *   - an artifact is listed from its first update, in arrival order, with
 *     its text so far and its thinking flag as the latest update says (a
 *     narration is known as thinking when its close says so);
 *   - answer is the last artifact sealed as no thinking: the answer so far,
 *     never a narration; it goes back to null when that artifact is
 *     re-opened or re-sealed as thinking;
 *   - state and statusMessage are the last status's;
 *   - "done" replaces all of it by the result document's: the answer (null
 *     for a failed, interrupted or cut run), its citations (their utf16Index
 *     indexes answer.text), the usage, the task and context ids, the error.
 */
export function foldView(view, u) {
  switch (u.kind) {
    case 'text': case 'replaced': {
      const prev = findArtifact(view.artifacts, u.artifact.index);
      const text = u.kind === 'text' ? (prev ? prev.text : '') + u.text : u.text;
      const a = viewArtifact(prev, u.artifact, text);
      const reopened = view.answer !== null && view.answer.index === a.index && !a.sealed;
      return next(view, u.seq, { artifacts: putArtifact(view.artifacts, prev, a), answer: reopened ? null : sameAnswer(view.answer, a) });
    }
    case 'sealed': {
      const prev = findArtifact(view.artifacts, u.artifact.index);
      const a = viewArtifact(prev, u.artifact, prev ? prev.text : '');
      let answer = sameAnswer(view.answer, a);
      if (!a.thinking) answer = a;
      else if (answer !== null && answer.index === a.index) answer = null;
      return next(view, u.seq, { artifacts: putArtifact(view.artifacts, prev, a), answer });
    }
    case 'state':
      return next(view, u.seq, { state: u.state, statusMessage: u.message });
    case 'done':
      return doneView(view, u);
    default:
      return view;
  }
}

/**
 * views yields the View after each update of updates (an engine.updates()
 * iterator, a client's Run, or any (async) iterable of updates). Leaving
 * the loop early leaves the updates' iterator, which closes its stream.
 */
export async function* views(updates) {
  let v = emptyView;
  for await (const u of updates) {
    v = foldView(v, u);
    yield v;
  }
}

// next returns view with seq and the members of change, frozen.
function next(view, seq, change) {
  return Object.freeze({ ...view, ...change, seq });
}

// findArtifact returns the view's artifact of the index, or undefined.
// Artifacts are listed by index (the order the run first saw them), so
// the index is where to look first.
function findArtifact(list, index) {
  const a = list[index];
  if (a !== undefined && a.index === index) return a;
  return list.find((x) => x.index === index);
}

// viewArtifact returns prev when the artifact ref and text change nothing
// in it, and a new frozen artifact otherwise.
function viewArtifact(prev, ref, text) {
  if (prev && prev.text === text && prev.thinking === ref.thinking && prev.sealed === ref.sealed && prev.name === ref.name) return prev;
  return Object.freeze({ index: ref.index, id: ref.id, name: ref.name, text, thinking: ref.thinking, sealed: ref.sealed });
}

// putArtifact returns the list with a in place of prev (a appended when
// prev is undefined); the same list when a is prev.
function putArtifact(list, prev, a) {
  if (a === prev) return list;
  if (prev === undefined) return Object.freeze([...list, a]);
  return Object.freeze(list.map((x) => (x === prev ? a : x)));
}

// sameAnswer returns a when it is the new object of the answer, so that
// answer stays the object listed in artifacts.
function sameAnswer(answer, a) {
  return answer !== null && answer.index === a.index ? a : answer;
}

// doneView returns the View of the "done" update: everything as the result
// document has it, the artifacts that did not change kept as they were.
function doneView(view, u) {
  const r = u.result;
  const artifacts = [];
  let changed = r.artifacts.length !== view.artifacts.length;
  r.artifacts.forEach((ra, index) => {
    const prev = view.artifacts.find((x) => x.id === ra.artifactId);
    const ref = { index: prev ? prev.index : index, id: ra.artifactId, name: ra.name ?? '', thinking: ra.thinking, sealed: ra.sealed };
    const a = viewArtifact(prev, ref, ra.text);
    if (a !== view.artifacts[index]) changed = true;
    artifacts.push(a);
  });
  const list = changed ? Object.freeze(artifacts) : view.artifacts;
  let answer = null;
  if (r.answer) {
    const ref = { index: -1, id: r.answer.artifactId, name: r.answer.name ?? '', thinking: r.answer.thinking, sealed: r.answer.sealed };
    const listed = list.find((x) => x.id === r.answer.artifactId);
    answer = listed && listed.text === r.answer.text ? listed : viewArtifact(view.answer, ref, r.answer.text);
  }
  return next(view, u.seq, {
    state: r.state,
    statusMessage: statusMessage(view.statusMessage, r.statusMessage),
    artifacts: list,
    answer,
    citations: r.answer ? Object.freeze(r.answer.citations) : emptyView.citations,
    usage: r.usage,
    taskId: r.taskId,
    contextId: r.contextId,
    done: true,
    error: u.error,
    result: r,
  });
}

// statusMessage returns the result's status message as the View has it
// ({messageId, role, text}), prev when that is the same.
function statusMessage(prev, m) {
  if (!m) return null;
  if (prev && prev.messageId === m.messageId && prev.role === m.role && prev.text === m.text) return prev;
  return Object.freeze({ messageId: m.messageId, role: m.role, text: m.text });
}
