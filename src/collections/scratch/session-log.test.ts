import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { createSession } from '../../session.js';
import type { ToolDefinition } from '../../tool.js';
import { Workspace } from '../../workspace/workspace.js';
import { createScratchTools } from './index.js';
import { parseEntries } from './session-log.js';

let root: string;
let tools: Map<string, ToolDefinition<any>>;
let clock: Date;
const session = createSession();
const call = (name: string, input: unknown) => runTool(tools.get(name)!, input, { session });
const logPath = () => path.join(root, '.toolbelt/session.log');

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'toolbelt-log-'));
  clock = new Date('2026-11-30T06:10:00.123Z');
  tools = new Map(createScratchTools({ workspace: new Workspace(root), now: () => clock }).tools.map((tool) => [tool.name, tool]));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('log_append', () => {
  it('appends timestamped entries, keeping line breaks inside one entry', async () => {
    expect(await call('log_append', { entry: '  Read the parser.  ' })).toEqual({
      text: 'Logged entry 1 at 2026-11-30T06:10:00Z.',
      isError: false,
      data: { entry: 1, timestamp: '2026-11-30T06:10:00Z' },
    });
    clock = new Date('2026-11-30T06:12:30Z');
    expect((await call('log_append', { entry: 'Found two bugs:\r\n- off by one\n\n- [1] looks like a timestamp' })).text).toBe(
      'Logged entry 2 at 2026-11-30T06:12:30Z.',
    );
    expect(await readFile(logPath(), 'utf8')).toBe(
      '[2026-11-30T06:10:00Z] Read the parser.\n[2026-11-30T06:12:30Z] Found two bugs:\n  - off by one\n  \n  - [1] looks like a timestamp\n',
    );
  });

  it('refuses a blank entry and one over 10,000 characters, logging nothing', async () => {
    expect((await call('log_append', { entry: ' \n ' })).text).toBe(
      'Invalid arguments for log_append: `entry`: The entry is blank; say what happened. Fix the arguments and call log_append again.',
    );
    expect((await call('log_append', { entry: 'x'.repeat(10_000) })).isError).toBe(false);
    expect(await call('log_append', { entry: 'x'.repeat(10_001) })).toEqual({
      text: 'The entry is 10,001 characters, over the limit of 10,000, so nothing was logged. Log a shorter summary, or keep the details in a note (note_write).',
      isError: true,
    });
    expect(parseEntries(await readFile(logPath(), 'utf8'))).toHaveLength(1);
  });

  it('loses no entry when 40 appends run at once', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, index) => call('log_append', { entry: `step ${index}` })));
    expect(results.map((result) => result.data).map((data) => (data as { entry: number }).entry).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, index) => index + 1),
    );
    const entries = parseEntries(await readFile(logPath(), 'utf8'));
    expect(entries).toHaveLength(40);
    expect(new Set(entries).size).toBe(40);
  });

  it('starts a new line when the file was left without a final newline', async () => {
    await call('log_append', { entry: 'first' });
    await writeFile(logPath(), '[2026-11-30T06:00:00Z] by hand');
    await call('log_append', { entry: 'second' });
    expect(await readFile(logPath(), 'utf8')).toBe('[2026-11-30T06:00:00Z] by hand\n[2026-11-30T06:10:00Z] second\n');
  });
});

describe('log_read', () => {
  it('reads every entry, or the last N with tail', async () => {
    expect((await call('log_read', {})).text).toBe('The session log is empty. Add to it with log_append.');
    for (const entry of ['one', 'two\nmore', 'three']) await call('log_append', { entry });

    expect((await call('log_read', {})).text).toBe(
      'Session log (.toolbelt/session.log), all 3 entries:\n[2026-11-30T06:10:00Z] one\n[2026-11-30T06:10:00Z] two\n  more\n[2026-11-30T06:10:00Z] three',
    );
    const tail = await call('log_read', { tail: 2 });
    expect(tail.text).toBe('Session log (.toolbelt/session.log), entries 2–3 of 3:\n[2026-11-30T06:10:00Z] two\n  more\n[2026-11-30T06:10:00Z] three');
    expect(tail.data).toEqual({ entries: ['[2026-11-30T06:10:00Z] two\n  more', '[2026-11-30T06:10:00Z] three'], total: 3, first: 2 });
    expect((await call('log_read', { tail: 10 })).text).toMatch(/^Session log \(\.toolbelt\/session\.log\), all 3 entries:/);
    expect((await call('log_read', { tail: 0 })).isError).toBe(true);
    expect((await call('log_read', { tail: 1.5 })).isError).toBe(true);
  });

  it('leaves out the oldest entries to stay under 51,200 characters, and says so', async () => {
    for (let index = 0; index < 8; index += 1) await call('log_append', { entry: `${index}`.repeat(9_000) });
    const result = await call('log_read', {});
    expect(result.text.split('\n')[0]).toBe(
      'Session log (.toolbelt/session.log), entries 4–8 of 8; older entries left out to stay under 51,200 characters:',
    );
    expect(result.text.length).toBeLessThan(51_200 + 200);
    expect(result.text).toContain(`[2026-11-30T06:10:00Z] ${'7'.repeat(9_000)}`);
    expect(result.text).not.toContain('2'.repeat(9_000));
  });
});
