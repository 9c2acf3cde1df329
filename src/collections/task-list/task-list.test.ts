import { describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { createSession, restoreSession, type Session } from '../../session.js';
import { createTaskListTools, type TaskListCollection } from './index.js';

function setup(options: Parameters<typeof createTaskListTools>[0] = {}) {
  const notices: string[] = [];
  const tasks = createTaskListTools({ onNotice: (message) => notices.push(message), ...options });
  const session = createSession();
  const [add, update, remove, get] = tasks.tools;
  const call = (tool: TaskListCollection['tools'][number], input: unknown, on: Session = session) => runTool(tool, input, { session: on });
  return { tasks, session, notices, add, update, remove, get, call };
}

/** Three tasks: #1 ready, #2 waits on #1, #3 waits on #2. */
async function chain() {
  const context = setup();
  const result = await context.call(context.add, {
    tasks: [{ subject: 'Set up the project' }, { subject: 'Write the parser', blocked_by: ['@1'] }, { subject: 'Test the parser', blocked_by: ['@2'] }],
  });
  expect(result.isError).toBe(false);
  return context;
}

describe('task_add', () => {
  it('adds a batch, counts ids up and replies with one line', async () => {
    const { call, add, tasks, session } = setup();
    const result = await call(add, { tasks: [{ subject: 'Set up', description: 'Install deps' }, { subject: 'Write code', blocked_by: ['@1'] }] });
    expect(result).toMatchObject({ isError: false, text: 'Added #1 "Set up" and #2 "Write code". Now 2 open, 0 completed.' });
    expect(result.text).not.toContain('\n');
    expect(await tasks.getTasks(session)).toEqual([
      { id: '1', subject: 'Set up', description: 'Install deps', status: 'pending', blockedBy: [] },
      { id: '2', subject: 'Write code', status: 'pending', blockedBy: ['1'] },
    ]);
    const next = await call(add, { tasks: [{ subject: 'Ship', blocked_by: ['2', '#1'] }] });
    expect(next.text).toBe('Added #3 "Ship". Now 3 open, 0 completed.');
    expect((await tasks.getTasks(session))[2]!.blockedBy).toEqual(['2', '1']);
  });

  it('never reuses an id, even after the task with the highest id is removed', async () => {
    const { call, add, remove } = setup();
    await call(add, { tasks: [{ subject: 'One' }, { subject: 'Two' }] });
    expect((await call(remove, { ids: ['2'] })).text).toBe('Removed #2. Now 1 open, 0 completed.');
    expect((await call(add, { tasks: [{ subject: 'Three' }] })).text).toBe('Added #3 "Three". Now 2 open, 0 completed.');
  });

  it.each([
    [[{ subject: 'A' }, { subject: '   ' }], 'The 2nd new task has a blank subject; give every task a short subject. Nothing was changed.'],
    [[{ subject: 'A', blocked_by: ['@1'] }], 'The 1st new task ("@1") cannot wait on itself. Nothing was changed.'],
    [[{ subject: 'A' }, { subject: 'B', blocked_by: ['@3'] }], '"@3" in blocked_by of the 2nd new task points past this call, which adds 2 tasks; "@1" is the first of them. Nothing was changed.'],
    [[{ subject: 'A', blocked_by: ['9'] }], 'The 1st new task cannot wait on #9: there is no task #9. Call task_get to see the ids. Nothing was changed.'],
    [[{ subject: 'A', blocked_by: ['soon'] }], '"soon" in blocked_by of the 1st new task is not a task id; use an id such as "3", or "@1" for the first task of this call. Nothing was changed.'],
    [[{ subject: 'A' }, { subject: 'B', blocked_by: ['@1', '@1'] }], 'The 2nd new task lists @1 twice in blocked_by. Nothing was changed.'],
    [[{ subject: 'Write docs' }, { subject: 'B' }, { subject: 'write  DOCS' }], 'The 1st and 3rd new tasks have the same subject "write DOCS"; give each a different subject. Nothing was changed.'],
    [
      [{ subject: 'A', blocked_by: ['@2'] }, { subject: 'B', blocked_by: ['@1'] }],
      'Tasks cannot wait on each other in a loop: @1 blocked by @2 blocked by @1. Drop one of these from blocked_by. Nothing was changed.',
    ],
  ])('refuses a bad batch as a whole: %j', async (batch, message) => {
    const { call, add, tasks, session } = setup();
    const result = await call(add, { tasks: batch });
    expect(result).toMatchObject({ isError: true, text: message });
    expect(await tasks.getTasks(session)).toEqual([]);
    expect((await call(add, { tasks: [{ subject: 'Fine' }] })).text).toBe('Added #1 "Fine". Now 1 open, 0 completed.');
  });

  it('refuses a subject an open task already has, and allows one a completed task had', async () => {
    const { call, add, update } = await chain();
    expect((await call(add, { tasks: [{ subject: 'set up the  project' }] })).text).toBe(
      '"set up the project" is already task #1 (pending); change that task with task_update, or give the new one a different subject. Nothing was changed.',
    );
    await call(update, { updates: [{ id: '1', status: 'completed' }] });
    expect((await call(add, { tasks: [{ subject: 'Set up the project' }] })).isError).toBe(false);
  });

  it('keeps at most 1,000 tasks in a list', async () => {
    const { call, add } = setup();
    for (let batch = 0; batch < 20; batch++) {
      const result = await call(add, { tasks: Array.from({ length: 50 }, (_, index) => ({ subject: `Task ${batch}.${index}` })) });
      expect(result.isError).toBe(false);
    }
    expect((await call(add, { tasks: [{ subject: 'One too many' }] })).text).toBe(
      'The list would hold 1001 tasks, and it keeps at most 1000. Remove finished tasks with task_remove first. Nothing was changed.',
    );
  });

  it('names the field when the input does not match the schema', async () => {
    const { call, add } = setup();
    expect((await call(add, { tasks: [] })).text).toBe(
      'Invalid arguments for task_add: `tasks`: Too small: expected array to have >=1 items. Fix the arguments and call task_add again.',
    );
  });
});

describe('task_update', () => {
  it('checks the rules on the list after the whole call: complete #1 and start #2 in one call', async () => {
    const { call, update, tasks, session } = await chain();
    expect((await call(update, { updates: [{ id: '2', status: 'in_progress' }] })).text).toBe(
      '#2 cannot be in_progress while it waits on #1 (pending). Complete it first (the same call may do it), or drop it from blocked_by of #2. Nothing was changed.',
    );
    const result = await call(update, { updates: [{ id: '2', status: 'in_progress' }, { id: '1', status: 'completed' }] });
    expect(result).toMatchObject({ isError: false, text: 'Updated #2 (in_progress) and #1 (completed). Now 2 open (1 in progress), 1 completed.' });
    expect((await tasks.getTasks(session)).map((task) => task.status)).toEqual(['completed', 'in_progress', 'pending']);
  });

  it('refuses completing a task while what it waits on is open, naming every open blocker', async () => {
    const { call, add, update } = setup();
    await call(add, { tasks: [{ subject: 'A' }, { subject: 'B' }, { subject: 'C', blocked_by: ['@1', '@2'] }] });
    expect((await call(update, { updates: [{ id: '3', status: 'completed' }] })).text).toBe(
      '#3 cannot be completed while it waits on #1 (pending) and #2 (pending). Complete them first (the same call may do it), or drop them from blocked_by of #3. Nothing was changed.',
    );
  });

  it('refuses a loop and shows it', async () => {
    const { call, add, update } = setup();
    await call(add, { tasks: [{ subject: 'A' }, { subject: 'B', blocked_by: ['@1'] }] });
    expect((await call(update, { updates: [{ id: '1', blocked_by: ['2'] }] })).text).toBe(
      'Tasks cannot wait on each other in a loop: #1 blocked by #2 blocked by #1. Drop one of these from blocked_by. Nothing was changed.',
    );
  });

  it('allows one task in progress unless allowMultipleInProgress is set', async () => {
    const one = setup();
    await one.call(one.add, { tasks: [{ subject: 'A' }, { subject: 'B' }, { subject: 'C' }] });
    await one.call(one.update, { updates: [{ id: '1', status: 'in_progress' }] });
    expect((await one.call(one.update, { updates: [{ id: '3', status: 'in_progress' }] })).text).toBe(
      'Only one task can be in_progress at a time, and this call would leave #1 and #3 in progress. Set the others back to pending or to completed in the same call. Nothing was changed.',
    );
    expect((await one.call(one.update, { updates: [{ id: '1', status: 'pending' }, { id: '3', status: 'in_progress' }] })).text).toBe(
      'Updated #1 (pending) and #3 (in_progress). Now 3 open (1 in progress), 0 completed.',
    );

    const many = setup({ allowMultipleInProgress: true });
    await many.call(many.add, { tasks: [{ subject: 'A' }, { subject: 'B' }] });
    expect((await many.call(many.update, { updates: [{ id: '1', status: 'in_progress' }, { id: '2', status: 'in_progress' }] })).text).toBe(
      'Updated #1 (in_progress) and #2 (in_progress). Now 2 open (2 in progress), 0 completed.',
    );
  });

  it.each([
    [[{ id: '7', status: 'completed' }], 'There is no task #7. Call task_get to see the ids. Nothing was changed.'],
    [[{ id: 'first', status: 'completed' }], '"first" in updates is not a task id; ids are numbers such as "3". Nothing was changed.'],
    [[{ id: '@1', status: 'completed' }], '"@1" in updates only works in task_add, for a task of the same call; give the task\'s id, such as "3". Nothing was changed.'],
    [[{ id: '1', status: 'completed' }, { id: '#1', subject: 'X' }], '#1 appears twice in updates; give each task once per call. Nothing was changed.'],
    [[{ id: '1' }], 'The update of #1 gives nothing to change; add status, subject, description or blocked_by, or leave the entry out. Nothing was changed.'],
    [[{ id: '1', status: 'pending', subject: 'Set up the project' }], 'The update of #1 changes nothing: the task already has these values. Leave the entry out, or give a value that differs. Nothing was changed.'],
    [[{ id: '2', blocked_by: ['1'] }], 'The update of #2 changes nothing: the task already has these values. Leave the entry out, or give a value that differs. Nothing was changed.'],
    [[{ id: '1', subject: ' \n ' }], 'The new subject of #1 is blank; give a short subject, or leave subject out to keep it. Nothing was changed.'],
    [[{ id: '2', blocked_by: ['2'] }], '#2 cannot wait on itself. Nothing was changed.'],
    [[{ id: '2', blocked_by: ['1', '1'] }], '#2 lists #1 twice in blocked_by. Nothing was changed.'],
    [[{ id: '2', blocked_by: ['8'] }], '#2 cannot wait on #8: there is no task #8. Call task_get to see the ids. Nothing was changed.'],
    [[{ id: '2', blocked_by: ['@1'] }], '"@1" in blocked_by of #2 only works in task_add, for a task of the same call; give the task\'s id, such as "3". Nothing was changed.'],
  ])('refuses %j and changes nothing', async (updates, message) => {
    const { call, update, tasks, session } = await chain();
    const before = await tasks.getTasks(session);
    expect(await call(update, { updates })).toMatchObject({ isError: true, text: message });
    expect(await tasks.getTasks(session)).toEqual(before);
  });

  it('is all-or-nothing: a valid entry is not applied when a later one is refused', async () => {
    const { call, update, tasks, session } = await chain();
    const result = await call(update, { updates: [{ id: '1', status: 'completed', subject: 'Renamed' }, { id: '9', status: 'completed' }] });
    expect(result.isError).toBe(true);
    expect((await tasks.getTasks(session))[0]).toMatchObject({ subject: 'Set up the project', status: 'pending' });
  });

  it('changes subject, description and blocked_by, and says which tasks can start', async () => {
    const { call, update, tasks, session } = await chain();
    expect((await call(update, { updates: [{ id: '3', subject: 'Test it\nwell', description: 'Unit tests', blocked_by: [] }] })).text).toBe(
      'Updated #3 (subject, description, waits on nothing). #3 can start now. Now 3 open, 0 completed.',
    );
    expect((await tasks.getTasks(session))[2]).toEqual({ id: '3', subject: 'Test it\nwell', description: 'Unit tests', status: 'pending', blockedBy: [] });
    expect((await call(update, { updates: [{ id: '3', description: '' }] })).text).toBe('Updated #3 (description removed). Now 3 open, 0 completed.');
    expect((await call(update, { updates: [{ id: '1', status: 'completed' }] })).text).toBe('Updated #1 (completed). #2 can start now. Now 2 open, 1 completed.');
  });

  it('refuses reopening a task that a completed task waited on, since that one would wait on an open task', async () => {
    const { call, update } = await chain();
    await call(update, { updates: [{ id: '1', status: 'completed' }, { id: '2', status: 'completed' }] });
    expect((await call(update, { updates: [{ id: '1', status: 'pending' }] })).text).toBe(
      '#2 cannot be completed while it waits on #1 (pending). Complete it first (the same call may do it), or drop it from blocked_by of #2. Nothing was changed.',
    );
  });
});

describe('task_remove', () => {
  it('frees the tasks that waited on a removed task', async () => {
    const { call, remove, tasks, session } = await chain();
    expect((await call(remove, { ids: ['2'] })).text).toBe('Removed #2. #3 no longer waits on it. #3 can start now. Now 2 open, 0 completed.');
    expect((await tasks.getTasks(session)).map((task) => [task.id, task.blockedBy])).toEqual([
      ['1', []],
      ['3', []],
    ]);
    expect((await call(remove, { ids: ['1', '3'] })).text).toBe('Removed #1 and #3. The list is now empty.');
  });

  it('says which tasks can start once what held them back is gone', async () => {
    const { call, remove } = await chain();
    expect((await call(remove, { ids: ['1'] })).text).toBe('Removed #1. #2 no longer waits on it. #2 can start now. Now 2 open, 0 completed.');
  });

  it.each([
    [['4'], 'There is no task #4. Call task_get to see the ids. Nothing was changed.'],
    [['1', '1'], '#1 appears twice in ids; give each task once. Nothing was changed.'],
    [['x'], '"x" in ids is not a task id; ids are numbers such as "3". Nothing was changed.'],
  ])('refuses %j and removes nothing', async (ids, message) => {
    const { call, remove, tasks, session } = await chain();
    expect(await call(remove, { ids })).toMatchObject({ isError: true, text: message });
    expect(await tasks.getTasks(session)).toHaveLength(3);
  });
});

describe('task_get', () => {
  it('lists every task with status, what it waits on and the description', async () => {
    const { call, add, update, get } = setup();
    await call(add, { tasks: [{ subject: 'Set up', description: 'Install deps\nand tools' }, { subject: 'Code', blocked_by: ['@1'] }] });
    await call(update, { updates: [{ id: '1', status: 'completed' }, { id: '2', status: 'in_progress' }] });
    const result = await call(get, {});
    expect(result.text).toBe(
      ['2 tasks: 1 open, 1 completed.', '#1 [completed] Set up', '    Install deps', '    and tools', '#2 [in_progress] Code — blocked by #1 (completed)'].join('\n'),
    );
    expect((await call(get, { ids: ['2'] })).text).toBe('#2 [in_progress] Code — blocked by #1 (completed)');
    expect((await call(get, { ids: ['5'] }))).toMatchObject({ isError: true, text: 'There is no task #5. Call task_get without ids to see every task.' });
  });

  it('says when the list is empty', async () => {
    const { call, get } = setup();
    expect((await call(get, {})).text).toBe('The task list is empty. Add tasks with task_add.');
  });
});

describe('context(session)', () => {
  it('shows counts, the task in progress, then startable, then waiting tasks, and only counts completed ones', async () => {
    const { call, add, update, tasks, session } = setup();
    expect(await tasks.context!(session)).toBeUndefined();
    await call(add, {
      tasks: [
        { subject: 'Done already' },
        { subject: 'Waiting one', blocked_by: ['@4'] },
        { subject: 'Ready one' },
        { subject: 'Working on it' },
      ],
    });
    await call(update, { updates: [{ id: '1', status: 'completed' }, { id: '4', status: 'in_progress' }] });
    expect(await tasks.context!(session)).toBe(
      ['Tasks: 1 in progress, 1 ready, 1 waiting, 1 completed.', '- #4 Working on it (in progress)', '- #3 Ready one', '- #2 Waiting one (waits on #4)'].join('\n'),
    );
  });

  it('collapses line breaks, cuts subjects and counts what it does not list', async () => {
    const { call, add, tasks, session } = setup({ maxVisibleItems: 2, maxSubjectLength: 12 });
    await call(add, { tasks: [{ subject: 'First\nline   and more' }, { subject: 'Second' }, { subject: 'Third' }] });
    expect(await tasks.context!(session)).toBe(['Tasks: 3 ready.', '- #1 First line…', '- #2 Second', '- … 1 more open (task_get lists every task)'].join('\n'));
  });

  it('keeps a list of 50 tasks under 1,000 characters, even with subjects of the full 80 characters', async () => {
    const { call, add, update, tasks, session } = setup();
    const subject = (index: number) => `Migrate module ${index} to the new storage layer and update its callers and tests`.padEnd(80, '.').slice(0, 80);
    const batch = Array.from({ length: 50 }, (_, index) => ({ subject: subject(index + 1), blocked_by: index % 3 === 2 ? ['@1', '@2'] : [] }));
    await call(add, { tasks: batch });
    await call(update, { updates: [{ id: '1', status: 'in_progress' }, { id: '4', status: 'completed' }, { id: '5', status: 'completed' }] });
    const view = (await tasks.context!(session))!;
    expect(view.length).toBeLessThan(1000);
    expect(view.split('\n')[0]).toBe('Tasks: 1 in progress, 31 ready, 16 waiting, 2 completed.');
    expect(view.split('\n')[1]).toBe(`- #1 ${subject(1)} (in progress)`);
    expect(view.split('\n')).toHaveLength(1 + 10 + 1);
    expect(view.endsWith('\n- … 38 more open (task_get lists every task)')).toBe(true);

    const short = setup();
    await short.call(short.add, { tasks: Array.from({ length: 50 }, (_, index) => ({ subject: `Step ${index + 1}: write the next part` })) });
    const shortView = (await short.tasks.context!(short.session))!;
    expect(shortView.length).toBeLessThan(1000);
    expect(shortView.split('\n')).toHaveLength(1 + 15 + 1);
    expect(shortView.endsWith('- … 35 more open (task_get lists every task)')).toBe(true);
  });

  it('can be switched off', async () => {
    const { tasks } = setup({ context: false });
    expect(tasks.context).toBeUndefined();
  });
});

describe('per-session storage', () => {
  it('keeps each session its own list, and the list travels with toJSON', async () => {
    const { call, add, update, tasks, session } = await chain();
    await call(update, { updates: [{ id: '1', status: 'completed' }] });
    const other = createSession();
    expect(await tasks.getTasks(other)).toEqual([]);

    const restored = restoreSession(JSON.parse(JSON.stringify(session.toJSON())));
    expect(await tasks.getTasks(restored)).toEqual(await tasks.getTasks(session));
    expect((await call(add, { tasks: [{ subject: 'After restore' }] }, restored)).text).toBe('Added #4 "After restore". Now 3 open, 1 completed.');
    expect(await tasks.getTasks(session)).toHaveLength(3);
  });

  it('serialises concurrent calls: 40 parallel adds get 40 unique ids', async () => {
    const { call, add, tasks, session } = setup();
    const results = await Promise.all(Array.from({ length: 40 }, (_, index) => call(add, { tasks: [{ subject: `Task ${index}` }] })));
    expect(results.every((result) => !result.isError)).toBe(true);
    const ids = (await tasks.getTasks(session)).map((task) => task.id);
    expect(new Set(ids).size).toBe(40);
    expect(ids.map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
  });

  it('starts empty, and says so, when the session holds something that is not a task list', async () => {
    const { call, add, session, notices } = setup();
    session.setState('tasks', { nextId: 'soon', tasks: 3 });
    const result = await call(add, { tasks: [{ subject: 'A' }] });
    expect(result.text).toBe(
      'Note: The task list in the session could not be read (nextId: Invalid input: expected number, received string), so it started empty.\nAdded #1 "A". Now 1 open, 0 completed.',
    );
    expect(notices).toHaveLength(1);
  });

  it('repairs a restored list that breaks a rule instead of refusing every later change', async () => {
    const { call, update, session, notices, tasks } = setup();
    session.setState('tasks', {
      nextId: 3,
      tasks: [
        { id: '1', subject: 'A', status: 'in_progress', blockedBy: ['2'] },
        { id: '2', subject: 'B', status: 'pending', blockedBy: ['1'] },
      ],
    });
    const result = await call(update, { updates: [{ id: '2', subject: 'B2' }] });
    expect(result).toMatchObject({
      isError: false,
      text: 'Note: The stored list broke the rules and was repaired: the loop #1 blocked by #2 blocked by #1 was broken: #2 no longer waits on #1; #1 (in_progress) no longer waits on #2, which is still open.\nUpdated #2 (subject). Now 2 open (1 in progress), 0 completed.',
    });
    expect(notices).toEqual([
      'agent-toolbelt task list: the stored list broke the rules and was repaired: the loop #1 blocked by #2 blocked by #1 was broken: #2 no longer waits on #1; #1 (in_progress) no longer waits on #2, which is still open.',
    ]);
    expect((await tasks.getTasks(session)).map((task) => task.blockedBy)).toEqual([[], []]);
    expect((await call(update, { updates: [{ id: '2', subject: 'B3' }] })).text).toBe('Updated #2 (subject). Now 2 open (1 in progress), 0 completed.');
  });
});

describe('createTaskListTools options', () => {
  it.each([
    [{ maxVisibleItems: -1 }, 'Expected the `maxVisibleItems` option to be a positive integer, got `-1` (number).'],
    [{ maxSubjectLength: 2.5 }, 'Expected the `maxSubjectLength` option to be a positive integer, got `2.5` (number).'],
    [{ maxViewCharacters: '1000' }, 'Expected the `maxViewCharacters` option to be a positive integer, got `1000` (string).'],
    [{ allowMultipleInProgress: 'yes' }, 'Expected the `allowMultipleInProgress` option to be true or false, got `yes` (string).'],
    [{ store: {} }, 'Expected the `store` option to be a task list store with `load` and `save` functions (e.g. `new JsonFileTaskListStore(path)`), got an object.'],
    [{ onNotice: 'log' }, 'Expected the `onNotice` option to be a function, got `log` (string).'],
  ])('refuses %j when the collection is created', (options, message) => {
    expect(() => createTaskListTools(options as never)).toThrow(message);
  });

  it('declares every tool with kind think', () => {
    const { tasks } = setup();
    expect(tasks.tools.map((tool) => [tool.name, tool.kind])).toEqual([
      ['task_add', 'think'],
      ['task_update', 'think'],
      ['task_remove', 'think'],
      ['task_get', 'think'],
    ]);
  });
});

describe('the README example', () => {
  it('answers as the README says', async () => {
    const tasks = createTaskListTools();
    const session = createSession();
    const [taskAdd, taskUpdate] = tasks.tools;
    expect((await runTool(taskAdd, { tasks: [{ subject: 'Write the parser' }, { subject: 'Test the parser', blocked_by: ['@1'] }] }, { session })).text).toBe(
      'Added #1 "Write the parser" and #2 "Test the parser". Now 2 open, 0 completed.',
    );
    expect((await runTool(taskUpdate, { updates: [{ id: '1', status: 'completed' }, { id: '2', status: 'in_progress' }] }, { session })).text).toBe(
      'Updated #1 (completed) and #2 (in_progress). Now 1 open (1 in progress), 1 completed.',
    );
    expect(await tasks.context!(session)).toBe('Tasks: 1 in progress, 1 completed.\n- #2 Test the parser (in progress)');
  });
});
