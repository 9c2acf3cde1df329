/**
 * Listing folders with synchronous calls, for `find_files` in the search worker and its walker
 * thread: links listed, never followed; skipped folders not entered; modification times and
 * link targets of the files the include glob takes. A folder that cannot match the glob (see
 * `glob-prefix.ts`) is not entered either. On the main thread only {@link findInSmallFolder}
 * runs, whose work has a small bound.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FindAnswer, FindJob, IncludePattern, ListedFiles, PackedFiles, PendingFolder } from './protocol.js';

/** What a walk found so far: the files the glob took, as columns in step. */
export interface ListingState {
  walked: number;
  /** Their paths shown. */
  readonly shown: string[];
  /** Their modification times in ms. */
  readonly mtimes: number[];
  /** Where the links among them point: `[index, target]`. */
  readonly targets: [number, string][];
  readonly unreadable: string[];
}

/** An empty {@link ListingState}. */
export function emptyListing(): ListingState {
  return { walked: 0, shown: [], mtimes: [], targets: [], unreadable: [] };
}

/** Files found, packed to go to another thread: copying a small array per file costs more than listing a folder of them. */
export function packFiles(state: Pick<ListingState, 'shown' | 'mtimes' | 'targets'>, order?: readonly number[]): PackedFiles {
  if (order === undefined) return { paths: state.shown.join('\0'), mtimes: Float64Array.from(state.mtimes), targets: state.targets };
  const position = new Map(order.map((index, at) => [index, at]));
  const targets: [number, string][] = [];
  for (const [index, target] of state.targets) {
    const at = position.get(index);
    if (at !== undefined) targets.push([at, target]);
  }
  return { paths: order.map((index) => state.shown[index]!).join('\0'), mtimes: Float64Array.from(order, (index) => state.mtimes[index]!), targets };
}

/** The paths of {@link PackedFiles}, in order. */
export function unpackPaths(files: PackedFiles): string[] {
  return files.mtimes.length === 0 ? [] : files.paths.split('\0');
}

/** Adds what another thread found (its half of a walk) to `state`. */
export function addListing(state: ListingState, other: ListedFiles): void {
  const offset = state.shown.length;
  state.walked += other.walked;
  for (const shown of unpackPaths(other.files)) state.shown.push(shown);
  for (const mtime of other.files.mtimes) state.mtimes.push(mtime);
  for (const [index, target] of other.files.targets) state.targets.push([offset + index, target]);
  for (const folder of other.unreadable) state.unreadable.push(folder);
}

/**
 * The indices of the `keep` newest files (ties by path), newest first: find_files shows no
 * more, so only they cross to the main thread, which then has nothing to sort.
 */
export function newestFirst(state: ListingState, keep: number): number[] {
  const { mtimes, shown } = state;
  let order: number[];
  if (mtimes.length > keep) {
    // The keep-th newest time, from a numeric sort of the times alone; ties at it may add a few.
    const threshold = keep === 0 ? Infinity : Float64Array.from(mtimes).sort()[mtimes.length - keep]!;
    order = [];
    for (let index = 0; index < mtimes.length; index += 1) if (mtimes[index]! >= threshold) order.push(index);
  } else {
    order = Array.from(mtimes.keys());
  }
  order.sort((a, b) => mtimes[b]! - mtimes[a]! || (shown[a]! < shown[b]! ? -1 : shown[a]! > shown[b]! ? 1 : 0));
  if (order.length > keep) order.length = keep;
  return order;
}

/** What listing needs from the job, prepared once. */
export interface ListingContext {
  readonly skipped: ReadonlySet<string>;
  readonly included: (fromStart: string) => boolean;
  /** False for a folder (path from the start) below which nothing can match. */
  readonly mayHoldMatches: (fromStart: string) => boolean;
  /** The path shown for a path from the start: relative to the workspace root, `/` between names. */
  readonly shown: (fromStart: string) => string;
}

/** The include test of a glob compiled for the worker: the path equals the glob, or the regular expression matches the path (or, with `basename`, the file name). */
export function includer(include: IncludePattern | undefined): (fromStart: string) => boolean {
  if (include === undefined) return () => true;
  const regex = new RegExp(include.source, include.flags);
  const tail = plainTail(include);
  // Most names fail the plain tail (`.md` of `*.md`), a string comparison, before the regular expression runs.
  return (fromStart) => fromStart === include.glob || (fromStart.endsWith(tail) && regex.test(include.basename ? fromStart.slice(fromStart.lastIndexOf('/') + 1) : fromStart));
}

/**
 * The text every path the glob takes ends with: the run of plain characters (letters,
 * digits, `_`, `.`, `-`) that ends it, as `.md` of `*.md` and `.test.ts` of `src/**\/*.test.ts`;
 * `''` when it ends with a wildcard, a class, a brace or a group, when it is negated (`!`),
 * and when case is ignored.
 */
export function plainTail(include: Pick<IncludePattern, 'glob' | 'flags'>): string {
  if (include.flags.includes('i') || include.glob.startsWith('!')) return '';
  return /[\w.-]*$/.exec(include.glob)![0];
}

/** A folder test from `include.folders`: the patterns of the folders a match can lie under (see `glob-prefix.ts`). */
export function folderFilter(include: IncludePattern | undefined): (fromStart: string) => boolean {
  const folders = include?.folders;
  if (folders === undefined) return () => true;
  const regex = new RegExp(folders.source, folders.flags);
  return (fromStart) => regex.test(fromStart);
}

/** The {@link ListingContext} of a `find_files` job. */
export function listingContext(job: Pick<FindJob, 'skipped' | 'include' | 'root' | 'start'>): ListingContext {
  // Worked out once: `path.relative` for every file found costs more than listing them.
  const startShown = path.relative(job.root, job.start).split(path.sep).join('/');
  return {
    skipped: new Set(job.skipped),
    included: includer(job.include),
    mayHoldMatches: folderFilter(job.include),
    shown: (fromStart) => (fromStart === '' ? startShown || '.' : startShown === '' ? fromStart : `${startShown}/${fromStart}`),
  };
}

/**
 * Where a `find_files` walk begins: at the glob's literal folder part when it has one, reached
 * name by name as a walk would reach it (each a real folder, not a link and not skipped), or
 * at the start. Undefined when that folder is missing, so nothing can match; a folder on the
 * way that cannot be read is noted in `state`, as the walk would note it.
 */
export function firstFolder(job: Pick<FindJob, 'start' | 'include'>, context: ListingContext, state: ListingState): PendingFolder | undefined {
  return reachFirstFolder(job, context, state)?.folder;
}

/** {@link firstFolder}, with the size its lookup gave the folder reached (none for the start, which it does not look up). */
function reachFirstFolder(job: Pick<FindJob, 'start' | 'include'>, context: ListingContext, state: ListingState): { folder: PendingFolder; bytes?: number } | undefined {
  const base = job.include.base;
  if (base === undefined) return { folder: { absolute: job.start, fromStart: '' } };
  let absolute = job.start;
  let fromStart = '';
  let bytes = 0;
  for (const name of base.split('/')) {
    if (context.skipped.has(name)) return undefined;
    const next = absolute + path.sep + name;
    const nextFromStart = fromStart === '' ? name : `${fromStart}/${name}`;
    let stats: fs.Stats | undefined;
    try {
      stats = fs.lstatSync(next, { throwIfNoEntry: false });
    } catch (error) {
      // Out of reach: the walk would have found this folder unreadable (or, for a name too
      // long or the like, nothing in it).
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM') state.unreadable.push(context.shown(nextFromStart));
      return undefined;
    }
    if (stats === undefined || !stats.isDirectory()) return undefined;
    absolute = next;
    fromStart = nextFromStart;
    bytes = stats.size;
  }
  return { folder: { absolute, fromStart }, bytes };
}

/**
 * True when `absolute` is a folder (not a link to one). False when it is anything else, is
 * missing, or cannot be looked at: the caller then asks the workspace why.
 */
export function isFolder(absolute: string): boolean {
  try {
    return fs.lstatSync(absolute, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

/** Lists one folder into `state`; its subfolders that may hold matches go on `pending`. */
export function listFolder(folder: PendingFolder, context: ListingContext, state: ListingState, pending: PendingFolder[]): void {
  let listed: fs.Dirent[];
  try {
    listed = fs.readdirSync(folder.absolute, { withFileTypes: true });
  } catch {
    state.unreadable.push(context.shown(folder.fromStart));
    return;
  }
  addEntries(folder, listed, context, state, pending);
}

/** The answer to a find job from what its walk found: the `keep` newest, packed. */
export function findAnswer(state: ListingState, keep: number): FindAnswer {
  const newest = packFiles(state, newestFirst(state, keep));
  return { type: 'listed', walked: state.walked, total: state.shown.length, newest, unreadable: state.unreadable };
}

/** The answer to a find job whose start is not a folder: nothing was looked at. */
export function startMissing(): FindAnswer {
  return { type: 'listed', walked: 0, total: 0, newest: packFiles(emptyListing()), unreadable: [], startMissing: true };
}

/**
 * A find job answered on the calling thread, when its glob's matches all lie in one folder
 * (`oneFolder`) that holds at most `maxNames` names: a few lookups on the way there, one
 * listing and a lookup per match, so the work is bounded however large the tree. Undefined
 * when the folder holds more: nothing is kept, and the job goes to the search worker.
 */
export function findInSmallFolder(job: Omit<FindJob, 'type'>, maxNames: number): FindAnswer | undefined {
  if (job.include.oneFolder !== true) return undefined;
  if (!isFolder(job.start)) return startMissing();
  const context = listingContext(job);
  const state = emptyListing();
  const reached = reachFirstFolder(job, context, state);
  if (reached !== undefined) {
    const { folder, bytes = 0 } = reached;
    if (bytes > FOLDER_BLOCK_BYTES + maxNames * FOLDER_BYTES_PER_NAME) return undefined;
    const listed = listUpTo(folder.absolute, maxNames);
    if (listed === 'too many') return undefined;
    if (listed === 'unreadable') state.unreadable.push(context.shown(folder.fromStart));
    else addEntries(folder, listed, context, state, []);
  }
  return findAnswer(state, job.keep);
}

/**
 * A folder's size grows with the names it holds: about 20–40 bytes a name on ext4, btrfs and
 * tmpfs, beyond one 4 KiB block on ext4. One plainly larger than its bound is not opened,
 * since reading past the bound to turn it down costs about a millisecond (600 names on ext4:
 * 0.8 ms, a sixth of the worker's answer).
 */
const FOLDER_BYTES_PER_NAME = 32;
const FOLDER_BLOCK_BYTES = 4_096;

/** A folder's entries when it has at most `maxNames`, read a batch at a time so a larger one costs no more than that to turn down. */
function listUpTo(absolute: string, maxNames: number): fs.Dirent[] | 'too many' | 'unreadable' {
  let folder: fs.Dir;
  try {
    folder = fs.opendirSync(absolute, { bufferSize: 128 });
  } catch {
    return 'unreadable';
  }
  try {
    const entries: fs.Dirent[] = [];
    for (let entry = folder.readSync(); entry !== null; entry = folder.readSync()) {
      if (entries.length === maxNames) return 'too many';
      entries.push(entry);
    }
    return entries;
  } catch {
    return 'unreadable';
  } finally {
    folder.closeSync();
  }
}

/** Adds a listed folder's entries to `state`; its subfolders that may hold matches go on `pending`. */
function addEntries(folder: PendingFolder, listed: readonly fs.Dirent[], context: ListingContext, state: ListingState, pending: PendingFolder[]): void {
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
    const fromStart = prefix + entry.name;
    if (!context.included(fromStart)) continue;
    dateFile(absolute, context.shown(fromStart), link, state);
  }
}

/**
 * Dates one file (its modification time, and where a link points) into `state`. A file gone
 * since the listing, or out of reach (a path over PATH_MAX, a folder listed but not entered),
 * is left out, as find_files' walk through the workspace leaves it out.
 */
function dateFile(absolute: string, shown: string, link: boolean, state: ListingState): void {
  let stats: fs.Stats | undefined;
  try {
    stats = fs.lstatSync(absolute, { throwIfNoEntry: false });
  } catch {
    return;
  }
  if (stats === undefined) return;
  if (link) {
    let target: string;
    try {
      target = fs.readlinkSync(absolute);
    } catch {
      target = '?';
    }
    state.targets.push([state.shown.length, target]);
  }
  state.shown.push(shown);
  state.mtimes.push(stats.mtimeMs);
}

/**
 * Walks the folders another thread walks too, each with everything below it: takes the next
 * one not yet taken (`taken[0]`, the index of the next, counts up on both threads) until
 * none is left.
 */
export function walkShared(folders: readonly PendingFolder[], taken: Int32Array, context: ListingContext, state: ListingState): void {
  const pending: PendingFolder[] = [];
  for (let index = Atomics.add(taken, 0, 1); index < folders.length; index = Atomics.add(taken, 0, 1)) {
    pending.push(folders[index]!);
    while (pending.length > 0) listFolder(pending.pop()!, context, state, pending);
  }
}
