import type { Worker } from 'node:worker_threads';
import type { SearchStop } from '../../../workspace/in-place.js';
import { PATH_BYTES, READING, type ChunkResult, type FoundMessage, type SearchChunk, type SearchWalkJob, type SearchWorkerInit, type SearchWorkerRequest, type WorkerMessage } from './protocol.js';
import { releaseSearchWorker } from './worker-pool.js';

/** Chunks sent to the worker in one message, at most. */
const BATCH_CHUNKS = 64;
/** Characters sent to the worker in one message, about. */
const BATCH_CHARACTERS = 512 * 1024;

/** One file while its chunks are matched. */
export interface FileState {
  /** Relative to the workspace root. */
  readonly path: string;
  /** Set when the file turned out not to be text: answers for its chunks are ignored. */
  dropped: boolean;
  count: number;
  lines: (readonly [number, string])[];
}

/** How a disk-mode walk ended. */
export type WalkEnd = NonNullable<FoundMessage['end']>;

interface Sent {
  readonly file: FileState;
  readonly sequence: number;
  readonly startLine: number;
  readonly size: number;
  readonly final: boolean;
}

/**
 * The main thread's side of the search worker. Chunks are sent in batches, answered in
 * order, and a file's matches are committed when its last chunk is answered; in disk mode
 * ({@link SearchChannel.walk}) the worker walks and reads itself and reports what it found.
 * A watchdog reads where the worker is (shared memory it updates for every line, with the
 * file's path in disk mode) and terminates it when it has not moved for `regexTimeoutMs`
 * (time spent reading does not count): a JavaScript regular expression cannot be
 * interrupted, but the thread running it can. A worker whose search ended normally is kept
 * for the next search.
 */
export class SearchChannel {
  readonly #worker;
  readonly #progress: Int32Array;
  readonly #regexTimeoutMs: number;
  readonly #onCommit: (file: FileState) => void;
  /** Sent to the worker and not answered yet, oldest first. */
  readonly #posted: Sent[] = [];
  /** Waiting to be sent in the next batch. */
  #batch: { sent: Sent; chunk: SearchChunk }[] = [];
  /** Disk mode: the walk running in the worker, until its last message. */
  #walk: { onFound: (message: FoundMessage) => void; done: (end: WalkEnd) => void } | undefined;
  readonly #path: Uint8Array;
  #batchCharacters = 0;
  #sequence = 0;
  #inFlight = 0;
  #waiters: (() => void)[] = [];
  #ready = false;
  /** Where the worker was at the last look, and since when. */
  #lastPosition = '';
  #lastMove = Date.now();
  readonly #watchdog: NodeJS.Timeout;
  failure: SearchStop | undefined;
  crash: Error | undefined;

  /** Sets up `worker` (from `acquireSearchWorker`, which this channel gives back or terminates at {@link close}) for the search `init` describes. */
  constructor(worker: Worker, init: Omit<SearchWorkerInit, 'progress' | 'path'>, regexTimeoutMs: number, onCommit: (file: FileState) => void) {
    const progress = new SharedArrayBuffer(12);
    const path = new SharedArrayBuffer(PATH_BYTES);
    this.#progress = new Int32Array(progress);
    this.#path = new Uint8Array(path);
    this.#worker = worker;
    worker.postMessage({ type: 'init', ...init, progress, path } satisfies SearchWorkerRequest);
    this.#regexTimeoutMs = regexTimeoutMs;
    this.#onCommit = onCommit;
    this.#worker.on('message', this.#onMessage);
    this.#worker.on('error', this.#onError);
    this.#worker.on('exit', this.#onExit);
    this.#watchdog = setInterval(() => this.#check(), Math.max(20, Math.min(250, Math.floor(regexTimeoutMs / 4))));
    this.#watchdog.unref();
  }

  /** Queues a chunk of `file`; `final` marks its last one. */
  send(file: FileState, startLine: number, text: string, wanted: number, final: boolean): void {
    if (this.#ended) return;
    const sent: Sent = { file, sequence: this.#sequence++, startLine, size: text.length, final };
    this.#batch.push({ sent, chunk: { type: 'chunk', sequence: sent.sequence, startLine, text, wanted } });
    this.#batchCharacters += text.length;
    this.#inFlight += text.length;
    if (this.#batch.length >= BATCH_CHUNKS || this.#batchCharacters >= BATCH_CHARACTERS) this.flush();
  }

  /**
   * Disk mode: has the worker walk, read and match the whole search itself, calling
   * `onFound` for each of its messages. Resolves with how the walk ended (whether the limit
   * left files unsearched, or where it was handed off), or `undefined` when the search ended
   * first (see {@link failure}, {@link crash}).
   */
  async walk(job: SearchWalkJob, onFound: (message: FoundMessage) => void): Promise<WalkEnd | undefined> {
    if (this.#ended) return undefined;
    const finished = new Promise<WalkEnd | undefined>((resolve) => {
      this.#walk = { onFound, done: resolve };
      this.#waiters.push(() => resolve(undefined));
    });
    this.#lastMove = Date.now();
    this.#worker.postMessage(job);
    return finished;
  }

  /** Sends the queued chunks now. */
  flush(): void {
    if (this.#batch.length === 0 || this.#ended) return;
    if (this.#posted.length === 0) this.#lastMove = Date.now();
    for (const { sent } of this.#batch) this.#posted.push(sent);
    this.#worker.postMessage(this.#batch.map(({ chunk }) => chunk));
    this.#batch = [];
    this.#batchCharacters = 0;
  }

  /** Resolves when at most `maxCharacters` are in flight, or the search ended. */
  async waitForRoom(maxCharacters: number): Promise<void> {
    if (this.#inFlight <= maxCharacters) return;
    this.flush();
    while (this.#inFlight > maxCharacters && !this.#ended) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /** Resolves when every chunk has been answered, or the search ended. */
  async drain(): Promise<void> {
    this.flush();
    while (this.#posted.length > 0 && !this.#ended) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /** Stops the worker for `stop`; what was committed stays. */
  fail(stop: SearchStop): void {
    if (this.#ended) return;
    this.failure = stop;
    void this.#worker.terminate();
    this.#wake();
  }

  /** Ends the search: a worker that finished its work is kept for the next search, any other is terminated. */
  async close(): Promise<void> {
    clearInterval(this.#watchdog);
    this.#worker.off('message', this.#onMessage);
    this.#worker.off('error', this.#onError);
    this.#worker.off('exit', this.#onExit);
    if (!this.#ended && this.#ready && this.#posted.length === 0 && this.#batch.length === 0 && this.#walk === undefined) releaseSearchWorker(this.#worker);
    else await this.#worker.terminate();
  }

  readonly #onMessage = (message: WorkerMessage): void => this.#receive(message);
  readonly #onError = (error: Error): void => this.#crashed(error);
  readonly #onExit = (code: number): void => {
    if (!this.#ended && (this.#posted.length > 0 || this.#walk !== undefined)) this.#crashed(new Error(`The search worker exited with code ${code}.`));
  };

  get #ended(): boolean {
    return this.failure !== undefined || this.crash !== undefined;
  }

  #receive(message: WorkerMessage): void {
    if (this.#ended) return;
    this.#lastMove = Date.now();
    if (message.type === 'ready') {
      this.#ready = true;
      return;
    }
    if (message.type === 'found') {
      const walk = this.#walk!;
      walk.onFound(message);
      if (message.end !== undefined) {
        this.#walk = undefined;
        walk.done(message.end);
      }
      return;
    }
    if (message.type === 'listed') return; // find_files' answer: never asked for here.
    for (const result of message.results) this.#settle(this.#posted.shift()!, result);
    this.#wake();
  }

  #settle(sent: Sent, result: ChunkResult): void {
    this.#inFlight -= sent.size;
    const file = sent.file;
    if (file.dropped) return;
    file.count += result.count;
    if (result.lines.length > 0) file.lines.push(...result.lines);
    if (sent.final) this.#onCommit(file);
  }

  #check(): void {
    if (this.#ended || !this.#ready || (this.#posted.length === 0 && this.#walk === undefined)) return;
    const sequence = Atomics.load(this.#progress, 0);
    const line = Atomics.load(this.#progress, 1);
    const position = `${sequence}:${line}`;
    const now = Date.now();
    // A slow read is not a stuck regular expression: the search's own timeout covers it.
    if (position !== this.#lastPosition || line === READING) {
      this.#lastPosition = position;
      this.#lastMove = now;
      return;
    }
    if (now - this.#lastMove <= this.#regexTimeoutMs) return;
    if (this.#walk !== undefined) {
      const length = Atomics.load(this.#progress, 2);
      const file = Buffer.from(this.#path.slice(0, length)).toString('utf8');
      this.fail({ type: 'regex-timeout', file, ...(line >= 0 ? { line: line + 1 } : {}) });
      return;
    }
    const stuck = this.#posted.find((sent) => sent.sequence === sequence) ?? this.#posted[0]!;
    this.fail({
      type: 'regex-timeout',
      file: stuck.file.path,
      ...(line >= 0 && stuck.sequence === sequence ? { line: stuck.startLine + line } : {}),
    });
  }

  #crashed(error: Error): void {
    if (this.#ended) return;
    this.crash = error;
    this.#wake();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }
}
