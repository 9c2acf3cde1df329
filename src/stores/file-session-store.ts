import { createHash, randomUUID } from 'node:crypto';
import { closeSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SessionJSON } from '../session.js';
import { createSessionStore } from './create-session-store.js';
import type { SessionStore } from './session-store.js';
import type { LeaseOutcome, SessionStoreBackend, StoredSession, WriteOptions, WriteOutcome } from './store-backend.js';
import type { SessionStoreDefaults } from './store-options.js';

/** Options of {@link createFileSessionStore}. */
export interface FileSessionStoreOptions extends SessionStoreDefaults {
  /** The folder that holds the sessions, one subfolder each; created when missing. */
  readonly dir: string;
}

/** One saved version: `v<version>.json`. */
interface VersionFile {
  readonly format: 1;
  readonly id: string;
  readonly version: number;
  readonly savedAt: number;
  /** Milliseconds since the epoch after which the session counts as gone; null: never. */
  readonly expiresAt: number | null;
  readonly session: SessionJSON;
}

/**
 * One lease generation: `lease-<generation>.json`, written only by its holder. Its release is
 * the empty file `lease-<generation>.released` beside it, so a listing of the folder tells a
 * free session from a held one without reading anything. `released: true` in the file itself
 * is how stores before that marker released, and still counts.
 */
interface LeaseFile {
  readonly token: string;
  readonly expiresAt: number;
  readonly pid: number;
  readonly released: boolean;
}

/** What one listing of a session folder says. */
interface FolderScan {
  /** The highest lease generation; 0: none. */
  readonly lease: number;
  /** True when that generation's `.released` marker is there. */
  readonly released: boolean;
  /** The highest saved version; 0: none. */
  readonly version: number;
  readonly names: readonly string[];
}

const VERSION_FILE = /^v(\d+)\.json$/;
const LEASE_FILE = /^lease-(\d+)\.json$/;
const RELEASED_FILE = /^lease-(\d+)\.released$/;
/** Longer encoded ids are hashed, so a folder name stays within the 255 bytes file systems allow. */
const MAX_FOLDER_NAME = 200;

/**
 * The embedded session store: one folder per session under `dir`, no dependency, shared by
 * every process on the machine that opens the same folder (several `next start` workers, a
 * CLI beside a server).
 *
 * Every step is one atomic file-system operation. A save writes a temp file and hard-links
 * it to the next version's name (`v<n+1>.json`), which fails if that version exists, so two
 * saves from one version can never both land. A lease is a numbered generation file
 * (`lease-<g>.json`, created the same way) holding its owner's token and expiry: taking over
 * an expired lease means creating the next generation, which only one process can do. The
 * holder releases it by creating the empty `lease-<g>.released` beside it. A killed holder
 * leaves a lease that simply expires. For several machines, use the Postgres or Redis store.
 *
 * A turn's steps (list the folder, read or create a small file, link, read or write the
 * session) use Node's synchronous file calls: each is one system call on a local disk, tens
 * of microseconds, where a promise-based call costs a thread-pool round trip several times
 * that. The whole file of a 1 MB session is written in about a millisecond, far below the
 * 20 ms an event loop may be held; the bench and the tests measure both. Renewals, tidying
 * and `delete` are asynchronous. Keep `dir` on a local disk: on a network mount a stalled
 * server would stall these calls, and the event loop with them.
 *
 * @example
 * const store = createFileSessionStore({ dir: '.sessions' });
 * await store.withSession(chatId, async (session) => runTurn(session));
 */
export function createFileSessionStore(options: FileSessionStoreOptions): SessionStore {
  if (typeof options !== 'object' || options === null || typeof options.dir !== 'string' || options.dir.trim() === '') {
    throw new TypeError(`Expected the \`dir\` option of createFileSessionStore to be a folder path, got \`${String(options?.dir)}\` (${typeof options?.dir}).`);
  }
  const { dir, ...defaults } = options;
  return createSessionStore(new FileBackend(path.resolve(dir)), defaults);
}

class FileBackend implements SessionStoreBackend {
  readonly description: string;
  readonly #root: string;
  /** The leases this process holds, by token: which generation, until when. */
  readonly #held = new Map<string, { id: string; generation: number; expiresAt: number }>();

  constructor(root: string) {
    this.#root = root;
    this.description = `the file session store in ${root}`;
  }

  #folder(id: string): string {
    // '.' is encoded too, so no id can name '.', '..' or a hidden file.
    const encoded = encodeURIComponent(id).replace(/[.*!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    // '%%' never occurs in an encoded id, so a hashed name cannot collide with one.
    const name = encoded.length <= MAX_FOLDER_NAME ? encoded : `%%${createHash('sha256').update(id).digest('hex')}`;
    return path.join(this.#root, name);
  }

  /** One listing of a session folder; `undefined` when the folder is missing. */
  #scan(folder: string): FolderScan | undefined {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch (error) {
      if (isCode(error, 'ENOENT')) return undefined;
      throw error;
    }
    let lease = 0;
    let released = 0;
    let version = 0;
    for (const name of names) {
      const versionMatch = VERSION_FILE.exec(name);
      if (versionMatch !== null) version = Math.max(version, Number(versionMatch[1]));
      const leaseMatch = LEASE_FILE.exec(name);
      if (leaseMatch !== null) lease = Math.max(lease, Number(leaseMatch[1]));
      const releasedMatch = RELEASED_FILE.exec(name);
      if (releasedMatch !== null) released = Math.max(released, Number(releasedMatch[1]));
    }
    return { lease, released: lease > 0 && released === lease, version, names };
  }

  /** The folder's listing, making the folder first when it is missing (a new session, or one deleted since). */
  #scanOrCreate(folder: string): FolderScan {
    const scan = this.#scan(folder);
    if (scan !== undefined) return scan;
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    return { lease: 0, released: false, version: 0, names: [] };
  }

  #readLease(folder: string, generation: number): LeaseFile | undefined {
    if (generation === 0) return undefined;
    try {
      return JSON.parse(readFileSync(path.join(folder, `lease-${generation}.json`), 'utf8')) as LeaseFile;
    } catch (error) {
      if (isCode(error, 'ENOENT')) return undefined;
      throw error;
    }
  }

  /** The lease that keeps others out, if any: the highest generation, unless released or expired. */
  #activeLease(folder: string, scan: FolderScan, now: number): LeaseFile | undefined {
    if (scan.lease === 0 || scan.released) return undefined;
    const lease = this.#readLease(folder, scan.lease);
    return lease !== undefined && !lease.released && lease.expiresAt > now ? lease : undefined;
  }

  /**
   * Creates `name` with `content`, false when it exists: a temp file hard-linked into place,
   * so readers never see it half-written. The temp name only counts the file's links down,
   * which frees nothing, so it is unlinked at once.
   */
  #createExclusive(folder: string, name: string, content: string): boolean {
    const temp = path.join(folder, `.tmp-${randomUUID()}`);
    writeFileSync(temp, content, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(temp, path.join(folder, name));
      return true;
    } catch (error) {
      if (isCode(error, 'EEXIST')) return false;
      throw error;
    } finally {
      try {
        unlinkSync(temp);
      } catch {
        // A temp name left behind is only untidy: the version or lease is linked (or was not).
      }
    }
  }

  /**
   * Deletes the older versions, or the older lease generations and their markers, among
   * `names`, in the background: an old version's data blocks take a while to free, and
   * nothing needs to wait for that.
   */
  #removeBelow(folder: string, names: readonly string[], kind: 'lease' | 'version', below: number): void {
    for (const name of names) {
      const match = kind === 'version' ? VERSION_FILE.exec(name) : (LEASE_FILE.exec(name) ?? RELEASED_FILE.exec(name));
      if (match !== null && Number(match[1]) < below) unlink(path.join(folder, name)).catch(() => undefined);
    }
  }

  #readVersion(folder: string, version: number): StoredSession {
    const file = JSON.parse(readFileSync(path.join(folder, `v${version}.json`), 'utf8')) as VersionFile;
    const expired = file.expiresAt !== null && file.expiresAt <= Date.now();
    return { json: expired ? undefined : file.session, version: file.version };
  }

  async read(id: string): Promise<StoredSession> {
    const folder = this.#folder(id);
    // A save may remove the version just listed; list again when that happens.
    for (let attempt = 0; ; attempt += 1) {
      const scan = this.#scan(folder);
      if (scan === undefined || scan.version === 0) return { json: undefined, version: 0 };
      try {
        return this.#readVersion(folder, scan.version);
      } catch (error) {
        if (!(isCode(error, 'ENOENT') && attempt < 5)) throw error;
      }
    }
  }

  async write(id: string, json: SessionJSON, options: WriteOptions): Promise<WriteOutcome> {
    const folder = this.#folder(id);
    const token = options.leaseToken;
    const scan = token === undefined ? this.#scanOrCreate(folder) : this.#scan(folder);
    if (scan === undefined) {
      if (!this.#rootExists()) throw new Error(`the folder ${this.#root} is missing`);
      // A turn's folder holds its lease: gone means the session was deleted under the turn.
      return { written: false, reason: 'lease', storedVersion: 0 };
    }
    const now = Date.now();
    if (token !== undefined) {
      // A takeover creates a higher generation, and only this process writes ours: the listing, our own expiry and the token say it all.
      const held = this.#held.get(token);
      if (held === undefined || held.id !== id || scan.lease !== held.generation || scan.released || held.expiresAt <= now || this.#readLease(folder, held.generation)?.token !== token) {
        return { written: false, reason: 'lease', storedVersion: scan.version };
      }
    } else if (this.#activeLease(folder, scan, now) !== undefined) {
      return { written: false, reason: 'busy', storedVersion: scan.version };
    }
    if (scan.version !== options.expectedVersion) return { written: false, reason: 'version', storedVersion: scan.version };

    const version = options.expectedVersion + 1;
    const file: VersionFile = { format: 1, id, version, savedAt: now, expiresAt: options.ttlMs === undefined ? null : now + options.ttlMs, session: json };
    if (!this.#createExclusive(folder, `v${version}.json`, JSON.stringify(file))) {
      return { written: false, reason: 'version', storedVersion: this.#scan(folder)?.version ?? version };
    }
    this.#removeBelow(folder, scan.names, 'version', version);
    if (options.release === true && token !== undefined) {
      // The lease was checked above, with no wait since: mark it released without reading it again.
      this.#held.delete(token);
      this.#markReleased(folder, scan.lease);
      return { written: true, version, released: true };
    }
    return { written: true, version };
  }

  /** False when the store's folder itself is gone (an unmounted disk): an error, not a deleted session. */
  #rootExists(): boolean {
    try {
      return statSync(this.#root).isDirectory();
    } catch {
      return false;
    }
  }

  async remove(id: string): Promise<void> {
    await rm(this.#folder(id), { recursive: true, force: true });
  }

  async acquire(id: string, token: string, leaseMs: number): Promise<LeaseOutcome> {
    const folder = this.#folder(id);
    const scan = this.#scanOrCreate(folder);
    const now = Date.now();
    const current = this.#activeLease(folder, scan, now);
    if (current !== undefined) return { acquired: false, retryInMs: current.expiresAt - now };

    const generation = scan.lease + 1;
    const expiresAt = now + leaseMs;
    const lease: LeaseFile = { token, expiresAt, pid: process.pid, released: false };
    try {
      if (!this.#createExclusive(folder, `lease-${generation}.json`, JSON.stringify(lease))) return { acquired: false, retryInMs: leaseMs };
    } catch (error) {
      // Deleted between the listing and now: try again, which makes the folder anew.
      if (isCode(error, 'ENOENT')) return { acquired: false, retryInMs: 0 };
      throw error;
    }
    // A process that listed the folder long ago may have created a generation below a newer one; only the highest counts.
    const after = this.#scan(folder);
    if (after === undefined) return { acquired: false, retryInMs: 0 };
    if (after.lease > generation) {
      unlink(path.join(folder, `lease-${generation}.json`)).catch(() => undefined);
      return { acquired: false, retryInMs: leaseMs };
    }
    this.#removeBelow(folder, after.names, 'lease', generation);
    this.#held.set(token, { id, generation, expiresAt });
    if (after.version === 0) return { acquired: true, stored: { json: undefined, version: 0 } };
    // Read in the same breath; if a save just replaced that version, the core reads again.
    try {
      return { acquired: true, stored: this.#readVersion(folder, after.version) };
    } catch {
      return { acquired: true };
    }
  }

  async renew(id: string, token: string, leaseMs: number): Promise<boolean> {
    const folder = this.#folder(id);
    const held = this.#held.get(token);
    if (held === undefined || held.id !== id) return false;
    const scan = this.#scan(folder);
    if (scan === undefined || scan.lease !== held.generation || scan.released) return false;
    const lease = this.#readLease(folder, held.generation);
    if (lease === undefined || lease.token !== token || lease.released) return false;
    const expiresAt = Date.now() + leaseMs;
    // Replacing a file that has data is the slow kind of rename, and renewals are rare: this one is asynchronous.
    const temp = path.join(folder, `.tmp-${randomUUID()}`);
    await writeFile(temp, JSON.stringify({ ...lease, expiresAt }), { mode: 0o600, flag: 'wx' });
    await rename(temp, path.join(folder, `lease-${held.generation}.json`));
    this.#held.set(token, { id, generation: held.generation, expiresAt });
    return true;
  }

  async release(id: string, token: string): Promise<void> {
    const folder = this.#folder(id);
    const held = this.#held.get(token);
    this.#held.delete(token);
    if (held === undefined) return;
    // Only our own generation: after a delete, the same number may be someone else's lease.
    if (this.#readLease(folder, held.generation)?.token !== token) return;
    this.#markReleased(folder, held.generation);
  }

  /** Creates the empty `lease-<generation>.released`; harmless if a newer generation exists, as only the highest counts. */
  #markReleased(folder: string, generation: number): void {
    try {
      closeSync(openSync(path.join(folder, `lease-${generation}.released`), 'wx', 0o600));
    } catch (error) {
      if (!isCode(error, 'EEXIST') && !isCode(error, 'ENOENT')) throw error;
    }
  }

  async close(): Promise<void> {}
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
