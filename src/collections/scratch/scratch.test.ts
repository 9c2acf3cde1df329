import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { createSession } from '../../session.js';
import type { ToolDefinition } from '../../tool.js';
import { Workspace } from '../../workspace/workspace.js';
import { createFileTools } from '../../dialects/file-tools.js';
import { createScratchTools, type ScratchToolsOptions } from './index.js';

let root: string;
let outside: string;
let tools: Map<string, ToolDefinition<any>>;
let workspace: Workspace;
const call = (name: string, input: unknown) => runTool(tools.get(name)!, input, { session: createSession() });

beforeEach(async () => {
  const base = await mkdtemp(path.join(tmpdir(), 'toolbelt-scratch-'));
  root = path.join(base, 'workspace');
  outside = path.join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.md'), 'secret');
  workspace = new Workspace(root);
  tools = new Map(createScratchTools({ workspace }).tools.map((tool) => [tool.name, tool]));
});

afterEach(async () => {
  await rm(path.dirname(root), { recursive: true, force: true });
});

describe('createScratchTools', () => {
  it('has five think tools that need no approval, and instructions', () => {
    const collection = createScratchTools({ workspace });
    expect(collection.name).toBe('scratch');
    expect(collection.tools.map((tool) => [tool.name, tool.kind, tool.needsApproval ?? false])).toEqual([
      ['note_write', 'think', false],
      ['note_read', 'think', false],
      ['note_list', 'think', false],
      ['log_append', 'think', false],
      ['log_read', 'think', false],
    ]);
    expect(collection.instructions).toContain('.toolbelt/');
  });

  it('runs under the plan mode and without an approver', async () => {
    const result = await runTool(tools.get('note_write')!, { name: 'plan', content: 'x' }, { session: createSession(), mode: 'plan' });
    expect(result.isError).toBe(false);
  });

  it('checks its options when created', () => {
    expect(() => createScratchTools({} as ScratchToolsOptions)).toThrow('Expected the `workspace` option to be a Workspace, got `undefined` (undefined).');
    expect(() => createScratchTools({ workspace, now: 5 } as unknown as ScratchToolsOptions)).toThrow(
      'Expected the `now` option to be a function that returns a Date, got `5` (number).',
    );
  });

  it('writes notes that read_file reads too', async () => {
    await call('note_write', { name: 'plan', content: '# Plan\nStep one' });
    const readFileTool = createFileTools({ workspace }).tools.find((tool) => tool.name === 'read_file')!;
    const result = await runTool(readFileTool, { path: '.toolbelt/notes/plan.md' }, { session: createSession() });
    expect(result.isError).toBe(false);
    expect(result.text).toContain('1: # Plan\n2: Step one');
  });
});

describe('the private folder is jailed', () => {
  const every = [
    ['note_write', { name: 'plan', content: 'x' }],
    ['note_read', { name: 'plan' }],
    ['note_list', {}],
    ['log_append', { entry: 'x' }],
    ['log_read', {}],
  ] as const;

  it.each(every)('%s refuses a .toolbelt that links out, writing nothing there', async (name, input) => {
    await symlink(outside, path.join(root, '.toolbelt'));
    expect(await call(name, input)).toEqual({
      text: "The workspace's private folder `.toolbelt` is a symbolic link, so nothing was written there. Ask the user to replace it with a real folder.",
      isError: true,
    });
    expect(await readdir(outside)).toEqual(['secret.md']);
  });

  it.each(every)('%s refuses a .toolbelt that is a file, leaving it as it was', async (name, input) => {
    await writeFile(path.join(root, '.toolbelt'), 'mine');
    expect((await call(name, input)).text).toBe(
      "The workspace's private folder `.toolbelt` is a file, so nothing was written there. Ask the user to remove or rename it.",
    );
    expect(await readFile(path.join(root, '.toolbelt'), 'utf8')).toBe('mine');
  });

  it('refuses a notes folder that links out, or is a file', async () => {
    await mkdir(path.join(root, '.toolbelt'));
    await symlink(outside, path.join(root, '.toolbelt/notes'));
    expect((await call('note_write', { name: 'plan', content: 'x' })).text).toBe(
      "The workspace's private folder `.toolbelt/notes` is a symbolic link, so nothing was written there. Ask the user to replace it with a real folder.",
    );
    expect((await call('note_list', {})).isError).toBe(true);
    expect(await readdir(outside)).toEqual(['secret.md']);

    await rm(path.join(root, '.toolbelt/notes'));
    await writeFile(path.join(root, '.toolbelt/notes'), '');
    expect((await call('note_read', { name: 'plan' })).text).toBe(
      "The workspace's private folder `.toolbelt/notes` is a file, so nothing was written there. Ask the user to remove or rename it.",
    );
  });

  it('never follows a note that is a link, and leaves its target alone', async () => {
    await mkdir(path.join(root, '.toolbelt/notes'), { recursive: true });
    await symlink(path.join(outside, 'secret.md'), path.join(root, '.toolbelt/notes/secret.md'));
    const refusal = 'is a symbolic link, not a note file, so it was left alone. Ask the user to remove it, or use another note name.';
    expect((await call('note_read', { name: 'secret' })).text).toBe(`\`.toolbelt/notes/secret.md\` ${refusal}`);
    expect((await call('note_write', { name: 'secret', content: 'overwritten' })).text).toBe(`\`.toolbelt/notes/secret.md\` ${refusal}`);
    expect(await readFile(path.join(outside, 'secret.md'), 'utf8')).toBe('secret');
    expect((await call('note_list', {})).text).toBe('There are no notes yet. Save one with note_write.');
  });

  it('never follows a session log that is a link', async () => {
    await mkdir(path.join(root, '.toolbelt'));
    await symlink(path.join(outside, 'secret.md'), path.join(root, '.toolbelt/session.log'));
    const refusal = '`.toolbelt/session.log` is a symbolic link, not the session log, so it was left alone. Ask the user to remove it.';
    expect(await call('log_append', { entry: 'x' })).toEqual({ text: refusal, isError: true });
    expect(await call('log_read', {})).toEqual({ text: refusal, isError: true });
    expect(await readFile(path.join(outside, 'secret.md'), 'utf8')).toBe('secret');
  });
});
