import * as path from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { ResolvedReadToolsOptions } from './read-tools.js';
import { canPrefilter, startSearchWorker, type SearchChunk, type WorkerMessage } from './search-worker.js';
import { describeNonText } from './text.js';
import { walkFiles, type WalkReport } from './walk.js';

/** Bytes read from a file at a time; most source files fit in one read. */
const CHUNK_BYTES = 256 * 1024;
/** Characters sent to the worker and not answered yet, before reading waits for it. */
const MAX_IN_FLIGHT_CHARACTERS = 8 * 1024 * 1024;
/** Files opened and read ahead while the worker matches earlier ones. */
const READ_AHEAD = 8;

/** What one search is asked to do. */
export interface SearchRequest {
  readonly options: ResolvedReadToolsOptions;
  /** Canonical absolute path of the folder (or file) to search. */
  readonly target: string;
  readonly targetIsFile: boolean;
  readonly pattern: { readonly source: string; readonly flags: string };
  readonly mode: 'files' | 'lines' | 'counts';
  readonly limit: number;
  /** Matches paths relative to the folder searched (or file names, for a glob without `/`). */
  readonly include: ((fromStart: string) => boolean) | undefined;
  readonly signal: AbortSignal;
}

/** The matches in one file. */
export interface FileMatch {
  /** Relative to the workspace root. */
  readonly path: string;
  /** Matching lines (mode `files`: at least 1). */
  readonly count: number;
  /** Mode `lines`: line numbers with text cut around the match. */
  readonly lines: readonly (readonly [number, string])[];
}

/** Why a search ended before it looked at everything. */
export type SearchStop =
  | { readonly type: 'timeout'; readonly afterMs: number }
  | { readonly type: 'cancelled' }
  | { readonly type: 'regex-timeout'; readonly file: string };

/** What a search found and what it passed over. */
export interface SearchOutcome {
  /** Files with matches, in path order, already cut to the limit. */
  readonly matches: readonly FileMatch[];
  /** Text files searched. */
  readonly searched: number;
  /** True when the limit cut the results or files were left unsearched because of it. */
  readonly limitReached: boolean;
  readonly skipped: {
    readonly binary: number;
    /** Relative paths of files that are not UTF-8 (UTF-16 included). */
    readonly notUtf8: readonly string[];
    /** Relative paths of files over the size cap. */
    readonly tooLarge: readonly string[];
    /** Files and folders that could not be opened. */
    readonly unreadable: readonly string[];
  };
  readonly stopped?: SearchStop;
  /** The same, for a user interface. */
  readonly data: unknown;
}

/** One file while its chunks are matched. */
interface FileState {
  readonly path: string;
  dropped: boolean;
  count: number;
  lines: (readonly [number, string])[];
}

/** A file opened and its first chunk read, ahead of its turn. */
type Loaded =
  | { readonly type: 'skip' }
  | { readonly type: 'unreadable'; readonly path: string }
  | { readonly type: 'too-large'; readonly path: string }
  | {
      readonly type: 'open';
      readonly path: string;
      readonly handle: import('node:fs/promises').FileHandle;
      readonly first: Buffer;
      /** True when the first read already reached the end of the file. */
      readonly complete: boolean;
    };

/**
 * Runs one search: walks the tree (links never followed, skipped folders not entered), reads
 * each file through the workspace in chunks, and has a worker thread match the lines, so a
 * regular expression that never finishes can be stopped by terminating the worker.
 */
export async function runSearch(request: SearchRequest): Promise<SearchOutcome> {
  const { options, mode, limit, signal } = request;
  const { workspace, maxSearchFileBytes, searchTimeoutMs, regexTimeoutMs } = options;
  const matches: FileMatch[] = [];
  let committed = 0;
  let searched = 0;
  let passedOver = 0;
  const skipped = { binary: 0, notUtf8: [] as string[], tooLarge: [] as string[], unreadable: [] as string[] };

  const channel = new WorkerChannel(
    startSearchWorker({
      source: request.pattern.source,
      flags: request.pattern.flags,
      mode,
      maxMatchLineLength: options.maxMatchLineLength,
      prefilter: canPrefilter(request.pattern.source),
    }),
    regexTimeoutMs,
    (file) => {
      // Files answered after the limit was reached were read ahead, not asked for: leave them out.
      if (committed >= limit) {
        passedOver += 1;
        return;
      }
      searched += 1;
      if (file.count === 0) return;
      matches.push({ path: file.path, count: file.count, lines: file.lines });
      committed += mode === 'lines' ? file.lines.length : 1;
    },
  );
  const deadline = setTimeout(() => channel.fail({ type: 'timeout', afterMs: searchTimeoutMs }), searchTimeoutMs);
  const onAbort = (): void => channel.fail({ type: 'cancelled' });
  signal.addEventListener('abort', onAbort);
  const report: WalkReport = { unreadable: skipped.unreadable };
  const files = request.targetIsFile
    ? singleFile(request.target)
    : walkFiles(workspace, request.target, options.skippedFolders, report, signal);
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let stoppedByLimit = false;

  const load = async (file: { absolute: string; fromStart: string; isLink: boolean }): Promise<Loaded> => {
    const shown = workspace.display(file.absolute);
    let handle: import('node:fs/promises').FileHandle;
    try {
      handle = await workspace.open(file.absolute);
    } catch {
      return { type: 'unreadable', path: shown };
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) {
        await handle.close();
        return { type: 'skip' };
      }
      if (stats.size > maxSearchFileBytes) {
        await handle.close();
        return { type: 'too-large', path: shown };
      }
      // One byte more than the size, so a small file is known to be complete after one read.
      const first = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, stats.size + 1));
      const { bytesRead } = await handle.read(first, 0, first.length, 0);
      return { type: 'open', path: shown, handle, first: first.subarray(0, bytesRead), complete: bytesRead < first.length };
    } catch {
      await handle.close().catch(() => undefined);
      return { type: 'unreadable', path: shown };
    }
  };

  const iterator = files[Symbol.asyncIterator]();
  /** The next file to search, in walk order: links and files outside `include` are passed over. */
  const nextFile = async (): Promise<{ absolute: string; fromStart: string; isLink: boolean } | undefined> => {
    for (;;) {
      const step = await iterator.next();
      if (step.done) return undefined;
      const file = step.value;
      if (file.isLink) continue;
      if (request.include !== undefined && !request.targetIsFile && !request.include(file.fromStart)) continue;
      return file;
    }
  };

  // Files are taken from the walk one by one, in order, and opened ahead while earlier ones are matched.
  const ahead: Promise<Loaded>[] = [];
  let exhausted = false;
  try {
    for (;;) {
      while (!exhausted && ahead.length < READ_AHEAD) {
        const file = await nextFile();
        if (file === undefined) exhausted = true;
        else ahead.push(load(file));
      }
      const loaded = await ahead.shift();
      if (loaded === undefined) break;
      if (channel.failure !== undefined || committed >= limit) {
        stoppedByLimit = channel.failure === undefined;
        if (loaded.type === 'open') await loaded.handle.close();
        break;
      }
      if (loaded.type === 'skip') continue;
      if (loaded.type === 'unreadable') skipped.unreadable.push(loaded.path);
      else if (loaded.type === 'too-large') skipped.tooLarge.push(loaded.path);
      else {
        const verdict = await searchFile(loaded, channel, buffer, limit - committed);
        if (verdict === 'binary') skipped.binary += 1;
        else if (verdict === 'not-utf8') skipped.notUtf8.push(loaded.path);
      }
    }
    await channel.drain();
  } finally {
    clearTimeout(deadline);
    signal.removeEventListener('abort', onAbort);
    await channel.close();
    // Close whatever was read ahead and not searched.
    await Promise.all(ahead.map((pending) => pending.then((loaded) => (loaded.type === 'open' ? loaded.handle.close() : undefined), () => undefined)));
    await iterator.return?.(undefined);
  }
  if (channel.crash !== undefined) throw channel.crash;

  let limitReached = stoppedByLimit || passedOver > 0;
  if (mode === 'lines') {
    let left = limit;
    for (let index = 0; index < matches.length; index += 1) {
      const match = matches[index]!;
      if (left <= 0) {
        matches.length = index;
        limitReached = true;
        break;
      }
      if (match.lines.length > left) {
        matches[index] = { ...match, count: left, lines: match.lines.slice(0, left) };
        limitReached = true;
      }
      left -= matches[index]!.lines.length;
    }
  } else if (matches.length > limit) {
    matches.length = limit;
    limitReached = true;
  }
  const stopped = channel.failure;
  return {
    matches,
    searched,
    limitReached,
    skipped,
    ...(stopped === undefined ? {} : { stopped }),
    data: { matches, searched, limitReached, skipped, ...(stopped === undefined ? {} : { stopped }) },
  };
}

/** Reads one file in chunks and sends its text to the worker; what the file turned out to be. */
async function searchFile(
  loaded: Extract<Loaded, { type: 'open' }>,
  channel: WorkerChannel,
  buffer: Buffer,
  wanted: number,
): Promise<'text' | 'binary' | 'not-utf8' | 'stopped'> {
  const file: FileState = { path: loaded.path, dropped: false, count: 0, lines: [] };
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const drop = (verdict: 'binary' | 'not-utf8'): 'binary' | 'not-utf8' => {
    file.dropped = true;
    return verdict;
  };
  try {
    const kind = describeNonText(loaded.first);
    if (kind !== undefined) return kind.startsWith('UTF-') ? 'not-utf8' : 'binary';
    let carry = '';
    let line = 1;
    let position = 0;
    let chunk: Buffer = loaded.first;
    let complete = loaded.complete;
    for (;;) {
      if (chunk.includes(0)) return drop('binary');
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        return drop('not-utf8');
      }
      if (position === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      position += chunk.length;
      const combined = carry + text;
      const cut = combined.lastIndexOf('\n');
      if (cut === -1) carry = combined;
      else {
        const complete = combined.slice(0, cut + 1);
        carry = combined.slice(cut + 1);
        channel.send(file, { startLine: line, text: complete, wanted }, false);
        line += countLines(complete);
        await channel.waitForRoom(MAX_IN_FLIGHT_CHARACTERS);
        if (channel.failure !== undefined) return 'stopped';
      }
      if (complete) break;
      const { bytesRead } = await loaded.handle.read(buffer, 0, buffer.length, position);
      chunk = buffer.subarray(0, bytesRead);
      complete = bytesRead < buffer.length;
    }
    let rest: string;
    try {
      rest = carry + decoder.decode();
    } catch {
      return drop('not-utf8');
    }
    channel.send(file, { startLine: line, text: rest, wanted }, true);
    return 'text';
  } finally {
    await loaded.handle.close();
  }
}

function countLines(text: string): number {
  let count = 0;
  let index = text.indexOf('\n');
  while (index !== -1) {
    count += 1;
    index = text.indexOf('\n', index + 1);
  }
  return count;
}

async function* singleFile(absolute: string): AsyncGenerator<{ absolute: string; fromStart: string; isLink: boolean }> {
  yield { absolute, fromStart: path.basename(absolute), isLink: false };
}

/**
 * The main thread's side of the worker: chunks in flight in order, their answers, and the
 * watchdog that terminates a worker silent for longer than the regex timeout.
 */
class WorkerChannel {
  readonly #worker: Worker;
  readonly #regexTimeoutMs: number;
  readonly #onCommit: (file: FileState) => void;
  readonly #queue: { file: FileState; size: number; final: boolean }[] = [];
  readonly #watchdog: NodeJS.Timeout;
  #inFlight = 0;
  #waiters: (() => void)[] = [];
  /** When the worker was last heard from while busy; undefined until it is ready. */
  #lastHeard: number | undefined;
  failure: SearchStop | undefined;
  crash: Error | undefined;

  constructor(worker: Worker, regexTimeoutMs: number, onCommit: (file: FileState) => void) {
    this.#worker = worker;
    this.#regexTimeoutMs = regexTimeoutMs;
    this.#onCommit = onCommit;
    worker.on('message', (message: WorkerMessage) => this.#receive(message));
    worker.on('error', (error) => this.#crashed(error));
    worker.on('exit', (code) => {
      if (this.failure === undefined && this.crash === undefined && this.#queue.length > 0) {
        this.#crashed(new Error(`The search worker exited with code ${code}.`));
      }
    });
    this.#watchdog = setInterval(() => this.#check(), Math.max(20, Math.min(250, Math.floor(regexTimeoutMs / 4))));
    this.#watchdog.unref();
  }

  send(file: FileState, chunk: SearchChunk, final: boolean): void {
    if (this.failure !== undefined || this.crash !== undefined) return;
    if (this.#queue.length === 0 && this.#lastHeard !== undefined) this.#lastHeard = Date.now();
    this.#queue.push({ file, size: chunk.text.length, final });
    this.#inFlight += chunk.text.length;
    this.#worker.postMessage(chunk);
  }

  /** Resolves when fewer than `maxCharacters` are in flight, or the search failed. */
  async waitForRoom(maxCharacters: number): Promise<void> {
    while (this.#inFlight > maxCharacters && !this.#ended) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /** Resolves when every chunk sent has been answered, or the search failed. */
  async drain(): Promise<void> {
    while (this.#queue.length > 0 && !this.#ended) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  fail(stop: SearchStop): void {
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
    this.#lastHeard = Date.now();
    if (message.type !== 'result') return;
    const sent = this.#queue.shift();
    if (sent === undefined) return;
    this.#inFlight -= sent.size;
    const file = sent.file;
    if (!file.dropped) {
      file.count += message.count;
      if (message.lines.length > 0) file.lines.push(...message.lines);
      if (sent.final) this.#onCommit(file);
    }
    this.#wake();
  }

  #check(): void {
    if (this.#ended || this.#queue.length === 0 || this.#lastHeard === undefined) return;
    if (Date.now() - this.#lastHeard > this.#regexTimeoutMs) this.fail({ type: 'regex-timeout', file: this.#queue[0]!.file.path });
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
