import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { errorCode } from '../../../workspace/file-system-errors.js';
import type { Workspace } from '../../../workspace/workspace.js';

/** The folder inside `.toolbelt/` that holds backup copies. */
export const BACKUP_FOLDER = 'backups';
/** Backup copies older than this are removed when a new one is made: a week. */
export const BACKUP_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** At most this many backup copies are kept; the oldest beyond it are removed when a new one is made. */
export const BACKUP_MAX_COUNT = 100;
/** Characters of the original file name kept in a backup's name (the rest of the name is a time stamp and a random part). */
const MAX_NAME_IN_BACKUP = 100;

/**
 * Copies `bytes` (a file's content before a change) to `.toolbelt/backups/` and prunes old
 * copies. Returns the copy's path relative to the workspace root.
 *
 * @throws {PathError} when `.toolbelt` (or `backups` in it) is a file or a symbolic link;
 *   any file system error when the copy cannot be written. Nothing has been changed then.
 */
export async function saveBackup(workspace: Workspace, original: string, bytes: Uint8Array): Promise<string> {
  const directory = await workspace.privateDir(BACKUP_FOLDER);
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const name = `${stamp}-${randomBytes(4).toString('hex')}-${path.basename(original).slice(-MAX_NAME_IN_BACKUP)}`;
  const absolute = path.join(directory, name);
  await workspace.writeFileAtomic(absolute, bytes, { exclusive: true, mode: 0o600 });
  // The copy is made; failing to tidy older ones must not stop the change it protects.
  await pruneBackups(workspace).catch(() => undefined);
  return workspace.display(absolute);
}

/** Reads a backup copy made by {@link saveBackup}, or `undefined` when it is gone (pruned or removed). */
export async function readBackup(workspace: Workspace, backup: string): Promise<Buffer | undefined> {
  // Through privateDir, so a `.toolbelt` swapped for a link out is refused, not followed.
  const absolute = path.join(await workspace.privateDir(BACKUP_FOLDER), path.basename(backup));
  const stats = await workspace.lstatOrUndefined(absolute);
  if (stats === undefined || !stats.isFile()) return undefined;
  return workspace.readFile(absolute);
}

/**
 * Removes backup copies older than {@link BACKUP_MAX_AGE_MS} and all but the newest
 * {@link BACKUP_MAX_COUNT}. Copies another call removes at the same time are passed over.
 */
export async function pruneBackups(workspace: Workspace, now = Date.now()): Promise<number> {
  const directory = await workspace.privateDir(BACKUP_FOLDER);
  const entries = await workspace.list(directory);
  const copies: { absolute: string; mtimeMs: number }[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || entry.name.startsWith('.toolbelt-')) continue;
    const absolute = path.join(directory, entry.name);
    const stats = await workspace.lstatOrUndefined(absolute);
    if (stats !== undefined) copies.push({ absolute, mtimeMs: stats.mtimeMs });
  }
  copies.sort((a, b) => b.mtimeMs - a.mtimeMs);
  let removed = 0;
  for (const [index, copy] of copies.entries()) {
    if (index < BACKUP_MAX_COUNT && now - copy.mtimeMs <= BACKUP_MAX_AGE_MS) continue;
    try {
      await workspace.remove(copy.absolute);
      removed += 1;
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
  }
  return removed;
}
