/**
 * @module Whole outputs kept in the private folder's `output/` (a command's full output, a cut
 * GitHub reply), so a reply cut for the model can name where the rest is. Any collection that
 * keeps such files prunes them here, so the folder stays small whoever wrote to it.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Workspace } from './workspace.js';

/** Spill files older than this are removed when a new one is made. */
export const SPILL_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** At most this many spill files are kept (the newest). */
export const SPILL_MAX_FILES = 20;
/**
 * Removes the spill files whose names start with `prefix` that are older than a day, and all
 * but the newest {@link SPILL_MAX_FILES} − 1 of them, to make room for one more. The shell keeps
 * whole outputs there under `shell-`, the GitHub tools their cut replies under `gh-`.
 */
export async function pruneSpillFiles(directory: string, now = Date.now(), prefix = 'shell-', workspace?: Workspace): Promise<void> {
  // With a workspace, through it (a remote one's folder is in its box); without, on this disk.
  const listed = workspace === undefined ? await fs.readdir(directory) : (await workspace.list(directory)).map((entry) => entry.name);
  const names = listed.filter((name) => name.startsWith(prefix) && name.endsWith('.txt'));
  const files = await Promise.all(
    names.map(async (name) => {
      const absolute = path.join(directory, name);
      const stats = await (workspace === undefined ? fs.lstat(absolute) : workspace.lstatOrUndefined(absolute)).catch(() => undefined);
      return { absolute, modified: stats?.isFile() ? stats.mtimeMs : undefined };
    }),
  );
  const present = files.filter((file): file is { absolute: string; modified: number } => file.modified !== undefined);
  present.sort((a, b) => b.modified - a.modified);
  const doomed = present.filter((file, index) => index >= SPILL_MAX_FILES - 1 || now - file.modified > SPILL_MAX_AGE_MS);
  await Promise.all(doomed.map((file) => (workspace === undefined ? fs.rm(file.absolute, { force: true }) : workspace.remove(file.absolute).catch(() => undefined))));
}
