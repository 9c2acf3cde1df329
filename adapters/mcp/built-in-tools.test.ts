import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAskUserTools,
  createDateTimeTools,
  createFileTools,
  createGitHubTools,
  createImageTools,
  createReadOnlyFileTools,
  createScratchTools,
  createShellTools,
  createTaskListTools,
  Workspace,
  type ToolCollection,
} from '../../src/index.js';
import { createMcpServer } from './index.js';

// Every built-in collection, served the way a host would, listed by a real MCP client.

let base: string;
let workspace: Workspace;
const clients: Client[] = [];

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-built-in-'));
  await writeFile(path.join(base, 'hello.txt'), 'hello\n');
  workspace = new Workspace(base);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await rm(base, { recursive: true, force: true });
});

function everyCollection(): ToolCollection[] {
  return [
    createFileTools({ workspace }),
    createShellTools({ workspace }),
    createTaskListTools(),
    createDateTimeTools(),
    createAskUserTools(),
    createImageTools({ workspace, vision: { ask: async () => 'A red square.' } }),
    createScratchTools({ workspace }),
    createGitHubTools({ workspace }),
  ];
}

async function connect(collections: ToolCollection[], options: Parameters<typeof createMcpServer>[1] = {}) {
  const server = createMcpServer(collections, options);
  // With elicitation, so ask_user_question is listed too.
  const client = new Client({ name: 'built-in-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  clients.push(client);
  return client;
}

const hints = (readOnly: boolean, destructive: boolean, idempotent: boolean, openWorld: boolean) => ({
  readOnlyHint: readOnly,
  destructiveHint: destructive,
  idempotentHint: idempotent,
  openWorldHint: openWorld,
});
const READS = hints(true, false, true, false);

/** What each built-in tool does, as hints: read-only, destructive, idempotent, open world. */
const EXPECTED_HINTS: Record<string, ReturnType<typeof hints>> = {
  list_directory: READS,
  find_files: READS,
  search_files: READS,
  read_file: READS,
  create_file: hints(false, false, true, false), // never overwrites; a second call finds the file there
  write_file: hints(false, true, true, false),
  edit_file: hints(false, true, false, false),
  move_file: hints(false, false, true, false), // never over an existing path
  delete_file: hints(false, true, true, false),
  run_shell: hints(false, true, false, true),
  job_output: READS,
  job_stop: hints(false, true, true, false),
  job_list: READS,
  task_add: hints(false, false, false, false),
  task_update: hints(false, true, true, false),
  task_remove: hints(false, true, true, false),
  task_get: READS,
  get_date_time_after: READS,
  get_day_of_week: READS,
  get_days_between: READS,
  ask_user_question: READS,
  query_image: hints(true, false, true, true), // the images go to a vision model
  note_write: hints(false, true, true, false),
  note_read: READS,
  note_list: READS,
  log_append: hints(false, false, false, false),
  log_read: READS,
  gh_list_issues: hints(true, false, true, true),
  gh_view_issue: hints(true, false, true, true),
  gh_list_prs: hints(true, false, true, true),
  gh_view_pr: hints(true, false, true, true),
  gh_diff: hints(true, false, true, true),
  gh_create_pr: hints(false, false, false, true),
  gh_comment: hints(false, false, false, true),
};

let listed: Tool[];

describe('the built-in tools over MCP', () => {
  beforeAll(async () => {
    const client = await connect(everyCollection(), { background: ['run_shell'] });
    listed = (await client.listTools()).tools;
  });

  it('lists every built-in tool, in the order of the collections', () => {
    expect(listed.map((tool) => tool.name)).toEqual([
      'list_directory', 'find_files', 'search_files', 'read_file', 'create_file', 'write_file', 'edit_file', 'move_file', 'delete_file',
      'run_shell', 'task_add', 'task_update', 'task_remove', 'task_get', 'get_date_time_after', 'get_day_of_week', 'get_days_between',
      'ask_user_question', 'query_image', 'note_write', 'note_read', 'note_list', 'log_append', 'log_read',
      'gh_list_issues', 'gh_view_issue', 'gh_list_prs', 'gh_view_pr', 'gh_diff', 'gh_create_pr', 'gh_comment',
      'job_output', 'job_stop', 'job_list',
    ]);
  });

  it.each(Object.entries(EXPECTED_HINTS))('states every hint of %s from what it does', (name, expected) => {
    expect(listed.find((tool) => tool.name === name)?.annotations).toEqual(expected);
  });

  it('gives the read-only file tools the same hints', async () => {
    const client = await connect([createReadOnlyFileTools({ workspace })]);
    const tools = (await client.listTools()).tools;
    expect(tools.map((tool) => tool.name)).toEqual(['list_directory', 'find_files', 'search_files', 'read_file']);
    for (const tool of tools) expect(tool.annotations).toEqual(READS);
  });

  it('sends input and output schemas that JSON Schema 2020-12 in strict mode compiles', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    let outputs = 0;
    for (const tool of listed) {
      expect(tool.inputSchema, tool.name).not.toHaveProperty('$schema');
      expect(() => ajv.compile(tool.inputSchema), `${tool.name} inputSchema`).not.toThrow();
      if (tool.outputSchema === undefined) continue;
      outputs += 1;
      expect(tool.outputSchema, tool.name).not.toHaveProperty('$schema');
      expect(() => ajv.compile(tool.outputSchema!), `${tool.name} outputSchema`).not.toThrow();
    }
    expect(outputs).toBeGreaterThanOrEqual(20);
  });

  it('writes nullable fields as anyOf, never as a type array (run_shell exitCode and signal included)', () => {
    const typeArrays: string[] = [];
    const visit = (node: unknown, where: string): void => {
      if (node === null || typeof node !== 'object') return;
      if (Array.isArray((node as { type?: unknown }).type)) typeArrays.push(where);
      for (const [key, value] of Object.entries(node)) visit(value, `${where}.${key}`);
    };
    for (const tool of listed) {
      visit(tool.inputSchema, `${tool.name}.inputSchema`);
      visit(tool.outputSchema, `${tool.name}.outputSchema`);
    }
    expect(typeArrays).toEqual([]);
    const shell = listed.find((tool) => tool.name === 'run_shell')!;
    expect((shell.outputSchema!.properties as Record<string, unknown>).exitCode).toEqual({ anyOf: [{ type: 'number' }, { type: 'null' }] });
  });
});

describe('structured results of the built-in tools', () => {
  it('match the listed output schema on every successful call (the client checks each one)', async () => {
    const client = await connect(everyCollection(), { background: ['run_shell'], mode: 'auto' });
    const ajv = new Ajv2020({ strict: true });
    const schemas = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool.outputSchema]));
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      if (schemas.get(name) !== undefined) {
        expect(ajv.validate(schemas.get(name)!, result.structuredContent), `${name}: ${ajv.errorsText()}`).toBe(true);
      }
      return result.structuredContent as Record<string, any> | undefined;
    };
    expect(await call('list_directory', {})).toMatchObject({ path: '.', entries: [{ name: 'hello.txt', type: 'file', size: 6 }], omitted: 0 });
    expect(await call('find_files', { pattern: '*.txt' })).toMatchObject({ total: 1, files: [{ path: 'hello.txt' }] });
    await call('search_files', { pattern: 'hello' });
    expect(await call('read_file', { path: 'hello.txt' })).toEqual({ path: 'hello.txt', startLine: 1, endLine: 1, totalLines: 1 });
    expect(await call('create_file', { path: 'new.txt', content: 'one\n' })).toEqual({ path: 'new.txt' });
    await call('read_file', { path: 'new.txt' });
    expect(await call('write_file', { path: 'new.txt', content: 'one\n' })).toEqual({ path: 'new.txt', unchanged: true });
    expect(await call('write_file', { path: 'new.txt', content: 'two\n' })).toMatchObject({ path: 'new.txt', diff: expect.stringContaining('+two') });
    expect(await call('edit_file', { path: 'new.txt', old_string: 'two', new_string: 'three' })).toMatchObject({ path: 'new.txt', replacements: 1 });
    expect(await call('move_file', { source: 'new.txt', destination: 'moved.txt' })).toEqual({ source: 'new.txt', destination: 'moved.txt' });
    expect(await call('delete_file', { path: 'moved.txt' })).toEqual({ path: 'moved.txt' });
    expect(await call('run_shell', { command: 'echo hi' })).toMatchObject({ status: 'exited', exitCode: 0, output: 'hi' });
    expect(await call('run_shell', { command: 'sleep 5', run_in_background: true })).toEqual({ jobId: '1' });
    expect(await call('job_list', {})).toMatchObject({ jobs: [{ id: '1', tool: 'run_shell', status: expect.stringMatching(/^running/) }] });
    await call('job_output', { job_id: '1' });
    expect(await call('job_stop', { job_id: '1' })).toMatchObject({ id: '1' });
    expect(await call('task_add', { tasks: [{ subject: 'Write the docs' }] })).toEqual({ tasks: [{ id: '1', subject: 'Write the docs', status: 'pending', blockedBy: [] }] });
    await call('task_update', { updates: [{ id: '1', status: 'in_progress' }] });
    expect(await call('task_get', {})).toMatchObject({ tasks: [{ id: '1', status: 'in_progress' }] });
    expect(await call('task_remove', { ids: ['1'] })).toEqual({ tasks: [] });
    expect(await call('note_write', { name: 'plan', content: '# Plan\n' })).toMatchObject({ name: 'plan', created: true });
    expect(await call('note_read', { name: 'plan' })).toMatchObject({ name: 'plan', characters: 7 });
    expect(await call('note_list', {})).toMatchObject({ notes: [{ name: 'plan', firstLine: '# Plan' }] });
    expect(await call('log_append', { entry: 'Started.' })).toMatchObject({ entry: 1 });
    expect(await call('log_read', {})).toMatchObject({ total: 1 });
    await call('get_day_of_week', { date: '2026-12-01' });
  });
});
