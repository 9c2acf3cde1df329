import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { denialText } from '../../src/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttpCli, type HttpCli } from './test-support/http-cli.js';

// The CLI runs from source through tsx, so the suite needs no build on a clean clone.
const repository = fileURLToPath(new URL('../..', import.meta.url));
const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
const nodeArgs = ['--import', 'tsx', cli];

let base: string;
let root: string;
const clients: Client[] = [];

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-cli-'));
  root = path.join(base, 'project');
  await mkdir(path.join(root, 'src'), { recursive: true });
  await writeFile(path.join(root, 'src', 'hello.txt'), 'hello from the workspace\n');
  await writeFile(path.join(base, 'secret.txt'), 'top secret\n');
  await symlink(path.join(base, 'secret.txt'), path.join(root, 'escape.txt'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(clients.map((client) => client.close()));
  clients.length = 0;
});

async function start(flags: string[], elicit?: (params: any) => ElicitResult) {
  const transport = new StdioClientTransport({
    command: process.execPath, args: [...nodeArgs, 'mcp', '--root', root, ...flags], cwd: repository, stderr: 'pipe',
  });
  const client = new Client({ name: 'cli-test', version: '1.0.0' }, elicit ? { capabilities: { elicitation: {} } } : {});
  const elicited: any[] = [];
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => (elicited.push(request.params), elicit(request.params)));
  await client.connect(transport);
  clients.push(client);
  return { client, elicited };
}

const text = (result: any): string => result.content.map((part: { text?: string }) => part.text ?? '').join('');

describe('agent-toolbelt mcp over stdio', () => {
  it('lists the tools with hints, reads a file, and refuses paths out of the root with isError', async () => {
    const { client } = await start([]);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of ['list_directory', 'find_files', 'search_files', 'read_file', 'create_file', 'write_file', 'edit_file', 'move_file', 'delete_file', 'run_shell', 'note_write', 'log_read', 'task_add', 'get_days_between']) {
      expect(names).toContain(name);
    }
    expect(names).not.toContain('ask_user_question');
    expect(tools.find((tool) => tool.name === 'read_file')?.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(tools.find((tool) => tool.name === 'delete_file')?.annotations).toMatchObject({ destructiveHint: true });
    expect(tools.find((tool) => tool.name === 'run_shell')?.annotations).toMatchObject({ openWorldHint: true });

    const read = await client.callTool({ name: 'read_file', arguments: { path: 'src/hello.txt' } });
    expect(read.isError).toBeFalsy();
    expect(text(read)).toContain('hello from the workspace');

    const outside = await client.callTool({ name: 'read_file', arguments: { path: '../secret.txt' } });
    expect(outside.isError).toBe(true);
    expect(text(outside)).toBe('`../secret.txt` is outside the workspace. Use a path relative to the workspace root, such as `src/index.ts`.');
    const throughLink = await client.callTool({ name: 'read_file', arguments: { path: 'escape.txt' } });
    expect(throughLink.isError).toBe(true);
    expect(text(throughLink)).toBe('`escape.txt` leads outside the workspace through a symbolic link, so it cannot be used. Work with files inside the workspace.');
  });

  it('hides every writing tool and the shell in read-only mode', async () => {
    const { client } = await start(['--read-only']);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names.filter((name) => ['create_file', 'write_file', 'edit_file', 'move_file', 'delete_file', 'run_shell', 'note_write', 'log_append'].includes(name))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['list_directory', 'find_files', 'search_files', 'read_file', 'task_add', 'get_day_of_week']));
  });

  it('refuses a call needing approval when the client cannot ask, saying which flag allows it', async () => {
    const { client } = await start([]);
    const result = await client.callTool({ name: 'run_shell', arguments: { command: 'touch made.txt' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      "run_shell needs the user's approval, and this MCP client cannot ask for it (it does not support elicitation), so it was not run. Tell the user what you wanted to do. " +
        'To allow it, the user can restart the agent-toolbelt server with `--mode auto` (nothing asks), or use an MCP client that supports elicitation.',
    );
    expect(existsSync(path.join(root, 'made.txt'))).toBe(false);
  });

  it('asks before every change with --ask-for-changes, and says which flag lets it run', async () => {
    const { client } = await start(['--ask-for-changes']);
    const result = await client.callTool({ name: 'create_file', arguments: { path: 'asked.txt', content: 'x' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/so it was not run\. Tell the user what you wanted to do\. To allow it, the user can restart the agent-toolbelt server without `--ask-for-changes`, or use an MCP client that supports elicitation\.$/);
    expect(existsSync(path.join(root, 'asked.txt'))).toBe(false);
  });

  it('asks through elicitation when the client supports it: approve runs, deny does not', async () => {
    const answers: ElicitResult[] = [{ action: 'accept', content: { decision: 'approve' } }, { action: 'accept', content: { decision: 'deny', reason: 'enough' } }];
    const { client, elicited } = await start([], () => answers.shift()!);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('ask_user_question');
    const approved = await client.callTool({ name: 'run_shell', arguments: { command: 'echo approved > approved.txt' } });
    expect(approved.isError).toBeFalsy();
    expect(await readFile(path.join(root, 'approved.txt'), 'utf8')).toBe('approved\n');
    expect(elicited[0].message).toContain('echo approved > approved.txt');

    const denied = await client.callTool({ name: 'run_shell', arguments: { command: 'echo denied > denied.txt' } });
    expect(denied).toMatchObject({ isError: true, content: [{ type: 'text', text: denialText('run_shell', 'enough') }] });
    expect(existsSync(path.join(root, 'denied.txt'))).toBe(false);
  });

  it('runs without asking in --mode auto, within the --allow list, with background jobs on --background', async () => {
    const { client } = await start(['--mode', 'auto', '--allow', 'echo', '--background']);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['job_output', 'job_stop', 'job_list']));
    expect(Object.keys(tools.find((tool) => tool.name === 'run_shell')!.inputSchema.properties ?? {})).toContain('run_in_background');
    expect(text(await client.callTool({ name: 'run_shell', arguments: { command: 'echo hi' } }))).toContain('hi');
    const refused = await client.callTool({ name: 'run_shell', arguments: { command: 'touch nope.txt' } });
    expect(refused.isError).toBe(true);
    expect(existsSync(path.join(root, 'nope.txt'))).toBe(false);
  });
});

describe('agent-toolbelt mcp --http', () => {
  const servers: HttpCli[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
  });

  it('serves over Streamable HTTP on loopback, with the token from TOOLBELT_MCP_TOKEN', async () => {
    const token = 'cli-test-token-0123456789';
    const server = await startHttpCli(['--root', root], { env: { TOOLBELT_MCP_TOKEN: token } });
    servers.push(server);
    expect(server.url.hostname).toBe('127.0.0.1');
    expect(server.stderr()).toContain(', token required.');
    expect((await fetch(server.url, { method: 'POST', body: '{}' })).status).toBe(401);
    const client = new Client({ name: 'cli-http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(server.url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    expect(text(await client.callTool({ name: 'read_file', arguments: { path: 'src/hello.txt' } }))).toContain('hello from the workspace');
  });
});

describe('agent-toolbelt command line errors', () => {
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, [...nodeArgs, ...args], { cwd: repository }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  it('prints help with exit code 0', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: agent-toolbelt mcp --root DIR \[options\]/);
  });

  it('suggests the flag that was meant for a mistyped one, with exit code 2', async () => {
    expect(await run(['mcp', '--roots', root])).toEqual({
      code: 2, stdout: '', stderr: 'agent-toolbelt: Unknown flag `--roots`. Did you mean `--root`? Run `agent-toolbelt --help` for the flags.\n',
    });
  });

  it('exits 2 for a bad flag and 1 for a missing root folder, with the reason on stderr', async () => {
    expect(await run(['mcp', '--root', root, '--mode', 'fast'])).toEqual({
      code: 2, stdout: '', stderr: 'agent-toolbelt: Expected `--mode` to be one of ask, accept-edits, plan, auto, got `fast`.\n',
    });
    const missing = path.join(base, 'missing');
    expect(await run(['mcp', '--root', missing])).toEqual({
      code: 1, stdout: '', stderr: `agent-toolbelt: The workspace root \`${missing}\` does not exist. Create the folder or pass another one.\n`,
    });
  });
});
