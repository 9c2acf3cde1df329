import { z } from 'zod';
import { ToolError } from '../../errors/tool-error.js';
import type { Session } from '../../session.js';
import { defineTool, type ToolCollection, type ToolDefinition, type ToolOutput } from '../../tool.js';
import { addTasks } from './add-tasks.js';
import { describeTaskAdd, describeTaskGet, describeTaskRemove, describeTaskUpdate } from './describe-calls.js';
import {
  TASK_ADD_DESCRIPTION,
  TASK_GET_DESCRIPTION,
  TASK_LIST_INSTRUCTIONS,
  TASK_REMOVE_DESCRIPTION,
  TASK_UPDATE_DESCRIPTION,
} from './descriptions.js';
import { TaskListAccess, type OpenedList } from './list-access.js';
import { resolveTaskListOptions, type TaskListToolsOptions } from './options.js';
import { removeTasks } from './remove-tasks.js';
import { TASK_STATUSES, copyTask, type DraftList, type Task } from './task.js';
import { updateTasks } from './update-tasks.js';
import { formatTaskDetails, formatTaskView } from './view.js';
import { TASK_ADD_ALIASES, TASK_IDS_ALIASES, TASK_UPDATE_ALIASES } from './input-aliases.js';
import { taskListOutput } from './output-schema.js';

/** Tasks one `task_add` or `task_update` call may carry. */
export const MAX_TASKS_PER_CALL = 50;
/** Characters of a subject; details belong in the description. */
export const MAX_SUBJECT_CHARACTERS = 200;
/** Characters of a description. */
export const MAX_DESCRIPTION_CHARACTERS = 4000;
/** Tasks one task may wait on. */
export const MAX_BLOCKED_BY = 50;

const subjectField = z.string().max(MAX_SUBJECT_CHARACTERS).describe('A short imperative title, e.g. "Write the parser tests"');
const descriptionField = z.string().max(MAX_DESCRIPTION_CHARACTERS).describe('Details: what done looks like, files involved');
const blockedByItem = z.string().max(20).describe('A task id such as "3"');
/** A status; `deleted` (Claude Code's TaskUpdate) is answered with the tool that removes a task. */
const statusField = z.enum(TASK_STATUSES, {
  error: (issue) =>
    issue.input === 'deleted'
      ? 'a task is removed with task_remove, not by a status: call task_remove with { "ids": ["<the id>"] } (a status is pending, in_progress or completed)'
      : undefined,
});

const taskAddInput = z.object({
  tasks: z
    .array(
      z.object({
        subject: subjectField,
        description: descriptionField.optional(),
        status: statusField.optional().describe('The status it starts with; default pending'),
        blocked_by: z
          .array(z.string().max(20).describe('An existing task id such as "3", or "@N" for the N-th task of this call'))
          .max(MAX_BLOCKED_BY)
          .optional()
          .describe('Tasks this one waits on; default none'),
      }),
    )
    .min(1)
    .max(MAX_TASKS_PER_CALL)
    .describe(`The tasks to add, in order (1 to ${MAX_TASKS_PER_CALL})`),
});

const taskUpdateInput = z.object({
  updates: z
    .array(
      z.object({
        id: z.string().max(20).describe('The id of the task to change, such as "3"'),
        status: statusField.optional().describe('The new status; default unchanged'),
        subject: subjectField.optional().describe('A new subject; default unchanged'),
        description: descriptionField.optional().describe('A new description ("" removes it); default unchanged'),
        blocked_by: z
          .array(blockedByItem)
          .max(MAX_BLOCKED_BY)
          .optional()
          .describe('Replaces what the task waits on ([] for nothing); default unchanged'),
      }),
    )
    .min(1)
    .max(MAX_TASKS_PER_CALL)
    .describe(`One entry per task to change (1 to ${MAX_TASKS_PER_CALL})`),
});

const taskRemoveInput = z.object({
  ids: z.array(z.string().max(20).describe('A task id such as "3"')).min(1).max(MAX_TASKS_PER_CALL).describe('The ids of the tasks to remove'),
});

const taskGetInput = z.object({
  ids: z
    .array(z.string().max(20).describe('A task id such as "3"'))
    .max(MAX_TASKS_PER_CALL)
    .optional()
    .describe('The tasks to read; default every task'),
});

/** The task list collection: its tools, its view for each model call, and a way for hosts to read a list. */
export interface TaskListCollection extends ToolCollection {
  readonly name: 'task-list';
  readonly tools: readonly [
    ToolDefinition<typeof taskAddInput>,
    ToolDefinition<typeof taskUpdateInput>,
    ToolDefinition<typeof taskRemoveInput>,
    ToolDefinition<typeof taskGetInput>,
  ];
  /**
   * A copy of the list the tools work on for this session (the store's list when there is
   * one), in the order the tasks were added: for a host that shows it in a user interface.
   */
  getTasks(session: Session): Promise<Task[]>;
}

/**
 * Creates the task list tools: `task_add`, `task_update`, `task_remove` and `task_get`, taking
 * batches and answering in one line, with the rules checked in code (nothing in progress or
 * completed while what it waits on is open, no loops, one task in progress) and each call
 * all-or-nothing. The open tasks are sent before each model call in a compact view.
 *
 * @example
 * const tasks = createTaskListTools();                                         // a list per session
 * const shared = createTaskListTools({ store: new JsonFileTaskListStore('tasks.json') });
 * const list = await tasks.getTasks(session);                                 // for your UI
 */
export function createTaskListTools(options: TaskListToolsOptions = {}): TaskListCollection {
  const resolved = resolveTaskListOptions(options);
  const rules = { allowMultipleInProgress: resolved.allowMultipleInProgress };
  const access = new TaskListAccess({ store: resolved.store, rules, onNotice: resolved.onNotice });

  /** Runs a changing call; a refusal (thrown) leaves the list as it was. */
  const change = (session: Session, apply: (draft: DraftList) => string): Promise<ToolOutput> =>
    access.use(session, ({ draft, notes }) => ({
      value: { text: withNotes(apply(draft), notes), data: { tasks: draft.tasks.map(copyTask) } },
      save: true,
    }));

  const taskAdd = defineTool({
    name: 'task_add',
    description: TASK_ADD_DESCRIPTION,
    kind: 'think',
    output: taskListOutput,
    input: taskAddInput,
    describeCall: describeTaskAdd,
    aliases: TASK_ADD_ALIASES,
    execute: ({ tasks }, { session }) => change(session, (draft) => addTasks(draft, tasks, rules, resolved.maxSubjectLength)),
  });

  const taskUpdate = defineTool({
    name: 'task_update',
    description: TASK_UPDATE_DESCRIPTION,
    kind: 'think',
    effects: { destructive: true, idempotent: true },
    output: taskListOutput,
    input: taskUpdateInput,
    describeCall: describeTaskUpdate,
    aliases: TASK_UPDATE_ALIASES,
    execute: ({ updates }, { session }) => change(session, (draft) => updateTasks(draft, updates, rules)),
  });

  const taskRemove = defineTool({
    name: 'task_remove',
    description: TASK_REMOVE_DESCRIPTION,
    kind: 'think',
    effects: { destructive: true, idempotent: true },
    output: taskListOutput,
    input: taskRemoveInput,
    describeCall: describeTaskRemove,
    aliases: TASK_IDS_ALIASES,
    execute: ({ ids }, { session }) => change(session, (draft) => removeTasks(draft, ids, rules)),
  });

  const taskGet = defineTool({
    name: 'task_get',
    description: TASK_GET_DESCRIPTION,
    kind: 'think',
    effects: { readOnly: true },
    output: taskListOutput,
    input: taskGetInput,
    describeCall: describeTaskGet,
    aliases: TASK_IDS_ALIASES,
    execute: ({ ids }, { session }) =>
      access.use(session, ({ draft, notes }: OpenedList) => ({
        value: { text: withNotes(formatTaskDetails(draft.tasks, ids), notes), data: { tasks: draft.tasks.map(copyTask) } },
        save: false,
      })),
  });

  return {
    name: 'task-list',
    tools: [taskAdd, taskUpdate, taskRemove, taskGet],
    instructions: TASK_LIST_INSTRUCTIONS,
    context: resolved.context ? (session) => taskListContext(access, session, resolved) : undefined,
    getTasks: (session) => access.use(session, ({ draft }) => ({ value: draft.tasks.map(copyTask), save: false })),
  };
}

/** The open tasks for the model's next call; a list that cannot be read says so instead of failing the call. */
async function taskListContext(access: TaskListAccess, session: Session, resolved: Parameters<typeof formatTaskView>[1]): Promise<string | undefined> {
  try {
    return await access.use(session, ({ draft, notes }) => {
      const view = formatTaskView(draft.tasks, resolved);
      return { value: notes.length === 0 ? view : withNotes(view ?? 'The task list is empty.', notes), save: false };
    });
  } catch (error) {
    // The view must never fail a model call; the model learns of the problem here instead.
    if (error instanceof ToolError) return error.message;
    throw error;
  }
}

/** Puts how a stored list was recovered in front of a reply, so the model knows its list changed. */
function withNotes(text: string, notes: readonly string[]): string {
  if (notes.length === 0) return text;
  const sentence = notes.map((note) => note.charAt(0).toUpperCase() + note.slice(1)).join('. ');
  return `Note: ${sentence}.\n${text}`;
}
