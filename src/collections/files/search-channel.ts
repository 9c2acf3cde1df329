import { startSearchWorker, type ChunkResult, type SearchChunk, type SearchWorkerInit, type WorkerMessage } from './search-worker.js';

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

/** Why the channel stopped the worker. */
export type ChannelStop =
  | { readonly type: 'timeout'; readonly afterMs: number }
  | { readonly type: 'cancelled' }
  /** The regular expression was stuck on `line` (when known) of `file`. */
  | { readonly type: 'regex-timeout'; readonly file: string; readonly line?: number };

interface Sent {
  readonly file: FileState;
  readonly sequence: number;
  readonly startLine: number;
  readonly size: number;
  readonly final: boolean;
}

/**
 * The main thread's side of the search worker. Chunks are sent in batches, answered in
 * order, and a file's matches are committed when its last chunk is answered. A watchdog
 * reads where the worker is (shared memory it updates for every line) and terminates it when
 * it has not moved for `regexTimeoutMs`: a JavaScript regular expression cannot be
 * interrupted, but the thread running it can.
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
  #batchCharacters = 0;
  #sequence = 0;
  #inFlight = 0;
  #waiters: (() => void)[] = [];
  #ready = false;
  /** Where the worker was at the last look, and since when. */
  #lastPosition = '';
  #lastMove = Date.now();
  readonly #watchdog: NodeJS.Timeout;
  failure: ChannelStop | undefined;
  crash: Error | undefined;

  constructor(init: Omit<SearchWorkerInit, 'progress'>, regexTimeoutMs: number, onCommit: (file: FileState) => void) {
    const progress = new SharedArrayBuffer(8);
    this.#progress = new Int32Array(progress);
    this.#worker = startSearchWorker({ ...init, progress });
    this.#regexTimeoutMs = regexTimeoutMs;
    this.#onCommit = onCommit;
    this.#worker.on('message', (message: WorkerMessage) => this.#receive(message));
    this.#worker.on('error', (error) => this.#crashed(error));
    this.#worker.on('exit', (code) => {
      if (!this.#ended && this.#posted.length > 0) this.#crashed(new Error(`The search worker exited with code ${code}.`));
    });
    this.#watchdog = setInterval(() => this.#check(), Math.max(20, Math.min(250, Math.floor(regexTimeoutMs / 4))));
    this.#watchdog.unref();
  }

  /** Queues a chunk of `file`; `final` marks its last one. */
  send(file: FileState, startLine: number, text: string, wanted: number, final: boolean): void {
    if (this.#ended) return;
    const sent: Sent = { file, sequence: this.#sequence++, startLine, size: text.length, final };
    this.#batch.push({ sent, chunk: { sequence: sent.sequence, startLine, text, wanted } });
    this.#batchCharacters += text.length;
    this.#inFlight += text.length;
    if (this.#batch.length >= BATCH_CHUNKS || this.#batchCharacters >= BATCH_CHARACTERS) this.flush();
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
  fail(stop: ChannelStop): void {
    if (this.#ended) return;
    this.failure = stop;
    void this.#worker.terminate();
    this.#wake();
  }

  async close(): Promise<void> {
    clearInterval(this.#watchdog);
    await this.#worker.terminate();
  }

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
    if (this.#ended || !this.#ready || this.#posted.length === 0) return;
    const sequence = Atomics.load(this.#progress, 0);
    const line = Atomics.load(this.#progress, 1);
    const position = `${sequence}:${line}`;
    const now = Date.now();
    if (position !== this.#lastPosition) {
      this.#lastPosition = position;
      this.#lastMove = now;
      return;
    }
    if (now - this.#lastMove <= this.#regexTimeoutMs) return;
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
