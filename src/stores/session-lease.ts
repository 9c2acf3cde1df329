import { setTimeout as sleep } from 'node:timers/promises';
import { SessionBusyError } from '../errors/session-busy-error.js';
import { SessionLeaseLostError } from '../errors/session-lease-lost-error.js';
import type { BackendCall } from './backend-call.js';
import { describeHolder, holderTag, renewalInterval } from './lease-holder.js';
import type { ReleaseWatcher, SessionStoreBackend, StoredSession } from './store-backend.js';
import type { ResolvedTurnOptions } from './store-options.js';
import type { TurnPlace } from './turn-queue.js';

/** The longest a polling waiter sleeps between attempts; a release is noticed this fast. */
const MAX_POLL_MS = 50;

/** One turn's wait for a lease: whose, with which token, until when. */
export interface LeaseRequest {
  readonly id: string;
  readonly token: string;
  readonly turn: ResolvedTurnOptions;
  /** When the wait ends (the turn's `waitMs` from when it started, including its wait in line). */
  readonly deadline: number;
  readonly signal: AbortSignal | undefined;
  /** The turn's place in its store's line, told what each refusal said. */
  readonly place: TurnPlace;
}

/**
 * Waits until `request.deadline` for the lease of a session and takes it; resolves with the
 * session when the backend read it in the same round trip. Woken by the backend's release
 * notices where it has them, else a short poll; throws `SessionBusyError`, saying what holds
 * the session, when the wait runs out.
 */
export async function acquireLease(backend: SessionStoreBackend, call: BackendCall, request: LeaseRequest): Promise<StoredSession | undefined> {
  const { id, token, turn, deadline, signal, place } = request;
  const holder = holderTag(turn.leaseMs);
  let watcher: ReleaseWatcher | undefined;
  let pause = 5;
  try {
    for (;;) {
      signal?.throwIfAborted();
      const outcome = await call('lease', id, () => backend.acquire(id, token, turn.leaseMs, holder)).catch((error: unknown) => {
        // An attempt that timed out may still take the lease when the store answers: hand it back then.
        void call('release', id, () => backend.release(id, token)).catch(() => undefined);
        throw error;
      });
      if (outcome.acquired) return outcome.stored;
      const refusal = { retryInMs: outcome.retryInMs, holder: outcome.holder, at: Date.now() };
      place.heard(refusal);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new SessionBusyError(id, turn.waitMs, { holder: describeHolder(refusal, Date.now()) });
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
  const every = renewalInterval(leaseMs);
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
