import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectTools,
  createAskUserTools,
  createDateTimeTools,
  createFileTools,
  createGitHubTools,
  createScratchTools,
  createShellTools,
  createSkillTools,
  createTaskListTools,
  withBackground,
  Workspace,
  type ToolCollection,
} from '../../../src/index.js';
import { bearerChallenge } from './metadata.js';
import { createOAuthResourceServer } from './resource-server.js';
import { defaultScopeNeed, scopeShortfall } from './scopes.js';

let base: string;
let collections: ToolCollection[];

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-scopes-'));
  const workspace = new Workspace(base);
  collections = withBackground(
    [
      createFileTools({ workspace }),
      createShellTools({ workspace }),
      createTaskListTools(),
      createScratchTools({ workspace }),
      createDateTimeTools(),
      createAskUserTools(),
      createGitHubTools({ workspace }),
      await createSkillTools({ workspace }),
    ],
    { tools: ['run_shell'] },
  );
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('the scope each built-in tool needs', () => {
  it('is the one the README table gives', async () => {
    const needs: Record<string, string[]> = { read: [], write: [], shell: [] };
    for (const tool of collectTools(collections).values()) needs[defaultScopeNeed(tool)]!.push(tool.name);
    const readme = (await import('node:fs')).readFileSync(new URL('./README.md', import.meta.url), 'utf8');
    const row = (scope: string) => readme.split('\n').find((line) => line.startsWith(`| \`toolbelt:${scope}\` |`))!.split(' | ')[1]!;
    const named = (cell: string) => [...cell.matchAll(/`(\w+)`/g)].map((match) => match[1]!);
    const gitHubReads = needs.read!.filter((name) => name.startsWith('gh_'));
    const dateTools = needs.read!.filter((name) => name.startsWith('get_'));
    expect(gitHubReads.length).toBeGreaterThan(2);
    expect(dateTools).toEqual(['get_date_time_after', 'get_day_of_week', 'get_days_between']);
    expect(named(row('read')).sort()).toEqual(needs.read!.filter((name) => !gitHubReads.includes(name) && !dateTools.includes(name)).sort());
    expect(row('read')).toContain('the date tools');
    expect(row('read')).toContain('the GitHub reads');
    expect(named(row('write')).sort()).toEqual([...needs.write!].sort());
    expect(named(row('shell'))).toEqual(needs.shell);
  });
});

describe('scopeShortfall', () => {
  const table = new Map([['read_file', 'toolbelt:read'], ['write_file', 'toolbelt:write'], ['run_shell', 'toolbelt:shell']]);
  const callOf = (id: number, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });

  it('finds the first call in a batch that a scope is missing for, with every scope missing', () => {
    const batch = [callOf(1, 'read_file'), callOf(2, 'write_file'), callOf(3, 'run_shell')];
    expect(scopeShortfall(batch, table, new Set(['toolbelt:read']))).toEqual({ tool: 'write_file', id: 2, missing: ['toolbelt:write', 'toolbelt:shell'] });
    expect(scopeShortfall(batch, table, new Set(['toolbelt:read', 'toolbelt:write', 'toolbelt:shell']))).toBeUndefined();
  });

  it('leaves other methods and tools the server does not have to the server', () => {
    const none = new Set<string>();
    expect(scopeShortfall({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, table, none)).toBeUndefined();
    expect(scopeShortfall(callOf(1, 'no_such_tool'), table, none)).toBeUndefined();
    expect(scopeShortfall(null, table, none)).toBeUndefined();
  });
});

describe('the 403 insufficient_scope challenge', () => {
  it("names this server's scopes the token has and the one it lacks, never another resource's (offline_access, openid)", () => {
    const oauth = createOAuthResourceServer({ issuer: 'https://auth.example.com', resource: 'https://tools.example.com/mcp' }, collections);
    const principal = { subject: 'alice', clientId: undefined, scopes: new Set(['openid', 'offline_access', 'toolbelt:shell', 'toolbelt:read']) };
    const refusal = oauth.authorize(principal, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'write_file', arguments: {} } })!;
    expect(refusal.status).toBe(403);
    expect(refusal.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", scope="toolbelt:read toolbelt:write toolbelt:shell", resource_metadata="https://tools.example.com/.well-known/oauth-protected-resource/mcp", error_description="write_file needs the scope toolbelt:write, which the access token was not granted."',
    );
    expect(oauth.authorize(principal, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'run_shell', arguments: {} } })).toBeUndefined();
  });
});

describe('bearerChallenge', () => {
  it('quotes each parameter and replaces what a quoted value may not hold', () => {
    expect(bearerChallenge({ error: 'invalid_token', error_description: 'say "hi" \\ now', scope: undefined })).toBe(`Bearer error="invalid_token", error_description="say 'hi' ' now"`);
  });
});
