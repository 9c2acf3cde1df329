/**
 * The walker, a thread the search worker starts (`search-worker-thread.ts`): for a search it
 * lists folders (links never followed, skipped folders and folders the include glob rules out
 * not entered, entries in name order, files before subfolders) and sends the files to search
 * in batches, at most {@link WALK_BATCHES_AHEAD} ahead of the reading, and, when the pattern
 * has required text, reads and screens the newest files it sent while the worker is busy
 * with older ones (see `CLAIM`); when a narrow `include` leaves the worker waiting, it gives
 * the worker the last of its waiting folders to list (see `WalkerSearchJob.share`); for
 * `find_files` it walks the half of the folders it is given and answers in one message.
 */
import * as fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { emptyListing, listingContext, packFiles, walkShared } from './folder-listing.js';
import { packEntries, SearchFolderLister } from './search-folder-lister.js';
import { SearchFileReader } from './file-reader.js';
import { lowerThisThreadsPriority } from './priority.js';
import { compileRequiredText } from './prefilter.js';
import {
  CLAIM,
  CONTROL_SLOTS,
  WALK_BATCH_ENTRIES,
  WALK_BATCHES_AHEAD,
  type PendingFolder,
  type WalkEntry,
  type WalkerData,
  type WalkerFindJob,
  type WalkerMessage,
  type WalkerSearchJob,
} from './protocol.js';

lowerThisThreadsPriority();
const { port, control: controlMemory } = workerData as WalkerData;
const control = new Int32Array(controlMemory);
/** Buffers for screening files, made at the first search that screens. */
let reader: SearchFileReader | undefined;

/** Posts on the port (moving `transfer`) and says so in the control memory, so the search worker wakes up. */
function postToWorker(message: WalkerMessage, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
  Atomics.add(control, CONTROL_SLOTS.posted, 1);
  Atomics.notify(control, CONTROL_SLOTS.posted);
}

/** find_files: the folders the search worker shared, walked here; the answer goes back in one message. */
function find(message: WalkerFindJob): void {
  const state = emptyListing();
  // Always answer, or the search worker would wait for ever: an error goes back to be thrown there.
  let error: string | undefined;
  try {
    walkShared(message.folders, message.taken, listingContext(message.job), state);
  } catch (thrown) {
    error = String((thrown as Error | undefined)?.stack ?? thrown);
  }
  const found = { walked: state.walked, files: packFiles(state), unreadable: state.unreadable };
  postToWorker(error === undefined ? { id: message.id, found } : { id: message.id, found, error }, [found.files.mtimes.buffer as ArrayBuffer]);
}

/**
 * Folders the walker lists before it judges whether to give the search worker folders (see
 * `WalkerSearchJob.share`): the first few say little of how many files a folder holds.
 */
const SHARE_AFTER_FOLDERS = 64;

/** Entries a batch for a waiting search worker holds at least, unless {@link IDLE_BATCH_MS} passed since the last. */
const IDLE_BATCH_ENTRIES = 16;
/** How long a waiting search worker waits for a batch of fewer than {@link IDLE_BATCH_ENTRIES} entries. */
const IDLE_BATCH_MS = 2;

/** Batches the search worker has to go before the walker screens files instead of listing more folders. */
const LOW_WATER_BATCHES = 4;

function walk(job: WalkerSearchJob): void {
  const stopped = (): boolean => Atomics.load(control, CONTROL_SLOTS.stop) !== job.id;
  const backlog = (): number => Atomics.load(control, CONTROL_SLOTS.posted) - Atomics.load(control, CONTROL_SLOTS.taken);
  const screen = job.screen === undefined ? undefined : { ...job.screen, mayMatch: compileRequiredText(job.screen.required) };
  const screening = screen === undefined ? undefined : new ScreeningCursor((absolute) => screenFile(absolute, screen));
  const lister = new SearchFolderLister(job);
  let entries: WalkEntry[] = [];
  let sent = 0;
  const send = (end: boolean): void => {
    for (;;) {
      const taken = Atomics.load(control, CONTROL_SLOTS.taken);
      if (Atomics.load(control, CONTROL_SLOTS.posted) - taken < WALK_BATCHES_AHEAD || stopped()) break;
      Atomics.wait(control, CONTROL_SLOTS.taken, taken, 100);
    }
    if (screening === undefined) postToWorker({ id: job.id, entries: packEntries(entries), end });
    else {
      const claims = new SharedArrayBuffer(4 * entries.length);
      postToWorker({ id: job.id, entries: packEntries(entries), end, claims });
      screening.add(entries, new Int32Array(claims));
    }
    entries = [];
    sent += 1;
    sentAt = performance.now();
  };
  let sentAt = performance.now();
  // With an `include` glob, a waiting worker gets files once there are a few, or once the last
  // batch is a while old: a message per folder listed cost the walker more than the listing.
  // Without one, folders hold files enough, and a worker kept waiting for 16 costs more (4%).
  const idleBatchIsDue = (files: number): boolean => job.include === undefined || files >= IDLE_BATCH_ENTRIES || performance.now() - sentAt >= IDLE_BATCH_MS;
  while (lister.more && !stopped()) {
    if (job.share === true && Atomics.load(control, CONTROL_SLOTS.wants) === job.id && lister.waiting >= 2 && lister.folders >= SHARE_AFTER_FOLDERS && lister.files < lister.folders) {
      // The search worker waits with nothing to read, and a folder has held less than a file to
      // read: the listing is the work, so the worker lists the last quarter of the folders waiting.
      // With more files per folder, reading is the work, and the worker would read those alone.
      Atomics.store(control, CONTROL_SLOTS.wants, 0);
      postToWorker({ id: job.id, given: lister.giveAway(Math.ceil(lister.waiting / 4)) });
    }
    // Listing comes first while the worker is short of files; otherwise the newest files are screened.
    if (backlog() >= LOW_WATER_BATCHES && screening?.screenOne() === true) continue;
    lister.listNext(entries);
    // Small batches first, so reading starts at once; larger ones after; and sooner when the worker waits.
    if (entries.length >= (sent < 4 ? 16 : WALK_BATCH_ENTRIES) || (entries.length > 0 && backlog() === 0 && idleBatchIsDue(entries.length))) send(false);
  }
  send(true);
  // The last files are screened while the worker reaches them.
  while (!stopped() && screening?.screenOne() === true);
  reader?.releaseWholeBuffer();
}

/** The files of one posted batch, with their claim slots (see `CLAIM`). */
interface Posted {
  readonly entries: readonly WalkEntry[];
  readonly claims: Int32Array;
}

/**
 * Which file the walker screens next: the newest posted file not taken yet, going back from
 * the newest batch while the search worker works forward from the oldest, so the two meet
 * without reading a file twice.
 */
class ScreeningCursor {
  readonly #screenFile: (absolute: string) => number;
  /** Posted batches that may still hold files to screen, oldest first. */
  readonly #posted: Posted[] = [];
  /** The next file to screen, going back from the newest: a batch in `posted` and an entry in it. */
  #cursor = { batch: -1, entry: -1 };
  /** Where screening stood when a newer batch went out, to go on from there once the newer one is done. */
  readonly #resume: { batch: number; entry: number }[] = [];

  /** `screenFile` reads a file and gives its `CLAIM` state. */
  constructor(screenFile: (absolute: string) => number) {
    this.#screenFile = screenFile;
  }

  /** A batch just posted: screening starts again from its last file. */
  add(entries: readonly WalkEntry[], claims: Int32Array): void {
    const posted = this.#posted;
    posted.push({ entries, claims });
    if (this.#cursor.batch >= 0) this.#resume.push(this.#cursor);
    // Older batches are the worker's by now, or screened already.
    if (posted.length > 2 * WALK_BATCHES_AHEAD) {
      posted.shift();
      for (const position of this.#resume) position.batch -= 1;
    }
    this.#cursor = { batch: posted.length - 1, entry: entries.length - 1 };
  }

  /**
   * Screens the newest file not taken yet; false when there is none. Going back from the
   * newest file, a slot already taken means the files before it are the worker's, or were
   * screened before a newer batch went out (then screening goes on where it stood).
   */
  screenOne(): boolean {
    for (;;) {
      if (this.#cursor.batch < 0) {
        const previous = this.#resume.pop();
        if (previous === undefined) return false;
        this.#cursor = previous;
        continue;
      }
      const batch = this.#posted[this.#cursor.batch]!;
      if (this.#cursor.entry < 0) {
        this.#cursor = { batch: this.#cursor.batch - 1, entry: (this.#posted[this.#cursor.batch - 1]?.entries.length ?? 0) - 1 };
        continue;
      }
      const index = this.#cursor.entry;
      const entry = batch.entries[index]!;
      this.#cursor.entry -= 1;
      if (entry[0] === 'u') continue;
      if (Atomics.compareExchange(batch.claims, index, CLAIM.free, CLAIM.screening) !== CLAIM.free) {
        this.#cursor = { batch: -1, entry: -1 };
        continue;
      }
      Atomics.store(batch.claims, index, this.#screenFile(entry[1]));
      Atomics.notify(batch.claims, index);
      return true;
    }
  }
}

/** Reads one file for the search worker and says what it found, as a `CLAIM` state. */
function screenFile(absolute: string, screen: { readonly maxFileBytes: number; readonly mayMatch: (bytes: Buffer) => boolean }): number {
  reader ??= new SearchFileReader();
  const read = reader.read(absolute, screen.maxFileBytes);
  if (read.type === 'text') return screen.mayMatch(read.bytes) ? CLAIM.mayMatch : CLAIM.noMatch;
  if (read.type === 'large') {
    // Left to the worker, which reads large files in chunks.
    fs.closeSync(read.fd);
    return CLAIM.mayMatch;
  }
  return read.verdict === 'binary' ? CLAIM.binary : read.verdict === 'not-utf8' ? CLAIM.notUtf8 : read.verdict === 'too-large' ? CLAIM.tooLarge : CLAIM.unreadable;
}

parentPort!.on('message', (job: WalkerSearchJob | WalkerFindJob) => {
  if (job.type === 'find') find(job);
  else walk(job);
});
