/**
 * The seam between the two ways a search on a local workspace (disk mode) finds its files:
 * the walk of the search worker and its walker thread (`walk-engine.ts`), and ripgrep's scan
 * (`ripgrep-engine.ts`), which takes over from the walk when matches are sparse. Either way
 * the search worker reads and matches the files; an engine only decides which files it gets.
 */
import type { SearchOutcome } from '../../../workspace/in-place.js';
import type { WalkEnd } from './channel.js';
import type { FoundMessage } from './protocol.js';

/**
 * One way of picking the files the search worker reads, and running the worker over them.
 * Engines take turns in one search (the walk first, ripgrep for the rest), and the answer
 * must not depend on which one ran, so every engine keeps these rules:
 *
 * - **Walk order.** Files are searched, and reported to `onFound`, in walk order (see
 *   `walk-order.ts`): depth first from the folder searched, a folder's files before its
 *   subfolders, names compared as strings. `search_files` lists matches in this order.
 * - **The limit in that order.** `limit` counts matched files (mode `lines`: matched lines)
 *   in walk order, so the first `limit` are the same whichever engine found them; an engine
 *   stops there and says whether files were left unsearched (`stoppedByLimit`).
 * - **Hand-offs leave no gap.** An engine that stops early names the last file it searched
 *   (`handedOffAfter`, `''` for none): every file before it was searched, none after. The
 *   next engine takes only the files after it, so none is searched twice or left out.
 * - **The same files.** Links are never followed, skipped folders are not entered below the
 *   start, hidden files are searched, ignore files are not read, and only files `include`
 *   takes are searched.
 * - **The same reading.** The worker reads what either engine picks under the same rules and
 *   limits: binary files are counted, non-UTF-8 and oversized ones named, none searched; a
 *   match is reported as soon as it is found, so a pattern stuck on a later file cannot lose
 *   it. Only two things may differ once ripgrep took over: "files searched" counts the files
 *   ripgrep looked at, and the files passed over are only those it named.
 *
 * A workspace the worker may not read (see `local-disk.ts`) is searched on the main thread
 * (`workspace-search.ts`) in the same walk order, without engines: it never hands off.
 */
export interface SearchEngine {
  /** What `SearchOutcome.engine` says when this engine picked files. */
  readonly name: SearchOutcome['engine'];
  /**
   * Searches this engine's files until the last, until `limit` units matched, or until it
   * hands off; each of the worker's messages goes to `onFound` as it comes.
   */
  search(limit: number, onFound: (found: FoundMessage) => void): Promise<EngineEnd>;
}

/** How an engine's turn ended. */
export type EngineEnd =
  /**
   * The worker searched the engine's files: `end` says how its run ended, or is `undefined`
   * when the search ended during it (see `SearchChannel.failure`). `searched`, when the engine
   * counts files itself (ripgrep: the files it looked at), is the search's "files searched".
   */
  | { readonly type: 'searched'; readonly end: WalkEnd | undefined; readonly searched?: number }
  /** The search ended before the engine had files for the worker (a timeout or a cancel). */
  | { readonly type: 'stopped' }
  /** The engine cannot answer here (ripgrep failed) and reported nothing: search without it. */
  | { readonly type: 'unavailable' };
