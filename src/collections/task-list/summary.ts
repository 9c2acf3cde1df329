import { joinWords, openBlockers } from './rules.js';
import { isOpen, type DraftTask } from './task.js';

/** `Now 5 open (1 in progress), 2 completed.` — the tail of every changing call's reply. */
export function countsLine(tasks: readonly DraftTask[]): string {
  if (tasks.length === 0) return 'The list is now empty.';
  const open = tasks.filter(isOpen).length;
  const started = tasks.filter((task) => task.status === 'in_progress').length;
  return `Now ${open} open${started > 0 ? ` (${started} in progress)` : ''}, ${tasks.length - open} completed.`;
}

/** Ids of pending tasks that wait on an open task. */
export function waitingIds(tasks: readonly DraftTask[]): Set<string> {
  const byId = new Map(tasks.map((task) => [task.id, task]));
  return new Set(tasks.filter((task) => task.status === 'pending' && openBlockers(task, byId).length > 0).map((task) => task.id));
}

/** `#4 and #5 can start now.` for tasks that waited before a call and no longer do, or nothing. */
export function newlyReadyLine(before: ReadonlySet<string>, after: readonly DraftTask[]): string | undefined {
  const stillWaiting = waitingIds(after);
  const ready = after.filter((task) => task.status === 'pending' && before.has(task.id) && !stillWaiting.has(task.id));
  if (ready.length === 0) return undefined;
  return `${joinWords(ready.map((task) => `#${task.id}`))} can start now.`;
}
