/**
 * @module The task tools' alias tables: the field names of other harnesses' task tools, each
 * with the field it means here. Claude Code's TodoWrite sends `todos: [{ content, status,
 * activeForm }]` (older versions `id` and `priority` too); its TaskCreate/TaskUpdate/TaskGet
 * send one task flat (`{ subject, description, activeForm }`, `{ taskId, status }`); others say
 * `title` or `depends_on`. Each is mapped where its meaning is certain and refused, with the
 * call to make instead, where it is not. The core applies the tables to every call.
 */
import type { InputAlias, InputAliases } from '../../model-inputs/aliases.js';

/** Input as the alias table's converters see it. */
type SentInput = Readonly<Record<string, unknown>>;

/**
 * Aliases that read an entry sent flat at the top level (`{ subject: "Write tests" }`) as the
 * one entry of `list` (`{ tasks: [{ subject: "Write tests" }] }`): each of `keys` stands for
 * the same list of one, built from every one of them that was sent.
 */
function flatEntry(list: string, keys: readonly string[]): Record<string, InputAlias> {
  const convert = (_value: unknown, input: SentInput): unknown => {
    if (list in input) throw new TypeError(`every field of a task inside the entries of \`${list}\``);
    return [Object.fromEntries(Object.entries(input).filter(([key]) => keys.includes(key)))];
  };
  return Object.fromEntries(keys.map((key) => [key, { to: list, convert }]));
}

/**
 * Claude Code's `activeForm`: the same task named as it is done ("Running the tests") beside
 * its subject ("Run the tests"). It is read as the subject sent beside it; alone, in task_add
 * it names the task, and in task_update it is refused (it must not rename the task).
 */
function activeForm(alone: 'names the task' | 'refused'): InputAlias {
  return {
    to: 'subject',
    convert: (value, entry) => {
      const subject = entry.subject ?? entry.content ?? entry.title;
      if (subject !== undefined) return subject;
      if (alone === 'names the task') return value;
      throw new TypeError('the entry without `activeForm`: the list names each task by its subject (send `subject` to rename the task)');
    },
  };
}

/** Names other task tools give a task's subject and what it waits on, inside an entry (`tasks[].`, `updates[].`). */
function entryAliases(prefix: string): InputAliases {
  return {
    [`${prefix}.title`]: 'subject',
    [`${prefix}.content`]: 'subject',
    [`${prefix}.depends_on`]: 'blocked_by',
    [`${prefix}.dependsOn`]: 'blocked_by',
    [`${prefix}.priority`]: {
      refuse: 'The task list keeps no `priority`: send the tasks without it, in the order they should be done (say what is urgent in `description`)',
    },
  };
}

const ADD_ENTRY_KEYS = ['subject', 'title', 'content', 'description', 'status', 'blocked_by', 'blockedBy', 'depends_on', 'dependsOn', 'addBlockedBy', 'activeForm'];

/** task_add's table. */
export const TASK_ADD_ALIASES: InputAliases = {
  todos: 'tasks',
  ...flatEntry('tasks', ADD_ENTRY_KEYS),
  ...entryAliases('tasks[]'),
  // What a new task waits on: "add" to nothing is the whole list.
  'tasks[].addBlockedBy': 'blocked_by',
  'tasks[].activeForm': activeForm('names the task'),
  'tasks[].id': {
    refuse:
      'task_add gives each new task its id itself (the reply says which): send the tasks without `id`, and in `blocked_by` name a task of the same call as "@1" (the first), "@2" and so on',
  },
};

const UPDATE_ENTRY_KEYS = ['id', 'taskId', 'task_id', 'status', 'subject', 'title', 'content', 'description', 'blocked_by', 'blockedBy', 'addBlockedBy', 'addBlocks', 'activeForm'];

/** task_update's table. */
export const TASK_UPDATE_ALIASES: InputAliases = {
  ...flatEntry('updates', UPDATE_ENTRY_KEYS),
  ...entryAliases('updates[]'),
  'updates[].taskId': 'id',
  'updates[].task_id': 'id',
  'updates[].activeForm': activeForm('refused'),
  'updates[].addBlockedBy': {
    refuse:
      'task_update has no `addBlockedBy`: `blocked_by` replaces what the task waits on, so send `blocked_by` with every id it should wait on, the ones it waits on now included (task_get shows them)',
  },
  'updates[].addBlocks': {
    refuse: 'task_update has no `addBlocks`: give each task that should wait an entry of its own with `blocked_by` holding this task\'s id',
  },
  todos: {
    refuse:
      'task_update changes tasks by id and does not take a whole list: send `updates: [{ "id": "1", "status": "completed" }]` with one entry per task that changes (the ids are in the task list shown to you, or from task_get), and add new tasks with task_add',
  },
};

/** task_remove's and task_get's table: one id sent under another name (a single id is read as a list of one). */
export const TASK_IDS_ALIASES: InputAliases = {
  id: 'ids',
  task_id: 'ids',
  taskId: 'ids',
  task_ids: 'ids',
  taskIds: 'ids',
};
