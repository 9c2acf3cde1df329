/**
 * @module A session's read snapshots, kept in the box between steps, so that a step carries
 * only what changed since the session's last step instead of every file the session ever read.
 * The caller's half ({@link SliceSender}) numbers what it sends for each `Session` object; the
 * box's half ({@link KeptSlices}) applies each step's changes to what it keeps for that
 * session, and asks for the whole slice again when it has nothing at the version a step builds
 * on (evicted, or a step that overtook the one before it). The caller's session stays the
 * truth: the box keeps a copy of what the caller sent, never what its steps did.
 */
import { randomUUID } from 'node:crypto';
import type { Session } from '../../../session.js';
import { isInside } from '../../../workspace/path-jail.js';
import type { KeptSlice, ReadSnapshot, SessionSlice } from '../../../workspace/in-place.js';
import { readSnapshots } from '../guard/read-state.js';

/** What the box holds for one session, as the caller last sent it. */
interface Sent {
  readonly key: string;
  version: number;
  /** The snapshots at `version`, the very objects of the caller's session (compared by identity). */
  readonly reads: Map<string, ReadSnapshot>;
}

/**
 * The caller's half: the slice for each step of one box, as the changes since the slice before
 * it. One sender per in-place runner (a remote workspace, one connection), shared by every tool
 * and collection over it, since the box keeps one set of sessions per connection.
 */
export class SliceSender {
  readonly #root: string;
  readonly #sent = new WeakMap<Session, Sent>();

  constructor(root: string) {
    this.#root = root;
  }

  /**
   * The session's slice for the next step. The snapshots under the root that the last slice
   * sent did not have, or had as other objects, travel with the names of those it had and the
   * session no longer has; `whole` sends every one, as the first slice of a session does.
   */
  next(session: Session, options: { readonly whole?: boolean } = {}): SessionSlice {
    const all = readSnapshots(session);
    let sent = this.#sent.get(session);
    const whole = sent === undefined || options.whole === true;
    if (sent === undefined) {
      sent = { key: randomUUID(), version: 0, reads: new Map() };
      this.#sent.set(session, sent);
    }
    const since = sent.version;
    if (whole) sent.reads.clear();
    const reads: Record<string, ReadSnapshot> = {};
    const sentBefore = sent.reads.size;
    let known = 0;
    for (const key in all) {
      const snapshot = all[key]!;
      const before = sent.reads.get(key);
      if (before !== undefined) known += 1;
      if (before === snapshot || !isInside(this.#root, key)) continue;
      reads[key] = snapshot;
      sent.reads.set(key, snapshot);
    }
    // Every name sent before is still there unless fewer of them were found than were sent.
    const deleted: string[] = [];
    if (known < sentBefore) for (const key of sent.reads.keys()) if (all[key] === undefined) deleted.push(key);
    for (const key of deleted) sent.reads.delete(key);
    sent.version += 1;
    const keep: KeptSlice = whole ? { key: sent.key, version: sent.version } : { key: sent.key, version: sent.version, since, deleted };
    return { id: session.id, reads, keep };
  }
}

/** Sessions a connection's box keeps at most; the least recently used goes first. */
export const MAX_KEPT_SESSIONS = 64;
/** Snapshots kept at most over all sessions of a connection (a few MB). */
export const MAX_KEPT_SNAPSHOTS = 100_000;

/**
 * The box's half: the snapshots of each session, as its caller sent them, kept for the
 * connection's life and bounded by {@link MAX_KEPT_SESSIONS} and {@link MAX_KEPT_SNAPSHOTS}.
 */
export class KeptSlices {
  readonly #kept = new Map<string, { version: number; reads: Map<string, ReadSnapshot> }>();
  #snapshots = 0;

  /**
   * The snapshots a step runs with: the slice's own when it keeps nothing; otherwise what is
   * kept for its session with the slice's changes applied, or `undefined` when the box has
   * nothing at the version the slice builds on (the caller then sends the whole slice).
   *
   * @throws {TypeError} when the slice is not a slice.
   */
  take(slice: SessionSlice): ReadonlyMap<string, ReadSnapshot> | undefined {
    if (typeof slice?.id !== 'string' || typeof slice.reads !== 'object' || slice.reads === null) {
      throw new TypeError('Expected the session slice to carry an `id` and a `reads` object.');
    }
    const { keep } = slice;
    if (keep === undefined) return new Map(Object.entries(slice.reads));
    if (!isKeptSlice(keep)) throw new TypeError('Expected `keep` to carry a `key`, a whole `version`, and with `since` the `deleted` names.');
    const kept = this.#kept.get(keep.key);
    if (keep.since === undefined) {
      const reads = new Map(Object.entries(slice.reads));
      // A whole slice overtaken by a newer one (sent again after the box lost it) runs as it is.
      if (kept === undefined || kept.version < keep.version) this.#store(keep.key, { version: keep.version, reads });
      return reads;
    }
    if (kept === undefined || kept.version !== keep.since) return undefined;
    // Taken out and stored again: the snapshot count follows the changes, and the session is the most recently used.
    this.#drop(keep.key);
    for (const key of keep.deleted ?? []) kept.reads.delete(key);
    for (const [key, snapshot] of Object.entries(slice.reads)) kept.reads.set(key, snapshot);
    kept.version = keep.version;
    this.#store(keep.key, kept);
    return kept.reads;
  }

  /** Keeps `entry` as the most recently used, in place of what `key` had, then drops the least recently used others past the bounds. */
  #store(key: string, entry: { version: number; reads: Map<string, ReadSnapshot> }): void {
    this.#drop(key);
    this.#kept.set(key, entry);
    this.#snapshots += entry.reads.size;
    for (const oldest of this.#kept.keys()) {
      if (this.#kept.size <= MAX_KEPT_SESSIONS && this.#snapshots <= MAX_KEPT_SNAPSHOTS) break;
      if (oldest !== key) this.#drop(oldest);
    }
  }

  #drop(key: string): void {
    const entry = this.#kept.get(key);
    if (entry === undefined) return;
    this.#kept.delete(key);
    this.#snapshots -= entry.reads.size;
  }
}

function isKeptSlice(value: unknown): value is KeptSlice {
  const keep = value as Partial<KeptSlice> | null;
  if (typeof keep?.key !== 'string' || keep.key.length === 0 || keep.key.length > 100 || !Number.isSafeInteger(keep.version)) return false;
  if (keep.since === undefined) return true;
  return Number.isSafeInteger(keep.since) && keep.since < keep.version! && Array.isArray(keep.deleted) && keep.deleted.every((name) => typeof name === 'string');
}

/**
 * The read snapshots a step's session sees: `kept` as it is when read (a step sees the
 * caller's later changes, as a local tool sees its live session), under what the step itself
 * set or deleted, which stays the step's own. `set` and `deleted` are what it changed.
 */
export function layeredReads(kept: ReadonlyMap<string, ReadSnapshot>) {
  const set = new Map<string, ReadSnapshot>();
  const deleted = new Set<string>();
  const find = (key: string | symbol): ReadSnapshot | undefined =>
    typeof key !== 'string' || deleted.has(key) ? undefined : (set.get(key) ?? kept.get(key));
  const view = new Proxy({} as Record<string, ReadSnapshot>, {
    get: (_target, key) => find(key),
    has: (_target, key) => find(key) !== undefined,
    set(_target, key, value: ReadSnapshot) {
      if (typeof key !== 'string') return false;
      set.set(key, value);
      deleted.delete(key);
      return true;
    },
    deleteProperty(_target, key) {
      if (typeof key !== 'string') return false;
      set.delete(key);
      deleted.add(key);
      return true;
    },
    ownKeys: () => [...new Set([...kept.keys(), ...set.keys()])].filter((key) => find(key) !== undefined),
    getOwnPropertyDescriptor(_target, key) {
      const value = find(key);
      return value === undefined ? undefined : { value, writable: true, enumerable: true, configurable: true };
    },
  });
  return { view, set, deleted };
}
