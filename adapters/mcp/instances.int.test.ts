import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport, withInputRequired } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFileTools, createShellTools, createTaskListTools, Workspace, type ApprovalRequest, type SessionStore } from '../../src/index.js';
import { openStore, type StoreConfig } from '../../test/stores/store-config.js';
import { POSTGRES_MISSING, REDIS_MISSING, startPostgres, startRedis } from '../../test/stores/servers.js';
import { listenMcpHttp, type McpHttpServer } from './http-listen.js';
import { legacyClient, manyClients, modernAndLegacyAcrossInstances, survivesSigkill, text } from './test-support/conversation-checks.js';
import { startHttpCli, type HttpCli } from './test-support/http-cli.js';
import { startRoundRobin, type RoundRobin } from './test-support/round-robin.js';

// Several instances of the server behind a plain round-robin balancer (no stickiness), their
// conversations' sessions in one store: whichever instance answers, a conversation keeps its
// read snapshots, its task list and its "always" answers.

const STATE_KEY = 'instances-test-state-key-0123456789abcdef';
const repository = fileURLToPath(new URL('../..', import.meta.url));

let base: string;
beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-instances-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The conversations each suite's project has a file for. */
const CONVERSATIONS = ['modern', 'legacy', 'killed-modern', 'killed-legacy'];

/** Kills the instance at `url` with SIGKILL and waits for it to be gone. */
async function killInstance(instances: readonly HttpCli[], url: string): Promise<void> {
  const instance = instances.find((candidate) => candidate.url.href === url);
  if (instance === undefined) throw new Error(`No instance at ${url}.`);
  const exited = new Promise((resolve) => instance.process.once('exit', resolve));
  instance.process.kill('SIGKILL');
  await exited;
}

/** A project folder for one store's suite, with a file per conversation to read and edit. */
async function project(name: string, conversations: readonly string[]): Promise<string> {
  const root = path.join(base, name);
  await mkdir(path.join(root, 'notes'), { recursive: true });
  for (const conversation of conversations) await writeFile(path.join(root, 'notes', `${conversation}.txt`), `draft of ${conversation}\n`);
  return root;
}

describe('agent-toolbelt mcp --http --session-store file:DIR, two instances behind a round-robin balancer', () => {
  let root: string;
  const instances: HttpCli[] = [];
  let balancer: RoundRobin;

  beforeAll(async () => {
    root = await project('cli-file', CONVERSATIONS);
    const store = `file:${path.join(base, 'cli-file-sessions')}`;
    const env = { TOOLBELT_MCP_STATE_KEY: STATE_KEY };
    instances.push(...(await Promise.all([0, 1].map(() => startHttpCli(['--root', root, '--session-store', store], { env, timeoutMs: 60_000 })))));
    balancer = await startRoundRobin(instances.map((instance) => instance.url));
  }, 90_000);
  afterAll(async () => {
    await balancer?.close();
    await Promise.all(instances.map((instance) => instance.stop()));
  });

  it('serves a modern and a legacy conversation from both: read on one, edit on the other, their tasks and "always" answers', async () => {
    await modernAndLegacyAcrossInstances(balancer, root);
  }, 120_000);

  it('refuses a requestState replayed on the other instance: the answered state is spent in the stored session', async () => {
    const client = new Client(
      { name: 'instances-replay', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } },
    );
    await client.connect(new StreamableHTTPClientTransport(balancer.url));
    const meta = { 'agent-toolbelt/conversation': 'replay' };
    const call = (params: Record<string, unknown>) =>
      client.request({ method: 'tools/call', params: { ...params, _meta: meta } }, withInputRequired(z.looseObject({})), { allowInputRequired: true }) as Promise<any>;
    try {
      const args = { command: 'echo once >> replayed.txt' };
      const asked = await call({ name: 'run_shell', arguments: args });
      expect(asked).toMatchObject({ resultType: 'input_required' });
      const answer = { name: 'run_shell', arguments: args, inputResponses: { approval: { action: 'accept', content: { decision: 'approve' } } }, requestState: asked.requestState };
      const before = [...balancer.served.values()];
      expect((await call(answer)).isError).toBeFalsy();
      // Round robin: the replay, the next request, reaches the instance that did not run the call.
      await expect(call(answer)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('answered already') });
      const after = [...balancer.served.values()];
      expect(after.map((count, index) => count - before[index]!)).toEqual([1, 1]);
      expect(await readFile(path.join(root, 'replayed.txt'), 'utf8')).toBe('once\n');
    } finally {
      await client.close();
    }
  }, 120_000);

  it('loses nothing when an instance is killed with SIGKILL between two calls', async () => {
    await survivesSigkill(balancer, root, (url) => killInstance(instances, url));
  }, 120_000);

  it('answers 20 clients making 200 calls', async () => {
    await manyClients(balancer.url);
  }, 180_000);
});

/** The same checks with the library's option, for a database store: two handlers, each with its own store client. */
function databaseSuite(name: string, count: number, missing: string | undefined, start: () => Promise<{ config: StoreConfig; stop: () => Promise<void> }>): void {
  describe.skipIf(missing !== undefined)(`createMcpHttpHandler with a ${name} sessionStore, ${count} instances behind a round-robin balancer`, () => {
    let root: string;
    let database: { config: StoreConfig; stop: () => Promise<void> } | undefined;
    const stores: SessionStore[] = [];
    const servers: McpHttpServer[] = [];
    let balancer: RoundRobin;
    /** What the hosts' `onApproval` was asked, on any instance: 2025-era calls through a store come here. */
    const asked: ApprovalRequest[] = [];
    const onApproval = (request: ApprovalRequest) => {
      asked.push(request);
      return 'always' as const;
    };

    beforeAll(async () => {
      root = await project(`db-${name}`, CONVERSATIONS);
      database = await start();
      const workspace = new Workspace(root);
      for (let index = 0; index < count; index += 1) {
        const sessionStore = openStore(database.config);
        stores.push(sessionStore);
        const collections = [createFileTools({ workspace }), createShellTools({ workspace }), createTaskListTools()];
        servers.push(await listenMcpHttp(collections, { sessionStore, requestStateKeys: [STATE_KEY], onApproval }));
      }
      balancer = await startRoundRobin(servers.map((server) => server.url));
    }, 90_000);
    afterAll(async () => {
      await balancer?.close();
      await Promise.all(servers.map((server) => server.close()));
      await Promise.all(stores.map((store) => store.close()));
      await database?.stop();
    });

    it('serves a modern and a legacy conversation from every instance: read on one, edit on the other, tasks and "always" answers', async () => {
      await modernAndLegacyAcrossInstances(balancer, root);
    }, 120_000);

    it('keeps a legacy conversation\'s "always", given by the host\'s onApproval on one instance, on every other', async () => {
      const legacy = await legacyClient(balancer.url);
      try {
        const before = new Map(balancer.served);
        for (let round = 0; round < 2 * count; round += 1) {
          const result = await legacy.call('run_shell', { command: 'echo legacy-always' });
          expect(text(result)).toContain('legacy-always');
        }
        expect(asked.map((request) => request.input.command)).toEqual(['echo legacy-always']);
        for (const [url, served] of balancer.served) expect(served).toBeGreaterThan(before.get(url) ?? 0);
      } finally {
        await legacy.client.close();
      }
    }, 120_000);

    it('answers 20 clients making 200 calls', async () => {
      await manyClients(balancer.url);
    }, 180_000);
  });
}

databaseSuite('Postgres', 2, POSTGRES_MISSING, async () => {
  const server = await startPostgres();
  return { config: { kind: 'postgres', connectionString: server.connectionString }, stop: () => server.destroy() };
});
databaseSuite('Redis', 3, REDIS_MISSING, async () => {
  const server = await startRedis();
  return { config: { kind: 'redis', url: server.url }, stop: () => server.destroy() };
});
databaseSuite('file', 3, undefined, async () => ({ config: { kind: 'file', dir: path.join(base, 'library-file-sessions') }, stop: async () => undefined }));

/**
 * The command line with a database store: `--session-store postgres://…` and `redis://…` load
 * the package's own `agent-toolbelt/stores/*` subpaths, which resolve to dist/ (built here when
 * missing, as the Next.js test does).
 */
function cliDatabaseSuite(name: string, missing: string | undefined, start: () => Promise<{ url: string; stop: () => Promise<void> }>): void {
  describe.skipIf(missing !== undefined)(`agent-toolbelt mcp --http --session-store ${name}, two instances behind a round-robin balancer`, () => {
    let root: string;
    let database: { url: string; stop: () => Promise<void> } | undefined;
    const instances: HttpCli[] = [];
    let balancer: RoundRobin;

    beforeAll(async () => {
      if (!existsSync(path.join(repository, 'dist/adapters/postgres/index.js')) || !existsSync(path.join(repository, 'dist/adapters/redis/index.js'))) {
        execFileSync(process.execPath, [path.join(repository, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: repository, stdio: 'inherit' });
      }
      root = await project(`cli-${name}`, CONVERSATIONS);
      database = await start();
      const env = { TOOLBELT_MCP_STATE_KEY: STATE_KEY };
      instances.push(...(await Promise.all([0, 1].map(() => startHttpCli(['--root', root, '--session-store', database!.url], { env, timeoutMs: 60_000 })))));
      balancer = await startRoundRobin(instances.map((instance) => instance.url));
    }, 180_000);
    afterAll(async () => {
      await balancer?.close();
      await Promise.all(instances.map((instance) => instance.stop()));
      await database?.stop();
    });

    it('serves a modern and a legacy conversation from both instances', async () => {
      await modernAndLegacyAcrossInstances(balancer, root);
    }, 120_000);

    it('loses nothing when an instance is killed with SIGKILL between two calls', async () => {
      await survivesSigkill(balancer, root, (url) => killInstance(instances, url));
    }, 120_000);
  });
}

cliDatabaseSuite('postgres://…', POSTGRES_MISSING, async () => {
  const server = await startPostgres();
  return { url: server.connectionString, stop: () => server.destroy() };
});
cliDatabaseSuite('redis://…', REDIS_MISSING, async () => {
  const server = await startRedis();
  return { url: server.url, stop: () => server.destroy() };
});
