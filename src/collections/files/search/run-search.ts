/**
 * The search engine's front door, `runSearch`: one search from request to outcome. It hands
 * the search to a workspace that runs it where its files are, or takes a search worker (within
 * the search's time limit), arms the time limit and the cancel, runs the search in disk mode
 * (`disk-search.ts`) or through the workspace (`workspace-search.ts`), and cuts the matches to
 * the limit.
 */
import type { Worker } from 'node:worker_threads';
import type { FileMatch, SearchesInPlace, SearchOutcome, SearchStop } from '../../../workspace/in-place.js';
import { SearchChannel } from './channel.js';
import { searchOnDisk } from './disk-search.js';
import { readsLocalDisk } from './local-disk.js';
import { canPrefilter } from './prefilter.js';
import { requiredText } from './required-literals.js';
import type { SearchRequest, Skipped } from './search-request.js';
import { acquireSearchWorker } from './worker-pool.js';
import { WorkspaceSearch } from './workspace-search.js';

/**
 * Runs one search: walks the tree (links never followed, skipped folders not entered), reads
 * each file and has a worker thread match the lines, so a regular expression that never
 * finishes can be stopped by terminating the worker. On a local workspace (see
 * {@link readsLocalDisk}) the worker walks and reads too; otherwise this thread walks and
 * reads through the workspace's methods, in chunks, and sends the text.
 */
export async function runSearch(request: SearchRequest): Promise<SearchOutcome> {
  // A workspace that searches where its files are (a remote box) runs this same search there, in one request.
  const searcher = request.options.workspace as Partial<SearchesInPlace>;
  if (typeof searcher.searchInPlace === 'function') return searcher.searchInPlace(request);
  const { options, mode, limit, signal } = request;
  const { searchTimeoutMs } = options;
  const matches: FileMatch[] = [];
  const skipped: Skipped = { binary: 0, notUtf8: [], tooLarge: [], unreadable: [] };

  // Past the cap on workers running at once, a search waits for one, within its own time limit.
  const started = Date.now();
  const worker = await acquireWithin(signal, searchTimeoutMs, request.caller);
  if (worker === undefined) {
    const stopped: SearchStop = signal.aborted ? { type: 'cancelled' } : { type: 'timeout', afterMs: searchTimeoutMs };
    return outcome({ matches, searched: 0, limitReached: false, skipped, stopped, engine: 'node' });
  }
  // The text every match needs: the worker's byte prefilter, and whether a hand-off can pay.
  const required = requiredText(request.pattern.source, request.pattern.flags);
  const diskMode = readsLocalDisk(options.workspace) && (request.include === undefined || request.includePattern !== undefined);
  const throughWorkspace = diskMode ? undefined : new WorkspaceSearch(request, matches, skipped);
  const channel = new SearchChannel(
    worker,
    {
      source: request.pattern.source,
      flags: request.pattern.flags,
      mode,
      maxMatchLineLength: options.maxMatchLineLength,
      prefilter: canPrefilter(request.pattern.source),
      required,
      maxFileBytes: options.maxSearchFileBytes,
    },
    options.regexTimeoutMs,
    (file) => throughWorkspace?.commit(file),
  );
  const deadline = setTimeout(() => channel.fail({ type: 'timeout', afterMs: searchTimeoutMs }), Math.max(0, searchTimeoutMs - (Date.now() - started)));
  const onAbort = (): void => channel.fail({ type: 'cancelled' });
  signal.addEventListener('abort', onAbort);
  if (signal.aborted) onAbort();

  let stoppedByLimit = false;
  let engine: SearchOutcome['engine'] = 'node';
  let searched = 0;
  try {
    if (throughWorkspace === undefined) ({ stoppedByLimit, engine, searched } = await searchOnDisk(request, channel, matches, skipped, required));
    else stoppedByLimit = await throughWorkspace.search(channel);
    await channel.drain();
    throughWorkspace?.dropPastLimit();
  } finally {
    clearTimeout(deadline);
    signal.removeEventListener('abort', onAbort);
    await channel.close();
    await throughWorkspace?.close();
  }
  if (channel.crash !== undefined) throw channel.crash;
  if (throughWorkspace !== undefined) searched = throughWorkspace.searched;
  const cut = cutToLimit(matches, mode, limit);
  const limitReached = stoppedByLimit || (throughWorkspace?.passedOver ?? 0) > 0 || cut;
  return outcome({ matches, searched, limitReached, skipped, stopped: channel.failure, engine });
}

/** The outcome, with the same fields again as `data` for a user interface. */
function outcome(found: Omit<SearchOutcome, 'data' | 'stopped'> & { readonly stopped: SearchStop | undefined }): SearchOutcome {
  const { matches, searched, limitReached, skipped, stopped, engine } = found;
  return {
    matches,
    searched,
    limitReached,
    skipped,
    ...(stopped === undefined ? {} : { stopped }),
    engine,
    data: { matches, searched, limitReached, skipped, ...(stopped === undefined ? {} : { stopped }), engine },
  };
}

/**
 * Cuts `matches` (in walk order) to `limit` files, or in mode `lines` to `limit` lines; true
 * when that left matches out. Mode `files` says 1 for each file.
 */
function cutToLimit(matches: FileMatch[], mode: SearchRequest['mode'], limit: number): boolean {
  let cut = false;
  if (mode === 'lines') {
    let left = limit;
    for (let index = 0; index < matches.length; index += 1) {
      const match = matches[index]!;
      // The worker counts every matching line but returns only as many as were wanted.
      if (match.count > match.lines.length) cut = true;
      if (left <= 0) {
        matches.length = index;
        cut = true;
        break;
      }
      // The file the limit cut counts the lines kept, however many were read ahead of the cut.
      if (match.count > match.lines.length || match.lines.length > left) {
        const kept = Math.min(left, match.lines.length);
        matches[index] = { ...match, count: kept, lines: match.lines.slice(0, kept) };
        cut = true;
      }
      left -= matches[index]!.lines.length;
    }
    return cut;
  }
  if (matches.length > limit) {
    matches.length = limit;
    cut = true;
  }
  // The worker stops counting a file's lines at its first match (per chunk read): say 1, whatever the reading.
  if (mode === 'files') for (let index = 0; index < matches.length; index += 1) matches[index] = { ...matches[index]!, count: 1 };
  return cut;
}

/** A search worker (see `acquireSearchWorker`), or `undefined` when `signal` or `timeoutMs` ended the wait for one. */
async function acquireWithin(signal: AbortSignal, timeoutMs: number, caller: unknown): Promise<Worker | undefined> {
  const waited = new AbortController();
  const onAbort = (): void => waited.abort();
  const timer = setTimeout(onAbort, timeoutMs);
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();
  try {
    return await acquireSearchWorker(waited.signal, caller);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}
