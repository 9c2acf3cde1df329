import * as path from 'node:path';
import { errorCode, rethrowUnlessFileSystemError } from '../../../workspace/file-system-errors.js';
import type { Workspace } from '../../../workspace/workspace.js';

/**
 * Folder listings in flight at once. Listing is mostly waiting on the disk (or a remote
 * workspace), so many at a time keep it busy; the order of results does not change.
 */
const LISTINGS_IN_FLIGHT = 64;
/**
 * Folders listed ahead of the walk and not walked yet, at most: bounds the memory a
 * look-ahead holds on a huge tree.
 */
const LISTED_AHEAD = 2_048;

/** A folder's entries, once listed and sorted: files (and links) to yield, subfolders to walk. */
interface Listing {
  readonly files: readonly WalkedFile[];
  readonly subfolders: readonly Folder[];
}

interface Folder {
  readonly absolute: string;
  readonly fromStart: string;
  /** `fromStart` with `/` as `\0`, so comparing keys as strings gives the walk's order. */
  readonly key: string;
  /** The listing, once started; `undefined` inside when the folder could not be read. */
  listing?: Promise<Listing | undefined>;
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
 *
 * `mayHoldMatches` (a glob's folder test, see `glob-prefix.ts`) leaves out the folders below
 * which nothing the caller wants can lie; `base` (a glob's literal folder part, `/` between
 * names) starts the walk there, reached name by name as the walk would reach it.
 *
 * Folders are listed ahead of the walk, up to {@link LISTINGS_IN_FLIGHT} at a time and
 * {@link LISTED_AHEAD} in all, following subfolders as soon as their parent is listed (so a
 * deep, narrow tree is listed in parallel too); results still come in walk order.
 */
export async function* walkFiles(
  workspace: Workspace,
  start: string,
  skipped: readonly string[],
  report: WalkReport,
  signal?: AbortSignal,
  mayHoldMatches: (fromStart: string) => boolean = () => true,
  base?: string,
): AsyncGenerator<WalkedFile> {
  const skippedNames = new Set(skipped);
  const first = base === undefined ? folderAt(start, '') : await folderBelow(workspace, start, base, skippedNames, report);
  if (first === undefined) return;
  const lister = new FolderLister(workspace, skippedNames, mayHoldMatches);
  const pending: Folder[] = [first];
  try {
    while (pending.length > 0) {
      if (signal?.aborted) return;
      const folder = pending.pop()!;
      const listing = await lister.reach(folder);
      if (listing === undefined) {
        report.unreadable.push(workspace.display(folder.absolute));
        continue;
      }
      for (const file of listing.files) yield file;
      // Reverse so the first subfolder is walked next: files of a folder come before its subfolders'.
      for (let index = listing.subfolders.length - 1; index >= 0; index -= 1) pending.push(listing.subfolders[index]!);
    }
  } finally {
    lister.stop();
  }
}

/**
 * Lists folders for one walk, and looks ahead of it: each folder found is listed before the
 * walk reaches it, the first in walk order first, up to {@link LISTINGS_IN_FLIGHT} at a time.
 */
class FolderLister {
  readonly #workspace: Workspace;
  readonly #skipped: ReadonlySet<string>;
  readonly #mayHoldMatches: (fromStart: string) => boolean;
  /** Folders found and not listed yet, for the look-ahead: the first in walk order is listed next. */
  readonly #toList = new FolderQueue();
  #inFlight = 0;
  /** Folders whose listing started and that the walk has not reached yet. */
  #ahead = 0;
  #stopped = false;

  constructor(workspace: Workspace, skipped: ReadonlySet<string>, mayHoldMatches: (fromStart: string) => boolean) {
    this.#workspace = workspace;
    this.#skipped = skipped;
    this.#mayHoldMatches = mayHoldMatches;
  }

  /** The walk reached `folder`: its listing, from the look-ahead or listed now; `undefined` when it could not be read. */
  async reach(folder: Folder): Promise<Listing | undefined> {
    const lookedAhead = folder.listing !== undefined;
    const listing = await this.#list(folder, false);
    if (lookedAhead) {
      this.#ahead -= 1;
      this.#pump();
    }
    return listing;
  }

  /** The walk ended: listings still in flight finish on their own; nothing new starts. */
  stop(): void {
    this.#stopped = true;
  }

  #list(folder: Folder, lookAhead: boolean): Promise<Listing | undefined> {
    if (folder.listing !== undefined) return folder.listing;
    if (lookAhead) this.#ahead += 1;
    this.#inFlight += 1;
    folder.listing = this.#read(folder).then((listing) => {
      this.#inFlight -= 1;
      if (listing !== undefined) for (const subfolder of listing.subfolders) this.#toList.push(subfolder);
      this.#pump();
      return listing;
    });
    return folder.listing;
  }

  #pump(): void {
    while (!this.#stopped && this.#inFlight < LISTINGS_IN_FLIGHT && this.#ahead < LISTED_AHEAD && this.#toList.length > 0) {
      const folder = this.#toList.pop()!;
      if (folder.listing === undefined) void this.#list(folder, true);
    }
  }

  async #read(folder: Folder): Promise<Listing | undefined> {
    let entries;
    try {
      entries = await this.#workspace.list(folder.absolute);
    } catch (error) {
      rethrowUnlessFileSystemError(error);
      return undefined;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const files: WalkedFile[] = [];
    const subfolders: Folder[] = [];
    const prefix = folder.fromStart === '' ? '' : `${folder.fromStart}/`;
    for (const entry of entries) {
      const absolute = path.join(folder.absolute, entry.name);
      if (entry.isDirectory()) {
        if (!this.#skipped.has(entry.name) && this.#mayHoldMatches(prefix + entry.name)) subfolders.push(folderAt(absolute, prefix + entry.name));
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        files.push({ absolute, fromStart: prefix + entry.name, isLink: entry.isSymbolicLink() });
      }
    }
    return { files, subfolders };
  }
}

/**
 * The folder `base` names below `start`, when each name on the way is a folder a walk would
 * enter (not a link, not skipped); undefined otherwise, with a folder that could not be
 * looked into noted in `report`.
 */
async function folderBelow(workspace: Workspace, start: string, base: string, skipped: ReadonlySet<string>, report: WalkReport): Promise<Folder | undefined> {
  let absolute = start;
  let fromStart = '';
  for (const name of base.split('/')) {
    if (skipped.has(name)) return undefined;
    const next = path.join(absolute, name);
    let stats;
    try {
      stats = await workspace.lstatOrUndefined(next);
    } catch (error) {
      rethrowUnlessFileSystemError(error);
      const code = errorCode(error);
      if (code === 'EACCES' || code === 'EPERM') report.unreadable.push(workspace.display(next));
      return undefined;
    }
    if (stats === undefined || !stats.isDirectory()) return undefined;
    absolute = next;
    fromStart = fromStart === '' ? name : `${fromStart}/${name}`;
  }
  return folderAt(absolute, fromStart);
}

function folderAt(absolute: string, fromStart: string): Folder {
  return { absolute, fromStart, key: fromStart.replaceAll('/', '\0') };
}

/** A binary heap of folders, the first in walk order on top (a folder before its subfolders, siblings by name). */
class FolderQueue {
  readonly #heap: Folder[] = [];

  get length(): number {
    return this.#heap.length;
  }

  push(folder: Folder): void {
    const heap = this.#heap;
    heap.push(folder);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (heap[parent]!.key <= folder.key) break;
      heap[index] = heap[parent]!;
      index = parent;
    }
    heap[index] = folder;
  }

  pop(): Folder | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length === 0 || last === undefined) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && heap[right]!.key < heap[left]!.key ? right : left;
      if (heap[child]!.key >= last.key) break;
      heap[index] = heap[child]!;
      index = child;
    }
    heap[index] = last;
    return top;
  }
}
