import { describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { createSession } from '../../session.js';
import { createTaskListTools, type TaskListCollection } from './index.js';

function setup() {
  const tasks = createTaskListTools();
  const session = createSession();
  const [add, update, remove, get] = tasks.tools;
  const call = (tool: TaskListCollection['tools'][number], input: unknown) => runTool(tool, input, { session });
  const list = async () => (await tasks.getTasks(session)).map(({ id, subject, status, blockedBy }) => ({ id, subject, status, blockedBy }));
  return { add, update, remove, get, call, list };
}

/** The reply without the note about names the core read. */
const reply = (text: string) => text.replace(/\n\n\(Read [\s\S]*\)$/, '');

describe('Claude Code’s TodoWrite shape', () => {
  it('adds `todos` with their `content` as subject and their status applied, `activeForm` read as the same task', async () => {
    const { add, call, list } = setup();
    const result = await call(add, {
      todos: [
        { content: 'Run the tests', status: 'in_progress', activeForm: 'Running the tests' },
        { content: 'Fix the failures', status: 'pending', activeForm: 'Fixing the failures' },
      ],
    });
    expect(reply(result.text)).toBe('Added #1 "Run the tests" (in_progress) and #2 "Fix the failures". Now 2 open (1 in progress), 0 completed.');
    expect(result.text).toMatch(/read `todos` as `tasks`/i);
    expect(result.text).toMatch(/read `activeForm` "Running the tests" as `subject` "Run the tests"/i);
    expect(await list()).toEqual([
      { id: '1', subject: 'Run the tests', status: 'in_progress', blockedBy: [] },
      { id: '2', subject: 'Fix the failures', status: 'pending', blockedBy: [] },
    ]);
  });

  it('refuses the whole list sent again, with the task_update call that sets the statuses it carries', async () => {
    const { add, call, list } = setup();
    await call(add, { todos: [{ content: 'Run the tests', status: 'in_progress' }, { content: 'Fix the failures', status: 'pending' }] });
    const again = await call(add, {
      todos: [
        { content: 'Run the tests', status: 'completed' },
        { content: 'Fix the failures', status: 'in_progress' },
        { content: 'Ship it', status: 'pending' },
      ],
    });
    expect(again).toMatchObject({ isError: true });
    expect(again.text).toMatch(
      /^#1 "Run the tests" \(in_progress\) and #2 "Fix the failures" \(pending\) are already on the list, and task_add only adds new tasks; the list is kept between calls, so send it only what is new \(the other task of this call\)\. To set their status, call task_update with \{"updates":\[\{"id":"1","status":"completed"\},\{"id":"2","status":"in_progress"\}\]\}\. Nothing was changed\./,
    );
    expect((await list()).length).toBe(2);
  });

  it('refuses a completed task sent again as completed, but adds a new task named like a finished one', async () => {
    const { add, update, call, list } = setup();
    await call(add, { tasks: [{ subject: 'Run the tests' }] });
    await call(update, { updates: [{ id: '1', status: 'completed' }] });
    expect((await call(add, { tasks: [{ subject: 'Run the tests', status: 'completed' }] })).text).toMatch(/^#1 "Run the tests" \(completed\) is already on the list/);
    expect((await call(add, { tasks: [{ subject: 'Run the tests' }] })).text).toBe('Added #2 "Run the tests". Now 1 open, 1 completed.');
    expect((await list()).length).toBe(2);
  });

  it('refuses old TodoWrite’s `id` and `priority`, saying what to send', async () => {
    const { add, call, list } = setup();
    const result = await call(add, { todos: [{ id: '1', content: 'Write docs', status: 'pending', priority: 'high' }] });
    expect(result.text).toMatch(/^task_add gives each new task its id itself \(the reply says which\): send the tasks without `id`/);
    expect(result.text).toContain('The task list keeps no `priority`: send the tasks without it, in the order they should be done');
    expect(await list()).toEqual([]);
  });
});

describe('a task sent flat, as Claude Code’s TaskCreate and TaskUpdate send one', () => {
  it('reads one task at the top level as the one entry of the list', async () => {
    const { add, update, call, list } = setup();
    expect(reply((await call(add, { subject: 'Write docs', description: 'The README', activeForm: 'Writing docs' })).text)).toBe('Added #1 "Write docs". Now 1 open, 0 completed.');
    expect(reply((await call(update, { taskId: '1', status: 'in_progress' })).text)).toBe('Updated #1 (in_progress). Now 1 open (1 in progress), 0 completed.');
    expect(await list()).toEqual([{ id: '1', subject: 'Write docs', status: 'in_progress', blockedBy: [] }]);
  });

  it('refuses a flat field beside the list, and `activeForm` that would rename a task', async () => {
    const { add, update, call } = setup();
    expect((await call(add, { tasks: [{ subject: 'A' }], status: 'pending' })).text).toMatch(/^You sent `status`, which stands for `tasks` but could not be read as it: send every field of a task inside the entries of `tasks`\./);
    await call(add, { tasks: [{ subject: 'A' }] });
    expect((await call(update, { updates: [{ id: '1', activeForm: 'Doing A' }] })).text).toMatch(
      /^You sent `activeForm` in `updates\[\]`, which stands for `subject` but could not be read as it: send the entry without `activeForm`/,
    );
  });
});

describe('other names for task fields', () => {
  it('maps `title`, `depends_on` and TaskUpdate’s `taskId`; refuses `addBlockedBy` on an update (blocked_by replaces)', async () => {
    const { add, update, remove, get, call, list } = setup();
    await call(add, { tasks: [{ title: 'Build' }, { title: 'Test', depends_on: ['@1'] }] });
    expect(await list()).toEqual([
      { id: '1', subject: 'Build', status: 'pending', blockedBy: [] },
      { id: '2', subject: 'Test', status: 'pending', blockedBy: ['1'] },
    ]);
    expect((await call(update, { updates: [{ task_id: '2', addBlockedBy: ['1'] }] })).text).toMatch(/^task_update has no `addBlockedBy`: `blocked_by` replaces what the task waits on/);
    expect((await call(get, { taskId: '2' })).text).toMatch(/^#2 \[pending\] Test — blocked by #1 \(pending\)/);
    expect(reply((await call(remove, { id: '2' })).text)).toBe('Removed #2. Now 1 open, 0 completed.');
  });

  it('answers a `deleted` status with task_remove', async () => {
    const { add, update, call } = setup();
    await call(add, { tasks: [{ subject: 'A' }] });
    expect((await call(update, { updates: [{ id: '1', status: 'deleted' }] })).text).toBe(
      'Invalid arguments for task_update: `updates.0.status`: a task is removed with task_remove, not by a status: call task_remove with { "ids": ["<the id>"] } (a status is pending, in_progress or completed). Fix the arguments and call task_update again.',
    );
  });
});

describe('a task named by its subject where an id is wanted', () => {
  it('asks "did you mean #N" in task_update, task_remove, task_get and blocked_by, and changes nothing', async () => {
    const { add, update, remove, get, call, list } = setup();
    await call(add, { tasks: [{ subject: 'Write the parser' }, { subject: 'Test the parser' }] });
    expect((await call(update, { updates: [{ id: 'Write the parser', status: 'in_progress' }] })).text).toBe(
      '"Write the parser" in updates is not a task id; did you mean #1 ("Write the parser")? Send its id, "1". Nothing was changed.',
    );
    expect((await call(remove, { ids: ['test the  PARSER'] })).text).toBe('"test the  PARSER" in ids is not a task id; did you mean #2 ("Test the parser")? Send its id, "2". Nothing was changed.');
    expect((await call(get, { ids: ['Write'] })).text).toBe('"Write" is not a task id; did you mean #1 ("Write the parser")? Send its id, "1".');
    expect((await call(update, { updates: [{ id: '2', blocked_by: ['Write the parser'] }] })).text).toBe(
      '"Write the parser" in blocked_by of #2 is not a task id; did you mean #1 ("Write the parser")? Send its id, "1". Nothing was changed.',
    );
    expect((await call(add, { tasks: [{ subject: 'Ship', blocked_by: ['Test the parser'] }] })).text).toBe(
      '"Test the parser" in blocked_by of the 1st new task is not a task id; did you mean #2 ("Test the parser")? Send its id, "2". Nothing was changed.',
    );
    // Text that names no task, or more than one, keeps the plain answer.
    expect((await call(update, { updates: [{ id: 'parser', status: 'completed' }] })).text).toBe('"parser" in updates is not a task id; ids are numbers such as "3". Nothing was changed.');
    expect((await list()).every((task) => task.status === 'pending' && task.blockedBy.length === 0)).toBe(true);
  });

  it('names the task of the same call by `@N`: by its subject, and by the id it will get', async () => {
    const { add, call, list } = setup();
    await call(add, { tasks: [{ subject: 'Existing' }] });
    expect((await call(add, { tasks: [{ subject: 'Build' }, { subject: 'Test', blocked_by: ['Build'] }] })).text).toBe(
      '"Build" in blocked_by of the 2nd new task is not a task id; did you mean the 1st task of this call ("Build")? Write "@1" for it. Nothing was changed.',
    );
    expect((await call(add, { tasks: [{ subject: 'Build' }, { subject: 'Test', blocked_by: ['2'] }] })).text).toBe(
      'The 2nd new task cannot wait on #2: there is no task #2 yet. The 1st task of this call will get that id; to wait on it, write "@1" in blocked_by. Nothing was changed.',
    );
    expect((await call(add, { tasks: [{ subject: 'Build', blocked_by: ['2'] }] })).text).toBe('The 1st new task (#2 once added) cannot wait on itself. Nothing was changed.');
    expect((await call(add, { tasks: [{ subject: 'Build', blocked_by: ['@0'] }] })).text).toBe(
      '"@0" in blocked_by of the 1st new task names no task: positions count from 1, and "@1" is the first task of this call. Nothing was changed.',
    );
    expect((await list()).map((task) => task.subject)).toEqual(['Existing']);
  });
});
