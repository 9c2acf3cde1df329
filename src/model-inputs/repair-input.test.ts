import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { millisecondsToSeconds, type InputAliases } from './aliases.js';
import { repairInput } from './repair-input.js';

const readFile = z.object({
  path: z.string(),
  start_line: z.number().int().min(1).optional(),
  end_line: z.number().int().min(1).optional(),
});
const aliases: InputAliases = {
  file_path: 'path',
  timeout: { refuse: 'You sent `timeout`, whose unit is not certain: send `timeout_seconds` (seconds)' },
};

describe('repairInput', () => {
  it('maps an alias and says so', () => {
    expect(repairInput('read_file', readFile, aliases, { file_path: 'a.ts' })).toEqual({ input: { path: 'a.ts' }, notes: ['read `file_path` as `path`'] });
  });

  it('maps another case or separator style of a field', () => {
    expect(repairInput('read_file', readFile, {}, { path: 'a.ts', startLine: '3', 'end-line': 4 })).toEqual({
      input: { path: 'a.ts', start_line: 3, end_line: 4 },
      notes: ['read `startLine` as `start_line`', 'read `end-line` as `end_line`'],
    });
  });

  it('coerces numbers, booleans, nulls and JSON text where the schema is certain, and says nothing', () => {
    const schema = z.object({ count: z.number(), all: z.boolean().default(false), tags: z.array(z.string()).optional(), note: z.string().optional() });
    expect(repairInput('t', schema, {}, '{"count":"10","all":"TRUE","tags":"[\\"a\\"]","note":null}')).toEqual({ input: { count: 10, all: true, tags: ['a'] }, notes: [] });
    expect(repairInput('t', schema, {}, { count: 1, tags: 'b' })).toEqual({ input: { count: 1, tags: ['b'] }, notes: [] });
  });

  it('leaves what is not certain to the schema: text that is no number, a number for text', () => {
    const schema = z.object({ count: z.number(), name: z.string() });
    expect(repairInput('t', schema, {}, { count: 'ten', name: 5 })).toEqual({ input: { count: 'ten', name: 5 }, notes: [] });
  });

  it('unwraps arguments sent inside an `arguments` object only when everything inside is a field', () => {
    expect(repairInput('read_file', readFile, {}, { arguments: { path: 'a.ts' } })).toEqual({ input: { path: 'a.ts' }, notes: [] });
    const kept = repairInput('read_file', readFile, {}, { arguments: { path: 'a.ts', colour: 'red' } });
    expect(kept.refusal).toContain('You sent `arguments`, which is not a field of read_file');
  });

  it('refuses an unknown key, naming the field it probably meant, the fields and what is missing', () => {
    expect(repairInput('read_file', readFile, aliases, { pth: 'a.ts' }).refusal).toBe(
      'You sent `pth`, which is not a field of read_file (did you mean `path`?). Nothing was run. read_file takes `path`, `start_line` (optional), `end_line` (optional); `path` is missing. Call read_file again with those fields.',
    );
  });

  it('refuses a name the alias table marks as uncertain, with its text', () => {
    expect(repairInput('read_file', readFile, aliases, { path: 'a', timeout: 5 }).refusal).toMatch(/^You sent `timeout`, whose unit is not certain: send `timeout_seconds` \(seconds\)\. Nothing was run\./);
  });

  it('refuses an alias and its field sent with different values, and takes them when they agree', () => {
    expect(repairInput('read_file', readFile, aliases, { path: 'a', file_path: 'b' }).refusal).toContain('You sent both `file_path` and `path`, which mean the same; send only `path`');
    expect(repairInput('read_file', readFile, aliases, { path: 'a', file_path: 'a' })).toEqual({ input: { path: 'a' }, notes: ['read `file_path` as `path`'] });
  });

  it('converts units exactly, and refuses a value it cannot convert', () => {
    const shell = z.object({ command: z.string(), timeout_seconds: z.number().optional() });
    const table: InputAliases = { timeout_ms: millisecondsToSeconds('timeout_seconds') };
    expect(repairInput('run_shell', shell, table, { command: 'ls', timeout_ms: '1500' })).toEqual({
      input: { command: 'ls', timeout_seconds: 1.5 },
      notes: ['read `timeout_ms` "1500" as `timeout_seconds` 1.5'],
    });
    expect(repairInput('run_shell', shell, table, { command: 'ls', timeout_ms: 'soon' }).refusal).toContain(
      'You sent `timeout_ms`, which stands for `timeout_seconds` but could not be read as it: send a number of milliseconds, such as 30000',
    );
  });

  it('ignores annotation keys without a word', () => {
    expect(repairInput('read_file', readFile, {}, { path: 'a', explanation: 'to see it' })).toEqual({ input: { path: 'a' }, notes: [] });
  });

  it('repairs nested objects with nested aliases, and refuses unknown nested keys', () => {
    const tasks = z.object({ tasks: z.array(z.object({ subject: z.string(), description: z.string().optional() })) });
    const table: InputAliases = { 'tasks[].title': 'subject' };
    expect(repairInput('task_add', tasks, table, { tasks: [{ title: 'Write' }] })).toEqual({ input: { tasks: [{ subject: 'Write' }] }, notes: ['read `title` as `subject`'] });
    expect(repairInput('task_add', tasks, table, { tasks: [{ subject: 'Write', priority: 'high' }] }).refusal).toContain('You sent `priority` in `tasks[]`, which is not a field of task_add');
  });

  it('keeps the keys of an open object', () => {
    const open = z.object({ env: z.object({}).catchall(z.string()) });
    expect(repairInput('t', open, {}, { env: { A: '1' } })).toEqual({ input: { env: { A: '1' } }, notes: [] });
  });
});
