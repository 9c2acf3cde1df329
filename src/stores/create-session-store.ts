import { randomUUID } from 'node:crypto';
import { setImmediate as nextTick } from 'node:timers/promises';
import { SessionBusyError } from '../errors/session-busy-error.js';
import { SessionLeaseLostError } from '../errors/session-lease-lost-error.js';
import { SessionVersionError } from '../errors/session-version-error.js';
import { createSession, restoreParsedSession, type Session } from '../session.js';
import { type BackendCall, createBackendCall } from './backend-call.js';
import { acquireLease, startRenewal } from './session-lease.js';
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
}

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
  const call = createBackendCall(backend.description, operationTimeoutMs, () => closed !== undefined);
  const store: StoreParts = { backend, defaults, call };

  return {
    description: backend.description,
    withSession: (id, fn, options) => withSession(store, id, fn, options),
    load: (id) => load(store, id),
    save: (session, options) => save(store, session, options),
    delete: async (id) => {
      assertSessionId(id);
      await call('delete', id, () => backend.remove(id));
    },
    close: () => (closed ??= backend.close()),
  };
}

async function withSession<T>(
  { backend, defaults, call }: StoreParts,
  id: string,
  fn: (session: Session, turn: SessionTurn) => T | Promise<T>,
  options: WithSessionOptions = {},
): Promise<T> {
  assertSessionId(id);
  if (typeof fn !== 'function') throw new TypeError(`Expected the second argument of withSession to be the turn, a function of the session, got \`${String(fn)}\` (${typeof fn}).`);
  const turn = resolveTurn(options, defaults);
  const token = randomUUID();
  const leased = await acquireLease(backend, call, id, token, turn, options.signal);

  const lost = new AbortController();
  const renewal = startRenewal(backend, call, id, token, turn.leaseMs, lost);
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
    if (!outcome.written) throw refusal(backend, id, outcome, stored.version);
    released = outcome.released === true;
    return result;
  } finally {
    renewal.stop();
    await session?.close();
    // A release that fails leaves the lease to expire on its own after leaseMs.
    if (!released) await call('release', id, () => backend.release(id, token)).catch(() => undefined);
  }
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
