import { hostname } from 'node:os';
import type { SessionHolder } from '../errors/session-busy-error.js';

/**
 * Who holds a lease, as a waiter can tell it. A turn stores a short text beside its lease (its
 * process, host and lease length); a turn refused the lease gets that text back with the time
 * the lease has left, by the store's own clock. A live holder renews every third of its lease,
 * so the time left says how long ago it last renewed, and whether it has missed a renewal:
 * then it is a lease left behind (a turn that ended without releasing it, a process that died
 * or stalled), not a running turn.
 */

/** A lease's holder, as it stores itself beside the lease. */
interface HolderTag {
  readonly pid: number;
  readonly host: string;
  readonly leaseMs: number;
}

/** What one refused lease attempt heard, and when. */
export interface LeaseRefusal {
  readonly retryInMs: number;
  readonly holder: string | undefined;
  readonly at: number;
}

const host = hostname();

/** How often a turn renews a lease of `leaseMs`. */
export function renewalInterval(leaseMs: number): number {
  return Math.max(10, Math.floor(leaseMs / 3));
}

/** The text a turn stores beside its lease. */
export function holderTag(leaseMs: number): string {
  return JSON.stringify({ pid: process.pid, host, leaseMs } satisfies HolderTag);
}

function parseTag(text: string | undefined): HolderTag | undefined {
  if (text === undefined) return undefined;
  try {
    const tag = JSON.parse(text) as Partial<HolderTag>;
    if (Number.isSafeInteger(tag.pid) && typeof tag.host === 'string' && Number.isSafeInteger(tag.leaseMs) && tag.leaseMs! > 0) return tag as HolderTag;
  } catch {
    // Not a tag of this store (another version wrote the lease): nothing to tell.
  }
  return undefined;
}

/** A turn of this process that holds the session in the same store, running for `runningForMs`. */
export function runningHere(runningForMs: number): SessionHolder {
  return { state: 'running', thisProcess: true, pid: process.pid, host, runningForMs };
}

/**
 * What the last refusal says about the holder `now`: `running` while it renews on schedule
 * (with a margin for a late timer and a round trip), `stale` once it has missed a renewal.
 */
export function describeHolder(refusal: LeaseRefusal | undefined, now: number): SessionHolder | undefined {
  if (refusal === undefined) return undefined;
  const since = Math.max(0, now - refusal.at);
  const expiresInMs = Math.max(0, refusal.retryInMs - since);
  const tag = parseTag(refusal.holder);
  if (tag === undefined) return { state: 'unknown', thisProcess: false, expiresInMs };
  const renewedMsAgo = Math.max(0, tag.leaseMs - refusal.retryInMs) + since;
  const every = renewalInterval(tag.leaseMs);
  const stale = renewedMsAgo > every + Math.max(500, every / 2);
  return { state: stale ? 'stale' : 'running', thisProcess: tag.pid === process.pid && tag.host === host, pid: tag.pid, host: tag.host, renewedMsAgo, expiresInMs };
}
