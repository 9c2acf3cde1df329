/**
 * A disk-mode search as the search worker runs it (`SearchWalkJob`): its files come from the
 * start itself when that is a file, from ripgrep's list, or from the walker thread's batches,
 * and each is read, screened and matched in that order (`disk-file-search.ts`). Matches and
 * files passed over are posted as `found` messages; the walk keeps the limit and decides the
 * hand-off to ripgrep (see `SearchWalkJob.handOff`).
 */
import * as path from 'node:path';
import type { DiskFileSearch } from './disk-file-search.js';
import type { LineMatcher } from './line-matcher.js';
import type { FoundFile, FoundMessage, SearchWalkJob, SearchWorkerInit, WalkerSearchJob } from './protocol.js';
import { allowWalk, nextWalkId, screened, stopWalk, walkerThread, WalkerBatches } from './walker-link.js';

/** Milliseconds between progress messages while nothing else is worth sending. */
const PROGRESS_MS = 25;

/** The current search's parts in this worker, made from its init message. */
export interface SearchSetup {
  readonly init: SearchWorkerInit;
  /** Where the watchdog reads what this thread is doing (see `SearchWorkerInit.progress`). */
  readonly progress: Int32Array;
  /** Where the path of the file being searched goes, for the watchdog's report. */
  readonly pathBytes: Buffer;
  readonly matcher: LineMatcher;
  readonly files: DiskFileSearch;
}

/** Runs `job` to its end, posting what it finds; the last message says how it ended. */
export function runSearchWalk(job: SearchWalkJob, setup: SearchSetup, post: (message: FoundMessage) => void): void {
  // Paths below the start are shown as the start's path and the path from it.
  const relative = path.relative(job.root, job.start);
  const startShown = relative === '' ? '.' : relative.split(path.sep).join('/');
  const walk = new SearchWalk(job, setup, post);
  if (job.startIsFile) {
    walk.visit(job.start, startShown);
    walk.finish({ stoppedByLimit: false });
    return;
  }
  if (job.files !== undefined) {
    for (const [absolute, shown] of job.files) {
      if (!walk.visit(absolute, shown)) {
        walk.finish({ stoppedByLimit: true });
        return;
      }
    }
    walk.finish({ stoppedByLimit: false });
    return;
  }
  walkWithWalker(job, setup, walk, startShown);
}

/** The walker thread lists folders while this one reads and matches: two cores, and the order stays the walk's. */
function walkWithWalker(job: SearchWalkJob, setup: SearchSetup, walk: SearchWalk, startShown: string): void {
  const thread = walkerThread();
  const id = nextWalkId();
  allowWalk(id);
  const { required, maxFileBytes } = setup.init;
  const screen = required === undefined ? {} : { screen: { required, maxFileBytes } };
  const shownPrefix = startShown === '.' ? '' : `${startShown}/`;
  const walkerJob: WalkerSearchJob = { type: 'walk', id, start: job.start, skipped: job.skipped, include: job.include, shownPrefix, startShown, ...screen };
  // With an `include` glob the listing is most of the work: this thread lists too while it waits.
  const share = job.include !== undefined;
  thread.walker.postMessage(share ? { ...walkerJob, share } : walkerJob);
  const batches = new WalkerBatches(thread, id, setup.progress, walkerJob, share);
  walk.filesLeft = (enough) => batches.filesLeft(enough);
  try {
    for (let entry = batches.take(); entry !== undefined; entry = batches.take()) {
      if (entry[0] === 'u') walk.unreadable(entry[2]);
      else if (!walk.visit(entry[1], entry[2], batches.claims, batches.slot)) {
        walk.stop();
        return;
      }
    }
    walk.finish({ stoppedByLimit: false });
  } finally {
    // What the walker still sends for this walk is passed over by the next.
    stopWalk();
  }
}

/** One search walk's files in order: what they held, posted as it comes, with the limit and the hand-off. */
class SearchWalk {
  /** Files the walk has still to search, counted up to `enough`; the walker's batches know, a list does not need to. */
  filesLeft: (enough: number) => number = (enough) => enough;
  readonly #job: SearchWalkJob;
  readonly #setup: SearchSetup;
  readonly #post: (message: FoundMessage) => void;
  /** What goes in the next message. */
  #searched = 0;
  #files: FoundFile[] = [];
  #unreadable: string[] = [];
  #lastPost = Date.now();
  /** Limit units (files, or lines in mode `lines`) matched so far. */
  #committed = 0;
  #sequence = 0;
  #textFiles = 0;
  #handedOffAfter: string | undefined;

  constructor(job: SearchWalkJob, setup: SearchSetup, post: (message: FoundMessage) => void) {
    this.#job = job;
    this.#setup = setup;
    this.#post = post;
  }

  /** Searches one file (taken from the walker's `claims` at `slot`, when it screens); false once the limit is reached and another file is left, or the walk is handed off. */
  visit(absolute: string, shown: string, claims?: Int32Array, slot = 0): boolean {
    const { limit } = this.#job;
    const { progress, pathBytes, files, init } = this.#setup;
    if (this.#committed >= limit) return false;
    Atomics.store(progress, 0, this.#sequence++);
    Atomics.store(progress, 2, pathBytes.write(shown, 0));
    const result = (claims === undefined ? undefined : screened(claims, slot, progress)) ?? files.search(absolute, limit - this.#committed);
    if (result.verdict === 'text') {
      this.#searched += 1;
      this.#textFiles += 1;
      if (result.count > 0) this.#committed += init.mode === 'lines' ? result.lines.length : 1;
      if (this.#handOffDue()) this.#handedOffAfter = shown;
    }
    // A match or a file passed over goes out at once, so it is not lost if a later file gets the worker stuck.
    if (result.count > 0 || result.verdict !== 'text') {
      this.#files.push({ path: shown, verdict: result.verdict!, count: result.count, lines: result.lines });
      this.#send();
    } else if (Date.now() - this.#lastPost > PROGRESS_MS) this.#send();
    return this.#handedOffAfter === undefined;
  }

  /** A folder the walker could not list. */
  unreadable(shown: string): void {
    this.#unreadable.push(shown);
  }

  /** Ends the walk where {@link visit} said stop: at the limit, or at a hand-off. */
  stop(): void {
    const handedOffAfter = this.#handedOffAfter;
    this.finish(handedOffAfter === undefined ? { stoppedByLimit: true } : { stoppedByLimit: false, handedOffAfter });
  }

  /** Posts the last message, saying how the walk ended. */
  finish(end: NonNullable<FoundMessage['end']>): void {
    this.#send(end);
  }

  /** True when matches are sparse after the probe files: ripgrep would reach the rest sooner than this walk. */
  #handOffDue(): boolean {
    const { handOff, limit } = this.#job;
    const committed = this.#committed;
    if (handOff === undefined || this.#textFiles !== handOff.probeFiles || committed >= limit) return false;
    const projected = committed === 0 ? Infinity : (this.#textFiles * limit) / committed;
    // On a small tree the walk is nearly done: finishing it is quicker than starting ripgrep over the whole tree.
    return projected > handOff.maxProjectedFiles && this.filesLeft(handOff.minFilesLeft) >= handOff.minFilesLeft;
  }

  #send(end?: FoundMessage['end']): void {
    this.#post({ type: 'found', searched: this.#searched, files: this.#files, unreadable: this.#unreadable, ...(end === undefined ? {} : { end }) });
    this.#searched = 0;
    this.#files = [];
    this.#unreadable = [];
    this.#lastPost = Date.now();
  }
}
