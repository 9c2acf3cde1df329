/**
 * @module The box's libuv thread pool, sized to the box. The box's writes, listings, searches'
 * walks and the read path's calls past a turn's budget (`src/workspace/file-system-calls.ts`)
 * go through that pool; libuv starts four threads whatever the machine. On a box with
 * fewer cores than that, the pool's threads take the cores from the one thread that reads the
 * caller's requests and answers them, and a burst of calls is slower than with as many threads
 * as cores: 20 `read_file` calls at once on a 2-core box took 8.9–11.1 ms with four threads and
 * 7.9–8.1 ms with two (`node --import tsx test/bench/issue-30.ts remote`, five runs each). So
 * the pool gets as many threads as the box has cores, at least two and at most libuv's four,
 * unless `UV_THREADPOOL_SIZE` says otherwise. The variable is set only while the pool starts:
 * the programs the box runs never see it.
 */
import * as fs from 'node:fs';
import { availableParallelism } from 'node:os';

/** libuv's own pool size, which a box with more cores keeps. */
const LIBUV_THREADS = 4;

/** The pool's size on a box with `cores` cores, as {@link startThreadPool} chooses it. */
export function threadPoolSize(cores: number): number {
  return Math.min(LIBUV_THREADS, Math.max(2, cores));
}

/**
 * Starts the thread pool now, with {@link threadPoolSize} threads (or `UV_THREADPOOL_SIZE`'s, when
 * it is set). Call it before anything else uses the pool: libuv reads the size once, when the
 * pool first gets work. `root` is stat'ed to hand it that work.
 */
export function startThreadPool(root: string): void {
  if (process.env.UV_THREADPOOL_SIZE !== undefined) {
    fs.stat(root, () => undefined);
    return;
  }
  process.env.UV_THREADPOOL_SIZE = String(threadPoolSize(availableParallelism()));
  try {
    // libuv starts its threads in the call that queues the pool's first work, so by the
    // next line the size has been read.
    fs.stat(root, () => undefined);
  } finally {
    delete process.env.UV_THREADPOOL_SIZE;
  }
}
