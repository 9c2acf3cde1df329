import type { Session } from '../session.js';

/** How one `withSession` turn waits for, holds and keeps its session. */
export interface WithSessionOptions {
  /**
   * How long to wait for another turn of the same session to finish before throwing a
   * `SessionBusyError`. `0` fails at once when the session is busy. Keep it above `leaseMs`
   * for a turn that comes after a crashed one to outwait the lease it left.
   * @default 10_000
   */
  readonly waitMs?: number;
  /**
   * How long the lease lasts without renewal. The turn renews it every third of this while
   * it runs, so a long turn keeps it; a holder that dies (a crashed or killed instance)
   * blocks the session for at most this long. A turn whose process stalls for longer than
   * two thirds of it (a blocked event loop) may lose its lease, and its save is refused.
   * @default 5_000
   */
  readonly leaseMs?: number;
  /**
   * Deletes the session when no turn saved it for this long (idle chats). Each save starts
   * the clock again. Unset: kept until `delete(id)`.
   */
  readonly ttlMs?: number;
  /** Stops waiting for the lease, and is passed on to the turn as part of `turn.signal`. */
  readonly signal?: AbortSignal;
}

/** What a turn knows besides its session. */
export interface SessionTurn {
  /** The session id. */
  readonly id: string;
  /** The stored version this turn started from; `0` for a session that was never saved. */
  readonly version: number;
  /**
   * Aborted when the turn's lease is lost (it could not be renewed in time) or when the
   * caller's `signal` aborts. Pass it to the model call so a turn that can no longer save
   * stops early.
   */
  readonly signal: AbortSignal;
}

/** Options of `store.save(session)` outside a turn. */
export interface SaveSessionOptions {
  /** As in {@link WithSessionOptions.ttlMs}; unset uses the store's default. */
  readonly ttlMs?: number;
}

/**
 * Where conversations' sessions live between requests, shared by every process that opens
 * it: the file store (`createFileSessionStore`, one machine), Postgres
 * (`agent-toolbelt/stores/postgres`) or Redis (`agent-toolbelt/stores/redis`).
 *
 * `withSession` is the call a route handler makes: it runs one turn of one chat at a time
 * across every process, loads the session (or creates it with that id), runs the turn and
 * saves it. `load`, `save` and `delete` are for hosts that manage turns themselves; saves
 * are versioned, so a save never overwrites a version it did not start from.
 */
export interface SessionStore {
  /** The store as messages name it, e.g. `the file session store in /var/chats`. */
  readonly description: string;
  /**
   * Runs one turn: waits for the session's lease (up to `waitMs`, then `SessionBusyError`),
   * loads the session or creates it with `id`, runs `fn`, saves the session when `fn`
   * returns, and releases the lease. When `fn` throws nothing is saved. The session is
   * closed after the turn (background jobs it started in this process stop). Returns what
   * `fn` returned.
   */
  withSession<T>(id: string, fn: (session: Session, turn: SessionTurn) => T | Promise<T>, options?: WithSessionOptions): Promise<T>;
  /** The stored session, or `undefined` when there is none (or it expired). Takes no lease: for reading, such as a task panel. */
  load(id: string): Promise<Session | undefined>;
  /**
   * Saves a session outside a turn. The save succeeds only if the stored version is the one
   * this session was loaded at (or none is stored, for a new session) and no turn holds the
   * session; else it throws `SessionVersionError` or `SessionBusyError` and writes nothing.
   * Returns the new version.
   */
  save(session: Session, options?: SaveSessionOptions): Promise<number>;
  /** Deletes the session and its lease; a turn running on it can no longer save. */
  delete(id: string): Promise<void>;
  /** Closes the store's connections (never a pool or client it was given). Safe to call twice. */
  close(): Promise<void>;
}
