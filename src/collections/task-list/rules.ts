import { isOpen, type DraftTask, type Task } from './task.js';

/** How a task is named in a message: `#3`, or `@2` for a task the same `task_add` call adds. */
export type TaskLabel = (id: string) => string;

/** Names a task by its id: `#3`. */
export const labelById: TaskLabel = (id) => `#${id}`;

/** Rules the list must keep after every call. */
export interface RuleOptions {
  readonly allowMultipleInProgress: boolean;
}

/**
 * The first dependency loop in the list, as the ids along it with the first repeated at the
 * end (`['1', '2', '1']`), or `undefined` when there is none. Only edges to tasks in the list
 * are followed.
 */
export function findLoop(tasks: readonly DraftTask[]): string[] | undefined {
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];

  const visit = (id: string): string[] | undefined => {
    state.set(id, 'visiting');
    path.push(id);
    for (const next of byId.get(id)?.blockedBy ?? []) {
      if (!byId.has(next)) continue;
      const seen = state.get(next);
      if (seen === 'visiting') return [...path.slice(path.indexOf(next)), next];
      if (seen === undefined) {
        const loop = visit(next);
        if (loop !== undefined) return loop;
      }
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };

  for (const task of tasks) {
    if (state.has(task.id)) continue;
    const loop = visit(task.id);
    if (loop !== undefined) return loop;
  }
  return undefined;
}

/** `#1 blocked by #2 blocked by #1`. */
export function describeLoop(loop: readonly string[], label: TaskLabel): string {
  return loop.map(label).join(' blocked by ');
}

/** The open tasks `task` waits on. */
export function openBlockers<T extends Task>(task: Task, byId: ReadonlyMap<string, T>): T[] {
  return task.blockedBy.map((id) => byId.get(id)).filter((blocker): blocker is T => blocker !== undefined && isOpen(blocker));
}

/**
 * Checks the list as it would be after a call, and returns what is wrong (without the
 * closing "Nothing was changed.") or `undefined`. Loops first, then a started or finished
 * task that still waits, then the number of tasks in progress.
 */
export function findRuleBreak(tasks: readonly DraftTask[], options: RuleOptions, label: TaskLabel = labelById): string | undefined {
  const loop = findLoop(tasks);
  if (loop !== undefined) {
    return `Tasks cannot wait on each other in a loop: ${describeLoop(loop, label)}. Drop one of these from blocked_by.`;
  }

  const byId = new Map(tasks.map((task) => [task.id, task]));
  for (const task of tasks) {
    if (task.status === 'pending') continue;
    const blockers = openBlockers(task, byId);
    if (blockers.length === 0) continue;
    const waiting = joinWords(blockers.map((blocker) => `${label(blocker.id)} (${blocker.status})`));
    const them = blockers.length === 1 ? 'it' : 'them';
    return (
      `${label(task.id)} cannot be ${task.status} while it waits on ${waiting}. ` +
      `Complete ${them} first (the same call may do it), or drop ${them} from blocked_by of ${label(task.id)}.`
    );
  }

  if (!options.allowMultipleInProgress) {
    const started = tasks.filter((task) => task.status === 'in_progress');
    if (started.length > 1) {
      return (
        `Only one task can be in_progress at a time, and this call would leave ${joinWords(started.map((task) => label(task.id)))} in progress. ` +
        'Set the others back to pending or to completed in the same call.'
      );
    }
  }
  return undefined;
}

/** `a`, `a and b`, `a, b and c`. */
export function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}
