/** The states a task moves through. A task may go back to `pending` (paused or reopened). */
export const TASK_STATUSES = ['pending', 'in_progress', 'completed'] as const;

/** One of {@link TASK_STATUSES}. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** One task of a list, as stored and as {@link TaskListCollection.getTasks} returns it. */
export interface Task {
  /** A number as text (`"3"`), counted up from 1 and never reused within a list. */
  readonly id: string;
  readonly subject: string;
  readonly description?: string;
  readonly status: TaskStatus;
  /** Ids of the tasks this one waits on; a completed one no longer holds it back. */
  readonly blockedBy: readonly string[];
}

/** A whole list: its tasks in the order they were added, and the id the next task gets. */
export interface TaskListSnapshot {
  /** The id the next added task gets; ids are never reused, even after a removal. */
  readonly nextId: number;
  readonly tasks: readonly Task[];
}

/** A task while a call changes it, on a private copy of the list. */
export interface DraftTask {
  id: string;
  subject: string;
  description?: string;
  status: TaskStatus;
  blockedBy: string[];
}

/** A list while a call changes it. */
export interface DraftList {
  nextId: number;
  tasks: DraftTask[];
}

/** An empty list; the first task gets id 1. */
export function emptyList(): DraftList {
  return { nextId: 1, tasks: [] };
}

/** A deep, mutable copy of a list, so a refused call leaves the original as it was. */
export function draftOf(list: TaskListSnapshot): DraftList {
  return {
    nextId: list.nextId,
    tasks: list.tasks.map((task) => copyTask(task)),
  };
}

/** A plain copy of one task, without `description` when it has none. */
export function copyTask(task: Task): DraftTask {
  const copy: DraftTask = { id: task.id, subject: task.subject, status: task.status, blockedBy: [...task.blockedBy] };
  if (task.description !== undefined) copy.description = task.description;
  return copy;
}

/** True for tasks that still hold back the tasks waiting on them. */
export function isOpen(task: Pick<Task, 'status'>): boolean {
  return task.status !== 'completed';
}
