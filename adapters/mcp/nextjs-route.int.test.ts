import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { POSTGRES_MISSING, REDIS_MISSING, startPostgres, startRedis } from '../../test/stores/servers.js';
import { manyClients, modernAndLegacyAcrossInstances, survivesSigkill } from './test-support/conversation-checks.js';
import { startRoundRobin, type RoundRobin } from './test-support/round-robin.js';

// The example's App Router route (examples/nextjs-chat/app/mcp/route.ts) under `next start`:
// two instances behind a round-robin balancer, sharing the chat's session store (the file store
// in the workspace's private folder, Postgres with DATABASE_URL, Redis with REDIS_URL), serve a
// modern and a legacy conversation, and lose nothing when one is killed with SIGKILL. The
// example is built once for all of them.

/** What the example's own test support offers (its build once per run, and `next start`). */
interface NextServer {
  readonly url: string;
  stop(): Promise<void>;
  kill(): Promise<void>;
}
interface ExampleSupport {
  buildExampleOnce(): Promise<void>;
  startNext(env: Record<string, string>): Promise<NextServer>;
}

/**
 * The example's test support, loaded at run time: the example is a project of its own (its
 * package.json and tsconfig), which the repository's type-check leaves out.
 */
async function exampleSupport(): Promise<ExampleSupport> {
  const folder = new URL('../../examples/nextjs-chat/test-support/', import.meta.url);
  const [build, server] = await Promise.all([
    import(/* @vite-ignore */ new URL('next-build.ts', folder).href) as Promise<Pick<ExampleSupport, 'buildExampleOnce'>>,
    import(/* @vite-ignore */ new URL('next-server.ts', folder).href) as Promise<Pick<ExampleSupport, 'startNext'>>,
  ]);
  return { buildExampleOnce: build.buildExampleOnce, startNext: server.startNext };
}

/** The route's store, as the example reads it from its environment, and how to stop its server. */
interface RouteStore {
  readonly env: Record<string, string>;
  stop(): Promise<void>;
}

function routeSuite(name: string, missing: string | undefined, start: () => Promise<RouteStore>): void {
  describe.skipIf(missing !== undefined)(`createMcpHttpHandler in a Next.js route handler with the ${name} store, two \`next start\` instances behind a round-robin balancer`, () => {
    let base: string;
    let root: string;
    let store: RouteStore | undefined;
    const servers: NextServer[] = [];
    let balancer: RoundRobin;

    beforeAll(async () => {
      base = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-next-'));
      root = path.join(base, 'project');
      await mkdir(path.join(root, 'notes'), { recursive: true });
      for (const conversation of ['modern', 'legacy', 'killed-modern', 'killed-legacy']) await writeFile(path.join(root, 'notes', `${conversation}.txt`), `draft of ${conversation}\n`);
      const { buildExampleOnce, startNext } = await exampleSupport();
      await buildExampleOnce();
      store = await start();
      const env = { ...store.env, TOOLBELT_WORKSPACE: root, TOOLBELT_MCP_STATE_KEY: 'nextjs-route-state-key-0123456789abcdef', TOOLBELT_MODEL: 'scripted' };
      servers.push(...(await Promise.all([startNext(env), startNext(env)])));
      balancer = await startRoundRobin(servers.map((server) => new URL(`${server.url}/mcp`)));
    }, 600_000);
    afterAll(async () => {
      await balancer?.close();
      await Promise.all(servers.map((server) => server.stop()));
      await store?.stop();
      await rm(base, { recursive: true, force: true });
    });

    it('serves a modern and a legacy conversation from both instances: read on one, edit on the other, tasks and "always" answers', async () => {
      await modernAndLegacyAcrossInstances(balancer, root);
    }, 180_000);

    it('answers 20 clients making 200 calls', async () => {
      await manyClients(balancer.url);
    }, 180_000);

    // Last: it leaves one instance dead.
    it('loses nothing when an instance is killed with SIGKILL between two calls', async () => {
      await survivesSigkill(balancer, root, async (url) => {
        const server = servers.find((candidate) => url.startsWith(`${candidate.url}/`));
        if (server === undefined) throw new Error(`No next start at ${url}.`);
        await server.kill();
      });
    }, 180_000);
  });
}

routeSuite('file', undefined, async () => ({ env: {}, stop: async () => undefined }));
routeSuite('Postgres', POSTGRES_MISSING, async () => {
  const server = await startPostgres();
  return { env: { DATABASE_URL: server.connectionString }, stop: () => server.destroy() };
});
routeSuite('Redis', REDIS_MISSING, async () => {
  const server = await startRedis();
  return { env: { REDIS_URL: server.url }, stop: () => server.destroy() };
});
