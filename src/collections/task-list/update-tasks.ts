import { findRuleBreak, joinWords, type RuleOptions } from './rules.js';
import { parseCallReference, parseTaskId, refuse, subjectHint } from './references.js';
import { countsLine, newlyReadyLine, waitingIds } from './summary.js';
import type { DraftList, DraftTask, TaskStatus } from './task.js';

/** One entry of `task_update`, after the schema. */
export interface TaskUpdateEntry {
  readonly id: string;
  readonly status?: TaskStatus;
  readonly subject?: string;
  readonly description?: string;
  readonly blocked_by?: readonly string[];
}

/**
 * Resolves an id the model gave to a task of the list, or throws a refusal that says what
 * was wrong with it.
 */
export function findTask(list: DraftList, raw: string, where: string): DraftTask {
  if (parseCallReference(raw) !== undefined) {
    throw refuse(`"${raw.trim()}" in ${where} only works in task_add, for a task of the same call; give the task's id, such as "3".`);
  }
  const id = parseTaskId(raw);
  if (id === undefined) throw refuse(`"${raw}" in ${where} is not a task id${subjectHint(list.tasks, raw, '; ids are numbers such as "3".')}`);
  const task = list.tasks.find((candidate) => candidate.id === id);
  if (task === undefined) throw refuse(`There is no task #${id}. Call task_get to see the ids.`);
  return task;
}

/**
 * Applies the updates to the draft, or throws a refusal. Every entry must name a task once
 * and change something; the rules are checked on the list as it is after all of them, so
 * "complete #1 and start #2" is one valid call.
 */
export function updateTasks(list: DraftList, entries: readonly TaskUpdateEntry[], rules: RuleOptions): string {
  const waitingBefore = waitingIds(list.tasks);
  const seen = new Set<string>();
  const changes: string[] = [];

  for (const entry of entries) {
    const task = findTask(list, entry.id, 'updates');
    if (seen.has(task.id)) throw refuse(`#${task.id} appears twice in updates; give each task once per call.`);
    seen.add(task.id);

    if (entry.status === undefined && entry.subject === undefined && entry.description === undefined && entry.blocked_by === undefined) {
      throw refuse(`The update of #${task.id} gives nothing to change; add status, subject, description or blocked_by, or leave the entry out.`);
    }
    const changed: string[] = [];
    if (entry.status !== undefined && entry.status !== task.status) {
      task.status = entry.status;
      changed.push(entry.status);
    }
    if (entry.subject !== undefined) {
      const subject = entry.subject.trim();
      if (subject === '') throw refuse(`The new subject of #${task.id} is blank; give a short subject, or leave subject out to keep it.`);
      if (subject !== task.subject) {
        task.subject = subject;
        changed.push('subject');
      }
    }
    if (entry.description !== undefined) {
      const description = entry.description.trim();
      if (description !== (task.description ?? '')) {
        if (description === '') delete task.description;
        else task.description = description;
        changed.push(description === '' ? 'description removed' : 'description');
      }
    }
    if (entry.blocked_by !== undefined) {
      const blockedBy: string[] = [];
      for (const raw of entry.blocked_by) {
        const blocker = findTaskToWaitOn(list, raw, task);
        if (blockedBy.includes(blocker.id)) throw refuse(`#${task.id} lists #${blocker.id} twice in blocked_by.`);
        blockedBy.push(blocker.id);
      }
      const same = blockedBy.length === task.blockedBy.length && blockedBy.every((id) => task.blockedBy.includes(id));
      if (!same) {
        task.blockedBy = blockedBy;
        changed.push(blockedBy.length === 0 ? 'waits on nothing' : `waits on ${joinWords(blockedBy.map((id) => `#${id}`))}`);
      }
    }
    if (changed.length === 0) {
      throw refuse(`The update of #${task.id} changes nothing: the task already has these values. Leave the entry out, or give a value that differs.`);
    }
    changes.push(`#${task.id} (${changed.join(', ')})`);
  }

  const problem = findRuleBreak(list.tasks, rules);
  if (problem !== undefined) throw refuse(problem);
  const ready = newlyReadyLine(waitingBefore, list.tasks);
  return [`Updated ${joinWords(changes)}.`, ready, countsLine(list.tasks)].filter(Boolean).join(' ');
}

function findTaskToWaitOn(list: DraftList, raw: string, task: DraftTask): DraftTask {
  if (parseCallReference(raw) !== undefined) {
    throw refuse(`"${raw.trim()}" in blocked_by of #${task.id} only works in task_add, for a task of the same call; give the task's id, such as "3".`);
  }
  const id = parseTaskId(raw);
  if (id === undefined) {
    throw refuse(`"${raw}" in blocked_by of #${task.id} is not a task id${subjectHint(list.tasks, raw, '; ids are numbers such as "3".')}`);
  }
  if (id === task.id) throw refuse(`#${task.id} cannot wait on itself.`);
  const blocker = list.tasks.find((candidate) => candidate.id === id);
  if (blocker === undefined) throw refuse(`#${task.id} cannot wait on #${id}: there is no task #${id}. Call task_get to see the ids.`);
  return blocker;
}
