import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisSessionStore } from '../../adapters/redis/index.js';
import { createSession } from '../../src/index.js';
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
