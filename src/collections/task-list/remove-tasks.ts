import { findRuleBreak, joinWords, type RuleOptions } from './rules.js';
import { refuse } from './references.js';
import { countsLine, newlyReadyLine, waitingIds } from './summary.js';
import type { DraftList } from './task.js';
import { findTask } from './update-tasks.js';

/**
 * Removes the tasks from the draft and frees the tasks that waited on them, or throws a
 * refusal. Their ids are not given out again.
 */
export function removeTasks(list: DraftList, ids: readonly string[], rules: RuleOptions): string {
  const waitingBefore = waitingIds(list.tasks);
  const removed = new Set<string>();
  for (const raw of ids) {
    const task = findTask(list, raw, 'ids');
    if (removed.has(task.id)) throw refuse(`#${task.id} appears twice in ids; give each task once.`);
    removed.add(task.id);
  }

  list.tasks = list.tasks.filter((task) => !removed.has(task.id));
  const freed: string[] = [];
  for (const task of list.tasks) {
    const kept = task.blockedBy.filter((id) => !removed.has(id));
    if (kept.length !== task.blockedBy.length) freed.push(`#${task.id}`);
    task.blockedBy = kept;
  }
  const problem = findRuleBreak(list.tasks, rules);
  if (problem !== undefined) throw refuse(problem);

  const gone = joinWords([...removed].map((id) => `#${id}`));
  const parts = [`Removed ${gone}.`];
  if (freed.length > 0) parts.push(`${joinWords(freed)} no longer wait${freed.length === 1 ? 's' : ''} on ${removed.size === 1 ? 'it' : 'them'}.`);
  const ready = newlyReadyLine(waitingBefore, list.tasks);
  if (ready !== undefined) parts.push(ready);
  parts.push(countsLine(list.tasks));
  return parts.join(' ');
}
