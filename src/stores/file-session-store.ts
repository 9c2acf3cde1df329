import { createHash, randomUUID } from 'node:crypto';
import { closeSync, linkSync, open, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, unlink, writeFile } from 'node:fs/promises';
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
 * a second name of that file, `lease-<generation>.released`, so a listing of the folder tells
 * a free session from a held one without reading anything. `released: true` in the file
 * itself is how stores before that marker released, and still counts.
 */
interface LeaseFile {
  readonly token: string;
  readonly expiresAt: number;
  readonly pid: number;
  readonly released: boolean;
  /** What the holder says of itself (see `acquire`); absent in leases of older stores. */
  readonly holder?: string;
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
 * holder releases it by linking it to `lease-<g>.released`. A killed holder leaves a lease
 * that simply expires. For several machines, use the Postgres or Redis store.
 *
 * A turn writes its two new files (the lease, the version) with promise-based calls, since
 * creating a file is what waits when the disk is busy; every other step (listing the folder,
 * reading the lease and the session, linking) is a synchronous call: one system call on a
 * local disk, microseconds, where a promise-based call costs a thread-pool round trip several
 * times that. The checks and the link that publishes a file then run in one synchronous
 * stretch. Reading a 1 MB session takes about a millisecond, far below the 20 ms an event
 * loop may be held; the bench and the tests measure it. Keep `dir` on a local disk: on a
 * network mount a stalled server would stall these calls, and the event loop with them.
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
  async #scanOrCreate(folder: string): Promise<FolderScan> {
    const scan = this.#scan(folder);
    if (scan !== undefined) return scan;
    await mkdir(folder, { recursive: true, mode: 0o700 });
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
   * Writes `content` to a new temp file in `folder`; `undefined` when the folder is gone.
   * Creating the file is the one step of a turn on the thread pool: it is what waits when the
   * disk is busy (other processes creating files), and that wait must not hold the event loop.
   * Writing into the created file is a copy into the page cache, done synchronously.
   */
  async #writeTemp(folder: string, content: string): Promise<string | undefined> {
    const temp = path.join(folder, `.tmp-${randomUUID()}`);
    let descriptor: number;
    try {
      descriptor = await new Promise<number>((resolve, reject) => open(temp, 'wx', 0o600, (error, fd) => (error === null ? resolve(fd) : reject(error))));
    } catch (error) {
      if (isCode(error, 'ENOENT')) return undefined;
      throw error;
    }
    try {
      writeFileSync(descriptor, content);
    } finally {
      closeSync(descriptor);
    }
    return temp;
  }

  /**
   * Hard-links a written temp file to `name`, false when `name` exists: readers never see the
   * file half-written, and no two processes can create one name. The temp name only counts
   * the file's links down; it is dropped in the background.
   */
  #linkTemp(folder: string, temp: string, name: string): boolean {
    try {
      linkSync(temp, path.join(folder, name));
      return true;
    } catch (error) {
      if (isCode(error, 'EEXIST')) return false;
      throw error;
    } finally {
      this.#dropTemp(temp);
    }
  }

  /** A temp name left behind by a crash is only untidy: what it held is linked, or was refused. */
  #dropTemp(temp: string): void {
    unlink(temp).catch(() => undefined);
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

  async write(id: string, text: string, options: WriteOptions): Promise<WriteOutcome> {
    const folder = this.#folder(id);
    const token = options.leaseToken;
    if (token === undefined) await this.#scanOrCreate(folder);
    const version = options.expectedVersion + 1;
    const now = Date.now();
    const header: Omit<VersionFile, 'session'> = { format: 1, id, version, savedAt: now, expiresAt: options.ttlMs === undefined ? null : now + options.ttlMs };
    // The session's text goes in as it came, last, where JSON.stringify of the whole file would put it: no second serialisation.
    const content = `${JSON.stringify(header).slice(0, -1)},"session":${text}}`;
    // Written first, so that the checks below and the link that publishes the file run in one synchronous stretch, with nothing of this process between them.
    const temp = await this.#writeTemp(folder, content);
    const scan = this.#scan(folder);
    const refuse = (outcome: WriteOutcome): WriteOutcome => {
      if (temp !== undefined) this.#dropTemp(temp);
      return outcome;
    };
    if (scan === undefined || temp === undefined) {
      if (!this.#rootExists()) throw new Error(`the folder ${this.#root} is missing`);
      // A turn's folder holds its lease: gone means the session was deleted under the turn.
      if (token !== undefined) return refuse({ written: false, reason: 'lease', storedVersion: 0 });
      throw new Error(`the folder of session ${JSON.stringify(id)} was deleted while saving`);
    }
    if (token !== undefined) {
      // A takeover creates a higher generation, and only this process writes ours: the listing, our own expiry and the token say it all.
      const held = this.#held.get(token);
      if (held === undefined || held.id !== id || scan.lease !== held.generation || scan.released || held.expiresAt <= Date.now() || this.#readLease(folder, held.generation)?.token !== token) {
        return refuse({ written: false, reason: 'lease', storedVersion: scan.version });
      }
    } else if (this.#activeLease(folder, scan, Date.now()) !== undefined) {
      return refuse({ written: false, reason: 'busy', storedVersion: scan.version });
    }
    if (scan.version !== options.expectedVersion) return refuse({ written: false, reason: 'version', storedVersion: scan.version });
    if (!this.#linkTemp(folder, temp, `v${version}.json`)) {
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

  async acquire(id: string, token: string, leaseMs: number, holder?: string): Promise<LeaseOutcome> {
    const folder = this.#folder(id);
    const first = await this.#scanOrCreate(folder);
    const current = this.#activeLease(folder, first, Date.now());
    if (current !== undefined) return { acquired: false, retryInMs: current.expiresAt - Date.now(), holder: current.holder };

    const expiresAt = Date.now() + leaseMs;
    const lease: LeaseFile = { token, expiresAt, pid: process.pid, released: false, holder };
    const temp = await this.#writeTemp(folder, JSON.stringify(lease));
    // Deleted since the listing: try again, which makes the folder anew.
    if (temp === undefined) return { acquired: false, retryInMs: 0 };
    // From here to the end, one synchronous stretch: list again (the file took a moment), check, create the next generation.
    const scan = this.#scan(folder);
    const taken = scan === undefined ? undefined : this.#activeLease(folder, scan, Date.now());
    if (scan === undefined || taken !== undefined) {
      this.#dropTemp(temp);
      return { acquired: false, retryInMs: taken === undefined ? 0 : taken.expiresAt - Date.now(), holder: taken?.holder };
    }
    const generation = scan.lease + 1;
    if (!this.#linkTemp(folder, temp, `lease-${generation}.json`)) return { acquired: false, retryInMs: leaseMs };
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

  /**
   * Gives the generation file a second name, `lease-<generation>.released`: a hard link, which
   * creates no file, so it is as quick as a listing even when the disk is busy. Harmless if a
   * newer generation exists, as only the highest counts.
   */
  #markReleased(folder: string, generation: number): void {
    try {
      linkSync(path.join(folder, `lease-${generation}.json`), path.join(folder, `lease-${generation}.released`));
    } catch (error) {
      if (!isCode(error, 'EEXIST') && !isCode(error, 'ENOENT')) throw error;
    }
  }

  async close(): Promise<void> {}
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
