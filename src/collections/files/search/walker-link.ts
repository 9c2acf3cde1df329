/**
 * The search worker's side of its walker thread (`search-walker-thread.ts`): starting it once,
 * the control memory both share (`CONTROL_SLOTS`), and taking the walker's messages off their
 * port synchronously. The worker never returns to its event loop during a walk, since it reads
 * and matches with synchronous calls, so it waits on the control memory instead of a message
 * event, and the walker waits on the same memory before it runs too far ahead. With nothing to
 * read, the worker lists the folders the walker gave it, or asks for some (`CONTROL_SLOTS.wants`).
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { MutableResult } from './line-matcher.js';
import { CLAIM, CLAIM_VERDICTS, CONTROL_SLOTS, READING, type PackedEntries, type WalkEntry, type WalkerMessage } from './protocol.js';
import { SearchFolderLister, unpackEntries, type ListedWalk } from './search-folder-lister.js';
import { workerScript } from './worker-script.js';

/** The walker thread and the port its messages come in on. */
export interface WalkerThread {
  readonly walker: Worker;
  readonly port: MessagePort;
}

const control = new Int32Array(new SharedArrayBuffer(4 * (Math.max(...Object.values(CONTROL_SLOTS)) + 1)));
/** Started at the first walk (a search through a non-local workspace needs none), then kept. */
let started: WalkerThread | undefined;
let walkId = 0;

/** The walker thread, started if it is not running yet. */
export function walkerThread(): WalkerThread {
  if (started !== undefined) return started;
  const channel = new MessageChannel();
  const script = workerScript('search-walker-thread');
  const walker = new Worker(script.url, { ...script.options, workerData: { port: channel.port2, control: control.buffer }, transferList: [channel.port2] });
  walker.unref();
  started = { walker, port: channel.port1 };
  return started;
}

/** A new walk's id: what the walker still sends for an older walk is then told apart and passed over. */
export function nextWalkId(): number {
  return (walkId += 1);
}

/** Lets the walker go on with walk `id`. */
export function allowWalk(id: number): void {
  Atomics.store(control, CONTROL_SLOTS.wants, 0);
  Atomics.store(control, CONTROL_SLOTS.stop, id);
}

/** Tells the walker to stop its walk, waking it if it waits for room. */
export function stopWalk(): void {
  Atomics.store(control, CONTROL_SLOTS.wants, 0);
  Atomics.store(control, CONTROL_SLOTS.stop, 0);
  Atomics.notify(control, CONTROL_SLOTS.taken);
}

/**
 * The next message on the walker's port for walk `id` that `accept` takes (older walks'
 * leftovers passed over), waiting for it with `progress` saying so: a wait is not a stuck
 * pattern. While none has come, `idle` may do some other work (true: it did, look again).
 */
export function nextFromWalker(from: MessagePort, id: number, accept: (message: WalkerMessage) => boolean, progress: Int32Array, idle?: () => boolean): WalkerMessage {
  for (;;) {
    const posted = Atomics.load(control, CONTROL_SLOTS.posted);
    const received = receiveMessageOnPort(from);
    if (received === undefined) {
      Atomics.store(progress, 1, READING);
      if (idle?.() === true) continue;
      Atomics.wait(control, CONTROL_SLOTS.posted, posted, 100);
      continue;
    }
    Atomics.add(control, CONTROL_SLOTS.taken, 1);
    Atomics.notify(control, CONTROL_SLOTS.taken);
    const message = received.message as WalkerMessage;
    if (message.id === id && accept(message)) return message;
  }
}

/** A batch of files to search, as the walker posts them. */
type PostedBatch = Extract<WalkerMessage, { readonly entries: PackedEntries }>;

/** A batch unpacked. */
interface Batch {
  readonly entries: readonly WalkEntry[];
  readonly claims: SharedArrayBuffer | undefined;
  readonly end: boolean;
}

const isForSearch = (message: WalkerMessage): boolean => message.found === undefined;

/** Folders the walker gave this thread (see `WalkerSearchJob.share`), with the files listed from them so far. */
interface GivenPart {
  readonly lister: SearchFolderLister;
  readonly entries: WalkEntry[];
  next: number;
}

/**
 * The files of one search walk in walk order: the walker's batches, then the files of the
 * folders it gave this thread, the last given first (each came before those given earlier).
 */
export class WalkerBatches {
  readonly #thread: WalkerThread;
  readonly #id: number;
  readonly #progress: Int32Array;
  readonly #walk: ListedWalk;
  /** True when the walker may give this thread folders to list while it waits. */
  readonly #shared: boolean;
  #queue: readonly WalkEntry[] = [];
  #claims: Int32Array | undefined;
  #next = 0;
  #ended = false;
  /** Batches taken off the port ahead of their turn, to count the files left; oldest first. */
  readonly #early: Batch[] = [];
  /** The folders given so far, the last given last. */
  readonly #parts: GivenPart[] = [];
  /** True once the walker's batches are done and files come from {@link #parts}. */
  #inParts = false;

  constructor(thread: WalkerThread, id: number, progress: Int32Array, walk: ListedWalk, shared: boolean) {
    this.#thread = thread;
    this.#id = id;
    this.#progress = progress;
    this.#walk = walk;
    this.#shared = shared;
  }

  /** The claim slots of the batch the last entry taken came from, when the walker screens (see `CLAIM`). */
  get claims(): Int32Array | undefined {
    return this.#inParts ? undefined : this.#claims;
  }

  /** The last entry's slot in {@link claims}. */
  get slot(): number {
    return this.#next - 1;
  }

  /** The next entry in walk order, waiting for the walker if need be; `undefined` after the last. */
  take(): WalkEntry | undefined {
    for (;;) {
      if (this.#next < this.#queue.length) return this.#queue[this.#next++];
      if (!this.#ended) {
        const batch = this.#early.shift() ?? this.#nextBatch();
        this.#queue = batch.entries;
        this.#claims = batch.claims === undefined ? undefined : new Int32Array(batch.claims);
        this.#next = 0;
        this.#ended = batch.end;
        continue;
      }
      this.#inParts = true;
      const part = this.#parts.at(-1);
      if (part === undefined) return undefined;
      if (part.next < part.entries.length) return part.entries[part.next++];
      if (!part.lister.more) {
        this.#parts.pop();
        continue;
      }
      Atomics.store(this.#progress, 1, READING);
      part.lister.listNext(part.entries);
    }
  }

  /**
   * The files still to search, counted up to `enough`, or fewer when the walk has no more. Each
   * batch taken here leaves the walker fewer ahead, and then it lists instead of screening (see
   * `WalkerSearchJob.screen`), so this wait is short.
   */
  filesLeft(enough: number): number {
    const files = (entries: readonly WalkEntry[], from: number): number => {
      let count = 0;
      for (let index = from; index < entries.length; index += 1) if (entries[index]![0] === 'f') count += 1;
      return count;
    };
    let count = this.#inParts ? 0 : files(this.#queue, this.#next);
    for (const message of this.#early) count += files(message.entries, 0);
    for (const part of this.#parts) count += files(part.entries, part.next);
    while (count < enough && !this.#ended && this.#early.at(-1)?.end !== true) {
      const batch = this.#nextBatch();
      this.#early.push(batch);
      count += files(batch.entries, 0);
    }
    return count;
  }

  /** The walker's next batch; folders it gives on the way are kept for after its batches. */
  #nextBatch(): Batch {
    for (;;) {
      const message = nextFromWalker(this.#thread.port, this.#id, isForSearch, this.#progress, this.#shared ? () => this.#listWhileWaiting() : undefined);
      if (message.given === undefined) {
        const { entries, claims, end } = message as PostedBatch;
        return { entries: unpackEntries(entries, this.#walk), claims, end };
      }
      this.#parts.push({ lister: new SearchFolderLister(this.#walk, message.given), entries: [], next: 0 });
    }
  }

  /** While no batch has come: lists a folder given earlier, or asks the walker for folders (false: nothing to do until it answers). */
  #listWhileWaiting(): boolean {
    for (let index = this.#parts.length - 1; index >= 0; index -= 1) {
      const part = this.#parts[index]!;
      if (part.lister.more) {
        part.lister.listNext(part.entries);
        return true;
      }
    }
    Atomics.store(control, CONTROL_SLOTS.wants, this.#id);
    return false;
  }
}

/**
 * The walker's answer for a file it took first (see `CLAIM`), waiting while it reads the
 * file; `undefined` when the file is this thread's to search: it got there first, or the
 * walker found the pattern's required text in it.
 */
export function screened(claims: Int32Array, slot: number, progress: Int32Array): MutableResult | undefined {
  if (Atomics.compareExchange(claims, slot, CLAIM.free, CLAIM.worker) === CLAIM.free) return undefined;
  Atomics.store(progress, 1, READING);
  let state = Atomics.load(claims, slot);
  while (state === CLAIM.screening) {
    Atomics.wait(claims, slot, CLAIM.screening, 100);
    state = Atomics.load(claims, slot);
  }
  if (state === CLAIM.noMatch) return { count: 0, lines: [], verdict: 'text' };
  const verdict = CLAIM_VERDICTS[state];
  return verdict === undefined ? undefined : { count: 0, lines: [], verdict };
}
