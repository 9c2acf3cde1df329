import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alwaysAcrossInstances, legacyClient, manyClients, modernClient, readEditAndTasks, text } from './test-support/conversation-checks.js';
import { startRoundRobin, type RoundRobin } from './test-support/round-robin.js';

// The example's App Router route (examples/nextjs-chat/app/mcp/route.ts) under `next start`:
// two instances behind a round-robin balancer, sharing the file session store in the
// workspace's private folder, serve a modern and a legacy conversation.

/** What the example's own test support offers (its build once per run, and `next start`). */
interface NextServer {
  readonly url: string;
  stop(): Promise<void>;
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

describe('createMcpHttpHandler in a Next.js route handler, two `next start` instances behind a round-robin balancer', () => {
  let base: string;
  let root: string;
  const servers: NextServer[] = [];
  let balancer: RoundRobin;

  beforeAll(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'toolbelt-mcp-next-'));
    root = path.join(base, 'project');
    await mkdir(path.join(root, 'notes'), { recursive: true });
    for (const name of ['modern', 'legacy']) await writeFile(path.join(root, 'notes', `${name}.txt`), `draft of ${name}\n`);
    const { buildExampleOnce, startNext } = await exampleSupport();
    await buildExampleOnce();
    const env = { TOOLBELT_WORKSPACE: root, TOOLBELT_MCP_STATE_KEY: 'nextjs-route-state-key-0123456789abcdef', TOOLBELT_MODEL: 'scripted' };
    servers.push(...(await Promise.all([startNext(env), startNext(env)])));
    balancer = await startRoundRobin(servers.map((server) => new URL(`${server.url}/mcp`)));
  }, 600_000);
  afterAll(async () => {
    await balancer?.close();
    await Promise.all(servers.map((server) => server.stop()));
    await rm(base, { recursive: true, force: true });
  });

  it('serves a modern and a legacy conversation from both instances: read on one, edit on the other, tasks and "always" answers', async () => {
    const modern = await modernClient(balancer.url, 'modern');
    const legacy = await legacyClient(balancer.url);
    try {
      expect(modern.client.getProtocolEra()).toBe('modern');
      await readEditAndTasks(modern.call, root, 'modern');
      await alwaysAcrossInstances(modern, 'modern');
      await readEditAndTasks(legacy.call, root, 'legacy');
      expect(text(await legacy.call('task_get', {}))).not.toContain('ship modern');
    } finally {
      await modern.client.close();
      await legacy.client.close();
    }
    for (const count of balancer.served.values()) expect(count).toBeGreaterThan(3);
  }, 180_000);

  it('answers 20 clients making 200 calls', async () => {
    await manyClients(balancer.url);
  }, 180_000);
});
