import { findLoop, describeLoop, joinWords, labelById, openBlockers, type RuleOptions } from './rules.js';
import { draftOf, type DraftList, type TaskListSnapshot } from './task.js';

/** A list after {@link repairList}, with one note for each thing that was changed. */
export interface RepairedList {
  readonly list: DraftList;
  readonly notes: readonly string[];
}

/**
 * Makes a stored list keep the rules again, so a list edited by hand, written by an older
 * version or restored from elsewhere does not block every later change. Ids are made unique,
 * references to missing tasks and to the task itself dropped, loops broken at the edge that
 * closes them, waits of started or finished tasks on open ones dropped (the work is already
 * under way), and extra tasks in progress set back to pending. Tasks are never deleted.
 */
export function repairList(stored: TaskListSnapshot, options: RuleOptions): RepairedList {
  const list = draftOf(stored);
  const notes: string[] = [];

  const maxId = Math.max(0, ...list.tasks.map((task) => Number(task.id)));
  let nextId = Math.max(list.nextId, maxId + 1);
  const seen = new Set<string>();
  for (const task of list.tasks) {
    if (seen.has(task.id)) {
      const renamed = String(nextId++);
      notes.push(`a second task with id #${task.id} became #${renamed}`);
      task.id = renamed;
    }
    seen.add(task.id);
  }
  if (nextId !== list.nextId) {
    if (list.nextId <= maxId) notes.push(`the next id was moved past #${maxId} so ids are not reused`);
    list.nextId = nextId;
  }

  for (const task of list.tasks) {
    const kept: string[] = [];
    for (const id of task.blockedBy) {
      if (id === task.id) notes.push(`#${task.id} no longer waits on itself`);
      else if (!seen.has(id)) notes.push(`#${task.id} no longer waits on #${id}, which does not exist`);
      else if (!kept.includes(id)) kept.push(id);
    }
    task.blockedBy = kept;
  }

  for (let loop = findLoop(list.tasks); loop !== undefined; loop = findLoop(list.tasks)) {
    const waiting = list.tasks.find((task) => task.id === loop[loop.length - 2])!;
    const closing = loop[loop.length - 1]!;
    waiting.blockedBy = waiting.blockedBy.filter((id) => id !== closing);
    notes.push(`the loop ${describeLoop(loop, labelById)} was broken: #${waiting.id} no longer waits on #${closing}`);
  }

  const byId = new Map(list.tasks.map((task) => [task.id, task]));
  for (const task of list.tasks) {
    if (task.status === 'pending') continue;
    const blockers = openBlockers(task, byId);
    if (blockers.length === 0) continue;
    task.blockedBy = task.blockedBy.filter((id) => !blockers.some((blocker) => blocker.id === id));
    notes.push(`#${task.id} (${task.status}) no longer waits on ${joinWords(blockers.map((blocker) => `#${blocker.id}`))}, which ${blockers.length === 1 ? 'is' : 'are'} still open`);
  }

  if (!options.allowMultipleInProgress) {
    const started = list.tasks.filter((task) => task.status === 'in_progress');
    for (const task of started.slice(1)) task.status = 'pending';
    if (started.length > 1) {
      notes.push(`only #${started[0]!.id} stays in progress; ${joinWords(started.slice(1).map((task) => `#${task.id}`))} went back to pending`);
    }
  }
  return { list, notes };
}
