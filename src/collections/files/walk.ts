import type { Dirent } from 'node:fs';
import * as path from 'node:path';
import type { Workspace } from '../../workspace/workspace.js';

/** Folders listed ahead of the walk, so the disk is kept busy: the order of results does not change. */
const LIST_AHEAD = 16;

interface Folder {
  readonly absolute: string;
  readonly fromStart: string;
  /** The listing, once started; `undefined` inside when the folder could not be read. */
  listing?: Promise<Dirent[] | undefined>;
}

/** A file met while walking a folder tree. */
export interface WalkedFile {
  /** Canonical absolute path (inside the workspace: links are never followed). */
  readonly absolute: string;
  /** Relative to the folder the walk started in, with `/` separators. */
  readonly fromStart: string;
  /** True for a symbolic link (reported, never followed). */
  readonly isLink: boolean;
}

/** What a walk could not enter, for the reply's notes. */
export interface WalkReport {
  /** Folders that could not be listed (permissions), relative to the workspace root. */
  readonly unreadable: string[];
}

/**
 * Walks the tree under `start` (a canonical folder inside the workspace) depth first, entries
 * in name order, yielding files and symbolic links. Folders named in `skipped` are not
 * entered at any depth below the start (the start itself is always walked, so a search that
 * starts inside `node_modules` works). Symbolic links are never followed, so the walk cannot
 * leave the workspace and cannot loop.
 */
export async function* walkFiles(
  workspace: Workspace,
  start: string,
  skipped: readonly string[],
  report: WalkReport,
  signal?: AbortSignal,
): AsyncGenerator<WalkedFile> {
  const skippedNames = new Set(skipped);
  const pending: Folder[] = [{ absolute: start, fromStart: '' }];
  const list = (folder: Folder): Promise<Dirent[] | undefined> =>
    (folder.listing ??= workspace.list(folder.absolute).catch(() => undefined));
  while (pending.length > 0) {
    if (signal?.aborted) return;
    const folder = pending.pop()!;
    // The next folders to visit are at the top of the stack: list them while this one is walked.
    for (let index = pending.length - 1; index >= Math.max(0, pending.length - LIST_AHEAD); index -= 1) void list(pending[index]!);
    const entries = await list(folder);
    if (entries === undefined) {
      report.unreadable.push(workspace.display(folder.absolute));
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subfolders: Folder[] = [];
    for (const entry of entries) {
      const absolute = path.join(folder.absolute, entry.name);
      const fromStart = folder.fromStart === '' ? entry.name : `${folder.fromStart}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skippedNames.has(entry.name)) subfolders.push({ absolute, fromStart });
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        yield { absolute, fromStart, isLink: entry.isSymbolicLink() };
      }
    }
    // Reverse so the first subfolder is walked next: files of a folder come before its subfolders'.
    for (let index = subfolders.length - 1; index >= 0; index -= 1) pending.push(subfolders[index]!);
  }
}
