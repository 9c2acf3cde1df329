import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisSessionStore } from '../../adapters/redis/index.js';
import { createSession, SessionStoreError } from '../../src/index.js';
import { freePort } from '../support/free-port.js';
import { sessionStoreContract } from './contract.js';
import { REDIS_MISSING, startRedis, type RedisServer } from './servers.js';

sessionStoreContract('Redis', REDIS_MISSING, async () => {
  const server = await startRedis();
  return {
    config: { kind: 'redis', url: server.url },
    namePattern: new RegExp(`Redis session store at redis://127\\.0\\.0\\.1:${server.port} \\(prefix "toolbelt:"\\)`),
    // SHUTDOWN SAVE writes the data out, so the restarted server has what was saved before the outage.
    takeDown: () => server.stop({ save: true }),
    bringUp: () => server.restart(),
    destroy: () => server.destroy(),
    freeze: () => server.pause(),
    thaw: () => server.resume(),
  };
});

describe.skipIf(REDIS_MISSING !== undefined)('the Redis session store', () => {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedis();
  }, 60_000);
  afterAll(() => server?.destroy());

  it('keeps its keys under the prefix, with ttlMs as the key’s own expiry, and leaves a client of yours open', async () => {
    const client = createClient({ url: server!.url });
    await client.connect();
    try {
      const store = createRedisSessionStore({ client, prefix: 'app1:', ttlMs: 60_000 });
      await store.withSession('chat', (session) => session.approve('write_note'));
      await store.close();
      expect(client.isOpen).toBe(true);
      expect(await client.keys('*')).toEqual(['app1:{chat}:session']);
      expect(await client.hGet('app1:{chat}:session', 'version')).toBe('1');
      const ttl = await client.pTTL('app1:{chat}:session');
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      await client.close();
    }
  });

  it('holds the turn’s random token in the lease key until the turn ends; a save from outside the turn is refused meanwhile', async () => {
    const client = createClient({ url: server!.url });
    await client.connect();
    const store = createRedisSessionStore({ client });
    try {
      let release!: () => void;
      const holding = new Promise<void>((resolve) => (release = resolve));
      let started!: () => void;
      const inTurn = new Promise<void>((resolve) => (started = resolve));
      const turn = store.withSession('owned', async () => {
        started();
        await holding;
      });
      await inTurn;
      const token = await client.get('toolbelt:{owned}:lease');
      expect(token).toMatch(/^[0-9a-f-]{36}$/);
      const session = createSession({ id: 'owned' });
      await expect(store.save(session)).rejects.toThrow('is busy');
      expect(await client.get('toolbelt:{owned}:lease')).toBe(token);
      release();
      await turn;
      expect(await client.get('toolbelt:{owned}:lease')).toBeNull();
    } finally {
      await store.close();
      await client.close();
    }
  });

  it('refuses options it cannot use, naming them', () => {
    expect(() => createRedisSessionStore({})).toThrow(
      'Expected exactly one of the `url` and `client` options of createRedisSessionStore, got neither. Pass url: process.env.REDIS_URL, or a client from createClient().',
    );
    expect(() => createRedisSessionStore({ url: 'http://localhost' })).toThrow('Expected the `url` option to be a redis:// or rediss:// URL, got `http://localhost` (string).');
  });
});

describe.skipIf(REDIS_MISSING !== undefined)('the Redis session store when Redis is away', () => {
  it('fails at once, naming the refused address, when nothing listens at the url', async () => {
    const port = await freePort();
    const store = createRedisSessionStore({ url: `redis://127.0.0.1:${port}` });
    try {
      for (const [operation, attempt] of [
        ['load', () => store.load('chat')],
        ['lease', () => store.withSession('chat', () => undefined)],
      ] as const) {
        const began = Date.now();
        const error = await attempt().catch((caught: unknown) => caught);
        // Not the 10 s of operationTimeoutMs: each call tries to connect once and reports why it could not.
        expect(Date.now() - began).toBeLessThan(1_000);
        expect(error).toBeInstanceOf(SessionStoreError);
        expect((error as Error).message).toBe(`The Redis session store at redis://127.0.0.1:${port} (prefix "toolbelt:") failed to ${operation} session "chat": connect ECONNREFUSED 127.0.0.1:${port}`);
      }
    } finally {
      await store.close();
    }
  });

  it('names the lost connection, the store and what happens next when Redis stops mid-turn, and works again once it is back', async () => {
    const server = await startRedis();
    const store = createRedisSessionStore({ url: server.url });
    try {
      await store.withSession('chat', (session) => session.approve('write_note'));
      const error = await store
        .withSession('chat', async (session) => {
          session.approve('run_shell:npm test');
          await server.stop({ save: true });
        })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ name: 'SessionStoreError', operation: 'save', id: 'chat' });
      expect((error as Error).message).toMatch(
        new RegExp(
          `^The Redis session store at redis://127\\.0\\.0\\.1:${server.port} \\(prefix "toolbelt:"\\) failed to save session "chat": ` +
            `the connection to Redis was lost \\d+\\.\\d s ago \\(Socket closed unexpectedly\\) and is not back yet(?: \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${server.port}\\))?, ` +
            `so nothing was sent; the client reconnects by itself, every 2\\.0 s at most, and the store works again once Redis answers$`,
        ),
      );
      await server.restart();
      // The store's client reconnects by itself (at most 2 s apart), and the next turn goes through.
      const deadline = Date.now() + 5_000;
      let approvals: readonly string[] | undefined;
      while (approvals === undefined && Date.now() < deadline) {
        approvals = await store.withSession('chat', (session) => session.approvals).catch(() => undefined);
        if (approvals === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(approvals).toEqual(['write_note']);
    } finally {
      await store.close();
      await server.destroy();
    }
  }, 30_000);

  it('closes within operationTimeoutMs while it is still connecting to a Redis that stopped answering (SIGSTOP)', async () => {
    const server = await startRedis();
    const store = createRedisSessionStore({ url: server.url, operationTimeoutMs: 1_000 });
    try {
      server.pause();
      const call = store.load('chat').catch((caught: unknown) => caught);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const began = Date.now();
      await store.close();
      expect(Date.now() - began).toBeLessThan(1_500);
      expect(await call).toMatchObject({ name: 'SessionStoreError', operation: 'load' });
    } finally {
      server.resume();
      await server.destroy();
    }
  });

  it('closes within operationTimeoutMs when Redis stopped answering (SIGSTOP) with a call in flight', async () => {
    const server = await startRedis();
    const store = createRedisSessionStore({ url: server.url, operationTimeoutMs: 1_000 });
    try {
      await store.withSession('chat', (session) => session.approve('write_note'));
      server.pause();
      const inFlight = store.load('chat').catch((caught: unknown) => caught);
      const began = Date.now();
      await store.close();
      expect(Date.now() - began).toBeLessThan(1_500);
      expect(await inFlight).toMatchObject({ name: 'SessionStoreError', operation: 'load' });
    } finally {
      server.resume();
      await server.destroy();
    }
  });
});
