import { Worker } from 'node:worker_threads';

/** What the worker needs to match lines. */
export interface SearchWorkerInit {
  readonly source: string;
  readonly flags: string;
  readonly mode: 'files' | 'lines' | 'counts';
  readonly maxMatchLineLength: number;
  /** The whole-text test may skip a chunk with no match (see {@link canPrefilter}). */
  readonly prefilter: boolean;
}

/** A piece of one file's text: whole lines, except that the last piece may end without `\n`. */
export interface SearchChunk {
  readonly startLine: number;
  readonly text: string;
  /** Most matching lines wanted back (mode `lines`). */
  readonly wanted: number;
}

/** The worker's answer for one chunk, in the order the chunks were sent. */
export interface ChunkResult {
  readonly type: 'result';
  /** Lines of the chunk that match. In mode `files` the worker stops at the first. */
  readonly count: number;
  /** Mode `lines`: `[line number, text cut around the match]`, at most `wanted`. */
  readonly lines: readonly (readonly [number, string])[];
}

/** Messages the worker sends. */
export type WorkerMessage = ChunkResult | { readonly type: 'ready' } | { readonly type: 'progress' };

/**
 * How often a busy worker says it is alive. A worker that stays silent much longer than this
 * is stuck inside one call of the regular expression.
 */
export const PROGRESS_INTERVAL_MS = 100;

/**
 * The worker's code, plain JavaScript run with `eval: true`, so it works the same from the
 * TypeScript sources, the built package and a bundler (no worker file to locate). It imports
 * nothing but `node:worker_threads` and only matches: reading files stays in the main thread,
 * through the workspace.
 */
const SEARCH_WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { source, flags, mode, maxMatchLineLength, prefilter } = workerData;
const regex = new RegExp(source, flags);
const whole = prefilter ? new RegExp(source, flags + 'm') : undefined;
const interval = ${PROGRESS_INTERVAL_MS};
let lastPost = Date.now();

function cut(line, index, length) {
  if (line.length <= maxMatchLineLength) return line;
  const before = Math.floor(maxMatchLineLength / 4);
  let start = Math.max(0, Math.min(index - before, line.length - maxMatchLineLength));
  let end = Math.min(line.length, start + maxMatchLineLength);
  const shown = (start > 0 ? '…' : '') + line.slice(start, end) + (end < line.length ? '…' : '');
  return shown + ' [line of ' + line.length.toLocaleString('en-US') + ' characters cut around the match]';
}

parentPort.on('message', (chunk) => {
  let count = 0;
  const lines = [];
  if (!(whole && !whole.test(chunk.text))) {
    const parts = chunk.text.split('\n');
    if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
    for (let index = 0; index < parts.length; index += 1) {
      if ((index & 63) === 63 && Date.now() - lastPost > interval) {
        parentPort.postMessage({ type: 'progress' });
        lastPost = Date.now();
      }
      let line = parts[index];
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (mode === 'lines' && lines.length < chunk.wanted) {
        const match = regex.exec(line);
        if (match === null) continue;
        count += 1;
        lines.push([chunk.startLine + index, cut(line, match.index, match[0].length)]);
      } else if (regex.test(line)) {
        count += 1;
        if (mode === 'files') break;
      }
    }
  }
  parentPort.postMessage({ type: 'result', count, lines });
  lastPost = Date.now();
});
parentPort.postMessage({ type: 'ready' });
`;

/** Starts a worker that matches `init`'s regular expression against the chunks it is sent. */
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
