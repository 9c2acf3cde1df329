import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresSessionStore } from '../../adapters/postgres/index.js';
import { createSession } from '../../src/index.js';
import { freePort } from '../support/free-port.js';
import { sessionStoreContract } from './contract.js';
import { POSTGRES_MISSING, startPostgres, type PostgresServer } from './servers.js';
import { startSilentProxy } from './silent-proxy.js';

sessionStoreContract('Postgres', POSTGRES_MISSING, async () => {
  const server = await startPostgres();
  return {
    config: { kind: 'postgres', connectionString: server.connectionString },
    namePattern: new RegExp(`Postgres session store \\(table toolbelt_sessions at 127\\.0\\.0\\.1:${server.port}/postgres\\)`),
    takeDown: () => server.stop(),
    bringUp: () => server.restart(),
    destroy: () => server.destroy(),
    freeze: () => server.pause(),
    thaw: () => server.resume(),
  };
});

describe.skipIf(POSTGRES_MISSING !== undefined)('the Postgres session store', () => {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(() => server?.destroy());

  it('creates its table in the schema it is given, keeps JSONB and a version, and leaves a pool of yours open', async () => {
    const pool = new pg.Pool({ connectionString: server!.connectionString });
    try {
      await pool.query('CREATE SCHEMA chat');
      const store = createPostgresSessionStore({ pool, table: 'chat.sessions' });
      const session = createSession({ id: 'a' });
      session.approve('write_note');
      expect(await store.save(session)).toBe(1);
      await store.close();
      const { rows } = await pool.query<{ version: string; kind: string; approvals: unknown }>(
        `SELECT version, jsonb_typeof(payload) AS kind, payload->'approvals' AS approvals FROM chat.sessions WHERE id = 'a'`,
      );
      expect(rows).toEqual([{ version: '1', kind: 'object', approvals: ['write_note'] }]);
    } finally {
      await pool.end();
    }
  });

  it('wakes a waiting turn with NOTIFY when the lease is released, well before the lease would expire', async () => {
    const [one, two] = [createPostgresSessionStore({ connectionString: server!.connectionString }), createPostgresSessionStore({ connectionString: server!.connectionString })];
    try {
      let releasedAt = 0;
      let release!: () => void;
      const holding = new Promise<void>((resolve) => (release = resolve));
      let started!: () => void;
      const inTurn = new Promise<void>((resolve) => (started = resolve));
      const first = one.withSession(
        'notify',
        async () => {
          started();
          await holding;
        },
        { leaseMs: 60_000 },
      );
      await inTurn;
      const second = two.withSession('notify', () => Date.now(), { waitMs: 30_000 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      releasedAt = Date.now();
      release();
      await first;
      const enteredAt = await second;
      expect(enteredAt - releasedAt).toBeLessThan(1_000);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('refuses options it cannot use, naming them', () => {
    expect(() => createPostgresSessionStore({})).toThrow(
      'Expected exactly one of the `connectionString` and `pool` options of createPostgresSessionStore, got neither. Pass connectionString: process.env.DATABASE_URL, or a pg.Pool of yours.',
    );
    expect(() => createPostgresSessionStore({ connectionString: 'postgres://x', table: 'drop table;' })).toThrow(
      'Expected the `table` option to be a table name of letters, digits and "_" (optionally "schema.table"), got `drop table;`.',
    );
    expect(() => createPostgresSessionStore({ connectionString: 'postgres://x', leaseMs: 10 })).toThrow('`leaseMs`');
  });
});

describe.skipIf(POSTGRES_MISSING !== undefined)('the Postgres session store when the database is away', () => {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(() => server?.destroy());

  it('fails at once, naming the refused address, when nothing listens there', async () => {
    const port = await freePort();
    const store = createPostgresSessionStore({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    try {
      const began = Date.now();
      const error = await store.withSession('chat', () => undefined).catch((caught: unknown) => caught);
      expect(Date.now() - began).toBeLessThan(1_000);
      expect((error as Error).message).toBe(
        `The Postgres session store (table toolbelt_sessions at 127.0.0.1:${port}/postgres) failed to lease session "chat": connect ECONNREFUSED 127.0.0.1:${port}`,
      );
    } finally {
      await store.close();
    }
  });

  it('closes within operationTimeoutMs while it is still opening a connection to a host that stopped answering', async () => {
    const proxy = await startSilentProxy(server!.port);
    const operationTimeoutMs = 1_000;
    const store = createPostgresSessionStore({ connectionString: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`, operationTimeoutMs });
    try {
      proxy.silence();
      // The connection's handshake is never answered: the call fails after operationTimeoutMs, the connection is still being opened.
      const call = store.load('chat').catch((caught: unknown) => caught);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const began = Date.now();
      await store.close();
      expect(Date.now() - began).toBeLessThan(operationTimeoutMs + 500);
      expect(await call).toMatchObject({ name: 'SessionStoreError', operation: 'load' });
    } finally {
      await proxy.close();
    }
  });

  for (const inFlight of [false, true]) {
    it(`closes within operationTimeoutMs after the host stops answering, ${inFlight ? 'with a call in flight' : 'its connections idle'}`, async () => {
      const proxy = await startSilentProxy(server!.port);
      const operationTimeoutMs = 1_000;
      const store = createPostgresSessionStore({ connectionString: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`, operationTimeoutMs });
      try {
        // Several connections open and idle in the pool, and the one that listens for releases.
        await Promise.all(Array.from({ length: 4 }, (_, index) => store.withSession(`chat-${index}`, (session) => session.approve('write_note'))));
        const holding = store.withSession('held', () => new Promise((resolve) => setTimeout(resolve, 200)));
        await store.withSession('held', () => undefined, { waitMs: 5_000 });
        await holding;
        proxy.silence();
        const call = inFlight ? store.load('chat-0').catch((caught: unknown) => caught) : undefined;
        const began = Date.now();
        await store.close();
        const took = Date.now() - began;
        expect(took).toBeLessThan(operationTimeoutMs + 500);
        if (call !== undefined) expect(await call).toMatchObject({ name: 'SessionStoreError', operation: 'load' });
        await expect(store.load('chat-0')).rejects.toThrow('failed to load session "chat-0": the store was closed');
      } finally {
        await proxy.close();
      }
    });
  }
});
