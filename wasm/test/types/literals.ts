// Compiled with tsc --strict --noEmit: the unions are closed, so a misspelt
// state, role, kind or error type does not compile (an expect-error line
// that compiles fails the build).

import type { Update, Result, Part, A2AStreamError, ErrorType, TaskState } from 'a2astream';

export function check(u: Update, r: Result, p: Part, e: A2AStreamError): number {
  let n = 0;
  // @ts-expect-error: no such state
  if (r.state === 'TASK_STATE_COMPLETD') n++;
  if (r.state === 'TASK_STATE_COMPLETED' || r.state === '') n++;
  // @ts-expect-error: no such update kind
  if (u.kind === 'delta') n++;
  if (u.kind === 'state' && u.state === 'TASK_STATE_INPUT_REQUIRED') n++;
  // @ts-expect-error: no such role
  if (u.kind === 'state' && u.message?.role === 'agent') n++;
  // @ts-expect-error: no such part kind
  if (p.kind === 'file') n++;
  if (p.kind === 'unknown') n++;
  // @ts-expect-error: no such error type
  if (e.type === 'io') n++;
  const t: ErrorType = e.type;
  const s: TaskState | '' = r.state;
  return n + t.length + s.length + e.goMessage.length;
}
