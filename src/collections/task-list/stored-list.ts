import { z } from 'zod';
import { TASK_STATUSES, type TaskListSnapshot } from './task.js';

/** The version written into every stored list, so a later format can tell it apart. */
export const TASK_LIST_FORMAT_VERSION = 1;

const storedTaskSchema = z.object({
  id: z.string().regex(/^[1-9]\d{0,8}$/),
  subject: z.string(),
  description: z.string().optional(),
  status: z.enum(TASK_STATUSES),
  blockedBy: z.array(z.string()).default([]),
});

const storedListSchema = z.object({
  version: z.literal(TASK_LIST_FORMAT_VERSION).optional(),
  nextId: z.number().int().min(1),
  tasks: z.array(storedTaskSchema),
});

/**
 * Reads a stored list (from a file or a session's JSON): the list, or why it cannot be read.
 * The list may still break a rule; {@link repairList} fixes that.
 */
export function parseStoredList(value: unknown): { list: TaskListSnapshot } | { problem: string } {
  const parsed = storedListSchema.safeParse(value);
  if (parsed.success) {
    const { nextId, tasks } = parsed.data;
    return {
      list: {
        nextId,
        tasks: tasks.map(({ id, subject, description, status, blockedBy }) =>
          description === undefined ? { id, subject, status, blockedBy } : { id, subject, description, status, blockedBy },
        ),
      },
    };
  }
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length === 0 ? 'the list' : issue.path.map(String).join('.');
  return { problem: `${where}: ${issue.message}` };
}

/** The JSON form of a list: what a file or a session holds. */
export function toStoredList(list: TaskListSnapshot): { version: number; nextId: number; tasks: TaskListSnapshot['tasks'] } {
  return { version: TASK_LIST_FORMAT_VERSION, nextId: list.nextId, tasks: list.tasks };
}
