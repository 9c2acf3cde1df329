import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { createSession } from '../../session.js';
import type { ToolDefinition } from '../../tool.js';
import { Workspace } from '../../workspace/workspace.js';
import { createScratchTools } from './index.js';

let root: string;
let workspace: Workspace;
let tools: Map<string, ToolDefinition<any>>;
const session = createSession();
const call = (name: string, input: unknown) => runTool(tools.get(name)!, input, { session });

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'toolbelt-notes-'));
  workspace = new Workspace(root);
  tools = new Map(createScratchTools({ workspace }).tools.map((tool) => [tool.name, tool]));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('note_write and note_read', () => {
  it('creates a note as a markdown file in .toolbelt/notes/, then replaces it whole', async () => {
    expect(await call('note_write', { name: 'plan', content: '# Plan\n\n1. Read the code\n' })).toEqual({
      text: 'Created note `plan` (.toolbelt/notes/plan.md, 25 characters).',
      isError: false,
      data: { name: 'plan', path: '.toolbelt/notes/plan.md', characters: 25, created: true },
    });
    expect(await readFile(path.join(root, '.toolbelt/notes/plan.md'), 'utf8')).toBe('# Plan\n\n1. Read the code\n');
    expect(await readFile(path.join(root, '.toolbelt/.gitignore'), 'utf8')).toBe('*\n');

    const replaced = await call('note_write', { name: 'plan.md', content: '# Plan v2' });
    expect(replaced.text).toBe('Replaced note `plan` (.toolbelt/notes/plan.md, 9 characters).');
    expect(await call('note_read', { name: 'plan' })).toMatchObject({ text: '# Plan v2', isError: false });
    expect(await readdir(path.join(root, '.toolbelt/notes'))).toEqual(['plan.md']);
  });

  it.each(['../escape', '.hidden', 'a/b', '', 'x'.repeat(65), 'spaces here', 'nul\0byte'])('refuses the name %j and writes nothing', async (name) => {
    const result = await call('note_write', { name, content: 'x' });
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      'Invalid arguments for note_write: `name`: A note name uses letters, digits, "-", "_" and "." (not first), at most 64 characters, such as "plan" or "api-findings". Fix the arguments and call note_write again.',
    );
    await expect(stat(path.join(root, '.toolbelt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('takes a name of exactly 64 characters with dots, dashes and underscores', async () => {
    const name = `a-b_c.d${'e'.repeat(57)}`;
    expect(name).toHaveLength(64);
    expect((await call('note_write', { name, content: 'ok' })).isError).toBe(false);
    expect((await call('note_read', { name })).text).toBe('ok');
  });

  it('refuses content over 51,200 characters and keeps the old note', async () => {
    await call('note_write', { name: 'big', content: 'old' });
    expect((await call('note_write', { name: 'big', content: 'x'.repeat(51_200) })).isError).toBe(false);
    const over = await call('note_write', { name: 'big', content: 'y'.repeat(51_201) });
    expect(over).toEqual({
      text: 'The note is 51,201 characters, over the limit of 51,200, so nothing was written. Split it into several notes, such as `big-1` and `big-2`.',
      isError: true,
    });
    expect(await readFile(path.join(root, '.toolbelt/notes/big.md'), 'utf8')).toBe('x'.repeat(51_200));
  });

  it('says which notes exist when the one asked for does not', async () => {
    expect((await call('note_read', { name: 'plan' })).text).toBe('There is no note named `plan`; there are no notes yet. Save one with note_write.');
    await call('note_write', { name: 'ideas', content: 'a' });
    await call('note_write', { name: 'api', content: 'b' });
    expect(await call('note_read', { name: 'plan' })).toEqual({ text: 'There is no note named `plan`. The notes are: `api`, `ideas`.', isError: true });
  });

  it('says when a note is empty, and cuts a note grown by hand with a pointer to read_file', async () => {
    await call('note_write', { name: 'empty', content: '' });
    expect((await call('note_read', { name: 'empty' })).text).toBe('The note `empty` is empty.');
    await writeFile(path.join(root, '.toolbelt/notes/huge.md'), 'z'.repeat(60_000));
    const result = await call('note_read', { name: 'huge' });
    expect(result.text).toBe(`${'z'.repeat(51_200)}\n\n[The note was cut at 51,200 of 60,000 characters; read the rest with read_file on .toolbelt/notes/huge.md.]`);
  });

  it('keeps every concurrent write whole: the last one wins, no temp files stay', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, index) => call('note_write', { name: 'race', content: `version ${index}\n`.repeat(100) })));
    const content = await readFile(path.join(root, '.toolbelt/notes/race.md'), 'utf8');
    expect(content).toMatch(/^(version \d+\n){100}$/);
    expect(new Set(content.trim().split('\n')).size).toBe(1);
    expect(await readdir(path.join(root, '.toolbelt/notes'))).toEqual(['race.md']);
  });
});

describe('note_list', () => {
  it('lists notes by name with size, update time and first line, skipping other files', async () => {
    expect(await call('note_list', {})).toEqual({ text: 'There are no notes yet. Save one with note_write.', isError: false, data: { notes: [] } });
    await call('note_write', { name: 'plan', content: '\n# The plan\n\nSteps' });
    await call('note_write', { name: 'api', content: `${'long '.repeat(30)}\nsecond` });
    await writeFile(path.join(root, '.toolbelt/notes/readme.txt'), 'not a note');
    await mkdir(path.join(root, '.toolbelt/notes/folder.md'));
    const when = new Date('2026-09-24T12:30:00Z');
    await utimes(path.join(root, '.toolbelt/notes/plan.md'), when, when);
    await utimes(path.join(root, '.toolbelt/notes/api.md'), when, when);

    const result = await call('note_list', {});
    expect(result.text).toBe(
      [
        '2 notes in .toolbelt/notes/ (read one with note_read):',
        `- api (157 bytes, updated 2026-09-24T12:30:00Z) — ${'long '.repeat(16).slice(0, 79)}…`,
        '- plan (18 bytes, updated 2026-09-24T12:30:00Z) — # The plan',
      ].join('\n'),
    );
  });
});
