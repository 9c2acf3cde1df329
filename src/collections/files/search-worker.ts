import { Worker } from 'node:worker_threads';

/** What the worker needs to match lines. */
export interface SearchWorkerInit {
  readonly source: string;
  readonly flags: string;
  readonly mode: 'files' | 'lines' | 'counts';
  readonly maxMatchLineLength: number;
  /** The whole-text test may skip a chunk with no match (see {@link canPrefilter}). */
  readonly prefilter: boolean;
  /**
   * Where the worker says what it is doing, readable while it is stuck: slot 0 holds the
   * sequence number of the chunk it is matching, slot 1 the index of the line within it
   * (-1 during the whole-text test).
   */
  readonly progress: SharedArrayBuffer;
}

/** A piece of one file's text: whole lines, except that the last piece may end without `\n`. */
export interface SearchChunk {
  /** Numbers chunks in the order they are sent, so the watchdog can tell which one is stuck. */
  readonly sequence: number;
  readonly startLine: number;
  readonly text: string;
  /** Most matching lines wanted back (mode `lines`). */
  readonly wanted: number;
}

/** The worker's answer for one chunk. */
export interface ChunkResult {
  /** Lines of the chunk that match. In mode `files` the worker stops at the first. */
  readonly count: number;
  /** Mode `lines`: `[line number, text cut around the match]`, at most `wanted`. */
  readonly lines: readonly (readonly [number, string])[];
}

/** Messages the worker sends: one `results` per batch of chunks, in the order the batches were sent. */
export type WorkerMessage = { readonly type: 'ready' } | { readonly type: 'results'; readonly results: readonly ChunkResult[] };

/**
 * The worker's code, plain JavaScript run with `eval: true`, so it works the same from the
 * TypeScript sources, the built package and a bundler (no worker file to locate). It imports
 * nothing but `node:worker_threads` and only matches: reading files stays in the main thread,
 * through the workspace.
 */
const SEARCH_WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { source, flags, mode, maxMatchLineLength, prefilter } = workerData;
const progress = new Int32Array(workerData.progress);
const regex = new RegExp(source, flags);
const whole = prefilter ? new RegExp(source, flags + 'm') : undefined;

function cut(line, index) {
  if (line.length <= maxMatchLineLength) return line;
  const before = Math.floor(maxMatchLineLength / 4);
  const start = Math.max(0, Math.min(index - before, line.length - maxMatchLineLength));
  const end = Math.min(line.length, start + maxMatchLineLength);
  const shown = (start > 0 ? '…' : '') + line.slice(start, end) + (end < line.length ? '…' : '');
  return shown + ' [line of ' + line.length.toLocaleString('en-US') + ' characters cut around the match]';
}

function match(chunk) {
  Atomics.store(progress, 0, chunk.sequence);
  Atomics.store(progress, 1, -1);
  let count = 0;
  const lines = [];
  if (whole && !whole.test(chunk.text)) return { count, lines };
  const parts = chunk.text.split('\n');
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  for (let index = 0; index < parts.length; index += 1) {
    Atomics.store(progress, 1, index);
    let line = parts[index];
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (mode === 'lines' && lines.length < chunk.wanted) {
      const found = regex.exec(line);
      if (found === null) continue;
      count += 1;
      lines.push([chunk.startLine + index, cut(line, found.index)]);
    } else if (regex.test(line)) {
      count += 1;
      if (mode === 'files') break;
    }
  }
  return { count, lines };
}

parentPort.on('message', (batch) => {
  parentPort.postMessage({ type: 'results', results: batch.map(match) });
});
parentPort.postMessage({ type: 'ready' });
`;

/** Starts a worker that matches `init`'s regular expression against the batches of chunks it is sent. */
export function startSearchWorker(init: SearchWorkerInit): Worker {
  return new Worker(SEARCH_WORKER_SOURCE, { eval: true, workerData: init });
}

/**
 * True when testing a whole chunk at once (with the `m` flag) can only miss if no line matches,
 * so a chunk without a whole-text match can be skipped. Lookarounds could see past a line's
 * end and `$` could stop at a `\r`, so patterns with them are matched line by line only.
 */
export function canPrefilter(source: string): boolean {
  return !/\(\?<?[=!]/.test(source) && !source.includes('$');
}
