import { ToolError } from '../../errors/tool-error.js';
import { oneLine, parseTaskId, subjectHint } from './references.js';
import { joinWords, openBlockers } from './rules.js';
import { isOpen, type Task } from './task.js';

/** How the injected view is cut down. */
export interface ViewOptions {
  readonly maxVisibleItems: number;
  readonly maxSubjectLength: number;
  readonly maxViewCharacters: number;
}

/** Blockers named on a waiting task's line before the rest are counted. */
const MAX_BLOCKERS_SHOWN = 3;

/**
 * The compact view sent before each model call: the counts, then the open tasks, the one in
 * progress first, then those that can start, then those that wait (with what they wait on);
 * completed tasks only as a count. At most `maxVisibleItems` tasks are listed and the whole
 * view stays within `maxViewCharacters`; the rest are counted. `undefined` for an empty list.
 *
 * @example
 * // Tasks: 1 in progress, 1 ready, 1 waiting, 2 completed.
 * // - #3 Write the parser (in progress)
 * // - #4 Add tests
 * // - #5 Release (waits on #3, #4)
 */
export function formatTaskView(tasks: readonly Task[], options: ViewOptions): string | undefined {
  if (tasks.length === 0) return undefined;
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const started = tasks.filter((task) => task.status === 'in_progress');
  const pending = tasks.filter((task) => task.status === 'pending');
  const ready = pending.filter((task) => openBlockers(task, byId).length === 0);
  const waiting = pending.filter((task) => openBlockers(task, byId).length > 0);
  const completed = tasks.length - started.length - pending.length;

  const counts = [
    [started.length, 'in progress'],
    [ready.length, 'ready'],
    [waiting.length, 'waiting'],
    [completed, 'completed'],
  ] as const;
  const header = `Tasks: ${counts.filter(([count]) => count > 0).map(([count, label]) => `${count} ${label}`).join(', ')}.`;

  const subject = (task: Task) => `#${task.id} ${oneLine(task.subject, options.maxSubjectLength)}`;
  const lines = [
    ...started.map((task) => `- ${subject(task)} (in progress)`),
    ...ready.map((task) => `- ${subject(task)}`),
    ...waiting.map((task) => {
      const ids = openBlockers(task, byId).map((blocker) => `#${blocker.id}`);
      const named = ids.length > MAX_BLOCKERS_SHOWN ? [...ids.slice(0, MAX_BLOCKERS_SHOWN), `${ids.length - MAX_BLOCKERS_SHOWN} more`] : ids;
      return `- ${subject(task)} (waits on ${named.join(', ')})`;
    }),
  ];
  const open = lines.length;
  const shown = lines.slice(0, options.maxVisibleItems);
  const render = () => {
    const hidden = open - shown.length;
    const more = hidden > 0 ? [`- … ${hidden} more open (task_get lists every task)`] : [];
    return [header, ...shown, ...more].join('\n');
  };
  let view = render();
  while (view.length > options.maxViewCharacters && shown.length > 0) {
    shown.pop();
    view = render();
  }
  return view;
}

/**
 * The reply of `task_get`: one line per task with its status and what it waits on, and its
 * description indented below it. `ids` picks tasks (in that order); unknown ids are refused.
 */
export function formatTaskDetails(tasks: readonly Task[], ids: readonly string[] | undefined): string {
  if (tasks.length === 0) return 'The task list is empty. Add tasks with task_add.';
  const byId = new Map(tasks.map((task) => [task.id, task]));
  let picked: readonly Task[] = tasks;
  if (ids !== undefined && ids.length > 0) {
    picked = ids.map((raw) => {
      const id = parseTaskId(raw);
      if (id === undefined) {
        throw new ToolError(`"${raw}" is not a task id${subjectHint(tasks, raw, '; ids are numbers such as "3". Call task_get without ids to see every task.')}`);
      }
      const task = byId.get(id);
      if (task === undefined) throw new ToolError(`There is no task #${id}. Call task_get without ids to see every task.`);
      return task;
    });
  }
  const lines: string[] = [];
  if (picked === tasks) {
    const open = tasks.filter(isOpen).length;
    lines.push(`${tasks.length} task${tasks.length === 1 ? '' : 's'}: ${open} open, ${tasks.length - open} completed.`);
  }
  for (const task of picked) {
    const waits = task.blockedBy.map((id) => `#${id} (${byId.get(id)?.status ?? 'removed'})`);
    lines.push(`#${task.id} [${task.status}] ${oneLine(task.subject, Number.POSITIVE_INFINITY)}${waits.length > 0 ? ` — blocked by ${joinWords(waits)}` : ''}`);
    if (task.description !== undefined) lines.push(...task.description.split(/\r?\n/).map((line) => `    ${line}`));
  }
  return lines.join('\n');
}
