import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { createSession } from '../../session.js';
import { createTaskListTools } from './index.js';
import { JsonFileTaskListStore } from './store.js';

let folder: string;
beforeEach(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-tasks-'));
});
afterEach(async () => {
  await fs.rm(folder, { recursive: true, force: true });
});

function setup(file = path.join(folder, 'nested', 'tasks.json')) {
  const notices: string[] = [];
  const tasks = createTaskListTools({ store: new JsonFileTaskListStore(file), onNotice: (message) => notices.push(message) });
  const [add, update, remove, get] = tasks.tools;
  return { file, notices, tasks, add, update, remove, get };
}

describe('JsonFileTaskListStore', () => {
  it('keeps one list in the file, shared by every session, and creates missing folders', async () => {
    const { file, tasks, add, update } = setup();
    const first = createSession();
    const second = createSession();
    await runTool(add, { tasks: [{ subject: 'Set up' }, { subject: 'Code', blocked_by: ['@1'] }] }, { session: first });
    expect((await runTool(update, { updates: [{ id: '1', status: 'completed' }] }, { session: second })).text).toBe(
      'Updated #1 (completed). #2 can start now. Now 1 open, 1 completed.',
    );
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({
      version: 1,
      nextId: 3,
      tasks: [
        { id: '1', subject: 'Set up', status: 'completed', blockedBy: [] },
        { id: '2', subject: 'Code', status: 'pending', blockedBy: ['1'] },
      ],
    });
    expect(await fs.readdir(path.dirname(file))).toEqual(['tasks.json']);
    expect(first.toJSON().state).not.toHaveProperty('tasks');

    const reopened = createTaskListTools({ store: new JsonFileTaskListStore(file) });
    expect(await reopened.getTasks(createSession())).toEqual(await tasks.getTasks(first));
  });

  it('leaves the file as it was when a call is refused', async () => {
    const { file, add } = setup();
    const session = createSession();
    await runTool(add, { tasks: [{ subject: 'A' }] }, { session });
    const before = await fs.readFile(file, 'utf8');
    expect((await runTool(add, { tasks: [{ subject: 'B', blocked_by: ['7'] }] }, { session })).isError).toBe(true);
    expect(await fs.readFile(file, 'utf8')).toBe(before);
  });

  it('serialises concurrent calls: 40 parallel adds from 40 sessions get 40 unique ids', async () => {
    const { file, add, tasks } = setup();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, index) => runTool(add, { tasks: [{ subject: `Task ${index}` }] }, { session: createSession() })),
    );
    expect(results.filter((result) => result.isError)).toEqual([]);
    const stored = JSON.parse(await fs.readFile(file, 'utf8')) as { nextId: number; tasks: { id: string }[] };
    expect(stored.nextId).toBe(41);
    expect(new Set(stored.tasks.map((task) => task.id)).size).toBe(40);
    expect((await tasks.getTasks(createSession())).map((task) => Number(task.id)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, index) => index + 1),
    );
  });

  it.each([
    ['{ "nextId": 3, "tasks": [', /^it is not JSON \(/],
    ['{ "nextId": 0, "tasks": [] }', /^it is not a task list \(nextId: Too small: expected number to be >=1\)$/],
    ['[1, 2, 3]', /^it is not a task list \(/],
  ])('moves a file it cannot read (%s) to <path>.corrupt and starts the list empty', async (content, reason) => {
    const { file, add, notices } = setup(path.join(folder, 'tasks.json'));
    await fs.writeFile(file, content);
    const result = await runTool(add, { tasks: [{ subject: 'Fresh start' }] }, { session: createSession() });
    expect(result.isError).toBe(false);
    const [note, reply] = result.text.split('\n');
    expect(reply).toBe('Added #1 "Fresh start". Now 1 open, 0 completed.');
    const prefix = `Note: The task file ${file} could not be read because `;
    const suffix = `; it was moved to ${file}.corrupt and the list started empty.`;
    expect(note!.startsWith(prefix) && note!.endsWith(suffix)).toBe(true);
    expect(note!.slice(prefix.length, -suffix.length)).toMatch(reason);
    expect(await fs.readFile(`${file}.corrupt`, 'utf8')).toBe(content);
    expect(JSON.parse(await fs.readFile(file, 'utf8')).tasks).toHaveLength(1);
    expect(notices).toHaveLength(1);
    expect((await runTool(add, { tasks: [{ subject: 'Next' }] }, { session: createSession() })).text).toBe('Added #2 "Next". Now 2 open, 0 completed.');
  });

  it('repairs a stored list that breaks the rules on load, writes the repair back, and says how', async () => {
    const { file, tasks, update, notices } = setup(path.join(folder, 'tasks.json'));
    await fs.writeFile(
      file,
      JSON.stringify({
        nextId: 2,
        tasks: [
          { id: '1', subject: 'A', status: 'in_progress', blockedBy: ['1', '9'] },
          { id: '2', subject: 'B', status: 'in_progress', blockedBy: ['3'] },
          { id: '3', subject: 'C', status: 'pending', blockedBy: ['2', '2'] },
          { id: '3', subject: 'D', status: 'completed' },
        ],
      }),
    );
    const session = createSession();
    const view = await tasks.context!(session);
    expect(view).toBe(
      [
        'Note: The stored list broke the rules and was repaired: a second task with id #3 became #4; the next id was moved past #3 so ids are not reused; #1 no longer waits on itself; #1 no longer waits on #9, which does not exist; the loop #2 blocked by #3 blocked by #2 was broken: #3 no longer waits on #2; #2 (in_progress) no longer waits on #3, which is still open; only #1 stays in progress; #2 went back to pending.',
        'Tasks: 1 in progress, 2 ready, 1 completed.',
        '- #1 A (in progress)',
        '- #2 B',
        '- #3 C',
      ].join('\n'),
    );
    expect(notices).toHaveLength(1);
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({
      version: 1,
      nextId: 5,
      tasks: [
        { id: '1', subject: 'A', status: 'in_progress', blockedBy: [] },
        { id: '2', subject: 'B', status: 'pending', blockedBy: [] },
        { id: '3', subject: 'C', status: 'pending', blockedBy: [] },
        { id: '4', subject: 'D', status: 'completed', blockedBy: [] },
      ],
    });
    expect((await runTool(update, { updates: [{ id: '1', status: 'completed' }, { id: '2', status: 'in_progress' }] }, { session })).text).toBe(
      'Updated #1 (completed) and #2 (in_progress). Now 2 open (1 in progress), 2 completed.',
    );
    expect(notices).toHaveLength(1);
  });

  it('reads a file that starts with a byte order mark, as some editors save it', async () => {
    const { file, get } = setup(path.join(folder, 'tasks.json'));
    await fs.writeFile(file, `\uFEFF${JSON.stringify({ version: 1, nextId: 2, tasks: [{ id: '1', subject: 'Kept', status: 'pending', blockedBy: [] }] })}`);
    expect((await runTool(get, {}, { session: createSession() })).text).toBe('1 task: 1 open, 0 completed.\n#1 [pending] Kept');
    expect(await fs.readdir(folder)).toEqual(['tasks.json']);
  });

  it('never overwrites an earlier corrupt copy when it sets another file aside', async () => {
    const { file, get } = setup(path.join(folder, 'tasks.json'));
    await fs.writeFile(file, 'first broken');
    await runTool(get, {}, { session: createSession() });
    await fs.writeFile(file, 'second broken');
    const result = await runTool(get, {}, { session: createSession() });
    expect(result.text.split('\n')[0]).toBe(
      `Note: The task file ${file} could not be read because it is not JSON (Unexpected token 's', "second broken" is not valid JSON); it was moved to ${file}.corrupt-2 and the list started empty.`,
    );
    expect(await fs.readFile(`${file}.corrupt`, 'utf8')).toBe('first broken');
    expect(await fs.readFile(`${file}.corrupt-2`, 'utf8')).toBe('second broken');
  });

  it('answers with an error the model can read when the file cannot be read or written', async () => {
    const unreadable = setup(folder);
    const session = createSession();
    const read = await runTool(unreadable.add, { tasks: [{ subject: 'A' }] }, { session });
    expect(read.isError).toBe(true);
    expect(read.text).toMatch(/^The task list could not be read \(EISDIR: .*\), so nothing was changed\. Go on without the task list, and tell the user\.$/);
    expect(await unreadable.tasks.context!(session)).toBe(read.text);

    await fs.symlink(path.join(folder, 'missing'), path.join(folder, 'dangling'));
    const unwritable = setup(path.join(folder, 'dangling', 'tasks.json'));
    const write = await runTool(unwritable.add, { tasks: [{ subject: 'A' }] }, { session });
    expect(write.isError).toBe(true);
    expect(write.text).toMatch(/^The task list could not be saved \(E[A-Z]+: .*\), so nothing was changed\. Go on without the task list, and tell the user\.$/);
  });

  it('refuses an empty path when it is made', () => {
    expect(() => new JsonFileTaskListStore('  ')).toThrow('Expected JsonFileTaskListStore to get a file path, got "  ".');
  });
});
