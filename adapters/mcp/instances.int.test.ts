import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport, type ElicitResult } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileTools, createShellTools, createTaskListTools, Workspace, type SessionStore } from '../../src/index.js';
import { openStore, type StoreConfig } from '../../test/stores/store-config.js';
import { POSTGRES_MISSING, REDIS_MISSING, startPostgres, startRedis } from '../../test/stores/servers.js';
import { listenMcpHttp, type McpHttpServer } from './http-listen.js';
import { startHttpCli, type HttpCli } from './test-support/http-cli.js';
import { startRoundRobin, type RoundRobin } from './test-support/round-robin.js';

// Several instances of the server behind a plain round-robin balancer (no stickiness), their
// conversations' sessions in one store: whichever instance answers, a conversation keeps its
// read snapshots, its task list and its "always" answers.

const STATE_KEY = 'instances-test-state-key-0123456789abcdef';
const CONVERSATION = 'agent-toolbelt/conversation';
const text = (result: any): string => result.content.map((part: { text?: string }) => part.text ?? '').join('');

let base: string;
beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-instances-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A project folder for one store's suite, with a file per conversation to read and edit. */
async function project(name: string, conversations: readonly string[]): Promise<string> {
  const root = path.join(base, name);
  await mkdir(path.join(root, 'notes'), { recursive: true });
  for (const conversation of conversations) await writeFile(path.join(root, 'notes', `${conversation}.txt`), `draft of ${conversation}\n`);
  return root;
}

/** A 2026-07-28 client whose requests name their conversation, answering forms from a queue. */
async function modernClient(url: URL, conversation: string) {
  const answers: ElicitResult[] = [];
  const forms: string[] = [];
  const client = new Client({ name: 'instances-modern', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', async (request) => (forms.push((request.params as { message: string }).message), answers.shift() ?? { action: 'cancel' }));
  await client.connect(new StreamableHTTPClientTransport(url));
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args, _meta: { [CONVERSATION]: conversation } });
  return { client, call, answers, forms };
}

/** A 2025-era client (the v1 SDK): its conversation is its MCP session. */
async function legacyClient(url: URL) {
  const client = new LegacyClient({ name: 'instances-legacy', version: '1.0.0' });
  await client.connect(new LegacyHttpTransport(url));
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
  return { client, call };
}

type Call = (name: string, args: Record<string, unknown>) => Promise<any>;

/** Reads on one instance and edits on the next, then keeps a task across instances. */
async function readEditAndTasks(call: Call, root: string, conversation: string): Promise<void> {
  const file = `notes/${conversation}.txt`;
  expect(text(await call('read_file', { path: file }))).toContain(`draft of ${conversation}`);
  const edited = await call('edit_file', { path: file, old_string: 'draft', new_string: 'final' });
  expect(edited.isError, text(edited)).toBeFalsy();
  expect(await readFile(path.join(root, file), 'utf8')).toBe(`final of ${conversation}\n`);
  expect((await call('task_add', { tasks: [{ subject: `ship ${conversation}` }] })).isError).toBeFalsy();
  expect(text(await call('task_get', {}))).toContain(`ship ${conversation}`);
}

/** An "always" answered on one instance lets the next such call run unasked on another. */
async function alwaysAcrossInstances(modern: Awaited<ReturnType<typeof modernClient>>, conversation: string): Promise<void> {
  modern.answers.push({ action: 'accept', content: { decision: 'always' } });
  // "Always" is remembered by the command's first words, so the same command runs unasked.
  const command = `echo always-${conversation}`;
  expect(text(await modern.call('run_shell', { command }))).toContain(`always-${conversation}`);
  expect(modern.forms).toHaveLength(1);
  for (let index = 0; index < 3; index += 1) {
    const again = await modern.call('run_shell', { command });
    expect(again.isError, text(again)).toBeFalsy();
  }
  expect(modern.forms).toHaveLength(1);
}

/** 20 clients, each its own conversation, making 200 calls between them: every one answered. */
async function manyClients(url: URL): Promise<void> {
  const clients = await Promise.all(Array.from({ length: 20 }, (_, index) => modernClient(url, `load-${index}`)));
  try {
    const outcomes = await Promise.all(
      clients.map(async ({ call }, index) => {
        const results = [];
        for (let round = 0; round < 5; round += 1) {
          results.push(await call('task_add', { tasks: [{ subject: `task ${index}.${round}` }] }));
          results.push(await call('task_get', {}));
        }
        return results;
      }),
    );
    const answered = outcomes.flat();
    expect(answered).toHaveLength(200);
    expect(answered.filter((result) => result.isError).map(text)).toEqual([]);
    outcomes.forEach((results, index) => expect(text(results.at(-1))).toContain(`task ${index}.4`));
  } finally {
    await Promise.all(clients.map(({ client }) => client.close()));
  }
}

describe('agent-toolbelt mcp --http --session-store file:DIR, two instances behind a round-robin balancer', () => {
  let root: string;
  const instances: HttpCli[] = [];
  let balancer: RoundRobin;

  beforeAll(async () => {
    root = await project('cli-file', ['modern', 'killed']);
    const store = `file:${path.join(base, 'cli-file-sessions')}`;
    const env = { TOOLBELT_MCP_STATE_KEY: STATE_KEY };
    instances.push(...(await Promise.all([0, 1].map(() => startHttpCli(['--root', root, '--session-store', store], { env, timeoutMs: 60_000 })))));
    balancer = await startRoundRobin(instances.map((instance) => instance.url));
  }, 90_000);
  afterAll(async () => {
    await balancer?.close();
    await Promise.all(instances.map((instance) => instance.stop()));
  });

  it('serves a modern conversation from both: read on one, edit on the other, its tasks and its "always" answers', async () => {
    const modern = await modernClient(balancer.url, 'modern');
    try {
      await readEditAndTasks(modern.call, root, 'modern');
      await alwaysAcrossInstances(modern, 'modern');
    } finally {
      await modern.client.close();
    }
    for (const count of balancer.served.values()) expect(count).toBeGreaterThan(3);
  }, 120_000);

  it('serves a legacy conversation (its MCP session) from both instances', async () => {
    const legacy = await legacyClient(balancer.url);
    try {
      await writeFile(path.join(root, 'notes', 'legacy.txt'), 'draft of legacy\n');
      await readEditAndTasks(legacy.call, root, 'legacy');
    } finally {
      await legacy.client.close();
    }
  }, 120_000);

  it('loses nothing when an instance is killed with SIGKILL between two calls', async () => {
    const modern = await modernClient(balancer.url, 'killed');
    const legacy = await legacyClient(balancer.url);
    try {
      await modern.call('task_add', { tasks: [{ subject: 'survive the kill' }] });
      await legacy.call('task_add', { tasks: [{ subject: 'legacy survives too' }] });
      instances[1]!.process.kill('SIGKILL');
      await new Promise((resolve) => instances[1]!.process.once('exit', resolve));
      expect(text(await modern.call('task_get', {}))).toContain('survive the kill');
      expect(text(await legacy.call('task_get', {}))).toContain('legacy survives too');
      expect(text(await modern.call('read_file', { path: 'notes/killed.txt' }))).toContain('draft of killed');
      expect((await modern.call('edit_file', { path: 'notes/killed.txt', old_string: 'draft', new_string: 'final' })).isError).toBeFalsy();
    } finally {
      await modern.client.close();
      await legacy.client.close();
    }
  }, 120_000);

  it('answers 20 clients making 200 calls', async () => {
    await manyClients(balancer.url);
  }, 180_000);
});

/** The same checks with the library's option, for a database store: two handlers, each with its own store client. */
function databaseSuite(name: string, missing: string | undefined, start: () => Promise<{ config: StoreConfig; stop: () => Promise<void> }>): void {
  describe.skipIf(missing !== undefined)(`createMcpHttpHandler with a ${name} sessionStore, two instances behind a round-robin balancer`, () => {
    let root: string;
    let database: { config: StoreConfig; stop: () => Promise<void> } | undefined;
    const stores: SessionStore[] = [];
    const servers: McpHttpServer[] = [];
    let balancer: RoundRobin;

    beforeAll(async () => {
      root = await project(`db-${name}`, ['modern', 'legacy']);
      database = await start();
      const workspace = new Workspace(root);
      for (let index = 0; index < 2; index += 1) {
        const sessionStore = openStore(database.config);
        stores.push(sessionStore);
        const collections = [createFileTools({ workspace }), createShellTools({ workspace }), createTaskListTools()];
        servers.push(await listenMcpHttp(collections, { sessionStore, requestStateKeys: [STATE_KEY] }));
      }
      balancer = await startRoundRobin(servers.map((server) => server.url));
    }, 90_000);
    afterAll(async () => {
      await balancer?.close();
      await Promise.all(servers.map((server) => server.close()));
      await Promise.all(stores.map((store) => store.close()));
      await database?.stop();
    });

    it('serves a modern and a legacy conversation from both: read on one, edit on the other, tasks and "always" answers', async () => {
      const modern = await modernClient(balancer.url, 'modern');
      const legacy = await legacyClient(balancer.url);
      try {
        await readEditAndTasks(modern.call, root, 'modern');
        await alwaysAcrossInstances(modern, 'modern');
        await readEditAndTasks(legacy.call, root, 'legacy');
        // Two conversations, two task lists.
        expect(text(await legacy.call('task_get', {}))).not.toContain('ship modern');
      } finally {
        await modern.client.close();
        await legacy.client.close();
      }
      for (const count of balancer.served.values()) expect(count).toBeGreaterThan(3);
    }, 120_000);

    it('answers 20 clients making 200 calls', async () => {
      await manyClients(balancer.url);
    }, 180_000);
  });
}

databaseSuite('Postgres', POSTGRES_MISSING, async () => {
  const server = await startPostgres();
  return { config: { kind: 'postgres', connectionString: server.connectionString }, stop: () => server.destroy() };
});
databaseSuite('Redis', REDIS_MISSING, async () => {
  const server = await startRedis();
  return { config: { kind: 'redis', url: server.url }, stop: () => server.destroy() };
});
