import { findRuleBreak, joinWords, type RuleOptions } from './rules.js';
import { normalizeSubject, oneLine, ordinal, parseCallReference, parseTaskId, refuse, subjectHint, subjectNamed } from './references.js';
import { countsLine } from './summary.js';
import { isOpen, type DraftList, type DraftTask, type TaskStatus } from './task.js';

/** Tasks one list holds at most, counting completed ones: a runaway plan stops here. */
export const MAX_TASKS = 1000;

/** One entry of `task_add`, after the schema. */
export interface NewTaskEntry {
  readonly subject: string;
  readonly description?: string;
  /** The status it starts with; default `pending`. */
  readonly status?: TaskStatus;
  readonly blocked_by?: readonly string[];
}

/** One `task_add` call on a draft: the entries and the ids they get. */
interface AddCall {
  readonly list: DraftList;
  readonly entries: readonly NewTaskEntry[];
  readonly newIds: readonly string[];
  readonly existing: ReadonlyMap<string, DraftTask>;
  readonly subjectLength: number;
}

/**
 * Adds the entries to the draft with ids counted on from `nextId`, or throws a refusal.
 * Checks each entry, then the rules on the whole list as it would be. Returns the reply.
 */
export function addTasks(list: DraftList, entries: readonly NewTaskEntry[], rules: RuleOptions, subjectLength: number): string {
  if (list.tasks.length + entries.length > MAX_TASKS) {
    throw refuse(`The list would hold ${list.tasks.length + entries.length} tasks, and it keeps at most ${MAX_TASKS}. Remove finished tasks with task_remove first.`);
  }
  const call: AddCall = {
    list,
    entries,
    newIds: entries.map((_, index) => String(list.nextId + index)),
    existing: new Map(list.tasks.map((task) => [task.id, task])),
    subjectLength,
  };
  checkSubjects(call);
  const added = entries.map((entry, index) => newTask(call, entry, index + 1));

  const after = [...list.tasks, ...added];
  const problem = findRuleBreak(after, rules, (id) => shown(call, id));
  if (problem !== undefined) throw refuse(problem);

  list.tasks = after;
  list.nextId += entries.length;
  const named = added.map((task) => `#${task.id} "${oneLine(task.subject, subjectLength)}"${task.status === 'pending' ? '' : ` (${task.status})`}`);
  return `Added ${joinWords(named)}. ${countsLine(after)}`;
}

/** New tasks are named as the call names them (`@2`), existing ones by id. */
function shown({ newIds }: AddCall, id: string): string {
  const position = newIds.indexOf(id);
  return position === -1 ? `#${id}` : `@${position + 1}`;
}

function newTaskName(position: number): string {
  return `The ${ordinal(position)} new task`;
}

/** Blank subjects, subjects twice in the call, and tasks the list already has. */
function checkSubjects(call: AddCall): void {
  const openSubjects = new Map(call.list.tasks.filter(isOpen).map((task) => [normalizeSubject(task.subject), task]));
  const completedSubjects = new Map(call.list.tasks.filter((task) => !isOpen(task)).map((task) => [normalizeSubject(task.subject), task]));
  const callSubjects = new Map<string, number>();
  const twins: { readonly entry: NewTaskEntry; readonly task: DraftTask }[] = [];
  call.entries.forEach((entry, index) => {
    const position = index + 1;
    const subject = entry.subject.trim();
    if (subject === '') throw refuse(`${newTaskName(position)} has a blank subject; give every task a short subject.`);
    const key = normalizeSubject(subject);
    // A completed task sent again as completed is the list restated (a whole-list harness's habit), not new work.
    const twin = openSubjects.get(key) ?? (entry.status === 'completed' ? completedSubjects.get(key) : undefined);
    if (twin !== undefined) twins.push({ entry, task: twin });
    const earlier = callSubjects.get(key);
    if (earlier !== undefined && twin === undefined) {
      throw refuse(`The ${ordinal(earlier)} and ${ordinal(position)} new tasks have the same subject "${oneLine(subject, call.subjectLength)}"; give each a different subject.`);
    }
    callSubjects.set(key, position);
  });
  if (twins.length > 0) throw refuse(twinsMessage(call, twins));
}

/** What to do about new tasks the list already has: the task_update call that sets the statuses sent, when any differ. */
function twinsMessage(call: AddCall, twins: readonly { readonly entry: NewTaskEntry; readonly task: DraftTask }[]): string {
  const updates = twins.filter(({ entry, task }) => entry.status !== undefined && entry.status !== task.status).map(({ entry, task }) => ({ id: task.id, status: entry.status }));
  const { entry, task } = twins[0]!;
  if (twins.length === 1 && entry.status === undefined) {
    return `"${oneLine(entry.subject, call.subjectLength)}" is already task #${task.id} (${task.status}); change that task with task_update, or give the new one a different subject.`;
  }
  const named = joinWords(twins.map((twin) => `#${twin.task.id} "${oneLine(twin.task.subject, call.subjectLength)}" (${twin.task.status})`));
  const fresh = call.entries.length - twins.length;
  return (
    `${twins.length === 1 ? `${named} is` : `${named} are`} already on the list, and task_add only adds new tasks; the list is kept between calls, so send it only what is new` +
    (fresh > 0 ? ` (the other ${fresh === 1 ? 'task' : `${fresh} tasks`} of this call)` : '') +
    (updates.length > 0 ? `. To set their status, call task_update with ${JSON.stringify({ updates })}.` : '. Change existing tasks with task_update.')
  );
}

function newTask(call: AddCall, entry: NewTaskEntry, position: number): DraftTask {
  const blockedBy: string[] = [];
  for (const raw of entry.blocked_by ?? []) {
    const id = blockerId(call, raw, position);
    if (blockedBy.includes(id)) throw refuse(`${newTaskName(position)} lists ${shown(call, id)} twice in blocked_by.`);
    blockedBy.push(id);
  }
  const task: DraftTask = { id: call.newIds[position - 1]!, subject: entry.subject.trim(), status: entry.status ?? 'pending', blockedBy };
  const description = entry.description?.trim();
  if (description) task.description = description;
  return task;
}

/** The id a `blocked_by` entry of the `position`-th new task names, or a refusal that says what it should have been. */
function blockerId(call: AddCall, raw: string, position: number): string {
  const { entries, newIds } = call;
  const reference = parseCallReference(raw);
  if (reference !== undefined) {
    if (reference === position) throw refuse(`${newTaskName(position)} ("@${position}") cannot wait on itself.`);
    if (reference < 1) throw refuse(`"${raw.trim()}" in blocked_by of the ${ordinal(position)} new task names no task: positions count from 1, and "@1" is the first task of this call.`);
    if (reference > entries.length) {
      throw refuse(
        `"${raw.trim()}" in blocked_by of the ${ordinal(position)} new task points past this call, which adds ${entries.length} task${entries.length === 1 ? '' : 's'}; "@1" is the first of them.`,
      );
    }
    return newIds[reference - 1]!;
  }
  const parsed = parseTaskId(raw);
  if (parsed === undefined) throw refuse(notAnIdMessage(call, raw, position));
  if (call.existing.has(parsed)) return parsed;
  const future = newIds.indexOf(parsed);
  if (future !== -1 && future + 1 !== position) {
    throw refuse(
      `${newTaskName(position)} cannot wait on #${parsed}: there is no task #${parsed} yet. The ${ordinal(future + 1)} task of this call will get that id; ` +
        `to wait on it, write "@${future + 1}" in blocked_by.`,
    );
  }
  if (future !== -1) throw refuse(`${newTaskName(position)} (#${parsed} once added) cannot wait on itself.`);
  throw refuse(`${newTaskName(position)} cannot wait on #${parsed}: there is no task #${parsed}. Call task_get to see the ids.`);
}

/** A `blocked_by` entry that is no id: the subject of a task of this call (`@N`) or of the list, else the accepted forms. */
function notAnIdMessage(call: AddCall, raw: string, position: number): string {
  const where = `"${raw}" in blocked_by of the ${ordinal(position)} new task is not a task id`;
  const inCall = subjectNamed(
    call.entries.map((entry) => entry.subject),
    raw,
  );
  if (inCall !== undefined && inCall + 1 !== position) {
    const subject = oneLine(call.entries[inCall]!.subject, call.subjectLength);
    return `${where}; did you mean the ${ordinal(inCall + 1)} task of this call ("${subject}")? Write "@${inCall + 1}" for it.`;
  }
  return `${where}${subjectHint(call.list.tasks, raw, '; use an id such as "3", or "@1" for the first task of this call.', call.subjectLength)}`;
}
