/**
 * The main thread's side of the search worker: starting it (from its own module,
 * `search-worker-thread.ts`, found by {@link workerScript}), keeping one idle worker for the
 * next search, and `find_files`' walk on it. The messages are in `search-protocol.ts`; they
 * are re-exported here for the modules that imported them from this file.
 */
import { Worker } from 'node:worker_threads';
import type { FindAnswer, FindJob, SearchWorkerInit, WorkerMessage } from './search-protocol.js';
import { workerScript } from './worker-script.js';

export {
  PATH_BYTES,
  READING,
  type ChunkResult,
  type FileVerdict,
  type FindAnswer,
  type FindJob,
  type FoundFile,
  type FoundMessage,
  type IncludePattern,
  type SearchChunk,
  type SearchWalkJob,
  type SearchWorkerInit,
  type WorkerMessage,
} from './search-protocol.js';

/** How long a worker waits for the next search before it is stopped. */
const IDLE_WORKER_MS = 30_000;

/** The worker the last search gave back, kept for the next one: starting a worker costs tens of milliseconds. */
let idle: { readonly worker: Worker; readonly timer: NodeJS.Timeout; readonly onExit: () => void } | undefined;
const ignoreError = (): void => undefined;

/**
 * A search worker set up for `init`'s search (when given): the idle one when there is one,
 * else a new one. It answers `{ type: 'ready' }` once set up. Give it back with
 * {@link releaseSearchWorker} when the search ended normally; terminate it otherwise.
 */
export function takeSearchWorker(init?: SearchWorkerInit): Worker {
  let worker: Worker;
  if (idle === undefined) {
    const script = workerScript('search-worker-thread');
    worker = new Worker(script.url, script.options);
  } else {
    worker = idle.worker;
    clearTimeout(idle.timer);
    // Only listeners added here are removed: the worker's own keep its message port working.
    worker.off('exit', idle.onExit);
    worker.off('error', ignoreError);
    idle = undefined;
    worker.ref();
  }
  if (init !== undefined) worker.postMessage({ type: 'init', ...init });
  return worker;
}

/**
 * Runs a {@link FindJob} on a search worker: the walk costs a synchronous call per folder
 * there, instead of a thread-pool round trip per folder on this thread, and never blocks it.
 * Resolves with `undefined` when `signal` stopped it first.
 */
export async function findInWorker(job: Omit<FindJob, 'type'>, signal: AbortSignal): Promise<FindAnswer | undefined> {
  if (signal.aborted) return undefined;
  const worker = takeSearchWorker();
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
 * Keeps a worker whose search ended normally for the next search (one at most, for
 * {@link IDLE_WORKER_MS}). The caller removes its own listeners first.
 */
export function releaseSearchWorker(worker: Worker): void {
  if (idle !== undefined) {
    void worker.terminate();
    return;
  }
  worker.unref();
  const timer = setTimeout(() => {
    if (idle?.worker === worker) idle = undefined;
    void worker.terminate();
  }, IDLE_WORKER_MS);
  timer.unref();
  // A worker that dies while idle is not handed out again.
  const onExit = (): void => {
    if (idle?.worker === worker) {
      clearTimeout(idle.timer);
      idle = undefined;
    }
  };
  worker.once('exit', onExit);
  worker.on('error', ignoreError);
  idle = { worker, timer, onExit };
}

/**
 * True when testing a whole chunk at once (with the `m` flag) can only miss if no line matches,
 * so a chunk without a whole-text match can be skipped. Lookarounds could see past a line's
 * end and `$` could stop at a `\r`, so patterns with them are matched line by line only.
 */
export function canPrefilter(source: string): boolean {
  return !/\(\?<?[=!]/.test(source) && !source.includes('$');
}
