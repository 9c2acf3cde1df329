/**
 * An approval interrupt raised in one process and resumed in another, as on two server
 * instances: LangGraph's own checkpointers (`PostgresSaver`, `RedisSaver`) keep the graph's
 * thread, the toolbelt's session store of the same backend keeps its session.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { RedisSaver } from '@langchain/langgraph-checkpoint-redis';
import { execa } from 'execa';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskListTools } from '../../src/index.js';
import type { ThreadStep } from './langgraph-thread-child.js';
import { POSTGRES_MISSING, REDIS_MISSING, startPostgres, startRedis, type PostgresServer, type RedisServer } from './servers.js';
import { openStore, type StoreConfig } from './store-config.js';

const child = path.join(import.meta.dirname, 'langgraph-thread-child.ts');
const repository = path.resolve(import.meta.dirname, '../..');
/** A Redis with the RedisJSON and RediSearch modules (Redis 8, Redis Stack) to run the RedisSaver case against, when the local redis-server has none. */
const REDIS_STACK_URL = process.env.TOOLBELT_TEST_REDIS_STACK_URL;

async function step(input: ThreadStep): Promise<any> {
  const { stdout } = await execa(process.execPath, ['--import', 'tsx', child, JSON.stringify(input)], { cwd: repository, timeout: 90_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

/**
 * Why RedisSaver cannot run on the Redis at `url`, or `undefined` when it can: it stores
 * checkpoints with RedisJSON (`JSON.SET`) and finds them with RediSearch (`FT.CREATE … ON JSON`).
 */
async function redisSaverMissing(url: string): Promise<string | undefined> {
  const client = createClient({ url });
  await client.connect();
  try {
    const version = /redis_version:(\S+)/.exec(await client.info('server'))?.[1] ?? 'unknown';
    const modules = ((await client.sendCommand(['MODULE', 'LIST'])) as unknown[][]).map((entry) => String(entry[entry.indexOf('name') + 1]));
    const lacking = [['ReJSON', 'RedisJSON'], ['search', 'RediSearch']].filter(([name]) => !modules.includes(name!)).map(([, label]) => label);
    if (lacking.length === 0) return undefined;
    return (
      `the redis-server here (${version}, modules: ${modules.length === 0 ? 'none' : modules.join(', ')}) lacks ${lacking.join(' and ')}, which RedisSaver ` +
      '(@langchain/langgraph-checkpoint-redis) needs for JSON.SET and FT.CREATE … ON JSON (it fails with "ERR unknown command \'FT.CREATE\'"); ' +
      'Debian packages no RedisJSON, and its redis-redisearch is ' +
      'RediSearch 1.2, which has no JSON indexes. Set TOOLBELT_TEST_REDIS_STACK_URL to a Redis 8 or Redis Stack server to run this case'
    );
  } finally {
    await client.close();
  }
}

/** The thread, paused in one process and resumed in another; `between` looks at both stores in between. */
async function pauseAndResume(backend: ThreadStep['backend'], url: string, store: StoreConfig, between: (threadId: string) => Promise<void>) {
  const threadId = `thread-${randomUUID()}`;
  const started = await step({ step: 'start', backend, url, threadId });
  expect(started.interrupts).toHaveLength(1);
  expect(started.interrupts[0].value).toMatchObject({ type: 'approval', toolCall: { name: 'write_note', args: { text: 'first' } } });
  expect(started.runs).toEqual([]);

  // Between the processes, the session store holds what the first one did: the task, no approval yet.
  const sessions = openStore(store);
  try {
    const saved = await sessions.load(threadId);
    expect((await createTaskListTools().getTasks(saved!)).map((task) => task.subject)).toEqual(['Write the notes']);
    expect(saved!.approvals).toEqual([]);
    await between(threadId);

    const resumed = await step({ step: 'resume', backend, url, threadId });
    expect(resumed.resumedWith, JSON.stringify(resumed)).toBe(1);
    expect(resumed.runs).toEqual(['write first', 'write second']);
    expect(resumed.interruptsAfter).toBe(0);
    expect(resumed.last).toEqual(['First note written.', 'Second note written.']);

    const after = await sessions.load(threadId);
    expect((await createTaskListTools().getTasks(after!)).map((task) => task.subject)).toEqual(['Write the notes']);
    expect(after!.approvals).toEqual(['write_note']);
  } finally {
    await sessions.close();
  }
}

if (POSTGRES_MISSING !== undefined) console.warn(`Skipping the LangGraph thread across processes on Postgres: ${POSTGRES_MISSING}.`);

describe.skipIf(POSTGRES_MISSING !== undefined)('a LangGraph thread resumed in another process: PostgresSaver and the Postgres session store', () => {
  let postgres: PostgresServer | undefined;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(() => postgres?.destroy());

  it('keeps the pending approval in PostgresSaver and the thread’s tasks and "always" approvals in the store', async () => {
    const url = postgres!.connectionString;
    await pauseAndResume('postgres', url, { kind: 'postgres', connectionString: url }, async (threadId) => {
      // The interrupt is PostgresSaver's to keep: the graph's pending approval is in its tables.
      const saver = PostgresSaver.fromConnString(url);
      try {
        const tuple = await saver.getTuple({ configurable: { thread_id: threadId } });
        expect(tuple?.pendingWrites?.some(([, channel]) => channel === '__interrupt__')).toBe(true);
      } finally {
        await saver.end();
      }
    });
  }, 180_000);
});

if (REDIS_MISSING !== undefined && REDIS_STACK_URL === undefined) console.warn(`Skipping the LangGraph thread across processes on Redis: ${REDIS_MISSING}.`);

describe.skipIf(REDIS_MISSING !== undefined && REDIS_STACK_URL === undefined)('a LangGraph thread resumed in another process: RedisSaver and the Redis session store', () => {
  let redis: RedisServer | undefined;
  let url: string | undefined;
  let missing: string | undefined;
  beforeAll(async () => {
    if (REDIS_STACK_URL !== undefined) {
      url = REDIS_STACK_URL;
    } else {
      redis = await startRedis();
      url = redis.url;
    }
    missing = await redisSaverMissing(url);
    if (missing !== undefined) console.warn(`Skipping the LangGraph thread across processes on Redis: ${missing}.`);
  }, 60_000);
  afterAll(() => redis?.destroy());

  it('keeps the pending approval in RedisSaver and the thread’s tasks and "always" approvals in the store', async (context) => {
    if (missing !== undefined) context.skip(missing);
    await pauseAndResume('redis', url!, { kind: 'redis', url: url! }, async (threadId) => {
      // The interrupt is RedisSaver's to keep: the graph's pending approval is in its keys.
      const saver = await RedisSaver.fromUrl(url!);
      try {
        const tuple = await saver.getTuple({ configurable: { thread_id: threadId } });
        expect(tuple?.pendingWrites?.some(([, channel]) => channel === '__interrupt__')).toBe(true);
      } finally {
        await saver.end();
      }
    });
  }, 180_000);
});
