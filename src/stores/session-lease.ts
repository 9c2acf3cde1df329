import { setTimeout as sleep } from 'node:timers/promises';
import { SessionBusyError } from '../errors/session-busy-error.js';
import { SessionLeaseLostError } from '../errors/session-lease-lost-error.js';
import type { BackendCall } from './backend-call.js';
import type { ReleaseWatcher, SessionStoreBackend, StoredSession } from './store-backend.js';
import type { ResolvedTurnOptions } from './store-options.js';

/** The longest a polling waiter sleeps between attempts; a release is noticed this fast. */
const MAX_POLL_MS = 50;

/**
 * Waits up to `turn.waitMs` for the lease of session `id` and takes it with `token`; resolves
 * with the session when the backend read it in the same round trip. Woken by the backend's
 * release notices where it has them, else a short poll; throws `SessionBusyError` when the
 * wait runs out.
 */
export async function acquireLease(
  backend: SessionStoreBackend,
  call: BackendCall,
  id: string,
  token: string,
  turn: ResolvedTurnOptions,
  signal: AbortSignal | undefined,
): Promise<StoredSession | undefined> {
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

/** Renews the lease every third of `leaseMs`; aborts `lost` when the lease is gone or could not be renewed in time. */
export function startRenewal(backend: SessionStoreBackend, call: BackendCall, id: string, token: string, leaseMs: number, lost: AbortController) {
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
