import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { denialText } from './approval.js';
import { createAskUserTools } from './collections/ask-user/index.js';
import { createDateTimeTools } from './collections/date-time/index.js';
import { createGitHubTools } from './collections/github/index.js';
import { createImageTools } from './collections/image/index.js';
import { createScratchTools } from './collections/scratch/index.js';
import { createShellTools } from './collections/shell/index.js';
import { createSkillTools } from './collections/skills/index.js';
import { createTaskListTools } from './collections/task-list/index.js';
import { createFileTools } from './dialects/file-tools.js';
import { describeToolCall, describeToolResult } from './describe-call.js';
import { runTool } from './run-tool.js';
import { createSession } from './session.js';
import type { ToolCollection } from './tool.js';
import { Workspace } from './workspace/workspace.js';

let root: string;
let collections: ToolCollection[];
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-describe-result-'));
  const workspace = new Workspace(root);
  collections = [
    createFileTools({ workspace }),
    createShellTools({ workspace }),
    createTaskListTools(),
    createDateTimeTools(),
    createAskUserTools(),
    createImageTools({ workspace, vision: { ask: async () => 'a cat' } }),
    createScratchTools({ workspace }),
    createGitHubTools({ workspace }),
    await createSkillTools({ workspace }),
  ];
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** A line a person reads: starts with a capital, no code marks, no advice meant for the model. */
function expectPersonLine(line: string) {
  expect(line).toMatch(/^[A-Z]/);
  expect(line).not.toMatch(/`|Do not retry|call .* again/);
  expect(line.length).toBeLessThanOrEqual(120);
}

describe('describeToolResult, for every tool of every collection', () => {
  it('says how each call ended in a person\'s words: done, failed (first sentence only), denied with the reason', () => {
    const names: string[] = [];
    for (const collection of collections) {
      for (const tool of collection.tools) {
        names.push(tool.name);
        const done = describeToolResult(tool, {}, { text: 'whatever the model reads', isError: false });
        expect(done.outcome, tool.name).toBe('succeeded');
        expectPersonLine(done.line);
        const failed = describeToolResult(tool, {}, { text: 'No file at `a.txt`. Do not retry the same call; call find_files again.', isError: true });
        expect(failed, tool.name).toEqual({ line: 'Did not work: No file at a.txt.', outcome: 'failed' });
        expect(describeToolResult(tool, {}, { text: denialText(tool.name, 'not now'), isError: true })).toEqual({ line: 'You said no: not now', outcome: 'denied' });
        expect(describeToolResult(tool, {}, { text: denialText(tool.name), isError: true })).toEqual({ line: 'You said no', outcome: 'denied' });
      }
    }
    expect(names).toEqual(expect.arrayContaining(['read_file', 'run_shell', 'task_add', 'get_day_of_week', 'ask_user_question', 'query_image', 'note_write', 'gh_diff', 'load_skill']));
  });

  it('uses the kind of call as the verb when it worked', () => {
    const tool = (name: string) => collections.flatMap((collection) => collection.tools).find((candidate) => candidate.name === name)!;
    expect(describeToolResult(tool('read_file'), { path: 'a' }, { text: '1: a', isError: false }).line).toBe('Read');
    expect(describeToolResult(tool('search_files'), { pattern: 'a' }, { text: 'a', isError: false }).line).toBe('Searched');
    expect(describeToolResult(tool('edit_file'), {}, { text: 'ok', isError: false }).line).toBe('Changed');
    expect(describeToolResult(tool('task_add'), {}, { text: 'ok', isError: false }).line).toBe('Done');
  });

  it("reads a real command's exit code: a command that exits 2 failed, though the call worked", async () => {
    const shell = collections[1]!.tools.find((tool) => tool.name === 'run_shell')!;
    const options = { session: createSession(), approve: () => 'approve' as const };
    const failing = await runTool(shell, { command: 'echo about to fail; exit 2' }, options);
    expect(failing.isError).toBe(false); // the model reads it as a command that ran
    expect(describeToolResult(shell, {}, failing)).toEqual({ line: 'Failed with exit code 2', outcome: 'failed' });
    const passing = await runTool(shell, { command: 'echo fine' }, options);
    expect(describeToolResult(shell, {}, passing)).toEqual({ line: 'Finished with exit code 0', outcome: 'succeeded' });
    const timedOut = await runTool(shell, { command: 'sleep 5', timeout_seconds: 1 }, options);
    expect(describeToolResult(shell, {}, timedOut)).toEqual({ line: 'Stopped: it ran out of time', outcome: 'failed' });
  }, 30_000);

  it('never throws on input or output it cannot read', () => {
    const tool = { name: 'odd', kind: 'read' as const, kindOf: () => { throw new Error('no'); } };
    expect(describeToolResult(tool, { a: 1 }, { text: 'ok' })).toEqual({ line: 'Read', outcome: 'succeeded' });
    expect(describeToolResult(tool, undefined, { text: undefined as never, isError: true })).toEqual({ line: 'Did not work', outcome: 'failed' });
  });
});

describe('describeToolCall, for every tool of every collection', () => {
  it('gives each call a line that starts with a capital and names what it does', () => {
    for (const collection of collections) for (const tool of collection.tools) expectPersonLine(describeToolCall(tool, {}));
  });

  it('words the task and question tools as sentences', () => {
    const tool = (name: string) => collections.flatMap((collection) => collection.tools).find((candidate) => candidate.name === name)!;
    expect(describeToolCall(tool('task_add'), { tasks: [{ subject: 'Write notes.txt' }] })).toBe('Plan a task: Write notes.txt');
    expect(describeToolCall(tool('task_add'), { tasks: [{ subject: 'Read' }, { subject: 'Fix' }] })).toBe('Plan 2 tasks: Read, Fix');
    expect(describeToolCall(tool('task_update'), { updates: [{ id: '1', status: 'completed' }] })).toBe('Mark task #1 completed');
    expect(describeToolCall(tool('task_update'), { updates: [{ id: '1', status: 'in_progress' }, { id: '2', status: 'in_progress' }] })).toBe('Mark tasks #1, #2 in progress');
    expect(describeToolCall(tool('task_update'), { updates: [{ id: '3', subject: 'Ship' }] })).toBe('Rename task #3 to Ship');
    expect(describeToolCall(tool('task_remove'), { ids: ['2'] })).toBe('Remove task #2');
    expect(describeToolCall(tool('task_get'), {})).toBe('Read the task list');
    expect(describeToolCall(tool('ask_user_question'), { questions: [{ question: 'Tabs or spaces?' }] })).toBe('Ask: Tabs or spaces?');
  });
});
