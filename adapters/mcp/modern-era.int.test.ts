import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport, withInputRequired, type ElicitResult, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { denialText } from '../../src/index.js';
import { startHttpCli, type HttpCli } from './test-support/http-cli.js';

// The v2 client pinned to the 2026-07-28 revision, against `agent-toolbelt mcp` over stdio and
// over --http: no initialize, each request with its own `_meta`, questions as input_required.

const repository = fileURLToPath(new URL('../..', import.meta.url));
const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
const packageVersion = (JSON.parse(readFileSync(path.join(repository, 'package.json'), 'utf8')) as { version: string }).version;
const MODERN = '2026-07-28';

const text = (result: any): string => result.content.map((part: { text?: string }) => part.text ?? '').join('');
/** A raw `tools/call` that hands an input_required result back instead of answering it. */
const callManually = (client: Client, params: Record<string, unknown>) =>
  client.request({ method: 'tools/call', params }, withInputRequired(z.looseObject({})), { allowInputRequired: true }) as Promise<any>;

let base: string;
let root: string;
beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-modern-'));
  root = path.join(base, 'project');
  await mkdir(path.join(root, 'src'), { recursive: true });
  await writeFile(path.join(root, 'src', 'hello.txt'), 'hello from the workspace\n');
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe.each(['stdio', 'http'] as const)('a 2026-07-28 client over %s', (kind) => {
  let server: HttpCli | undefined;
  const answers: ElicitResult[] = [];
  const forms: Array<{ message: string }> = [];
  let auto: Client;
  let manual: Client;

  const transport = (): Transport =>
    kind === 'stdio'
      ? new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', cli, 'mcp', '--root', root], cwd: repository, stderr: 'pipe' })
      : new StreamableHTTPClientTransport(server!.url);

  beforeAll(async () => {
    if (kind === 'http') server = await startHttpCli(['--root', root], { timeoutMs: 60_000 });
    auto = new Client({ name: 'modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } }, capabilities: { elicitation: { form: {} } } });
    auto.setRequestHandler('elicitation/create', async (request) => {
      forms.push(request.params as { message: string });
      return answers.shift() ?? { action: 'cancel' };
    });
    manual = new Client(
      { name: 'modern-manual', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: MODERN } }, capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } },
    );
    await auto.connect(transport());
    await manual.connect(transport());
  }, 90_000);
  afterAll(async () => {
    await auto?.close();
    await manual?.close();
    await server?.stop();
  });

  it('negotiates 2026-07-28 through server/discover, lists the tools and calls one, with the package version as serverInfo', async () => {
    expect(auto.getProtocolEra()).toBe('modern');
    expect(auto.getServerVersion()).toMatchObject({ name: 'agent-toolbelt', version: packageVersion });
    const { tools } = await auto.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['read_file', 'write_file', 'run_shell', 'task_add', 'ask_user_question']));
    expect(tools.find((tool) => tool.name === 'write_file')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    const read = await auto.callTool({ name: 'read_file', arguments: { path: 'src/hello.txt' } });
    expect(read.isError).toBeFalsy();
    expect(text(read)).toContain('hello from the workspace');
    expect(read.structuredContent).toMatchObject({ path: 'src/hello.txt' });
    const missing = await auto.callTool({ name: 'read_file', arguments: { path: '../outside.txt' } });
    expect(missing.isError).toBe(true);
  }, 60_000);

  it('asks for an approval through input_required: approved, the command runs', async () => {
    answers.push({ action: 'accept', content: { decision: 'approve' } });
    const approved = await auto.callTool({ name: 'run_shell', arguments: { command: `echo approved > approved-${kind}.txt` } });
    expect(approved.isError).toBeFalsy();
    expect(forms.at(-1)!.message).toBe(`The agent wants to run run_shell:\nRun: echo approved > approved-${kind}.txt`);
    expect(await readFile(path.join(root, `approved-${kind}.txt`), 'utf8')).toBe('approved\n');
  }, 60_000);

  it('declined, nothing runs and the model reads the denial with the reason', async () => {
    answers.push({ action: 'accept', content: { decision: 'deny', reason: 'not now' } });
    const denied = await auto.callTool({ name: 'run_shell', arguments: { command: `echo denied > denied-${kind}.txt` } });
    expect(denied).toMatchObject({ isError: true, content: [{ type: 'text', text: denialText('run_shell', 'not now') }] });
    expect(existsSync(path.join(root, `denied-${kind}.txt`))).toBe(false);
  }, 60_000);

  it('puts ask_user_question to the user as a form and returns the answer', async () => {
    answers.push({ action: 'accept', content: { q1: 'Postgres' } });
    const asked = await auto.callTool({
      name: 'ask_user_question',
      arguments: { questions: [{ question: 'Which database?', header: 'Database', options: [{ label: 'Postgres' }, { label: 'Redis' }] }] },
    });
    expect(asked.isError).toBeFalsy();
    expect(text(asked)).toContain('Which database? → Postgres');
    expect(asked.structuredContent).toMatchObject({ answers: [{ selected: ['Postgres'] }] });
  }, 60_000);

  it('refuses a forged requestState, one moved to another call and one replayed, running nothing for them', async () => {
    const target = `forged-${kind}.txt`;
    const asked = await callManually(manual, { name: 'run_shell', arguments: { command: `echo once >> ${target}` } });
    expect(asked).toMatchObject({ resultType: 'input_required', inputRequests: { approval: { method: 'elicitation/create' } } });
    expect(existsSync(path.join(root, target))).toBe(false);
    const approve = { approval: { action: 'accept', content: { decision: 'approve' } } };
    const state: string = asked.requestState;
    const forged = `${state.slice(0, -4)}${state.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    await expect(callManually(manual, { name: 'run_shell', arguments: { command: `echo once >> ${target}` }, inputResponses: approve, requestState: forged })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Invalid or expired requestState'),
    });
    await expect(callManually(manual, { name: 'run_shell', arguments: { command: `echo other > moved-${kind}.txt` }, inputResponses: approve, requestState: state })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('issued for another call'),
    });
    expect(existsSync(path.join(root, `moved-${kind}.txt`))).toBe(false);
    expect(existsSync(path.join(root, target))).toBe(false);

    const ran = await callManually(manual, { name: 'run_shell', arguments: { command: `echo once >> ${target}` }, inputResponses: approve, requestState: state });
    expect(ran.isError).toBeFalsy();
    await expect(callManually(manual, { name: 'run_shell', arguments: { command: `echo once >> ${target}` }, inputResponses: approve, requestState: state })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('answered already'),
    });
    expect(await readFile(path.join(root, target), 'utf8')).toBe('once\n');
  }, 60_000);
});
