/** @module agent-toolbelt/stores/redis: the session store on Redis, with the official `redis` client (node-redis). */
import { createHash } from 'node:crypto';
import {
  createSessionStore,
  DEFAULT_SESSION_OPERATION_TIMEOUT_MS,
  type LeaseOutcome,
  type SessionJSON,
  type SessionStore,
  type SessionStoreBackend,
  type SessionStoreDefaults,
  type StoredSession,
  type WriteOptions,
  type WriteOutcome,
} from '../../src/index.js';
import { givenConnection, ownConnection, type RedisConnection, type RedisSessionClient } from './connection.js';
import { ACQUIRE, RELEASE, RENEW, SAVE } from './scripts.js';

export type { RedisSessionClient } from './connection.js';

/** Options of {@link createRedisSessionStore}: a `url` or a `client`. */
export interface RedisSessionStoreOptions extends SessionStoreDefaults {
  /** `redis://[user:password@]host:port[/db]`; the store makes its own client and closes it on `close()`. */
  readonly url?: string;
  /** A client of yours (connected here if it is not yet); `close()` leaves it open. */
  readonly client?: RedisSessionClient;
  /**
   * Put before every key, so several apps can share one server.
   * @default 'toolbelt:'
   */
  readonly prefix?: string;
}

/**
 * A session store in Redis, for route handlers on many instances. Each session is a hash
 * (`payload`, `version`) beside a lease key holding a random token with an expiry
 * (`SET NX PX`) and, with the same expiry, the holder's note of itself (its process and lease
 * length, which a refused turn reads to say who holds the chat); Lua scripts renew and
 * release the lease only for the token that holds it, and check the lease and version in the
 * same step as the save. `ttlMs` becomes the session key's own Redis expiry. A crashed
 * holder's lease key expires after `leaseMs`. The store's own client (from `url`) fails at
 * once when nothing answers at the address, and reconnects by itself after a connection it
 * had is lost.
 *
 * @example
 * const store = createRedisSessionStore({ url: process.env.REDIS_URL });
 * await store.withSession(chatId, async (session) => runTurn(session));
 */
export function createRedisSessionStore(options: RedisSessionStoreOptions): SessionStore {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`Expected createRedisSessionStore options with \`url\` or \`client\`, got \`${String(options)}\`.`);
  }
  const { url, client, prefix = 'toolbelt:', ...defaults } = options;
  if ((url === undefined) === (client === undefined)) {
    throw new TypeError(
      `Expected exactly one of the \`url\` and \`client\` options of createRedisSessionStore, got ${url === undefined ? 'neither' : 'both'}. Pass url: process.env.REDIS_URL, or a client from createClient().`,
    );
  }
  if (url !== undefined && (typeof url !== 'string' || !/^rediss?:\/\//.test(url))) {
    throw new TypeError(`Expected the \`url\` option to be a redis:// or rediss:// URL, got \`${String(url)}\` (${typeof url}).`);
  }
  if (client !== undefined && (typeof client !== 'object' || client === null || typeof client.sendCommand !== 'function')) {
    throw new TypeError(`Expected the \`client\` option to be a client from redis's createClient(), got \`${String(client)}\` (${typeof client}).`);
  }
  if (typeof prefix !== 'string') throw new TypeError(`Expected the \`prefix\` option to be a string, got \`${String(prefix)}\` (${typeof prefix}).`);

  if (client !== undefined) return createSessionStore(new RedisBackend(givenConnection(client), `the Redis session store (prefix ${JSON.stringify(prefix)})`, prefix), defaults);
  const connection = ownConnection(url!, defaults.operationTimeoutMs ?? DEFAULT_SESSION_OPERATION_TIMEOUT_MS);
  return createSessionStore(new RedisBackend(connection, `the Redis session store at ${withoutCredentials(url!)} (prefix ${JSON.stringify(prefix)})`, prefix), defaults);
}

function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString().replace(/\/$/, '');
}

/** A session hash's fields as HMGET returns them (a Lua nil arrives as null). */
function parseStored(payload: string | number | null, version: string | number | null): StoredSession {
  return { json: typeof payload === 'string' ? (JSON.parse(payload) as SessionJSON) : undefined, version: version === null ? 0 : Number(version) };
}

const sha1 = (script: string) => createHash('sha1').update(script).digest('hex');

class RedisBackend implements SessionStoreBackend {
  readonly description: string;
  readonly #connection: RedisConnection;
  readonly #client: RedisSessionClient;
  readonly #prefix: string;
  #connected: Promise<unknown> | undefined;

  constructor(connection: RedisConnection, description: string, prefix: string) {
    this.#connection = connection;
    this.#client = connection.client;
    this.description = description;
    this.#prefix = prefix;
  }

  // The hash tag (the id in braces) keeps a session's keys in one slot of a Redis Cluster.
  #sessionKey = (id: string) => `${this.#prefix}{${id}}:session`;
  #leaseKey = (id: string) => `${this.#prefix}{${id}}:lease`;
  #holderKey = (id: string) => `${this.#prefix}{${id}}:holder`;

  async #send(args: string[]): Promise<unknown> {
    // Connect when not connected; every command waits for that connection (later reconnects are the client's own).
    if (this.#connected === undefined && this.#client.isOpen === false && this.#client.connect !== undefined) {
      this.#connected = this.#client.connect().finally(() => (this.#connected = undefined));
    }
    try {
      if (this.#connected !== undefined) await this.#connected;
      return await this.#client.sendCommand(args);
    } catch (error) {
      throw this.#connection.explain(error);
    }
  }

  /** EVALSHA, loading the script with EVAL the first time a server has not seen it. */
  async #script(script: string, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await this.#send(['EVALSHA', sha1(script), String(keys.length), ...keys, ...args]);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return this.#send(['EVAL', script, String(keys.length), ...keys, ...args]);
    }
  }

  async read(id: string): Promise<StoredSession> {
    const [payload, version] = (await this.#send(['HMGET', this.#sessionKey(id), 'payload', 'version'])) as [string | null, string | null];
    return parseStored(payload, version);
  }

  async write(id: string, text: string, options: WriteOptions): Promise<WriteOutcome> {
    const reply = (await this.#script(
      SAVE,
      [this.#sessionKey(id), this.#leaseKey(id), this.#holderKey(id)],
      [text, String(options.expectedVersion), options.leaseToken ?? '', options.ttlMs === undefined ? '' : String(options.ttlMs), options.release ? '1' : ''],
    )) as [number, string | number, number?];
    if (reply[0] === 1) return { written: true, version: Number(reply[1]), released: reply[2] === 1 };
    return { written: false, reason: reply[1] as 'lease' | 'busy' | 'version', storedVersion: Number(reply[2]) };
  }

  async remove(id: string): Promise<void> {
    await this.#send(['DEL', this.#sessionKey(id), this.#leaseKey(id), this.#holderKey(id)]);
  }

  async acquire(id: string, token: string, leaseMs: number, holder?: string): Promise<LeaseOutcome> {
    const keys = [this.#leaseKey(id), this.#sessionKey(id), this.#holderKey(id)];
    const reply = (await this.#script(ACQUIRE, keys, [token, String(leaseMs), holder ?? ''])) as [number, ...Array<string | number | null>];
    if (reply[0] === 1) return { acquired: true, stored: parseStored(reply[1] ?? null, reply[2] ?? null) };
    const remaining = Number(reply[1]);
    const note = typeof reply[2] === 'string' ? reply[2] : undefined;
    // A lease key without expiry (PTTL -1) was not set by a store: wait the whole lease, then try again.
    return { acquired: false, retryInMs: remaining < 0 ? leaseMs : Math.max(1, remaining), holder: note };
  }

  async renew(id: string, token: string, leaseMs: number): Promise<boolean> {
    return Number(await this.#script(RENEW, [this.#leaseKey(id), this.#holderKey(id)], [token, String(leaseMs)])) === 1;
  }

  async release(id: string, token: string): Promise<void> {
    await this.#script(RELEASE, [this.#leaseKey(id), this.#holderKey(id)], [token]);
  }

  close(timeoutMs: number): Promise<void> {
    return this.#connection.close(timeoutMs);
  }
}
