import { createHash, randomUUID } from 'node:crypto';
import { link, mkdir, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
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

/** One lease generation: `lease-<generation>.json`, written only by its holder. */
interface LeaseFile {
  readonly token: string;
  readonly expiresAt: number;
  readonly pid: number;
  readonly released: boolean;
}

const VERSION_FILE = /^v(\d+)\.json$/;
const LEASE_FILE = /^lease-(\d+)\.json$/;
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
 * an expired lease means creating the next generation, which only one process can do. A
 * killed holder leaves a lease that simply expires. For several machines, use the Postgres
 * or Redis store.
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
  readonly #ready = new Set<string>();
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

  async #ensureFolder(id: string): Promise<string> {
    const folder = this.#folder(id);
    if (!this.#ready.has(folder)) {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      this.#ready.add(folder);
    }
    return folder;
  }

  /** The highest numbered `lease-<g>` and `v<n>` files in a session folder; `undefined` when the folder is missing. */
  async #scan(folder: string, missingOk: boolean): Promise<{ lease: number; version: number; names: string[] } | undefined> {
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      if (missingOk && isCode(error, 'ENOENT')) return undefined;
      throw error;
    }
    let lease = 0;
    let version = 0;
    for (const name of names) {
      const leaseMatch = LEASE_FILE.exec(name);
      if (leaseMatch !== null) lease = Math.max(lease, Number(leaseMatch[1]));
      const versionMatch = VERSION_FILE.exec(name);
      if (versionMatch !== null) version = Math.max(version, Number(versionMatch[1]));
    }
    return { lease, version, names };
  }

  async #readLease(folder: string, generation: number): Promise<LeaseFile | undefined> {
    if (generation === 0) return undefined;
    const text = await readFile(path.join(folder, `lease-${generation}.json`), 'utf8').catch((error: unknown) => {
      if (isCode(error, 'ENOENT')) return undefined;
      throw error;
    });
    return text === undefined ? undefined : (JSON.parse(text) as LeaseFile);
  }

  /** Creates `name` with `content`, failing with EEXIST when it exists: a temp file hard-linked into place, so readers never see it half-written. */
  async #createExclusive(folder: string, name: string, content: string): Promise<boolean> {
    const temp = path.join(folder, `.tmp-${randomUUID()}`);
    await writeFile(temp, content, { mode: 0o600 });
    try {
      await link(temp, path.join(folder, name));
      return true;
    } catch (error) {
      if (isCode(error, 'EEXIST')) return false;
      throw error;
    } finally {
      // The name is linked (or taken): the temp file is only tidied, in the background.
      unlink(temp).catch(() => undefined);
    }
  }

  /** Replaces `name` atomically (temp file + rename). */
  async #replace(folder: string, name: string, content: string): Promise<void> {
    const temp = path.join(folder, `.tmp-${randomUUID()}`);
    await writeFile(temp, content, { mode: 0o600 });
    await rename(temp, path.join(folder, name));
  }

  /** Deletes the older generations or versions among `names`, in the background: nothing waits for tidying. */
  #removeBelow(folder: string, names: readonly string[], prefix: 'lease-' | 'v', below: number): void {
    const pattern = prefix === 'v' ? VERSION_FILE : LEASE_FILE;
    for (const name of names) {
      const match = pattern.exec(name);
      if (match !== null && Number(match[1]) < below) unlink(path.join(folder, name)).catch(() => undefined);
    }
  }

  async #readVersion(folder: string, version: number): Promise<StoredSession> {
    const file = JSON.parse(await readFile(path.join(folder, `v${version}.json`), 'utf8')) as VersionFile;
    const expired = file.expiresAt !== null && file.expiresAt <= Date.now();
    return { json: expired ? undefined : file.session, version: file.version };
  }

  async read(id: string): Promise<StoredSession> {
    const folder = this.#folder(id);
    // A save may remove the version just listed; list again when that happens.
    for (let attempt = 0; ; attempt += 1) {
      const scan = await this.#scan(folder, true);
      if (scan === undefined || scan.version === 0) return { json: undefined, version: 0 };
      try {
        return await this.#readVersion(folder, scan.version);
      } catch (error) {
        if (!(isCode(error, 'ENOENT') && attempt < 5)) throw error;
      }
    }
  }

  async write(id: string, json: SessionJSON, options: WriteOptions): Promise<WriteOutcome> {
    const folder = options.leaseToken === undefined ? await this.#ensureFolder(id) : this.#folder(id);
    const scan = await this.#scan(folder, true);
    if (scan === undefined) {
      if (!(await this.#rootExists())) throw new Error(`the folder ${this.#root} is missing`);
      // A turn's folder holds its lease: gone means the session was deleted under the turn.
      if (options.leaseToken !== undefined) return { written: false, reason: 'lease', storedVersion: 0 };
      this.#ready.delete(folder);
      throw new Error(`the folder of session ${JSON.stringify(id)} was deleted while saving`);
    }
    const held = options.leaseToken === undefined ? undefined : this.#held.get(options.leaseToken);
    if (options.leaseToken !== undefined) {
      // A takeover creates a higher generation, and only this process writes ours: the listing and our own expiry say it all.
      if (held === undefined || held.id !== id || scan.lease !== held.generation || held.expiresAt <= Date.now()) {
        return { written: false, reason: 'lease', storedVersion: scan.version };
      }
    } else {
      const current = await this.#readLease(folder, scan.lease);
      if (current !== undefined && !current.released && current.expiresAt > Date.now()) return { written: false, reason: 'busy', storedVersion: scan.version };
    }
    if (scan.version !== options.expectedVersion) return { written: false, reason: 'version', storedVersion: scan.version };

    const version = options.expectedVersion + 1;
    const now = Date.now();
    const file: VersionFile = { format: 1, id, version, savedAt: now, expiresAt: options.ttlMs === undefined ? null : now + options.ttlMs, session: json };
    if (!(await this.#createExclusive(folder, `v${version}.json`, JSON.stringify(file)))) {
      const after = await this.#scan(folder, false);
      return { written: false, reason: 'version', storedVersion: after!.version };
    }
    this.#removeBelow(folder, scan.names, 'v', version);
    if (options.release === true && options.leaseToken !== undefined) {
      await this.release(id, options.leaseToken);
      return { written: true, version, released: true };
    }
    return { written: true, version };
  }

  /** False when the store's folder itself is gone (an unmounted disk): an error, not a deleted session. */
  async #rootExists(): Promise<boolean> {
    return stat(this.#root).then(
      () => true,
      () => false,
    );
  }

  async remove(id: string): Promise<void> {
    const folder = this.#folder(id);
    this.#ready.delete(folder);
    await rm(folder, { recursive: true, force: true });
  }

  async acquire(id: string, token: string, leaseMs: number): Promise<LeaseOutcome> {
    const folder = await this.#ensureFolder(id);
    const scan = await this.#scan(folder, true);
    if (scan === undefined) {
      // Deleted since this process made the folder: make it again.
      this.#ready.delete(folder);
      return { acquired: false, retryInMs: 0 };
    }
    const current = await this.#readLease(folder, scan.lease);
    const now = Date.now();
    if (current !== undefined && !current.released && current.expiresAt > now) return { acquired: false, retryInMs: current.expiresAt - now };

    const generation = scan.lease + 1;
    const expiresAt = now + leaseMs;
    const lease: LeaseFile = { token, expiresAt, pid: process.pid, released: false };
    if (!(await this.#createExclusive(folder, `lease-${generation}.json`, JSON.stringify(lease)))) return { acquired: false, retryInMs: leaseMs };
    // A process that listed the folder long ago may have created a generation below a newer one; only the highest counts.
    const after = await this.#scan(folder, false);
    if (after!.lease > generation) {
      await unlink(path.join(folder, `lease-${generation}.json`)).catch(() => undefined);
      return { acquired: false, retryInMs: leaseMs };
    }
    this.#removeBelow(folder, after!.names, 'lease-', generation);
    this.#held.set(token, { id, generation, expiresAt });
    if (after!.version === 0) return { acquired: true, stored: { json: undefined, version: 0 } };
    // Read in the same breath; if a save just replaced that version, the core reads again.
    const stored = await this.#readVersion(folder, after!.version).catch(() => undefined);
    return stored === undefined ? { acquired: true } : { acquired: true, stored };
  }

  /** The generation this token holds, if it is still the highest. */
  async #holding(folder: string, token: string): Promise<{ generation: number; lease: LeaseFile } | undefined> {
    const scan = await this.#scan(folder, true);
    if (scan === undefined) return undefined;
    const lease = await this.#readLease(folder, scan.lease);
    if (lease === undefined || lease.token !== token || lease.released) return undefined;
    return { generation: scan.lease, lease };
  }

  async renew(id: string, token: string, leaseMs: number): Promise<boolean> {
    const folder = this.#folder(id);
    const held = await this.#holding(folder, token);
    if (held === undefined) return false;
    const expiresAt = Date.now() + leaseMs;
    await this.#replace(folder, `lease-${held.generation}.json`, JSON.stringify({ ...held.lease, expiresAt }));
    this.#held.set(token, { id, generation: held.generation, expiresAt });
    return true;
  }

  async release(id: string, token: string): Promise<void> {
    const folder = this.#folder(id);
    const held = this.#held.get(token);
    this.#held.delete(token);
    if (held === undefined) return;
    // Marking our own generation released is harmless even if a newer one exists: only the highest counts.
    const lease: LeaseFile = { token, expiresAt: held.expiresAt, pid: process.pid, released: true };
    await this.#replace(folder, `lease-${held.generation}.json`, JSON.stringify(lease)).catch((error: unknown) => {
      if (!isCode(error, 'ENOENT')) throw error;
    });
  }

  async close(): Promise<void> {
    this.#ready.clear();
  }
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
