import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LATEST_PROTOCOL_VERSION, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFileTools, createShellTools, createTaskListTools, defineTool, Workspace, type ToolCollection } from '../../src/index.js';
import { listenMcpHttp, type McpHttpServer, type McpListenOptions } from './http-listen.js';
import { createMcpHttpHandler } from './http.js';

const TOKEN = 'test-token-0123456789abcdef';
let base: string;
let workspace: Workspace;
const running: McpHttpServer[] = [];
const clients: Client[] = [];
const started: string[] = [];
const aborted: string[] = [];

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-http-'));
  workspace = new Workspace(base);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(running.splice(0).map((server) => server.close()));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const waiting: ToolCollection = {
  name: 'waiting',
  tools: [
    defineTool({
      name: 'wait', description: 'Waits until cancelled.', kind: 'read', input: z.object({ label: z.string() }),
      execute: ({ label }, { signal }) => {
        started.push(label);
        return new Promise<string>((resolve) => signal.addEventListener('abort', () => (aborted.push(label), resolve('cancelled')), { once: true }));
      },
    }),
  ],
};

async function serve(options: McpListenOptions = {}) {
  const collections = [createFileTools({ workspace }), createShellTools({ workspace }), createTaskListTools(), waiting];
  const server = await listenMcpHttp(collections, { background: ['run_shell'], mode: 'auto', ...options });
  running.push(server);
  return server;
}

async function connect(url: URL, options: { token?: string; elicit?: (params: any) => ElicitResult } = {}) {
  const client = new Client({ name: 'http-test', version: '1.0.0' }, options.elicit ? { capabilities: { elicitation: {} } } : {});
  if (options.elicit) client.setRequestHandler(ElicitRequestSchema, (request) => options.elicit!(request.params));
  const headers: Record<string, string> = options.token === undefined ? {} : { authorization: `Bearer ${options.token}` };
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

const text = (result: any): string => result.content.map((part: { text?: string }) => part.text ?? '').join('');

/** A raw JSON-RPC POST, as a client that is not the SDK's would send it. */
function post(url: URL, body: string, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': LATEST_PROTOCOL_VERSION, ...headers },
    body,
  });
}
const callBody = (name: string, args: object) => JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name, arguments: args } });

describe('Streamable HTTP', () => {
  it('lists and calls tools for the SDK client, on loopback by default', async () => {
    const server = await serve();
    expect(server.url.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { client } = await connect(server.url);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names.slice(0, 4)).toEqual(['list_directory', 'find_files', 'search_files', 'read_file']);
    expect(text(await client.callTool({ name: 'create_file', arguments: { path: 'made.txt', content: 'made\n' } }))).toMatch(/^Created `made.txt`/);
    expect(text(await client.callTool({ name: 'read_file', arguments: { path: 'made.txt' } }))).toContain('made');
  });

  it('asks through elicitation over HTTP', async () => {
    const server = await serve({ mode: 'ask' });
    const asked: string[] = [];
    const { client } = await connect(server.url, { elicit: (params) => (asked.push(params.message), { action: 'accept', content: { decision: 'deny', reason: 'not now' } }) });
    const result = await client.callTool({ name: 'run_shell', arguments: { command: 'touch denied.txt' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('The user said: not now');
    expect(asked).toEqual(['The agent wants to run run_shell:\nRun: touch denied.txt']);
    expect(existsSync(path.join(base, 'denied.txt'))).toBe(false);
  });

  it('cancels a call when the client aborts it', async () => {
    const server = await serve();
    const { client } = await connect(server.url);
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: { label: 'first' } }, undefined, { signal: controller.signal });
    await expect.poll(() => started).toContain('first');
    controller.abort();
    await expect(call).rejects.toThrow();
    await expect.poll(() => aborted).toContain('first');
  });

  it('keeps the task lists and jobs of two sessions apart', async () => {
    const server = await serve();
    const one = await connect(server.url);
    const two = await connect(server.url);
    await one.client.callTool({ name: 'task_add', arguments: { tasks: [{ subject: 'Only in one' }] } });
    await one.client.callTool({ name: 'run_shell', arguments: { command: 'sleep 5', run_in_background: true } });
    expect(text(await one.client.callTool({ name: 'task_get', arguments: {} }))).toContain('Only in one');
    expect(text(await two.client.callTool({ name: 'task_get', arguments: {} }))).not.toContain('Only in one');
    expect((await one.client.callTool({ name: 'job_list', arguments: {} })).structuredContent).toMatchObject({ jobs: [{ id: '1' }] });
    expect((await two.client.callTool({ name: 'job_list', arguments: {} })).structuredContent).toEqual({ jobs: [] });
    expect(server.handler.sessionCount).toBe(2);
    await one.transport.terminateSession();
    expect(server.handler.sessionCount).toBe(1);
  });

  it('refuses a missing or wrong token with 401 and runs nothing', async () => {
    const server = await serve({ token: TOKEN });
    await expect(connect(server.url)).rejects.toMatchObject({ code: 401 });
    await expect(connect(server.url, { token: 'wrong-token-0123456789' })).rejects.toMatchObject({ code: 401 });
    const { transport } = await connect(server.url, { token: TOKEN });
    const session = { 'mcp-session-id': transport.sessionId! };
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const response = await post(server.url, callBody('create_file', { path: 'sneaky.txt', content: 'x' }), { ...session, ...(authorization ? { authorization } : {}) });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="agent-toolbelt"');
      expect(((await response.json()) as any).error.message).toBe('This server needs its token: send `Authorization: Bearer <token>` with every request.');
    }
    expect(existsSync(path.join(base, 'sneaky.txt'))).toBe(false);
  });

  it('refuses a forged Origin or Host (DNS rebinding) with 403 and runs nothing', async () => {
    const server = await serve();
    const { transport } = await connect(server.url);
    const session = { 'mcp-session-id': transport.sessionId! };
    const forged = await post(server.url, callBody('create_file', { path: 'forged.txt', content: 'x' }), { ...session, origin: 'http://evil.example' });
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as any).error.message).toBe('Requests from the web origin `http://evil.example` are refused. Start the server with that origin allowed if it is yours.');
    const local = await post(server.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { ...session, origin: 'http://localhost:6274' });
    expect(local.status).toBe(200);
    const rebound = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(server.url, { method: 'POST', headers: { host: 'evil.example:80', 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...session } }, (response) => {
        response.resume();
        resolve(response.statusCode!);
      });
      request.on('error', reject);
      request.end(callBody('create_file', { path: 'rebound.txt', content: 'x' }));
    });
    expect(rebound).toBe(403);
    expect(existsSync(path.join(base, 'forged.txt'))).toBe(false);
    expect(existsSync(path.join(base, 'rebound.txt'))).toBe(false);
  });

  it('refuses a body over the limit with 413', async () => {
    const server = await serve({ maxBodyBytes: 10_000 });
    const { transport } = await connect(server.url);
    const response = await post(server.url, callBody('create_file', { path: 'big.txt', content: 'x'.repeat(20_000) }), { 'mcp-session-id': transport.sessionId! });
    expect(response.status).toBe(413);
    expect(((await response.json()) as any).error.message).toBe('The request body is larger than 10,000 bytes, the most this server accepts.');
    expect(existsSync(path.join(base, 'big.txt'))).toBe(false);
  });

  it('at maxSessions closes the session idle longest, refuses with 503 when all are busy, and answers unknown ids with 404', async () => {
    const server = await serve({ maxSessions: 1 });
    const first = await connect(server.url);
    const second = await connect(server.url);
    expect(server.handler.sessionCount).toBe(1);
    const gone = await post(server.url, callBody('task_get', {}), { 'mcp-session-id': first.transport.sessionId! });
    expect(gone.status).toBe(404);
    const goneBody = (await gone.json()) as any;
    expect(goneBody.error.message).toBe(`There is no session \`${first.transport.sessionId}\` (it ended or expired); start a new one with initialize.`);
    // An error answering a request that had an id carries that id.
    expect(goneBody.id).toBe(9);
    const sessionless = await post(server.url, callBody('task_get', {}));
    expect(sessionless.status).toBe(400);
    expect(((await sessionless.json()) as any).id).toBe(9);
    const busy = second.client.callTool({ name: 'wait', arguments: { label: 'busy' } }).catch(() => undefined);
    await expect.poll(() => started).toContain('busy');
    await expect(connect(server.url)).rejects.toMatchObject({
      code: 503,
      message: expect.stringContaining('This server keeps at most 1 session open, and each is busy with a call; try again when one has finished.'),
    });
    await second.client.close();
    await busy;
  });

  it('closes a session left idle and ends its background jobs', async () => {
    const server = await serve({ sessionIdleMs: 200 });
    const { client, transport } = await connect(server.url);
    const startedAt = Date.now();
    await client.callTool({ name: 'run_shell', arguments: { command: 'sleep 2 && touch late.txt', run_in_background: true } });
    await expect.poll(() => server.handler.sessionCount, { timeout: 1_500 }).toBe(0);
    const after = await post(server.url, callBody('job_list', {}), { 'mcp-session-id': transport.sessionId! });
    expect(after.status).toBe(404);
    // Past the moment the job would have written the file, had it not been ended.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, startedAt + 2_500 - Date.now())));
    expect(existsSync(path.join(base, 'late.txt'))).toBe(false);
  });

  it('answers web-standard requests without a server of its own, as in a Next.js route handler', async () => {
    const handler = createMcpHttpHandler([createTaskListTools()], { token: TOKEN });
    const client = new Client({ name: 'web-handler-test', version: '1.0.0' });
    // The SDK's transport takes a fetch; this one hands the Request straight to the handler.
    const transport = new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      fetch: (input, init) => handler.handleRequest(new Request(input, init)),
    });
    await client.connect(transport);
    clients.push(client);
    await client.callTool({ name: 'task_add', arguments: { tasks: [{ subject: 'From the route' }] } });
    expect((await client.callTool({ name: 'task_get', arguments: {} })).structuredContent).toMatchObject({ tasks: [{ subject: 'From the route' }] });
    expect(handler.sessionCount).toBe(1);
    await handler.close();
    expect(handler.sessionCount).toBe(0);
  });

  it('refuses to listen on an address other machines reach without a token', async () => {
    await expect(serve({ host: '0.0.0.0' })).rejects.toThrow(
      'Refusing to listen on `0.0.0.0` without a token: anyone who can reach that address could run the tools. Set a token (`--token-file FILE` or TOOLBELT_MCP_TOKEN) or OAuth (`--oauth-issuer URL --oauth-resource URL`), or listen on 127.0.0.1.',
    );
    const server = await serve({ host: '0.0.0.0', token: TOKEN });
    const { client } = await connect(new URL(server.url.href.replace('0.0.0.0', '127.0.0.1')), { token: TOKEN });
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
});
