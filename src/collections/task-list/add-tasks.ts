import { findRuleBreak, joinWords, type RuleOptions } from './rules.js';
import { normalizeSubject, oneLine, ordinal, parseCallReference, parseTaskId, refuse } from './references.js';
import { countsLine } from './summary.js';
import { isOpen, type DraftList, type DraftTask } from './task.js';

/** Tasks one list holds at most, counting completed ones: a runaway plan stops here. */
export const MAX_TASKS = 1000;

/** One entry of `task_add`, after the schema. */
export interface NewTaskEntry {
  readonly subject: string;
  readonly description?: string;
  readonly blocked_by?: readonly string[];
}

/**
 * Adds the entries to the draft with ids counted on from `nextId`, or throws a refusal.
 * Checks each entry, then the rules on the whole list as it would be. Returns the reply.
 */
export function addTasks(list: DraftList, entries: readonly NewTaskEntry[], rules: RuleOptions, subjectLength: number): string {
  if (list.tasks.length + entries.length > MAX_TASKS) {
    throw refuse(`The list would hold ${list.tasks.length + entries.length} tasks, and it keeps at most ${MAX_TASKS}. Remove finished tasks with task_remove first.`);
  }
  const existing = new Map(list.tasks.map((task) => [task.id, task]));
  const newIds = entries.map((_, index) => String(list.nextId + index));
  const name = (position: number) => `The ${ordinal(position)} new task`;
  /** New tasks are named as the call names them (`@2`), existing ones by id. */
  const shown = (id: string): string => {
    const position = newIds.indexOf(id);
    return position === -1 ? `#${id}` : `@${position + 1}`;
  };
  const openSubjects = new Map(list.tasks.filter(isOpen).map((task) => [normalizeSubject(task.subject), task]));
  const callSubjects = new Map<string, number>();

  const added: DraftTask[] = entries.map((entry, index) => {
    const position = index + 1;
    const subject = entry.subject.trim();
    if (subject === '') throw refuse(`${name(position)} has a blank subject; give every task a short subject.`);
    const key = normalizeSubject(subject);
    const twin = openSubjects.get(key);
    if (twin !== undefined) {
      throw refuse(
        `"${oneLine(subject, subjectLength)}" is already task #${twin.id} (${twin.status}); change that task with task_update, or give the new one a different subject.`,
      );
    }
    const earlier = callSubjects.get(key);
    if (earlier !== undefined) {
      throw refuse(`The ${ordinal(earlier)} and ${ordinal(position)} new tasks have the same subject "${oneLine(subject, subjectLength)}"; give each a different subject.`);
    }
    callSubjects.set(key, position);

    const blockedBy: string[] = [];
    for (const raw of entry.blocked_by ?? []) {
      const reference = parseCallReference(raw);
      let id: string;
      if (reference !== undefined) {
        if (reference === position) throw refuse(`${name(position)} ("@${position}") cannot wait on itself.`);
        if (reference < 1 || reference > entries.length) {
          throw refuse(
            `"${raw.trim()}" in blocked_by of the ${ordinal(position)} new task points past this call, which adds ${entries.length} task${entries.length === 1 ? '' : 's'}; "@1" is the first of them.`,
          );
        }
        id = newIds[reference - 1]!;
      } else {
        const parsed = parseTaskId(raw);
        if (parsed === undefined) {
          throw refuse(`"${raw}" in blocked_by of the ${ordinal(position)} new task is not a task id; use an id such as "3", or "@1" for the first task of this call.`);
        }
        if (!existing.has(parsed)) throw refuse(`${name(position)} cannot wait on #${parsed}: there is no task #${parsed}. Call task_get to see the ids.`);
        id = parsed;
      }
      if (blockedBy.includes(id)) throw refuse(`${name(position)} lists ${shown(id)} twice in blocked_by.`);
      blockedBy.push(id);
    }

    const task: DraftTask = { id: newIds[index]!, subject, status: 'pending', blockedBy };
    const description = entry.description?.trim();
    if (description) task.description = description;
    return task;
  });

  const after = [...list.tasks, ...added];
  const problem = findRuleBreak(after, rules, shown);
  if (problem !== undefined) throw refuse(problem);

  list.tasks = after;
  list.nextId += entries.length;
  const named = added.map((task) => `#${task.id} "${oneLine(task.subject, subjectLength)}"`);
  return `Added ${joinWords(named)}. ${countsLine(after)}`;
}
