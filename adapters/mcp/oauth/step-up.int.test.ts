import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ClientCredentialsProvider as V1ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileTools, Workspace } from '../../../src/index.js';
import { listenMcpHttp, type McpHttpServer } from '../http-listen.js';
import { startAuthorizationServer, type LocalAuthorizationServer } from './test-support/authorization-server.js';

// Step-up authorization end to end, as the MCP authorization specification describes it: the v2
// client, in both eras, holds a token with toolbelt:read only (as if the user had consented to reading alone), a
// write is answered 403 insufficient_scope naming the wider scope, the client gets a token with it
// from the authorization server (oidc-provider, client-credentials grant) and the same call,
// retried, succeeds. The client's transport does this on its own (`onInsufficientScope:
// 'reauthorize'`, its default); the user-facing consent of an authorization-code flow is not
// exercised here, only the grant.

let authorization: LocalAuthorizationServer;
let server: McpHttpServer;
let resource: string;
let base: string;

beforeAll(async () => {
  authorization = await startAuthorizationServer();
  base = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-step-up-'));
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  resource = `http://127.0.0.1:${port}/mcp`;
  const collections = [createFileTools({ workspace: new Workspace(base) })];
  server = await listenMcpHttp(collections, { port, mode: 'auto', oauth: { issuer: authorization.issuer, resource } });
});
afterAll(async () => {
  await server?.close();
  await authorization?.close();
  await rm(base, { recursive: true, force: true });
});

/** The token the authorization server grants `client` for `toolbelt:read` only, as a client stores it. */
const readOnlyTokens = async (client: string) => ({ access_token: await authorization.token(client, { resource, scope: 'toolbelt:read' }), token_type: 'Bearer', scope: 'toolbelt:read' });

/** A v2 client-credentials provider that starts with a token for `toolbelt:read` only. */
async function readOnlyProvider(client: 'alice' | 'reader') {
  const provider = new ClientCredentialsProvider({ clientId: client, clientSecret: `${client}${client}`, scope: 'toolbelt:read', expectedIssuer: authorization.issuer });
  provider.saveTokens(await readOnlyTokens(client));
  return provider;
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
type CallTool = (params: { name: string; arguments: Record<string, unknown> }) => Promise<any>;

/** Each client under test, connected with a read-only token and `fetch` for all its requests. */
const CLIENTS = {
  'the v2 client at 2026-07-28': async (fetch: Fetch) => {
    const authProvider = await readOnlyProvider('alice');
    const client = new Client({ name: 'step-up-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider, fetch }));
    expect(client.getProtocolEra()).toBe('modern');
    return { callTool: ((params) => client.callTool(params)) as CallTool, tokens: () => authProvider.tokens(), close: () => client.close() };
  },
  'the v2 client at 2025-11-25': async (fetch: Fetch) => {
    const authProvider = await readOnlyProvider('alice');
    const client = new Client({ name: 'step-up-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider, fetch }));
    expect(client.getProtocolEra()).toBe('legacy');
    return { callTool: ((params) => client.callTool(params)) as CallTool, tokens: () => authProvider.tokens(), close: () => client.close() };
  },
};

const text = (result: any): string => result.content.map((part: { text?: string }) => part.text ?? '').join('');

/** What went over the wire: the scope of each token request, and each MCP response with what the file held when it came. */
interface Exchange {
  readonly tokenScopes: string[];
  readonly responses: Array<{ status: number; wwwAuthenticate: string | null; fileThen: string }>;
}

describe.each(Object.keys(CLIENTS) as Array<keyof typeof CLIENTS>)('%s with a toolbelt:read token', (kind) => {
  it('is refused a write with 403 insufficient_scope, gets toolbelt:write from the authorization server, and the retried write succeeds', async () => {
    const file = path.join(base, `notes-${kind.replaceAll(' ', '-')}.txt`);
    await writeFile(file, 'before\n');
    const exchange: Exchange = { tokenScopes: [], responses: [] };
    const recording: Fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      if (url.pathname === '/token') exchange.tokenScopes.push(new URLSearchParams(String(init?.body)).get('scope') ?? '');
      const response = await fetch(input, init);
      if (url.href === resource && init?.method === 'POST') {
        exchange.responses.push({ status: response.status, wwwAuthenticate: response.headers.get('www-authenticate'), fileThen: readFileSync(file, 'utf8') });
      }
      return response;
    };
    const client = await CLIENTS[kind](recording);
    try {
      expect(exchange.responses.map((response) => response.status)).not.toContain(401);
      expect(text(await client.callTool({ name: 'read_file', arguments: { path: path.basename(file) } }))).toContain('before');
      const tokenBefore = client.tokens()!.access_token;

      // write_file needs the read above (read before write), so its success also shows the
      // conversation survived the new token: the same subject, the same conversation.
      const written = await client.callTool({ name: 'write_file', arguments: { path: path.basename(file), content: 'after\n' } });
      expect(written.isError, text(written)).toBeFalsy();
      expect(readFileSync(file, 'utf8')).toBe('after\n');

      // The refusal named the scope to ask for, and came before anything was written.
      const refusal = exchange.responses.find((response) => response.status === 403);
      expect(refusal).toEqual({
        status: 403,
        wwwAuthenticate: `Bearer error="insufficient_scope", scope="toolbelt:read toolbelt:write", resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', resource).href}", error_description="write_file needs the scope toolbelt:write, which the access token was not granted."`,
        fileThen: 'before\n',
      });
      expect(exchange.responses.filter((response) => response.status === 403)).toHaveLength(1);
      // The client asked for what it had and what the challenge named, and got a new token.
      expect(exchange.tokenScopes).toEqual(['toolbelt:read toolbelt:write']);
      expect(client.tokens()!.access_token).not.toBe(tokenBefore);
      expect(client.tokens()!.scope?.split(' ').sort()).toEqual(['toolbelt:read', 'toolbelt:write']);
    } finally {
      await client.close();
    }
  });
});

describe('a client the authorization server will not give the wider scope', () => {
  it('gets an error naming the refusal, and nothing is written', async () => {
    const file = path.join(base, 'kept.txt');
    await writeFile(file, 'kept\n');
    const client = new Client({ name: 'step-up-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider: await readOnlyProvider('reader') }));
    try {
      expect(text(await client.callTool({ name: 'read_file', arguments: { path: 'kept.txt' } }))).toContain('kept');
      await expect(client.callTool({ name: 'write_file', arguments: { path: 'kept.txt', content: 'changed\n' } })).rejects.toMatchObject({ code: 'invalid_scope', message: 'requested scope is not allowed' });
      expect(readFileSync(file, 'utf8')).toBe('kept\n');
    } finally {
      await client.close();
    }
  });
});

describe('the v1 client with a toolbelt:read token', () => {
  it("tries to step up but asks for its own configured scope again (client credentials), so it stops at the second 403, and nothing is written", async () => {
    const file = path.join(base, 'v1.txt');
    await writeFile(file, 'v1\n');
    const tokenScopes: string[] = [];
    const statuses: number[] = [];
    const recording: Fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      if (url.pathname === '/token') tokenScopes.push(new URLSearchParams(String(init?.body)).get('scope') ?? '');
      const response = await fetch(input, init);
      if (url.href === resource && init?.method === 'POST') statuses.push(response.status);
      return response;
    };
    const authProvider = new V1ClientCredentialsProvider({ clientId: 'alice', clientSecret: 'alicealice', scope: 'toolbelt:read', expectedIssuer: authorization.issuer });
    authProvider.saveTokens(await readOnlyTokens('alice'));
    const client = new V1Client({ name: 'step-up-test', version: '1.0.0' });
    await client.connect(new V1StreamableHTTPClientTransport(new URL(resource), { authProvider, fetch: recording }));
    try {
      await client.callTool({ name: 'read_file', arguments: { path: 'v1.txt' } });
      await expect(client.callTool({ name: 'write_file', arguments: { path: 'v1.txt', content: 'changed\n' } })).rejects.toThrow('Server returned 403 after trying upscoping');
      // @modelcontextprotocol/sdk 1.x sends clientMetadata.scope on a client-credentials token request, not the challenge's.
      expect(tokenScopes).toEqual(['toolbelt:read']);
      expect(statuses.filter((status) => status === 403)).toHaveLength(2);
      expect(readFileSync(file, 'utf8')).toBe('v1\n');
    } finally {
      await client.close();
    }
  });
});
