import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { createSession } from '../../session.js';
import type { ToolDefinition } from '../../tool.js';
import { Workspace } from '../../workspace/workspace.js';
import { createScratchTools } from './index.js';

let root: string;
let tools: Map<string, ToolDefinition<any>>;
const call = (name: string, input: unknown) => runTool(tools.get(name)!, input, { session: createSession() });

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'toolbelt-scratch-aliases-'));
  tools = new Map(createScratchTools({ workspace: new Workspace(root) }).tools.map((tool) => [tool.name, tool]));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the scratch tools with other tools’ field names', () => {
  it('writes and reads a note by its `title` or `key`, its text as `text`, `body` or `file_text`', async () => {
    expect((await call('note_write', { title: 'plan', text: '1. Parse' })).text).toMatch(/^Created note `plan`/);
    expect(await readFile(path.join(root, '.toolbelt/notes/plan.md'), 'utf8')).toBe('1. Parse');
    expect((await call('note_write', { key: 'plan', file_text: '2. Test' })).text).toMatch(/^Replaced note `plan`/);
    expect((await call('note_read', { note_name: 'plan' })).text).toMatch(/^2\. Test\n\n\(Read `note_name` as `name`/);
  });

  it('refuses a path for a note, naming the name to send', async () => {
    expect((await call('note_write', { path: '/memories/plan.md', content: 'x' })).text).toMatch(/^Notes are named, not found by path: send `name`, such as "plan"/);
    expect((await call('note_read', { file_path: 'plan.md' })).isError).toBe(true);
  });

  it('logs a `message` as the entry, reads the `last` N, and refuses an uncertain `limit`', async () => {
    expect((await call('log_append', { message: 'Parsed the config' })).text).toMatch(/^Logged entry 1 at /);
    await call('log_append', { text: 'Wrote the tests' });
    expect((await call('log_read', { last: 1 })).text).toMatch(/entries 2–2 of 2:\n\[[^\]]+\] Wrote the tests\n\n\(Read `last` as `tail`/);
    expect((await call('log_read', { limit: 1 })).text).toMatch(/^log_read reads the newest entries: send `tail` with the number of newest entries to read/);
  });
});
