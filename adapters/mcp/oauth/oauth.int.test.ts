import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFileTools, createShellTools, createTaskListTools, Workspace, type AuditRecord, type ToolCollection } from '../../../src/index.js';
import { listenMcpHttp, type McpHttpServer } from '../http-listen.js';
import { createMcpHttpHandler } from '../http.js';
import { startHttpCli } from '../test-support/http-cli.js';
import { ALL_SCOPES, startAuthorizationServer, type LocalAuthorizationServer } from './test-support/authorization-server.js';

let authorization: LocalAuthorizationServer;
let server: McpHttpServer;
let resource: string;
let base: string;
let collections: ToolCollection[];
const clients: Client[] = [];
const audits: AuditRecord[] = [];

/** A port nobody listens on now, so the resource URI can be known before the server starts. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  authorization = await startAuthorizationServer();
  base = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-oauth-'));
  const workspace = new Workspace(base);
  collections = [createFileTools({ workspace }), createShellTools({ workspace }), createTaskListTools()];
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  // No clock tolerance, so a token that lives three seconds is expired five seconds later.
  server = await listenMcpHttp(collections, { port, mode: 'auto', oauth: { issuer: authorization.issuer, resource, clockToleranceSeconds: 0 }, onAudit: (record) => void audits.push(record) });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await server?.close();
  await authorization?.close();
  await rm(base, { recursive: true, force: true });
});

const metadataUrl = () => new URL('/.well-known/oauth-protected-resource/mcp', resource).href;
const text = (result: any): string => result.content.map((part: { text?: string }) => part.text ?? '').join('');
const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const call = (name: string, args: object) => JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name, arguments: args } });

function post(body: string, headers: Record<string, string> = {}) {
  return fetch(resource, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': LATEST_PROTOCOL_VERSION, ...headers },
    body,
  });
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** An SDK client sending a fixed access token. */
async function connectWith(token: string) {
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(resource), { requestInit: { headers: bearer(token) } });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

describe('the MCP endpoint as an OAuth resource server', () => {
  it('serves its Protected Resource Metadata at the path-suffixed and the bare well-known address', async () => {
    for (const url of [metadataUrl(), new URL('/.well-known/oauth-protected-resource', resource).href]) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({
        resource,
        authorization_servers: [authorization.issuer],
        scopes_supported: ['toolbelt:read', 'toolbelt:write', 'toolbelt:shell'],
        bearer_methods_supported: ['header'],
      });
    }
    expect((await fetch(new URL('/.well-known/other', resource))).status).toBe(404);
  });

  it('answers a request without a token with 401 naming the metadata, and runs nothing', async () => {
    const response = await post(initialize);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl()}", scope="toolbelt:read toolbelt:write toolbelt:shell"`);
    expect(((await response.json()) as any).error.message).toBe(
      `This server needs an OAuth access token from ${authorization.issuer} for ${resource}: send \`Authorization: Bearer <token>\`. Its metadata, at ${metadataUrl()}, says where to get one.`,
    );
    expect(server.handler.sessionCount).toBe(0);
  });

  it('lets the SDK client discover the authorization server from the 401, get a token and work', async () => {
    const authProvider = new ClientCredentialsProvider({ clientId: 'alice', clientSecret: 'alicealice', scope: ALL_SCOPES, expectedIssuer: authorization.issuer });
    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider }));
    clients.push(client);
    const created = await client.callTool({ name: 'create_file', arguments: { path: 'discovered.txt', content: 'hello\n' } });
    expect(created.isError).toBeFalsy();
    expect(text(await client.callTool({ name: 'read_file', arguments: { path: 'discovered.txt' } }))).toContain('hello');
    expect(authProvider.tokens()?.access_token).toMatch(/^ey/);
  });

  it('refuses an expired token, also in a session it started', async () => {
    const token = await authorization.token('brief', { resource, scope: ALL_SCOPES });
    const started = await post(initialize, bearer(token));
    expect(started.status).toBe(200);
    const session = started.headers.get('mcp-session-id')!;
    await started.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const response = await post(call('task_get', {}), { ...bearer(token), 'mcp-session-id': session });
    expect(response.status).toBe(401);
    const description = 'The access token has expired; get a new one from the authorization server.';
    expect(response.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", error_description="${description}", resource_metadata="${metadataUrl()}", scope="toolbelt:read toolbelt:write toolbelt:shell"`);
    expect(((await response.json()) as any).error.message).toBe(description);
  });

  it('refuses a token issued for another server (its audience), and one whose signature was tampered with', async () => {
    const other = await authorization.token('alice', { resource: 'http://127.0.0.1:9/other', scope: ALL_SCOPES });
    const response = await post(initialize, bearer(other));
    expect(response.status).toBe(401);
    expect(((await response.json()) as any).error.message).toBe(`The access token is not for this server: its audience must include \`${resource}\`. Request the token with resource=${resource}.`);
    const good = await authorization.token('alice', { resource, scope: ALL_SCOPES });
    const [header, payload] = good.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: 'mallory' })).toString('base64url')}.${good.split('.')[2]}`;
    const tampered = await post(initialize, bearer(forged));
    expect(tampered.status).toBe(401);
    expect(((await tampered.json()) as any).error.message).toBe(`The access token's signature cannot be verified with the keys of \`${authorization.issuer}\`.`);
    expect(((await (await post(initialize, bearer('not-a-jwt'))).json()) as any).error.message).toBe(
      'The access token is not a signed JWT, and this server accepts only JWT access tokens (opaque tokens need the `oauth.introspection` option).',
    );
  });

  it('lets a token with only toolbelt:read read but not write or run commands: 403 insufficient_scope', async () => {
    const token = await authorization.token('alice', { resource, scope: 'toolbelt:read' });
    const { client, transport } = await connectWith(token);
    // Every tool is listed: a refused call names the scope to ask for (step-up authorization).
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['read_file', 'write_file', 'run_shell']));
    expect(text(await client.listTools().then(() => client.callTool({ name: 'list_directory', arguments: { path: '.' } })))).not.toContain('Error');
    await expect(client.callTool({ name: 'write_file', arguments: { path: 'refused.txt', content: 'no' } })).rejects.toMatchObject({
      code: 403,
      message: expect.stringContaining('`write_file` needs the `toolbelt:write` scope, which this access token was not granted, so it was not run.'),
    });
    expect(existsSync(path.join(base, 'refused.txt'))).toBe(false);

    const refused = await post(call('write_file', { path: 'refused.txt', content: 'no' }), { ...bearer(token), 'mcp-session-id': transport.sessionId! });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="toolbelt:read toolbelt:write", resource_metadata="${metadataUrl()}", error_description="write_file needs the scope toolbelt:write, which the access token was not granted."`,
    );
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32000, message: '`write_file` needs the `toolbelt:write` scope, which this access token was not granted, so it was not run. Get a token with scope "toolbelt:read toolbelt:write" from the authorization server (the user may have to consent), or use only the tools the token allows.' },
    });
    const shell = await post(call('run_shell', { command: 'touch ran.txt' }), { ...bearer(token), 'mcp-session-id': transport.sessionId! });
    expect(shell.status).toBe(403);
    expect(shell.headers.get('www-authenticate')).toContain('scope="toolbelt:read toolbelt:shell"');
    expect(existsSync(path.join(base, 'ran.txt'))).toBe(false);
    expect(existsSync(path.join(base, 'refused.txt'))).toBe(false);
  });

  it('keeps each session to the subject that started it: another user gets 404 for it', async () => {
    const aliceToken = await authorization.token('alice', { resource, scope: ALL_SCOPES });
    const bobToken = await authorization.token('bob', { resource, scope: ALL_SCOPES });
    const alice = await connectWith(aliceToken);
    await alice.client.callTool({ name: 'task_add', arguments: { tasks: [{ content: 'Alice only' }] } });
    const id = alice.transport.sessionId!;

    const stolen = await post(call('task_get', {}), { ...bearer(bobToken), 'mcp-session-id': id });
    expect(stolen.status).toBe(404);
    expect(((await stolen.json()) as any).error.message).toBe(`There is no session \`${id}\` (it ended or expired); start a new one with initialize.`);
    const headers = { ...bearer(bobToken), 'mcp-session-id': id, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
    expect((await fetch(resource, { method: 'DELETE', headers })).status).toBe(404);
    expect((await fetch(resource, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' } })).status).toBe(404);

    const bob = await connectWith(bobToken);
    expect(text(await bob.client.callTool({ name: 'task_get', arguments: {} }))).not.toContain('Alice only');
    expect(text(await alice.client.callTool({ name: 'task_get', arguments: {} }))).toContain('Alice only');
  });

  it("writes the token's subject into the audit record of each call it makes", async () => {
    const alice = await connectWith(await authorization.token('alice', { resource, scope: ALL_SCOPES }));
    const created = await alice.client.callTool({ name: 'create_file', arguments: { path: 'audited-by-alice.txt', content: 'hi\n' } });
    expect(created.isError).toBeFalsy();
    const record = audits.find((entry) => entry.paths?.includes('audited-by-alice.txt'));
    expect(record).toMatchObject({ tool: 'create_file', subject: 'sub:alice', outcome: 'ok' });
  });

  it('answers 503, not 401, when the authorization server keys cannot be fetched', async () => {
    const handler = createMcpHttpHandler(collections, { oauth: { issuer: authorization.issuer, resource, jwksUri: `http://127.0.0.1:${await freePort()}/jwks` } });
    try {
      const token = await authorization.token('alice', { resource, scope: ALL_SCOPES });
      const response = await handler.handleRequest(new Request(resource, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json', host: new URL(resource).host }, body: initialize }));
      expect(response.status).toBe(503);
      expect(((await response.json()) as any).error.message).toMatch(/^The authorization server's keys could not be fetched \(.+\); try again shortly\.$/);
      // The metadata stays available from the handler alone (a Next.js route at /.well-known/…).
      expect((await handler.handleRequest(new Request(metadataUrl()))).status).toBe(200);
    } finally {
      await handler.close();
    }
  });
});

describe('opaque access tokens, through token introspection (RFC 7662)', () => {
  const opaque = () => `${resource}/opaque`;
  const send = async (handler: ReturnType<typeof createMcpHttpHandler>, body: string, headers: Record<string, string>) =>
    handler.handleRequest(new Request(opaque(), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': LATEST_PROTOCOL_VERSION, ...headers }, body }));

  it('accepts an active token for this resource, checks its scopes, and refuses one for another audience', async () => {
    const handler = createMcpHttpHandler(collections, { mode: 'auto', oauth: { issuer: authorization.issuer, resource: opaque(), introspection: { clientId: 'introspector', clientSecret: 'introspectorintrospector' } } });
    try {
      const token = await authorization.token('alice', { resource: opaque(), scope: 'toolbelt:read' });
      expect(token.split('.')).toHaveLength(1);
      const started = await send(handler, initialize, bearer(token));
      expect(started.status).toBe(200);
      const session = started.headers.get('mcp-session-id')!;
      await started.body?.cancel();
      const read = await send(handler, call('list_directory', { path: '.' }), { ...bearer(token), 'mcp-session-id': session });
      expect(read.status).toBe(200);
      expect(await read.text()).toContain('"result"');
      const write = await send(handler, call('write_file', { path: 'opaque.txt', content: 'no' }), { ...bearer(token), 'mcp-session-id': session });
      expect(write.status).toBe(403);
      expect(write.headers.get('www-authenticate')).toContain('error="insufficient_scope", scope="toolbelt:read toolbelt:write"');
      expect(existsSync(path.join(base, 'opaque.txt'))).toBe(false);
      // Another subject's opaque token does not reach Alice's session either.
      const bob = await authorization.token('bob', { resource: opaque(), scope: 'toolbelt:read' });
      expect((await send(handler, call('task_get', {}), { ...bearer(bob), 'mcp-session-id': session })).status).toBe(404);

      const elsewhere = await authorization.token('alice', { resource: 'http://127.0.0.1:9/other/opaque', scope: 'toolbelt:read' });
      const refused = await send(handler, initialize, bearer(elsewhere));
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as any).error.message).toBe(`The access token is not for this server: its audience must include \`${opaque()}\`. Request the token with resource=${opaque()}.`);
      const unknown = await send(handler, initialize, bearer('made-up-opaque-token'));
      expect(((await unknown.json()) as any).error.message).toBe('The access token is not active: the authorization server says it expired, was revoked or is unknown. Get a new one.');
    } finally {
      await handler.close();
    }
  });
});

describe('agent-toolbelt mcp --http --oauth-issuer URL --oauth-resource URL', () => {
  it('starts on a non-loopback address with OAuth and no token, and serves the metadata, the 401 and the tools', async () => {
    const port = await freePort();
    const cliResource = `http://127.0.0.1:${port}/mcp`;
    const cli = await startHttpCli(['--root', base, '--host', '0.0.0.0', '--port', String(port), '--oauth-issuer', authorization.issuer, '--oauth-resource', cliResource]);
    try {
      expect(cli.stderr()).toContain(`over Streamable HTTP at http://0.0.0.0:${port}/mcp, OAuth access tokens from ${authorization.issuer} required.`);
      const metadata = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', cliResource));
      expect(await metadata.json()).toMatchObject({ resource: cliResource, authorization_servers: [authorization.issuer] });
      const anonymous = await fetch(cliResource, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: initialize });
      expect(anonymous.status).toBe(401);
      const token = await authorization.token('bob', { resource: cliResource, scope: 'toolbelt:read' });
      const client = new Client({ name: 'oauth-cli-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(cliResource), { requestInit: { headers: bearer(token) } }));
      clients.push(client);
      expect((await client.callTool({ name: 'list_directory', arguments: { path: '.' } })).isError).toBeFalsy();
    } finally {
      await cli.stop();
    }
  });
});

describe('the oauth option', () => {
  it.each([
    [{ token: 'a-shared-token-0123456789', oauth: { issuer: 'https://auth.example.com', resource: 'https://tools.example.com/mcp' } }, 'Give either the `token` option (one shared token) or `oauth` (access tokens from an authorization server), not both.'],
    [{ oauth: { issuer: 'http://auth.example.com', resource: 'https://tools.example.com/mcp' } }, 'Expected the `oauth.issuer` option to be an absolute https URL without query or fragment (http only on loopback), such as `https://auth.example.com`, got `http://auth.example.com`.'],
    [{ oauth: { issuer: 'https://auth.example.com', resource: 'https://tools.example.com/mcp#x' } }, 'Expected the `oauth.resource` option to be an absolute https URL without query or fragment (http only on loopback), such as `https://tools.example.com/mcp`, got `https://tools.example.com/mcp#x`.'],
    [{ oauth: { issuer: 'https://auth.example.com', resource: 'https://tools.example.com/mcp', toolScopes: { run_shell: 'root' } } }, 'Expected `oauth.toolScopes.run_shell` to be one of read, write, shell, got `root`.'],
  ])('refuses %j, saying what to change', (options, message) => {
    expect(() => createMcpHttpHandler(collections, options as never)).toThrow(new TypeError(message));
  });
});
