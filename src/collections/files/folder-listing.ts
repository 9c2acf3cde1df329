/**
 * Listing folders with synchronous calls, for `find_files` in the search worker and its walker
 * thread (never on the main thread): links listed, never followed; skipped folders not
 * entered; modification times and link targets of the files the include glob takes. A folder
 * that cannot match the glob (see `glob-prefix.ts`) is not entered either.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FindJob, IncludePattern, PendingFolder } from './search-protocol.js';

/** What a walk found so far. */
export interface ListingState {
  walked: number;
  readonly files: [string, number, string | undefined][];
  readonly unreadable: string[];
}

/** What listing needs from the job, prepared once. */
export interface ListingContext {
  readonly skipped: ReadonlySet<string>;
  readonly included: (fromStart: string) => boolean;
  /** False for a folder (path from the start) below which nothing can match. */
  readonly mayHoldMatches: (fromStart: string) => boolean;
  readonly display: (absolute: string) => string;
}

/** The include test of a glob compiled for the worker: the path equals the glob, or the regular expression matches the path (or, with `basename`, the file name). */
export function includer(include: IncludePattern | undefined): (fromStart: string) => boolean {
  if (include === undefined) return () => true;
  const regex = new RegExp(include.source, include.flags);
  return (fromStart) => fromStart === include.glob || regex.test(include.basename ? fromStart.slice(fromStart.lastIndexOf('/') + 1) : fromStart);
}

/** A folder test from `include.folders`: the patterns of the folders a match can lie under (see `glob-prefix.ts`). */
export function folderFilter(include: IncludePattern | undefined): (fromStart: string) => boolean {
  const folders = include?.folders;
  if (folders === undefined) return () => true;
  const regex = new RegExp(folders.source, folders.flags);
  return (fromStart) => regex.test(fromStart);
}

/** The {@link ListingContext} of a `find_files` job. */
export function listingContext(job: Pick<FindJob, 'skipped' | 'include' | 'root'>): ListingContext {
  return {
    skipped: new Set(job.skipped),
    included: includer(job.include),
    mayHoldMatches: folderFilter(job.include),
    display: (absolute) => path.relative(job.root, absolute).split(path.sep).join('/') || '.',
  };
}

/** Lists one folder into `state`; its subfolders that may hold matches go on `pending`. */
export function listFolder(folder: PendingFolder, context: ListingContext, state: ListingState, pending: PendingFolder[]): void {
  let listed: fs.Dirent[];
  try {
    listed = fs.readdirSync(folder.absolute, { withFileTypes: true });
  } catch {
    state.unreadable.push(context.display(folder.absolute));
    return;
  }
  const prefix = folder.fromStart === '' ? '' : `${folder.fromStart}/`;
  for (const entry of listed) {
    const absolute = folder.absolute + path.sep + entry.name;
    if (entry.isDirectory()) {
      const fromStart = prefix + entry.name;
      if (!context.skipped.has(entry.name) && context.mayHoldMatches(fromStart)) pending.push({ absolute, fromStart });
      continue;
    }
    const link = entry.isSymbolicLink();
    if (!link && !entry.isFile()) continue;
    state.walked += 1;
    if (!context.included(prefix + entry.name)) continue;
    // Gone since the listing, or out of reach (a path over PATH_MAX, a folder listed but not
    // entered): left out, as find_files' walk through the workspace does.
    let stats: fs.Stats | undefined;
    try {
      stats = fs.lstatSync(absolute, { throwIfNoEntry: false });
    } catch {
      continue;
    }
    if (stats === undefined) continue;
    let target: string | undefined;
    if (link) {
      try {
        target = fs.readlinkSync(absolute);
      } catch {
        target = '?';
      }
    }
    state.files.push([context.display(absolute), stats.mtimeMs, target]);
  }
}

/** Walks folders and everything below them, depth first. */
export function walkFolders(folders: readonly PendingFolder[], context: ListingContext, state: ListingState): void {
  const pending = folders.slice();
  while (pending.length > 0) listFolder(pending.pop()!, context, state, pending);
}
