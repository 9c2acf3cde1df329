/**
 * The main thread's side of the search workers: starting them (from their own module,
 * `search-worker-thread.ts`, found by {@link workerScript}), at most one per core, handing
 * them from search to search, and `find_files`' walk on one. The messages are in `protocol.ts`.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FindAnswer, FindJob, WorkerMessage } from './protocol.js';
import { FairQueue } from './fair-queue.js';
import { workerScript } from './worker-script.js';

/** How long an idle worker waits for the next search before it is stopped. */
const IDLE_WORKER_MS = 30_000;

/**
 * Search workers running at once, at most: one per core (at least two, at most sixteen).
 * Each search keeps two threads busy (the worker and its walker), so more at once would
 * only share the same cores, hold more memory, and leave the event loop's thread waiting
 * for a core behind them; a search past the cap waits for a worker instead.
 */
export const MAX_SEARCH_WORKERS = Math.min(16, Math.max(2, availableParallelism()));

/**
 * Searches run at once while they are short: one per two cores (at least one), since each
 * keeps two threads busy. Measured on 2 cores (issue 30, 20 MCP sessions searching at once):
 * two searches at once took 35–40 ms of CPU each against 21 ms alone, the threads of both
 * pairs taking turns on the same cores, while one at a time took 21 ms each and ended the 20
 * sooner (the last after 0.6–1.1 s against 1.7–1.8 s).
 */
export const SEARCHES_AT_ONCE = Math.min(MAX_SEARCH_WORKERS, Math.max(1, Math.floor(availableParallelism() / 2)));

/**
 * How long every running search may take before a waiting one is given another worker
 * anyway (up to {@link MAX_SEARCH_WORKERS}): a long search, or one stuck on its pattern,
 * holds the others back this long at most.
 */
export const LONG_SEARCH_MS = 500;

/** When each worker handed out for a search got it; a worker idle or exited is not here. */
const busySince = new Map<Worker, number>();
/** The timer that looks again once the running searches have all run {@link LONG_SEARCH_MS}. */
let longCheck: NodeJS.Timeout | undefined;

/** Whether a waiting search may have a worker now: fewer than {@link SEARCHES_AT_ONCE} run, or all that run are long. */
function roomForOneMore(): boolean {
  if (busySince.size < SEARCHES_AT_ONCE) return true;
  const now = Date.now();
  for (const since of busySince.values()) if (now - since < LONG_SEARCH_MS) return false;
  return busySince.size < MAX_SEARCH_WORKERS;
}

/** Whether a worker can be handed out now: there is room ({@link roomForOneMore}) and one idle, or room to start one. */
function canHandOut(): boolean {
  return roomForOneMore() && (idle.length > 0 || live < MAX_SEARCH_WORKERS);
}

/** A worker for a search from those idle or a new one (the caller checked {@link canHandOut}), marked busy. */
function handOut(): Worker {
  const entry = idle.pop();
  const worker = entry === undefined ? startWorker() : wake(entry);
  busySince.set(worker, Date.now());
  return worker;
}

/** Gives waiting searches the workers there is room for, and looks again when the running ones turn long. */
function serveWaiting(): void {
  while (waiting.length > 0 && canHandOut()) waiting.shift()!(handOut());
  // With nothing running the wait is for a worker to exit, which serves the line itself.
  if (longCheck !== undefined || waiting.length === 0 || busySince.size === 0 || busySince.size >= MAX_SEARCH_WORKERS) return;
  const youngest = Math.max(...busySince.values());
  longCheck = setTimeout(() => {
    longCheck = undefined;
    serveWaiting();
  }, Math.max(0, youngest + LONG_SEARCH_MS - Date.now()) + 1);
  longCheck.unref();
}

/** Workers started and not exited, busy or idle. */
let live = 0;
/** Workers whose search ended normally, kept for the next one: starting a worker blocks this thread for milliseconds. */
const idle: { readonly worker: Worker; readonly timer: NodeJS.Timeout }[] = [];
/** Searches waiting for a worker: each caller's in the order they came, the callers in turn (see fair-queue.ts). */
const waiting = new FairQueue<(worker: Worker) => void>();
const ignoreError = (): void => undefined;

function startWorker(): Worker {
  const script = workerScript('search-worker-thread');
  const worker = new Worker(script.url, script.options);
  live += 1;
  worker.once('exit', () => {
    live -= 1;
    busySince.delete(worker);
    const index = idle.findIndex((entry) => entry.worker === worker);
    if (index !== -1) clearTimeout(idle.splice(index, 1)[0]!.timer);
    // A worker that ended (terminated after a stuck pattern, or crashed) makes room for one that waits.
    serveWaiting();
  });
  return worker;
}

/** An idle worker made ready for a new search: its idle timer and listeners removed, holding the process open again. */
function wake(entry: { readonly worker: Worker; readonly timer: NodeJS.Timeout }): Worker {
  clearTimeout(entry.timer);
  entry.worker.off('error', ignoreError);
  entry.worker.ref();
  return entry.worker;
}

/**
 * A search worker for one search: an idle one when there is one, a new one while fewer than
 * {@link MAX_SEARCH_WORKERS} run, else the next one to come free. Resolves with `undefined`
 * when `signal` stops the wait first. Give the worker back with {@link releaseSearchWorker}
 * when its search ended normally; terminate it otherwise (its place goes to the next search).
 * Waiting searches get workers in turn by `caller` (the session), so no caller's many
 * searches hold back another's one.
 */
export async function acquireSearchWorker(signal: AbortSignal, caller?: unknown): Promise<Worker | undefined> {
  if (signal.aborted) return undefined;
  if (waiting.length === 0 && canHandOut()) return handOut();
  const waited = new Promise<Worker | undefined>((resolve) => {
    const onAbort = (): void => {
      waiting.remove(take);
      resolve(undefined);
    };
    const take = (given: Worker): void => {
      signal.removeEventListener('abort', onAbort);
      resolve(given);
    };
    waiting.push(caller, take);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  serveWaiting();
  return waited;
}

/**
 * Runs a {@link FindJob} on a search worker: the walk costs a synchronous call per folder
 * there, instead of a thread-pool round trip per folder on this thread, and never blocks it.
 * Resolves with `undefined` when `signal` stopped it first.
 */
export async function findInWorker(job: Omit<FindJob, 'type'>, signal: AbortSignal, caller?: unknown): Promise<FindAnswer | undefined> {
  const worker = await acquireSearchWorker(signal, caller);
  if (worker === undefined) return undefined;
  if (signal.aborted) {
    releaseSearchWorker(worker);
    return undefined;
  }
  let settle: (answer: FindAnswer | undefined, error?: Error) => void = () => undefined;
  const answered = new Promise<FindAnswer | undefined>((resolve, reject) => {
    settle = (answer, error) => (error === undefined ? resolve(answer) : reject(error));
  });
  const onMessage = (message: WorkerMessage): void => {
    if (message.type === 'listed') settle(message);
  };
  const onError = (error: Error): void => settle(undefined, error);
  const onExit = (code: number): void => settle(undefined, new Error(`The find_files worker exited with code ${code}.`));
  const onAbort = (): void => settle(undefined);
  worker.on('message', onMessage);
  worker.on('error', onError);
  worker.on('exit', onExit);
  signal.addEventListener('abort', onAbort, { once: true });
  let answer: FindAnswer | undefined;
  try {
    worker.postMessage({ type: 'find', ...job } satisfies FindJob);
    answer = await answered;
  } finally {
    signal.removeEventListener('abort', onAbort);
    worker.off('message', onMessage);
    worker.off('error', onError);
    worker.off('exit', onExit);
    // A walk stopped half way cannot be interrupted: the worker goes, the next search starts another.
    if (answer === undefined) void worker.terminate();
    else releaseSearchWorker(worker);
  }
  return answer;
}

/**
 * Gives back a worker whose search ended normally: to the waiting search whose turn it is, or kept
 * idle for the next one for {@link IDLE_WORKER_MS}. The caller removes its own listeners first.
 */
export function releaseSearchWorker(worker: Worker): void {
  busySince.delete(worker);
  if (waiting.length > 0 && roomForOneMore()) {
    busySince.set(worker, Date.now());
    waiting.shift()!(worker);
    return;
  }
  worker.unref();
  // An idle worker that dies is forgotten by its exit listener (see startWorker); meanwhile its error is not this process's.
  worker.on('error', ignoreError);
  const timer = setTimeout(() => void worker.terminate(), IDLE_WORKER_MS);
  timer.unref();
  idle.push({ worker, timer });
  serveWaiting();
}
