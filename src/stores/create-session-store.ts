import { randomUUID } from 'node:crypto';
import { setImmediate as nextTick } from 'node:timers/promises';
import { SessionBusyError } from '../errors/session-busy-error.js';
import { SessionLeaseLostError } from '../errors/session-lease-lost-error.js';
import { SessionVersionError } from '../errors/session-version-error.js';
import { createSession, restoreParsedSession, type Session } from '../session.js';
import { SessionStoreError } from '../errors/session-store-error.js';
import { type BackendCall, createBackendCall } from './backend-call.js';
import { acquireLease, type LeaseRequest, startRenewal } from './session-lease.js';
import type { SaveSessionOptions, SessionStore, SessionTurn, WithSessionOptions } from './session-store.js';
import type { SessionStoreBackend, WriteOutcome } from './store-backend.js';
import {
  assertSessionId,
  assertStoreTimings,
  DEFAULT_SESSION_LEASE_MS,
  DEFAULT_SESSION_OPERATION_TIMEOUT_MS,
  DEFAULT_SESSION_WAIT_MS,
  type ResolvedTurnOptions,
  type SessionStoreDefaults,
} from './store-options.js';
import { TurnQueue } from './turn-queue.js';

/**
 * The version each session object was loaded or last saved at, so `save` can refuse to
 * write over a version it did not start from. Kept beside the session, not in its JSON, so
 * `toJSON()` stays what it was; any instance of the store may save it.
 */
const loadedVersions = new WeakMap<Session, number>();

/** What every operation of one store works with. */
interface StoreParts {
  readonly backend: SessionStoreBackend;
  readonly defaults: SessionStoreDefaults;
  readonly call: BackendCall;
  readonly operationTimeoutMs: number;
  /** This store's turns waiting for each session, first come first served. */
  readonly queue: TurnQueue;
}

/** How much longer than `operationTimeoutMs` a backend's close may take before `close()` gives up on it. */
const CLOSE_GRACE_MS = 1_000;

/**
 * Builds a {@link SessionStore} on a storage system's primitives: the lease wait (turns of one
 * store queue for a session in order, and the first is woken by the backend's release notices
 * where it has them, else a short poll), renewal while the turn runs, the versioned save, and
 * errors that name the store. The three built-in stores are made this way; use it for another
 * storage system, and run `test/stores/contract.ts` against it.
 */
export function createSessionStore(backend: SessionStoreBackend, defaults: SessionStoreDefaults = {}): SessionStore {
  assertStoreTimings(defaults, backend.description);
  const operationTimeoutMs = defaults.operationTimeoutMs ?? DEFAULT_SESSION_OPERATION_TIMEOUT_MS;
  let closed: Promise<void> | undefined;
  const call = createBackendCall(backend.description, operationTimeoutMs, () => closed !== undefined);
  const store: StoreParts = { backend, defaults, call, operationTimeoutMs, queue: new TurnQueue() };

  return {
    description: backend.description,
    withSession: (id, fn, options) => withSession(store, id, fn, options),
    load: (id) => load(store, id),
    save: (session, options) => save(store, session, options),
    delete: async (id) => {
      assertSessionId(id);
      await call('delete', id, () => backend.remove(id));
    },
    close: () => (closed ??= closeWithin(backend, operationTimeoutMs)),
  };
}

/** The backend's close, given `operationTimeoutMs` to finish (forcibly if need be), and a last bound in case it does not. */
async function closeWithin(backend: SessionStoreBackend, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    const limit = timeoutMs + CLOSE_GRACE_MS;
    timer = setTimeout(() => reject(new SessionStoreError(backend.description, 'close', undefined, new Error(`its connections did not close within ${limit} ms`))), limit);
  });
  try {
    await Promise.race([backend.close(timeoutMs), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function withSession<T>(store: StoreParts, id: string, fn: (session: Session, turn: SessionTurn) => T | Promise<T>, options: WithSessionOptions = {}): Promise<T> {
  assertSessionId(id);
  if (typeof fn !== 'function') throw new TypeError(`Expected the second argument of withSession to be the turn, a function of the session, got \`${String(fn)}\` (${typeof fn}).`);
  const turn = resolveTurn(options, store.defaults);
  const deadline = Date.now() + turn.waitMs;
  const place = await store.queue.enter(id, turn.waitMs, deadline, options.signal);
  try {
    return await runTurn(store, { id, token: randomUUID(), turn, deadline, signal: options.signal, place }, fn);
  } finally {
    place.leave();
  }
}

/** Takes the lease, loads, runs `fn`, saves and releases: one turn, for the first turn in its store's line. */
async function runTurn<T>(store: StoreParts, request: LeaseRequest, fn: (session: Session, turn: SessionTurn) => T | Promise<T>): Promise<T> {
  const { backend, call, operationTimeoutMs } = store;
  const { id, token, turn } = request;
  const leased = await acquireLease(backend, call, request);
  request.place.running();

  const lost = new AbortController();
  const renewal = startRenewal(backend, call, id, token, turn.leaseMs, lost);
  let session: Session | undefined;
  let released = false;
  // From the end of fn, the save and the release share one operationTimeoutMs: a store that
  // stops answering fails the turn after that long, not after one timeout for each.
  let endsBy: number | undefined;
  try {
    const stored = leased ?? (await call('load', id, () => backend.read(id)));
    // Parsing, copying and serialising a large session are each a long synchronous step: a
    // turn of the event loop between them keeps any one block short.
    await nextTick();
    session = stored.json === undefined ? createSession({ id }) : restoreParsedSession(stored.json);
    const signal = request.signal === undefined ? lost.signal : AbortSignal.any([lost.signal, request.signal]);
    let result: T;
    try {
      result = await fn(session, { id, version: stored.version, signal });
    } finally {
      endsBy = Date.now() + operationTimeoutMs;
      renewal.stop();
    }
    if (lost.signal.aborted) throw lost.signal.reason;
    const text = session.toJSONText();
    await nextTick();
    const write = () => backend.write(id, text, { expectedVersion: stored.version, leaseToken: token, ttlMs: turn.ttlMs, release: true });
    const outcome = await call('save', id, write, Math.max(1, endsBy - Date.now()));
    if (!outcome.written) throw refusal(backend, id, outcome, stored.version);
    released = outcome.released === true;
    return result;
  } finally {
    renewal.stop();
    await session?.close();
    if (!released) await release(store, id, token, endsBy ?? Date.now() + operationTimeoutMs);
  }
}

/**
 * Releases the lease, waiting at most until `endsBy`; past it, the release goes on in the
 * background. A release that fails leaves the lease to expire on its own after leaseMs.
 */
async function release({ backend, call, operationTimeoutMs }: StoreParts, id: string, token: string, endsBy: number): Promise<void> {
  const remaining = endsBy - Date.now();
  const done = call('release', id, () => backend.release(id, token), remaining > 0 ? remaining : operationTimeoutMs).catch(() => undefined);
  if (remaining > 0) await done;
}

function resolveTurn(options: WithSessionOptions, defaults: SessionStoreDefaults): ResolvedTurnOptions {
  assertStoreTimings(options, 'withSession');
  return {
    waitMs: options.waitMs ?? defaults.waitMs ?? DEFAULT_SESSION_WAIT_MS,
    leaseMs: options.leaseMs ?? defaults.leaseMs ?? DEFAULT_SESSION_LEASE_MS,
    ttlMs: options.ttlMs ?? defaults.ttlMs,
  };
}

async function load({ backend, call }: StoreParts, id: string): Promise<Session | undefined> {
  assertSessionId(id);
  const stored = await call('load', id, () => backend.read(id));
  if (stored.json === undefined) return undefined;
  const session = restoreParsedSession(stored.json);
  loadedVersions.set(session, stored.version);
  return session;
}

async function save({ backend, defaults, call }: StoreParts, session: Session, options: SaveSessionOptions = {}): Promise<number> {
  if (typeof session !== 'object' || session === null || typeof session.toJSON !== 'function') {
    throw new TypeError(`Expected a Session from createSession() or store.load(), got \`${String(session)}\` (${typeof session}).`);
  }
  assertStoreTimings(options, 'save');
  const expectedVersion = loadedVersions.get(session) ?? 0;
  const text = session.toJSONText();
  const outcome = await call('save', session.id, () =>
    backend.write(session.id, text, { expectedVersion, leaseToken: undefined, ttlMs: options.ttlMs ?? defaults.ttlMs }),
  );
  if (!outcome.written) throw refusal(backend, session.id, outcome, expectedVersion);
  loadedVersions.set(session, outcome.version);
  return outcome.version;
}

/** The error for a write the backend refused, by the reason it gave. */
function refusal(backend: SessionStoreBackend, id: string, outcome: Extract<WriteOutcome, { written: false }>, expectedVersion: number): Error {
  if (outcome.reason === 'lease') return new SessionLeaseLostError(id, backend.description);
  if (outcome.reason === 'busy') return new SessionBusyError(id, 0);
  return new SessionVersionError(id, expectedVersion, outcome.storedVersion);
}
