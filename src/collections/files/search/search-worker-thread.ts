/**
 * The search worker: a thread that matches lines, so a regular expression that never finishes
 * can be stopped by terminating it (`channel.ts` watches it). It matches chunks of text the
 * main thread read through a workspace (`line-matcher.ts`); in disk mode (a local workspace
 * only) it runs the whole search itself (`worker-search-walk.ts`), reading files with
 * synchronous calls, which cost far less than a thread-pool round trip per open, read and
 * close, while a walker thread of its own (`search-walker-thread.ts`) lists the folders. It
 * also runs `find_files`' walk. Started by `worker-pool.ts`; never imported by the main thread.
 */
import { parentPort } from 'node:worker_threads';
import { DiskFileSearch, releaseReadBuffers } from './disk-file-search.js';
import { addListing, emptyListing, findAnswer, firstFolder, isFolder, listFolder, listingContext, startMissing, walkShared } from './folder-listing.js';
import { LineMatcher, type MutableResult } from './line-matcher.js';
import { lowerThisThreadsPriority } from './priority.js';
import {
  SHARE_FOLDERS,
  type ChunkResult,
  type FindJob,
  type PendingFolder,
  type SearchChunk,
  type SearchWorkerInit,
  type SearchWorkerRequest,
  type WalkerFindJob,
  type WorkerMessage,
} from './protocol.js';
import { nextFromWalker, nextWalkId, walkerThread } from './walker-link.js';
import { runSearchWalk, type SearchSetup } from './worker-search-walk.js';

lowerThisThreadsPriority();
const port = parentPort!;
const post = (message: WorkerMessage): void => port.postMessage(message);
/** The current search's setup: a worker is reused by the next search once one ends normally. */
let search: SearchSetup | undefined;
/** The current search's progress memory; `find_files` walks write to the last search's, which no watchdog reads any more. */
let progress: Int32Array<ArrayBufferLike> = new Int32Array(3);

function init(message: SearchWorkerInit): void {
  progress = new Int32Array(message.progress);
  const matcher = new LineMatcher(message, progress);
  search = { init: message, progress, pathBytes: Buffer.from(message.path), matcher, files: new DiskFileSearch(message, progress, matcher) };
  post({ type: 'ready' });
}

/** Matches one chunk the main thread sent. */
function match(chunk: SearchChunk): ChunkResult {
  Atomics.store(progress, 0, chunk.sequence);
  const result: MutableResult = { count: 0, lines: [] };
  search!.matcher.matchText(chunk.text, chunk.startLine, 0, chunk.wanted, result);
  return result;
}

/**
 * find_files: breadth first until there are enough folders to share, then both threads take
 * them one at a time (each walked depth first) until none is left, so a thread that starts
 * late or meets a large folder does not leave the other waiting; the walker's part comes
 * back in one message.
 */
function find(job: FindJob): void {
  if (!isFolder(job.start)) {
    port.postMessage(startMissing());
    return;
  }
  const context = listingContext(job);
  const state = emptyListing();
  const first = firstFolder(job, context, state);
  let frontier: PendingFolder[] = first === undefined ? [] : [first];
  while (frontier.length > 0 && frontier.length < SHARE_FOLDERS) {
    const next: PendingFolder[] = [];
    for (const folder of frontier) listFolder(folder, context, state, next);
    frontier = next;
  }
  const id = nextWalkId();
  const thread = frontier.length < 2 ? undefined : walkerThread();
  const taken = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  if (thread !== undefined) {
    const { type: _type, ...rest } = job;
    thread.walker.postMessage({ type: 'find', id, job: rest, folders: frontier, taken } satisfies WalkerFindJob);
  }
  walkShared(frontier, taken, context, state);
  if (thread !== undefined) {
    const answer = nextFromWalker(thread.port, id, (message) => message.found !== undefined, progress);
    if (answer.found === undefined) throw new Error('The find_files walker thread sent a batch instead of its answer.');
    if ('error' in answer && answer.error !== undefined) throw new Error(`The find_files walker thread failed: ${answer.error}`);
    addListing(state, answer.found);
  }
  const listed = findAnswer(state, job.keep);
  port.postMessage(listed, [listed.newest.mtimes.buffer as ArrayBuffer]);
}

// Answers go out in order; a result worth keeping (a match, a file passed over) goes out at once
// with those before it, so it is not lost if a later file gets the worker stuck and terminated.
port.on('message', (request: SearchWorkerRequest) => {
  if (Array.isArray(request)) {
    let results: ChunkResult[] = [];
    for (const chunk of request as readonly SearchChunk[]) {
      const result = match(chunk);
      results.push(result);
      if (result.count > 0) {
        post({ type: 'results', results });
        results = [];
      }
    }
    if (results.length > 0) post({ type: 'results', results });
    return;
  }
  const job = request as Exclude<SearchWorkerRequest, readonly SearchChunk[]>;
  if (job.type === 'init') init(job);
  else if (job.type === 'find') find(job);
  else {
    runSearchWalk(job, search!, post);
    releaseReadBuffers();
  }
});
post({ type: 'ready' });
