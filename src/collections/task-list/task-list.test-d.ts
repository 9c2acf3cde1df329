// Type tests for the public types of the task list collection, checked by `npm run typecheck`.
import { expectTypeOf } from 'vitest';
import type { Session } from '../../session.js';
import { createTaskListTools } from './index.js';
import { JsonFileTaskListStore, type LoadedTaskList, type TaskListStore } from './store.js';
import type { Task, TaskListSnapshot, TaskStatus } from './task.js';

const tasks = createTaskListTools({ store: new JsonFileTaskListStore('tasks.json') });
expectTypeOf(tasks.getTasks).toEqualTypeOf<(session: Session) => Promise<Task[]>>();
expectTypeOf(tasks.tools.map((tool) => tool.name)).toEqualTypeOf<string[]>();
expectTypeOf<TaskStatus>().toEqualTypeOf<'pending' | 'in_progress' | 'completed'>();

// A store of your own: load the list (or nothing yet), save the whole list.
const memory: TaskListStore = {
  load: async (): Promise<LoadedTaskList | undefined> => undefined,
  save: async (list: TaskListSnapshot) => {
    expectTypeOf(list.tasks).toEqualTypeOf<readonly Task[]>();
  },
};
createTaskListTools({ store: memory, maxVisibleItems: 10, allowMultipleInProgress: true });
// @ts-expect-error the store needs save as well as load
createTaskListTools({ store: { load: async () => undefined } });
