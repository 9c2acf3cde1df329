import type { SessionJSON } from '../session.js';

/** A stored session as a backend reads it: its JSON (absent when never saved or expired) and version. */
export interface StoredSession {
  /**
   * Parsed for this call and not kept by the backend: the store's session takes these objects
   * over without copying them. A backend that keeps objects in memory returns a copy.
   */
  readonly json: SessionJSON | undefined;
  /** `0` when the session was never saved. */
  readonly version: number;
}

/** How a backend writes: see {@link SessionStoreBackend.write}. */
export interface WriteOptions {
  readonly expectedVersion: number;
  readonly leaseToken: string | undefined;
  readonly ttlMs: number | undefined;
  readonly release?: boolean;
}

/** What a backend's conditional write did. */
export type WriteOutcome =
  /** `released`: the backend also released the lease in the same step, as asked with `release`. */
  | { readonly written: true; readonly version: number; readonly released?: boolean }
  /** `lease`: the write carried a lease token the store no longer holds. `busy`: a write without one while a turn holds the lease. `version`: the stored version was not the expected one. */
  | { readonly written: false; readonly reason: 'lease' | 'busy' | 'version'; readonly storedVersion: number };

/**
 * A lease attempt: taken, or held by someone else for about `retryInMs` more. A backend that
 * can read the session in the same round trip returns it as `stored`, and no separate read
 * follows. A refusal carries the `holder` text the current holder's `acquire` stored, when the
 * backend keeps it: the store reads from it who holds the session and whether it still renews.
 */
export type LeaseOutcome =
  | { readonly acquired: true; readonly stored?: StoredSession }
  | { readonly acquired: false; readonly retryInMs: number; readonly holder?: string };

/** Wakes a waiter when a session's lease is released, so it need not poll. */
export interface ReleaseWatcher {
  /** Resolves when the lease was released since the last call (or is released now), or after `timeoutMs`. */
  wait(timeoutMs: number): Promise<void>;
  close(): void;
}

/**
 * The primitives one storage system provides; `createSessionStore` builds the
 * {@link SessionStore} contract (waiting, renewal, saving, errors) on top of them, so every
 * store behaves the same. Each method does one atomic step in the storage system.
 */
export interface SessionStoreBackend {
  /** The store as messages name it, e.g. `the Redis session store at redis://127.0.0.1:6379 (prefix "toolbelt:")`. */
  readonly description: string;
  read(id: string): Promise<StoredSession>;
  /**
   * Writes `text` (the session's JSON text, from `session.toJSONText()`) as version `expectedVersion + 1` if the stored version is `expectedVersion`
   * and, with `leaseToken`, that lease is still held (without one, when no lease is held).
   * `ttlMs` undefined: no expiry. With `release`, a backend may release the lease in the same
   * step when the write succeeds, and say so with `released`.
   */
  write(id: string, text: string, options: WriteOptions): Promise<WriteOutcome>;
  remove(id: string): Promise<void>;
  /**
   * Takes the lease with `token` for `leaseMs` when nobody holds it or the holder's lease has
   * expired. `holder` is a short text about the taker (its process and lease length) to keep
   * beside the lease, for as long as it lasts, and return in refusals; a backend may ignore it.
   */
  acquire(id: string, token: string, leaseMs: number, holder?: string): Promise<LeaseOutcome>;
  /** Extends the lease held with `token`; false when it is no longer held with that token. */
  renew(id: string, token: string, leaseMs: number): Promise<boolean>;
  /** Releases the lease if it is still held with `token`. */
  release(id: string, token: string): Promise<void>;
  /** Optional: notifications of released leases (Postgres LISTEN/NOTIFY); without it waiters poll. */
  watch?(id: string): Promise<ReleaseWatcher>;
  /**
   * Closes what the backend opened, within `timeoutMs` (the store's `operationTimeoutMs`):
   * connections that do not end in time, such as those to a host that stopped answering, are
   * destroyed rather than waited for.
   */
  close(timeoutMs: number): Promise<void>;
}
