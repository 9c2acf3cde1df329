/**
 * @module How a workspace makes the small calls of its read path (`lstat`, `stat`, `realpath`,
 * `readlink`, and `open` with the `stat`, `read` and `close` of the file it opens): on libuv's
 * thread pool, as Node.js does by default, or on the event loop's own thread within a budget a
 * turn, for a process whose loop serves one caller (a box's server, `src/box-server/`).
 *
 * Why a box makes them on its loop: a call on a local disk takes microseconds, and a trip to the
 * thread pool and back costs more than the call (measured in test/bench/README.md, issue 30's
 * remote row: 20 concurrent `read_file` calls on a 2-core box, one `lstat` left on the pool
 * cost 0.5 ms a batch). Why within a budget: a loop that makes every call itself stops answering
 * while a large file is read or a slow disk answers. So a turn makes its calls itself until they
 * have taken {@link OnLoopBudget.turnMs} in all, and the rest of the turn's calls go to the pool;
 * a call that takes {@link OnLoopBudget.slowCallMs} or more (a network or FUSE file system, a
 * disk under load) sends every call to the pool for {@link OnLoopBudget.slowPauseMs}.
 */
import * as fs from 'node:fs';
import type { Stats } from 'node:fs';
import * as fsp from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';

/** The calls on an open file's descriptor, on the thread pool (the promise API has them only on a `FileHandle`). */
const pooledFstat = promisify(fs.fstat);
const pooledRead = promisify(fs.read);
const pooledClose = promisify(fs.close);

/**
 * The calls of a workspace's read path. A handle `open` gives has the three methods the tools
 * use: `stat`, `read(buffer, offset, length, position)` and `close`.
 */
export interface FileSystemCalls {
  lstat(absolute: string): Promise<Stats>;
  stat(absolute: string): Promise<Stats>;
  /** The canonical path, every link resolved (the system's `realpath`). */
  realpath(absolute: string): Promise<string>;
  readlink(absolute: string): Promise<string>;
  /** Opens a file for reading. */
  open(absolute: string): Promise<FileHandle>;
}

/** Every call on libuv's thread pool: what a workspace in a server that serves many callers uses. */
export const THREAD_POOL_CALLS: FileSystemCalls = {
  lstat: (absolute) => fsp.lstat(absolute),
  stat: (absolute) => fsp.stat(absolute),
  realpath: (absolute) => fsp.realpath(absolute),
  readlink: (absolute) => fsp.readlink(absolute),
  open: (absolute) => fsp.open(absolute, 'r'),
};

/** The limits of {@link OnLoopCalls}. */
export interface OnLoopBudget {
  /**
   * Milliseconds of calls a turn of the event loop makes itself; the turn's later calls go to
   * the thread pool.
   * @default 2
   */
  readonly turnMs?: number;
  /**
   * A call that takes this long shows a slow file system: calls go to the thread pool for
   * {@link slowPauseMs}.
   * @default 10
   */
  readonly slowCallMs?: number;
  /**
   * How long every call goes to the thread pool after a slow one.
   * @default 60_000
   */
  readonly slowPauseMs?: number;
}

/** How many calls {@link OnLoopCalls} made on the loop and how many it sent to the thread pool. */
export interface OnLoopCounts {
  readonly onLoop: number;
  readonly onThreadPool: number;
}

/**
 * The calls made on the event loop's thread within a budget a turn (see the module's comment).
 * Answers, errors and their codes are those of {@link THREAD_POOL_CALLS}. A file is opened with
 * `O_NONBLOCK`, so a FIFO put where a file was checked cannot hold the loop: whatever is not a
 * regular file is closed and opened again on the thread pool, as it would have been.
 */
export class OnLoopCalls implements FileSystemCalls {
  readonly #turnMs: number;
  readonly #slowCallMs: number;
  readonly #slowPauseMs: number;
  /** Milliseconds of calls made on the loop in the current turn. */
  #spent = 0;
  #turnEndScheduled = false;
  /** Counts the turns that made calls on the loop, so a handle knows whether it was opened in this one. */
  #turn = 0;
  readonly #budgeted: Budgeted = { call: (sync, pooled) => this.#call(sync, pooled), turn: () => this.#turn };
  /** Until when (`performance.now()`) every call goes to the thread pool, after a slow one. */
  #slowUntil = Number.NEGATIVE_INFINITY;
  #onLoop = 0;
  #onThreadPool = 0;

  /** @throws {TypeError} when a limit is not a number of milliseconds, 0 or more. */
  constructor(budget: OnLoopBudget = {}) {
    this.#turnMs = milliseconds(budget, 'turnMs', 2);
    this.#slowCallMs = milliseconds(budget, 'slowCallMs', 10);
    this.#slowPauseMs = milliseconds(budget, 'slowPauseMs', 60_000);
  }

  /** The calls made so far, each way. */
  get counts(): OnLoopCounts {
    return { onLoop: this.#onLoop, onThreadPool: this.#onThreadPool };
  }

  lstat(absolute: string): Promise<Stats> {
    return this.#call(() => fs.lstatSync(absolute), () => fsp.lstat(absolute));
  }

  stat(absolute: string): Promise<Stats> {
    return this.#call(() => fs.statSync(absolute), () => fsp.stat(absolute));
  }

  realpath(absolute: string): Promise<string> {
    // `realpathSync.native` is the system's realpath, as the promise API's is.
    return this.#call(() => fs.realpathSync.native(absolute), () => fsp.realpath(absolute));
  }

  readlink(absolute: string): Promise<string> {
    return this.#call(() => fs.readlinkSync(absolute), () => fsp.readlink(absolute));
  }

  async open(absolute: string): Promise<FileHandle> {
    return (await this.#call(() => this.#openRegularFile(absolute), () => fsp.open(absolute, 'r'))) ?? fsp.open(absolute, 'r');
  }

  /** A handle on the file if it is a regular one; anything else (a FIFO, a device) is closed and `undefined`. */
  #openRegularFile(absolute: string): FileHandle | undefined {
    const fd = fs.openSync(absolute, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    let stats: Stats;
    try {
      stats = fs.fstatSync(fd);
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
    if (stats.isFile()) return new OnLoopFileHandle(fd, stats, this.#budgeted) as unknown as FileHandle;
    fs.closeSync(fd);
    return undefined;
  }

  /**
   * `sync` on the loop while the turn's budget lasts and no slow call was seen lately, else
   * `pooled`; the promise settles as `pooled`'s would, with the value or the error.
   */
  #call<T>(sync: () => T, pooled: () => Promise<T>): Promise<T> {
    const start = performance.now();
    if (this.#spent >= this.#turnMs || start < this.#slowUntil) {
      this.#onThreadPool += 1;
      return pooled();
    }
    this.#onLoop += 1;
    if (!this.#turnEndScheduled) {
      this.#turnEndScheduled = true;
      setImmediate(() => {
        this.#turnEndScheduled = false;
        this.#spent = 0;
        this.#turn += 1;
      });
    }
    try {
      return Promise.resolve(sync());
    } catch (error) {
      return Promise.reject(error as Error);
    } finally {
      const took = performance.now() - start;
      this.#spent += took;
      if (took >= this.#slowCallMs) this.#slowUntil = start + took + this.#slowPauseMs;
    }
  }
}

/** A file opened by {@link OnLoopCalls}: its `stat`, `read` and `close` go through the same budget. */
class OnLoopFileHandle {
  readonly fd: number;
  readonly #budgeted: Budgeted;
  /** The `fstat` taken when the file was opened: a first `stat()` in the same turn gets it instead of another call. */
  #opened: { readonly stats: Stats; readonly turn: number } | undefined;
  #closed = false;

  constructor(fd: number, stats: Stats, budgeted: Budgeted) {
    this.fd = fd;
    this.#budgeted = budgeted;
    this.#opened = { stats, turn: budgeted.turn() };
  }

  stat(): Promise<Stats> {
    if (this.#closed) return closed('fstat');
    const opened = this.#opened;
    this.#opened = undefined;
    if (opened !== undefined && opened.turn === this.#budgeted.turn()) return Promise.resolve(opened.stats);
    return this.#budgeted.call(() => fs.fstatSync(this.fd), () => pooledFstat(this.fd));
  }

  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number; buffer: Buffer }> {
    if (this.#closed) return closed('read');
    return this.#budgeted.call(
      () => ({ bytesRead: fs.readSync(this.fd, buffer, offset, length, position), buffer }),
      () => pooledRead(this.fd, buffer, offset, length, position),
    );
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    return this.#budgeted.call(() => fs.closeSync(this.fd), () => pooledClose(this.fd));
  }
}

/** What a handle uses of {@link OnLoopCalls}: a call made on the loop or on the thread pool as the budget decides, and the turn. */
interface Budgeted {
  call<T>(sync: () => T, pooled: () => Promise<T>): Promise<T>;
  turn(): number;
}

/** A closed handle refuses as a `FileHandle` does (`EBADF`), instead of using a number the system may have given to another file. */
function closed(syscall: string): Promise<never> {
  return Promise.reject(Object.assign(new Error(`EBADF: bad file descriptor, ${syscall}`), { code: 'EBADF', syscall }));
}

/** The option `name` of `budget`, or `fallback` when it is not given. */
function milliseconds(budget: OnLoopBudget, name: keyof OnLoopBudget, fallback: number): number {
  const value: unknown = budget[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new TypeError(`Expected the \`${name}\` option to be a number of milliseconds, 0 or more, got \`${String(value)}\` (${typeof value}).`);
  }
  return value;
}
