import * as path from 'node:path';
import type { Workspace } from '../../workspace/workspace.js';

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
  const pending: { absolute: string; fromStart: string }[] = [{ absolute: start, fromStart: '' }];
  while (pending.length > 0) {
    if (signal?.aborted) return;
    const folder = pending.pop()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await workspace.list(folder.absolute);
    } catch {
      report.unreadable.push(workspace.display(folder.absolute));
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subfolders: { absolute: string; fromStart: string }[] = [];
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
