/**
 * The search worker's side of its walker thread (`search-walker-thread.ts`): starting it once,
 * the control memory both share (`CONTROL_SLOTS`), and taking the walker's messages off their
 * port synchronously. The worker never returns to its event loop during a walk, since it reads
 * and matches with synchronous calls, so it waits on the control memory instead of a message
 * event, and the walker waits on the same memory before it runs too far ahead.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { MutableResult } from './line-matcher.js';
import { CLAIM, CLAIM_VERDICTS, CONTROL_SLOTS, READING, type WalkEntry, type WalkerMessage } from './protocol.js';
import { workerScript } from './worker-script.js';

/** The walker thread and the port its messages come in on. */
export interface WalkerThread {
  readonly walker: Worker;
  readonly port: MessagePort;
}

const control = new Int32Array(new SharedArrayBuffer(12));
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
  Atomics.store(control, CONTROL_SLOTS.stop, id);
}

/** Tells the walker to stop its walk, waking it if it waits for room. */
export function stopWalk(): void {
  Atomics.store(control, CONTROL_SLOTS.stop, 0);
  Atomics.notify(control, CONTROL_SLOTS.taken);
}

/**
 * The next message on the walker's port for walk `id` that `accept` takes (older walks'
 * leftovers passed over), waiting for it with `progress` saying so: a wait is not a stuck pattern.
 */
export function nextFromWalker(from: MessagePort, id: number, accept: (message: WalkerMessage) => boolean, progress: Int32Array): WalkerMessage {
  for (;;) {
    const posted = Atomics.load(control, CONTROL_SLOTS.posted);
    const received = receiveMessageOnPort(from);
    if (received === undefined) {
      Atomics.store(progress, 1, READING);
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
type Batch = Extract<WalkerMessage, { readonly entries: unknown }>;

const isBatch = (message: WalkerMessage): boolean => message.found === undefined;

/** The files of one search walk, taken from the walker's batches in walk order. */
export class WalkerBatches {
  readonly #thread: WalkerThread;
  readonly #id: number;
  readonly #progress: Int32Array;
  #queue: readonly WalkEntry[] = [];
  #claims: Int32Array | undefined;
  #next = 0;
  #ended = false;
  /** Batches taken off the port ahead of their turn, to count the files left; oldest first. */
  readonly #early: Batch[] = [];

  constructor(thread: WalkerThread, id: number, progress: Int32Array) {
    this.#thread = thread;
    this.#id = id;
    this.#progress = progress;
  }

  /** The claim slots of the batch the last entry taken came from, when the walker screens (see `CLAIM`). */
  get claims(): Int32Array | undefined {
    return this.#claims;
  }

  /** The last entry's slot in {@link claims}. */
  get slot(): number {
    return this.#next - 1;
  }

  /** The next entry in walk order, waiting for the walker if need be; `undefined` after the last. */
  take(): WalkEntry | undefined {
    for (;;) {
      if (this.#next < this.#queue.length) return this.#queue[this.#next++];
      if (this.#ended) return undefined;
      const message = this.#early.shift() ?? nextFromWalker(this.#thread.port, this.#id, isBatch, this.#progress);
      if (message.found !== undefined) continue;
      this.#queue = message.entries;
      this.#claims = message.claims === undefined ? undefined : new Int32Array(message.claims);
      this.#next = 0;
      this.#ended = message.end;
    }
  }

  /**
   * The files still to search, counted up to `enough`, or fewer when the walk has no more. Each
   * batch taken here leaves the walker fewer ahead, and then it lists instead of screening (see
   * `WalkerSearchJob.screen`), so this wait is short.
   */
  filesLeft(enough: number): number {
    let count = 0;
    for (let index = this.#next; index < this.#queue.length; index += 1) if (this.#queue[index]![0] === 'f') count += 1;
    for (const message of this.#early) for (const entry of message.entries) if (entry[0] === 'f') count += 1;
    while (count < enough && !this.#ended && this.#early.at(-1)?.end !== true) {
      const message = nextFromWalker(this.#thread.port, this.#id, isBatch, this.#progress);
      if (message.found !== undefined) continue;
      this.#early.push(message);
      for (const entry of message.entries) if (entry[0] === 'f') count += 1;
    }
    return count;
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
