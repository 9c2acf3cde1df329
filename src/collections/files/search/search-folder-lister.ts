/**
 * The folders of a search walk, listed one at a time depth first (entries in name order, files
 * before subfolders; links never followed, skipped folders and folders the include glob rules
 * out not entered), by the walker thread and, for the folders it is given, by the search worker.
 *
 * The folders waiting form a stack whose top is next in walk order, and every folder below
 * comes after all that the folders above it hold. So the bottom of the stack can be given away
 * whole ({@link SearchFolderLister.giveAway}): what the giver lists from then on comes before it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { folderFilter, includer } from './folder-listing.js';
import type { PackedEntries, PendingFolder, WalkEntry, WalkerSearchJob } from './protocol.js';

/** What listing needs from a search walk. */
export type ListedWalk = Pick<WalkerSearchJob, 'start' | 'skipped' | 'include' | 'shownPrefix' | 'startShown'>;

export class SearchFolderLister {
  readonly #job: ListedWalk;
  readonly #skipped: ReadonlySet<string>;
  readonly #included: (fromStart: string) => boolean;
  readonly #mayHoldMatches: (fromStart: string) => boolean;
  readonly #pending: PendingFolder[];
  /** Folders listed so far. */
  folders = 0;
  /** Files put on the entries so far. */
  files = 0;

  /** Lists from the walk's start, or the folders `pending` (a stack, the next to list last), given by another lister. */
  constructor(job: ListedWalk, pending: readonly PendingFolder[] = [{ absolute: job.start, fromStart: '' }]) {
    this.#job = job;
    this.#skipped = new Set(job.skipped);
    this.#included = includer(job.include);
    this.#mayHoldMatches = folderFilter(job.include);
    this.#pending = [...pending];
  }

  /** True while folders are left to list. */
  get more(): boolean {
    return this.#pending.length > 0;
  }

  /** Folders waiting to be listed. */
  get waiting(): number {
    return this.#pending.length;
  }

  /**
   * The last `count` folders in walk order of those waiting (never the next one), as a stack
   * for another lister: nothing this one lists from now on comes after them.
   */
  giveAway(count: number): PendingFolder[] {
    return this.#pending.splice(0, Math.min(count, this.#pending.length - 1));
  }

  /** Lists the next folder: its files the include glob takes (or the folder, when it cannot be listed) go on `entries`. */
  listNext(entries: WalkEntry[]): void {
    const job = this.#job;
    const folder = this.#pending.pop()!;
    let listed: fs.Dirent[];
    try {
      listed = fs.readdirSync(folder.absolute, { withFileTypes: true });
    } catch {
      entries.push(['u', '', folder.fromStart === '' ? job.startShown : job.shownPrefix + folder.fromStart]);
      return;
    }
    this.folders += 1;
    listed.sort(byName);
    const prefix = folder.fromStart === '' ? '' : `${folder.fromStart}/`;
    const subfolders: PendingFolder[] = [];
    for (const entry of listed) {
      if (entry.isDirectory()) {
        const fromStart = prefix + entry.name;
        if (!this.#skipped.has(entry.name) && this.#mayHoldMatches(fromStart)) subfolders.push({ absolute: folder.absolute + path.sep + entry.name, fromStart });
      } else if (entry.isFile()) {
        const fromStart = prefix + entry.name;
        if (this.#included(fromStart)) {
          entries.push(['f', folder.absolute + path.sep + entry.name, job.shownPrefix + fromStart]);
          this.files += 1;
        }
      }
    }
    for (let index = subfolders.length - 1; index >= 0; index -= 1) this.#pending.push(subfolders[index]!);
  }
}

/** Entries as they go between the threads (see {@link PackedEntries}). */
export function packEntries(entries: readonly WalkEntry[]): PackedEntries {
  let kinds = '';
  const shown: string[] = [];
  for (const entry of entries) {
    kinds += entry[0];
    shown.push(entry[2]);
  }
  return { kinds, shown: shown.join('\0') };
}

/** The entries {@link packEntries} packed, for the walk `job`: a file's path is the start's and the path from it, which its shown path ends with. */
export function unpackEntries(packed: PackedEntries, job: Pick<ListedWalk, 'start' | 'shownPrefix'>): WalkEntry[] {
  const { kinds } = packed;
  if (kinds.length === 0) return [];
  const shown = packed.shown.split('\0');
  const base = job.start + path.sep;
  const prefixLength = job.shownPrefix.length;
  const entries: WalkEntry[] = new Array(kinds.length);
  for (let index = 0; index < kinds.length; index += 1) {
    const entryShown = shown[index]!;
    entries[index] = kinds.charCodeAt(index) === 0x66 ? ['f', base + entryShown.slice(prefixLength), entryShown] : ['u', '', entryShown];
  }
  return entries;
}

function byName(a: fs.Dirent, b: fs.Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
