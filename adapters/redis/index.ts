/** @module agent-toolbelt/stores/redis: the session store on Redis, with the official `redis` client (node-redis). */
import { createHash } from 'node:crypto';
import { createClient } from 'redis';
import {
  createSessionStore,
  type LeaseOutcome,
  type SessionJSON,
  type SessionStore,
  type SessionStoreBackend,
  type SessionStoreDefaults,
  type StoredSession,
  type WriteOptions,
  type WriteOutcome,
} from '../../src/index.js';

/** The part of a node-redis client the store uses; any `createClient()` client fits. */
export interface RedisSessionClient {
  sendCommand(args: readonly string[]): Promise<unknown>;
  readonly isOpen?: boolean;
  connect?(): Promise<unknown>;
}

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
 * Takes the lease when free and reads the session in the same step: `{1, payload, version}`
 * when taken, else `{0, the holder's remaining milliseconds}`.
 */
const ACQUIRE = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local stored = redis.call('HMGET', KEYS[2], 'payload', 'version')
  return {1, stored[1], stored[2]}
end
return {0, redis.call('PTTL', KEYS[1])}`;
/** Extends the lease only for its owner. */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;
/** Deletes the lease only for its owner. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;
/**
 * The versioned save, checked and written in one script (and, when asked, the lease released):
 * `{1, version, released?}` when written, `{0, reason, storedVersion}` when refused.
 */
const SAVE = `local lease = redis.call('GET', KEYS[2])
local stored = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if ARGV[3] ~= '' then
  if lease ~= ARGV[3] then return {0, 'lease', stored} end
elseif lease then
  return {0, 'busy', stored}
end
if stored ~= tonumber(ARGV[2]) then return {0, 'version', stored} end
local version = stored + 1
redis.call('HSET', KEYS[1], 'payload', ARGV[1], 'version', version)
if ARGV[4] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[4]) else redis.call('PERSIST', KEYS[1]) end
if ARGV[5] == '1' and ARGV[3] ~= '' then
  redis.call('DEL', KEYS[2])
  return {1, version, 1}
end
return {1, version}`;

/**
 * A session store in Redis, for route handlers on many instances. Each session is a hash
 * (`payload`, `version`) beside a lease key holding a random token with an expiry
 * (`SET NX PX`); Lua scripts renew and release the lease only for the token that holds it,
 * and check the lease and version in the same step as the save. `ttlMs` becomes the
 * session key's own Redis expiry. A crashed holder's lease key expires after `leaseMs`.
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

  if (client !== undefined) return createSessionStore(new RedisBackend(client, false, `the Redis session store (prefix ${JSON.stringify(prefix)})`, prefix), defaults);
  const own = createClient({
    url,
    // Fail commands while disconnected instead of queueing them, so a down server is an error, not a hang.
    disableOfflineQueue: true,
    socket: { connectTimeout: 5_000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000) },
  });
  own.on('error', () => undefined); // reported by the failing commands; without a listener it would end the process
  return createSessionStore(new RedisBackend(own as RedisSessionClient, true, `the Redis session store at ${withoutCredentials(url!)} (prefix ${JSON.stringify(prefix)})`, prefix, () => own.close()), defaults);
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
  readonly #client: RedisSessionClient;
  readonly #ownsClient: boolean;
  readonly #prefix: string;
  readonly #end: (() => Promise<unknown>) | undefined;
  #connected: Promise<unknown> | undefined;

  constructor(client: RedisSessionClient, ownsClient: boolean, description: string, prefix: string, end?: () => Promise<unknown>) {
    this.#client = client;
    this.#ownsClient = ownsClient;
    this.description = description;
    this.#prefix = prefix;
    this.#end = end;
  }

  // The hash tag (the id in braces) keeps a session's two keys in one slot of a Redis Cluster.
  #sessionKey = (id: string) => `${this.#prefix}{${id}}:session`;
  #leaseKey = (id: string) => `${this.#prefix}{${id}}:lease`;

  async #send(args: string[]): Promise<unknown> {
    // Connect once; every command waits for that first connection (later reconnects are the client's own).
    if (this.#connected === undefined && this.#client.isOpen === false && this.#client.connect !== undefined) {
      this.#connected = this.#client.connect().catch((error: unknown) => {
        this.#connected = undefined;
        throw error;
      });
    }
    if (this.#connected !== undefined) await this.#connected;
    return this.#client.sendCommand(args);
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
      [this.#sessionKey(id), this.#leaseKey(id)],
      [text, String(options.expectedVersion), options.leaseToken ?? '', options.ttlMs === undefined ? '' : String(options.ttlMs), options.release ? '1' : ''],
    )) as [number, string | number, number?];
    if (reply[0] === 1) return { written: true, version: Number(reply[1]), released: reply[2] === 1 };
    return { written: false, reason: reply[1] as 'lease' | 'busy' | 'version', storedVersion: Number(reply[2]) };
  }

  async remove(id: string): Promise<void> {
    await this.#send(['DEL', this.#sessionKey(id), this.#leaseKey(id)]);
  }

  async acquire(id: string, token: string, leaseMs: number): Promise<LeaseOutcome> {
    const reply = (await this.#script(ACQUIRE, [this.#leaseKey(id), this.#sessionKey(id)], [token, String(leaseMs)])) as [number, ...Array<string | number | null>];
    if (reply[0] === 1) return { acquired: true, stored: parseStored(reply[1] ?? null, reply[2] ?? null) };
    const remaining = Number(reply[1]);
    // A lease key without expiry (PTTL -1) was not set by a store: wait the whole lease, then try again.
    return { acquired: false, retryInMs: remaining < 0 ? leaseMs : Math.max(1, remaining) };
  }

  async renew(id: string, token: string, leaseMs: number): Promise<boolean> {
    return Number(await this.#script(RENEW, [this.#leaseKey(id)], [token, String(leaseMs)])) === 1;
  }

  async release(id: string, token: string): Promise<void> {
    await this.#script(RELEASE, [this.#leaseKey(id)], [token]);
  }

  async close(): Promise<void> {
    if (this.#ownsClient && this.#client.isOpen !== false) await this.#end?.();
  }
}
