/** @module agent-toolbelt/stores/postgres: the session store on PostgreSQL, with `pg` (node-postgres). */
import { Socket } from 'node:net';
import pg from 'pg';
import {
  createSessionStore,
  DEFAULT_SESSION_OPERATION_TIMEOUT_MS,
  type LeaseOutcome,
  type ReleaseWatcher,
  type SessionJSON,
  type SessionStore,
  type SessionStoreBackend,
  type SessionStoreDefaults,
  type StoredSession,
  type WriteOptions,
  type WriteOutcome,
} from '../../src/index.js';

/** Options of {@link createPostgresSessionStore}: a `connectionString` or a `pool`. */
export interface PostgresSessionStoreOptions extends SessionStoreDefaults {
  /** `postgres://user:password@host:port/database`; the store makes its own pool and ends it on `close()`. */
  readonly connectionString?: string;
  /** A pool of yours; `close()` leaves it open. */
  readonly pool?: pg.Pool;
  /**
   * The table, created when missing; `schema.table` for another schema.
   * @default 'toolbelt_sessions'
   */
  readonly table?: string;
}

/** How often a store deletes expired rows. */
const SWEEP_EVERY_MS = 60_000;
const TABLE_NAME = /^(?:[A-Za-z_][A-Za-z0-9_]{0,62}\.)?[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * A session store in PostgreSQL, for route handlers on many instances (serverless, behind a
 * load balancer). One row per session: the session as JSONB, its version, and its lease (the
 * holder's token, then its note of itself, and the expiry). Leases are taken with a single
 * conditional upsert, so the database's row locking decides who holds one; a released lease
 * is announced with `NOTIFY`, and the first waiting turn of each store `LISTEN`s instead of
 * polling. A crashed holder's lease expires after `leaseMs` by the database's own clock. The
 * store's own pool (from `connectionString`) gives connecting and each query
 * `operationTimeoutMs`, and `close()` destroys the connections that have not ended by then.
 *
 * @example
 * const store = createPostgresSessionStore({ connectionString: process.env.DATABASE_URL });
 * await store.withSession(chatId, async (session) => runTurn(session));
 */
export function createPostgresSessionStore(options: PostgresSessionStoreOptions): SessionStore {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`Expected createPostgresSessionStore options with \`connectionString\` or \`pool\`, got \`${String(options)}\`.`);
  }
  const { connectionString, pool, table = 'toolbelt_sessions', ...defaults } = options;
  if ((connectionString === undefined) === (pool === undefined)) {
    throw new TypeError(
      `Expected exactly one of the \`connectionString\` and \`pool\` options of createPostgresSessionStore, got ${connectionString === undefined ? 'neither' : 'both'}. Pass connectionString: process.env.DATABASE_URL, or a pg.Pool of yours.`,
    );
  }
  if (connectionString !== undefined && (typeof connectionString !== 'string' || connectionString.trim() === '')) {
    throw new TypeError(`Expected the \`connectionString\` option to be a postgres:// URL, got \`${String(connectionString)}\` (${typeof connectionString}).`);
  }
  if (pool !== undefined && (typeof pool !== 'object' || pool === null || typeof pool.query !== 'function' || typeof pool.connect !== 'function')) {
    throw new TypeError(`Expected the \`pool\` option to be a pg.Pool, got \`${String(pool)}\` (${typeof pool}).`);
  }
  if (typeof table !== 'string' || !TABLE_NAME.test(table)) {
    throw new TypeError(`Expected the \`table\` option to be a table name of letters, digits and "_" (optionally "schema.table"), got \`${String(table)}\`.`);
  }
  if (pool !== undefined) return createSessionStore(new PostgresBackend(pool, undefined, table), defaults);
  // Every connection of the store's own pool is a socket it can destroy: close() must not wait on a host that stopped answering.
  const sockets = new Set<Socket>();
  const timeoutMs = defaults.operationTimeoutMs ?? DEFAULT_SESSION_OPERATION_TIMEOUT_MS;
  const own = new pg.Pool({
    connectionString,
    max: 10,
    connectionTimeoutMillis: timeoutMs,
    // A query with no answer in time fails here too, and its connection is dropped instead of kept busy.
    query_timeout: timeoutMs,
    stream: () => {
      const socket = new Socket();
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      return socket;
    },
  });
  return createSessionStore(new PostgresBackend(own, sockets, table), defaults);
}

/** Resolves true when `promise` settles within `ms`, false when it does not. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, ms))));
  try {
    return await Promise.race([promise.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The lease column holds the turn's token, then a space and what the holder says of itself. */
function leaseValue(token: string, holder: string | undefined): string {
  return holder === undefined ? token : `${token} ${holder}`;
}

function quoteName(name: string): string {
  return name
    .split('.')
    .map((part) => `"${part}"`)
    .join('.');
}

/** ` at host:port/database` for messages, never the password; empty when the pool does not say. */
function serverOf(options: pg.PoolConfig): string {
  let { host, port, database } = options;
  if (options.connectionString !== undefined) {
    try {
      const url = new URL(options.connectionString);
      host = url.hostname || host;
      port = url.port === '' ? port : Number(url.port);
      database = decodeURIComponent(url.pathname.slice(1)) || database;
    } catch {
      // Not a URL (a key=value string): say nothing rather than echo it, as it may hold a password.
    }
  }
  if (host === undefined) return '';
  return ` at ${host}${port === undefined ? '' : `:${port}`}${database === undefined ? '' : `/${database}`}`;
}

class PostgresBackend implements SessionStoreBackend {
  readonly description: string;
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  /** The sockets of the store's own pool; undefined for a pool of yours. */
  readonly #sockets: Set<Socket> | undefined;
  readonly #table: string;
  readonly #channel: string;
  #ready: Promise<void> | undefined;
  #sweptAt = 0;
  #listener: Promise<pg.PoolClient> | undefined;
  /** Hands the listening connection back once, whichever of an error and close() comes first. */
  #releaseListener: ((error?: Error | boolean) => void) | undefined;
  readonly #waiters = new Map<string, Set<() => void>>();

  constructor(pool: pg.Pool, sockets: Set<Socket> | undefined, table: string) {
    this.#pool = pool;
    this.#ownsPool = sockets !== undefined;
    this.#sockets = sockets;
    this.#table = quoteName(table);
    this.#channel = `${table.replace('.', '_')}_released`.slice(0, 63);
    const where = serverOf(pool.options);
    this.description = `the Postgres session store (table ${table}${where})`;
    // A pool emits 'error' when an idle client's connection drops; without a listener that would end the process.
    if (this.#ownsPool) pool.on('error', () => undefined);
  }

  /** Creates the table once per store; concurrent stores serialise on an advisory lock so CREATE TABLE never races. */
  async #query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    this.#ready ??= this.#createTable().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    await this.#ready;
    if (Date.now() - this.#sweptAt > SWEEP_EVERY_MS) {
      this.#sweptAt = Date.now();
      // Idle sessions past their ttlMs: already invisible to load; this frees their rows.
      void this.#pool
        .query(`DELETE FROM ${this.#table} WHERE expires_at <= clock_timestamp() AND (lease_until IS NULL OR lease_until <= clock_timestamp())`)
        .catch(() => undefined);
    }
    return this.#pool.query<R>(text, values);
  }

  async #createTable(): Promise<void> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`agent-toolbelt:${this.#table}`]);
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.#table} (
        id text PRIMARY KEY,
        version bigint NOT NULL DEFAULT 0,
        payload jsonb,
        lease_token text,
        lease_until timestamptz,
        expires_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async read(id: string): Promise<StoredSession> {
    const { rows } = await this.#query<{ version: string; payload: SessionJSON | null; expired: boolean }>(
      `SELECT version, payload, coalesce(expires_at <= clock_timestamp(), false) AS expired FROM ${this.#table} WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (row === undefined) return { json: undefined, version: 0 };
    return { json: row.payload === null || row.expired ? undefined : row.payload, version: Number(row.version) };
  }

  async write(id: string, payload: string, options: WriteOptions): Promise<WriteOutcome> {
    const ttl = options.ttlMs ?? null;
    const token = options.leaseToken ?? null;
    const release = token !== null && options.release === true;
    // One statement: the row lock of the UPDATE makes the version and lease checks, the write
    // and (at the end of a turn) the release one atomic step; the NOTIFY goes out at commit.
    const updated = await this.#query<{ version: string }>(
      `WITH written AS (
         UPDATE ${this.#table} SET payload = $2::jsonb, version = version + 1,
           expires_at = clock_timestamp() + $4::bigint * interval '1 millisecond', updated_at = clock_timestamp(),
           lease_token = CASE WHEN $6::boolean THEN NULL ELSE lease_token END,
           lease_until = CASE WHEN $6::boolean THEN NULL ELSE lease_until END
         WHERE id = $1 AND version = $3::bigint AND CASE WHEN $5::text IS NULL
           THEN lease_until IS NULL OR lease_until <= clock_timestamp()
           ELSE split_part(lease_token, ' ', 1) = $5::text AND lease_until > clock_timestamp() END
         RETURNING version
       )
       SELECT version, CASE WHEN $6::boolean THEN pg_notify($7, $1) END AS notified FROM written`,
      [id, payload, options.expectedVersion, ttl, token, release, this.#channel],
    );
    if (updated.rows[0] !== undefined) return { written: true, version: Number(updated.rows[0].version), released: release };
    if (options.expectedVersion === 0 && token === null) {
      const inserted = await this.#pool.query<{ version: string }>(
        `INSERT INTO ${this.#table} (id, version, payload, expires_at) VALUES ($1, 1, $2::jsonb, clock_timestamp() + $3::bigint * interval '1 millisecond')
         ON CONFLICT (id) DO NOTHING RETURNING version`,
        [id, payload, ttl],
      );
      if (inserted.rows[0] !== undefined) return { written: true, version: 1 };
    }
    const { rows } = await this.#pool.query<{ version: string; leased: boolean; mine: boolean }>(
      `SELECT version, coalesce(lease_until > clock_timestamp(), false) AS leased, coalesce(split_part(lease_token, ' ', 1) = $2::text, false) AS mine FROM ${this.#table} WHERE id = $1`,
      [id, token],
    );
    const row = rows[0];
    const storedVersion = row === undefined ? 0 : Number(row.version);
    if (token !== null && !(row?.leased && row.mine)) return { written: false, reason: 'lease', storedVersion };
    if (token === null && row?.leased) return { written: false, reason: 'busy', storedVersion };
    return { written: false, reason: 'version', storedVersion };
  }

  async remove(id: string): Promise<void> {
    await this.#query(`WITH gone AS (DELETE FROM ${this.#table} WHERE id = $1 RETURNING id) SELECT pg_notify($2, id) FROM gone`, [id, this.#channel]);
  }

  async acquire(id: string, token: string, leaseMs: number, holder?: string): Promise<LeaseOutcome> {
    // Take the lease and read the session in one round trip; the upsert's row lock decides between racing turns.
    const { rows } = await this.#query<{ mine: boolean; retry_ms: string | null; holder: string | null; version: string | null; payload: SessionJSON | null; expired: boolean | null }>(
      `WITH taken AS (
         INSERT INTO ${this.#table} AS t (id, lease_token, lease_until) VALUES ($1, $2, clock_timestamp() + $3::bigint * interval '1 millisecond')
         ON CONFLICT (id) DO UPDATE SET lease_token = EXCLUDED.lease_token, lease_until = EXCLUDED.lease_until
         WHERE t.lease_until IS NULL OR t.lease_until <= clock_timestamp()
         RETURNING version, payload, coalesce(expires_at <= clock_timestamp(), false) AS expired
       )
       SELECT true AS mine, NULL AS retry_ms, NULL AS holder, version::text, payload, expired FROM taken
       UNION ALL
       SELECT false, ceil(extract(epoch FROM lease_until - clock_timestamp()) * 1000)::text,
           CASE WHEN strpos(lease_token, ' ') > 0 THEN substr(lease_token, strpos(lease_token, ' ') + 1) END, NULL, NULL, NULL
         FROM ${this.#table} WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM taken)`,
      [id, leaseValue(token, holder), leaseMs],
    );
    const row = rows[0];
    if (row?.mine) {
      return { acquired: true, stored: { json: row.payload === null || row.expired ? undefined : row.payload, version: Number(row.version ?? 0) } };
    }
    return { acquired: false, retryInMs: Math.max(1, Number(row?.retry_ms ?? 1)), holder: row?.holder ?? undefined };
  }

  async renew(id: string, token: string, leaseMs: number): Promise<boolean> {
    const { rowCount } = await this.#query(
      `UPDATE ${this.#table} SET lease_until = clock_timestamp() + $3::bigint * interval '1 millisecond' WHERE id = $1 AND split_part(lease_token, ' ', 1) = $2`,
      [id, token, leaseMs],
    );
    return rowCount === 1;
  }

  async release(id: string, token: string): Promise<void> {
    await this.#query(
      `WITH freed AS (UPDATE ${this.#table} SET lease_token = NULL, lease_until = NULL WHERE id = $1 AND split_part(lease_token, ' ', 1) = $2 RETURNING id)
       SELECT pg_notify($3, id) FROM freed`,
      [id, token, this.#channel],
    );
  }

  /** One connection per store listens on the table's channel and wakes the waiters of the id each notice names. */
  async watch(id: string): Promise<ReleaseWatcher> {
    this.#listener ??= this.#listen().catch((error: unknown) => {
      this.#listener = undefined;
      throw error;
    });
    await this.#listener;
    let released = false;
    let wake: (() => void) | undefined;
    const onRelease = () => {
      released = true;
      wake?.();
    };
    let waiters = this.#waiters.get(id);
    if (waiters === undefined) this.#waiters.set(id, (waiters = new Set()));
    waiters.add(onRelease);
    return {
      wait: async (timeoutMs) => {
        if (!released) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, timeoutMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
        released = false;
        wake = undefined;
      },
      close: () => {
        waiters.delete(onRelease);
        if (waiters.size === 0) this.#waiters.delete(id);
      },
    };
  }

  async #listen(): Promise<pg.PoolClient> {
    const client = await this.#pool.connect();
    let released = false;
    const release = (error?: Error | boolean) => {
      if (released) return;
      released = true;
      client.release(error);
    };
    this.#releaseListener = release;
    client.on('notification', (message) => {
      if (message.channel !== this.#channel || message.payload === undefined) return;
      for (const waiter of this.#waiters.get(message.payload) ?? []) waiter();
    });
    client.on('error', (error) => {
      // The connection dropped: hand it back to be destroyed (or pool.end() would wait for it), wake everyone
      // (they retry, and fall back on their timers) and listen again next time.
      this.#listener = undefined;
      release(error);
      for (const waiters of this.#waiters.values()) for (const waiter of waiters) waiter();
    });
    await client.query(`LISTEN "${this.#channel}"`);
    return client;
  }

  /**
   * Hands the listening connection back and ends the store's own pool. Ending a connection
   * waits for the server to end it too, which a host that stopped answering never does: after
   * `timeoutMs` the pool's sockets are destroyed instead.
   */
  async close(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    if (this.#listener !== undefined) await settlesWithin(this.#listener, timeoutMs);
    this.#releaseListener?.(true);
    this.#listener = undefined;
    if (this.#sockets === undefined) return;
    const ended = this.#pool.end();
    // The pool is ended once no connection is in use; each one closes when the server has ended it too.
    const closed = ended.then(() => Promise.all([...this.#sockets!].map((socket) => new Promise((resolve) => socket.once('close', resolve)))));
    if (await settlesWithin(closed, deadline - Date.now())) return;
    for (const socket of this.#sockets) socket.destroy();
    await settlesWithin(ended, 100);
  }
}
