import { randomUUID } from 'node:crypto';
import { setImmediate as nextTick, setTimeout as sleep } from 'node:timers/promises';
import { SessionBusyError } from '../errors/session-busy-error.js';
import { SessionLeaseLostError } from '../errors/session-lease-lost-error.js';
import { SessionStoreError } from '../errors/session-store-error.js';
import { SessionVersionError } from '../errors/session-version-error.js';
import { createSession, restoreParsedSession, type Session } from '../session.js';
import type { SaveSessionOptions, SessionStore, SessionTurn, WithSessionOptions } from './session-store.js';
import type { ReleaseWatcher, SessionStoreBackend, StoredSession, WriteOutcome } from './store-backend.js';
import {
  assertSessionId,
  assertStoreTimings,
  DEFAULT_SESSION_LEASE_MS,
  DEFAULT_SESSION_OPERATION_TIMEOUT_MS,
  DEFAULT_SESSION_WAIT_MS,
  type ResolvedTurnOptions,
  type SessionStoreDefaults,
} from './store-options.js';

/** The longest a polling waiter sleeps between attempts; a release is noticed this fast. */
const MAX_POLL_MS = 50;

/**
 * The version each session object was loaded or last saved at, so `save` can refuse to
 * write over a version it did not start from. Kept beside the session, not in its JSON, so
 * `toJSON()` stays what it was; any instance of the store may save it.
 */
const loadedVersions = new WeakMap<Session, number>();

/**
 * Builds a {@link SessionStore} on a storage system's primitives: the lease wait (woken by
 * the backend's release notices where it has them, else a short poll), renewal while the
 * turn runs, the versioned save, and errors that name the store. The three built-in stores
 * are made this way; use it for another storage system, and run `test/stores/contract.ts`
 * against it.
 */
export function createSessionStore(backend: SessionStoreBackend, defaults: SessionStoreDefaults = {}): SessionStore {
  assertStoreTimings(defaults, backend.description);
  const operationTimeoutMs = defaults.operationTimeoutMs ?? DEFAULT_SESSION_OPERATION_TIMEOUT_MS;
  let closed: Promise<void> | undefined;

  /** One backend call, bounded in time, its failures turned into a SessionStoreError naming the store. */
  async function call<T>(operation: string, id: string | undefined, run: () => Promise<T>, timeoutMs = operationTimeoutMs): Promise<T> {
    if (closed !== undefined) throw new SessionStoreError(backend.description, operation, id, new Error('the store was closed'));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([run(), timeout]);
    } catch (error) {
      throw error instanceof SessionStoreError ? error : new SessionStoreError(backend.description, operation, id, error);
    } finally {
      clearTimeout(timer);
    }
  }

  function resolveTurn(options: WithSessionOptions): ResolvedTurnOptions {
    assertStoreTimings(options, 'withSession');
    return {
      waitMs: options.waitMs ?? defaults.waitMs ?? DEFAULT_SESSION_WAIT_MS,
      leaseMs: options.leaseMs ?? defaults.leaseMs ?? DEFAULT_SESSION_LEASE_MS,
      ttlMs: options.ttlMs ?? defaults.ttlMs,
    };
  }

  function refusal(id: string, outcome: Extract<WriteOutcome, { written: false }>, expectedVersion: number): Error {
    if (outcome.reason === 'lease') return new SessionLeaseLostError(id, backend.description);
    if (outcome.reason === 'busy') return new SessionBusyError(id, 0);
    return new SessionVersionError(id, expectedVersion, outcome.storedVersion);
  }

  async function acquire(id: string, token: string, turn: ResolvedTurnOptions, signal: AbortSignal | undefined): Promise<StoredSession | undefined> {
    const deadline = Date.now() + turn.waitMs;
    let watcher: ReleaseWatcher | undefined;
    let pause = 5;
    try {
      for (;;) {
        signal?.throwIfAborted();
        const outcome = await call('lease', id, () => backend.acquire(id, token, turn.leaseMs));
        if (outcome.acquired) return outcome.stored;
        const remaining = deadline - Date.now();
        if (remaining <= 0) throw new SessionBusyError(id, turn.waitMs);
        // Listening starts after the first refusal, so an idle session costs one round trip.
        if (watcher === undefined && backend.watch !== undefined) {
          watcher = await call('lease', id, () => backend.watch!(id));
          continue; // the holder may have released while we started listening
        }
        const until = Math.max(1, Math.min(outcome.retryInMs, remaining));
        if (watcher !== undefined) {
          await raceAbort(watcher.wait(until), signal);
        } else {
          await sleep(Math.min(until, pause * (0.5 + Math.random())), undefined, signal === undefined ? undefined : { signal });
          pause = Math.min(MAX_POLL_MS, pause * 2);
        }
      }
    } finally {
      watcher?.close();
    }
  }

  async function withSession<T>(id: string, fn: (session: Session, turn: SessionTurn) => T | Promise<T>, options: WithSessionOptions = {}): Promise<T> {
    assertSessionId(id);
    if (typeof fn !== 'function') throw new TypeError(`Expected the second argument of withSession to be the turn, a function of the session, got \`${String(fn)}\` (${typeof fn}).`);
    const turn = resolveTurn(options);
    const token = randomUUID();
    const leased = await acquire(id, token, turn, options.signal);

    const lost = new AbortController();
    const renewal = startRenewal(id, token, turn.leaseMs, lost);
    let session: Session | undefined;
    let released = false;
    try {
      const stored = leased ?? (await call('load', id, () => backend.read(id)));
      // Parsing, copying and serialising a large session are each a long synchronous step: a
      // turn of the event loop between them keeps any one block short.
      await nextTick();
      session = stored.json === undefined ? createSession({ id }) : restoreParsedSession(stored.json);
      const signal = options.signal === undefined ? lost.signal : AbortSignal.any([lost.signal, options.signal]);
      const result = await fn(session, { id, version: stored.version, signal });
      renewal.stop();
      if (lost.signal.aborted) throw lost.signal.reason;
      const text = session.toJSONText();
      await nextTick();
      const outcome = await call('save', id, () => backend.write(id, text, { expectedVersion: stored.version, leaseToken: token, ttlMs: turn.ttlMs, release: true }));
      if (!outcome.written) throw refusal(id, outcome, stored.version);
      released = outcome.released === true;
      return result;
    } finally {
      renewal.stop();
      await session?.close();
      // A release that fails leaves the lease to expire on its own after leaseMs.
      if (!released) await call('release', id, () => backend.release(id, token)).catch(() => undefined);
    }
  }

  /** Renews the lease every third of `leaseMs`; aborts `lost` when the lease is gone or could not be renewed in time. */
  function startRenewal(id: string, token: string, leaseMs: number, lost: AbortController) {
    let heldUntil = Date.now() + leaseMs;
    let inFlight = false;
    const every = Math.max(10, Math.floor(leaseMs / 3));
    const timer = setInterval(() => {
      if (inFlight || lost.signal.aborted) return;
      inFlight = true;
      const sentAt = Date.now();
      call('renew', id, () => backend.renew(id, token, leaseMs), every)
        .then(
          (held) => {
            if (held) heldUntil = sentAt + leaseMs;
            else lost.abort(new SessionLeaseLostError(id, backend.description));
          },
          (error: unknown) => {
            if (Date.now() >= heldUntil) lost.abort(new SessionLeaseLostError(id, backend.description, { cause: error }));
          },
        )
        .finally(() => (inFlight = false));
    }, every);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  async function load(id: string): Promise<Session | undefined> {
    assertSessionId(id);
    const stored = await call('load', id, () => backend.read(id));
    if (stored.json === undefined) return undefined;
    const session = restoreParsedSession(stored.json);
    loadedVersions.set(session, stored.version);
    return session;
  }

  async function save(session: Session, options: SaveSessionOptions = {}): Promise<number> {
    if (typeof session !== 'object' || session === null || typeof session.toJSON !== 'function') {
      throw new TypeError(`Expected a Session from createSession() or store.load(), got \`${String(session)}\` (${typeof session}).`);
    }
    assertStoreTimings(options, 'save');
    const expectedVersion = loadedVersions.get(session) ?? 0;
    const text = session.toJSONText();
    const outcome = await call('save', session.id, () =>
      backend.write(session.id, text, { expectedVersion, leaseToken: undefined, ttlMs: options.ttlMs ?? defaults.ttlMs }),
    );
    if (!outcome.written) throw refusal(session.id, outcome, expectedVersion);
    loadedVersions.set(session, outcome.version);
    return outcome.version;
  }

  return {
    description: backend.description,
    withSession,
    load,
    save,
    delete: async (id) => {
      assertSessionId(id);
      await call('delete', id, () => backend.remove(id));
    },
    close: () => (closed ??= backend.close()),
  };
}

/** Resolves with `promise`, or rejects with the signal's reason once it aborts. */
async function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  signal.throwIfAborted();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}
