import * as path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { rethrowUnlessFileSystemError, type Workspace } from '../../../workspace/workspace.js';
import type { ResolvedReadToolsOptions } from '../read-tools.js';
import { locateRipgrep, ripgrepCandidates, ripgrepGlob, ripgrepPattern, walkOrder, type RipgrepAnswer } from './ripgrep.js';
import { SearchChannel, type ChannelStop, type FileState, type WalkEnd } from './channel.js';
import { requiredText, type RequiredText } from './prefilter.js';
import { acquireSearchWorker, canPrefilter, type FoundMessage, type IncludePattern, type SearchWalkJob } from './worker-pool.js';
import { describeNonText } from '../text/text.js';
import { walkFiles, type WalkReport } from './walk.js';

/** Bytes of the first read of each file; most source files fit in it. */
const FIRST_READ_BYTES = 64 * 1024;
/** Bytes read at a time from a larger file. */
const CHUNK_BYTES = 256 * 1024;
/** Characters sent to the worker and not answered yet, before reading waits for it. */
const MAX_IN_FLIGHT_CHARACTERS = 8 * 1024 * 1024;
/** Files opened and read ahead while the worker matches earlier ones. */
const READ_AHEAD = 16;

/**
 * True when the workspace reads the local disk with `Workspace`'s own `open` and `readFile`
 * (its `capabilities.readsLocalDisk`; a remote workspace or a subclass says no). Only then may the worker
 * read the files the walk found itself ("disk mode"): synchronous reads in the worker cost a
 * fraction of an asynchronous open, read and close per file on the main thread. Any other
 * workspace is read through its methods.
 */
export function readsLocalDisk(workspace: Workspace): boolean {
  return workspace.capabilities.readsLocalDisk;
}

/**
 * True when the workspace lists folders with `Workspace`'s own `list` and `lstatOrUndefined`
 * (its `capabilities.listsLocalDisk`): then `find_files` may walk the tree in a worker with synchronous calls (see
 * {@link readsLocalDisk}).
 */
export function listsLocalDisk(workspace: Workspace): boolean {
  return workspace.capabilities.listsLocalDisk;
}

/**
 * A workspace capability: runs {@link runSearch} next to its files (a remote workspace sends
 * the request to its box, whose server calls `runSearch` on its local workspace), so a search
 * costs one round trip, not one per file.
 */
export interface SearchesInPlace {
  searchInPlace(request: SearchRequest): Promise<SearchOutcome>;
}

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
  /** The same glob for the worker, in disk mode. */
  readonly includePattern?: IncludePattern | undefined;
  /** The glob as the model wrote it, for ripgrep (see `ripgrepGlob`). */
  readonly includeGlob?: string | undefined;
  readonly signal: AbortSignal;
  /** Told the counts so far after each file answered, for a live view (`search_files`' progress). */
  readonly onCount?: ((matchedFiles: number, searchedFiles: number) => void) | undefined;
}

/** The matches in one file. */
export interface FileMatch {
  /** Relative to the workspace root. */
  readonly path: string;
  /** Matching lines (mode `files`: 1, as matching stops at the first). */
  readonly count: number;
  /** Mode `lines`: line numbers with text cut around the match. */
  readonly lines: readonly (readonly [number, string])[];
}

/** Why a search ended before it looked at everything. */
export type SearchStop = ChannelStop;

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
  /** Whether ripgrep picked the files to read (see `ripgrep.ts`), or the walk read them all. */
  readonly engine: 'ripgrep' | 'node';
  /** The same, for a user interface. */
  readonly data: unknown;
}

/** A file opened and its first chunk read, ahead of its turn. */
type Loaded =
  | { readonly type: 'unreadable'; readonly path: string }
  | { readonly type: 'too-large'; readonly path: string }
  | {
      readonly type: 'open';
      readonly path: string;
      readonly handle: import('node:fs/promises').FileHandle;
      readonly first: Buffer;
      /** True when the first read already reached the end of the file. */
      readonly complete: boolean;
      /** Gives the first read's buffer back for the next file. */
      readonly release: () => void;
    };

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
  const { workspace, maxSearchFileBytes, searchTimeoutMs, regexTimeoutMs } = options;
  const matches: FileMatch[] = [];
  let committed = 0;
  let searched = 0;
  let passedOver = 0;
  const skipped = { binary: 0, notUtf8: [] as string[], tooLarge: [] as string[], unreadable: [] as string[] };

  // Past the cap on workers running at once, a search waits for one, within its own time limit.
  const started = Date.now();
  const worker = await acquireWithin(signal, searchTimeoutMs);
  if (worker === undefined) {
    const stopped: SearchStop = signal.aborted ? { type: 'cancelled' } : { type: 'timeout', afterMs: searchTimeoutMs };
    const empty = { matches, searched, limitReached: false, skipped, stopped, engine: 'node' as const };
    return { ...empty, data: { ...empty } };
  }
  // The text every match needs: the worker's byte prefilter, and whether a hand-off can pay.
  const required = requiredText(request.pattern.source, request.pattern.flags);
  const channel = new SearchChannel(
    worker,
    {
      source: request.pattern.source,
      flags: request.pattern.flags,
      mode,
      maxMatchLineLength: options.maxMatchLineLength,
      prefilter: canPrefilter(request.pattern.source),
      required,
      maxFileBytes: maxSearchFileBytes,
    },
    regexTimeoutMs,
    (file) => {
      // Files answered after the limit was reached were read ahead, not asked for: leave them out.
      if (committed >= limit) {
        passedOver += 1;
        return;
      }
      searched += 1;
      if (file.count > 0) {
        matches.push({ path: file.path, count: file.count, lines: file.lines });
        committed += mode === 'lines' ? file.lines.length : 1;
      }
      request.onCount?.(matches.length, searched);
    },
  );
  const deadline = setTimeout(() => channel.fail({ type: 'timeout', afterMs: searchTimeoutMs }), Math.max(0, searchTimeoutMs - (Date.now() - started)));
  const onAbort = (): void => channel.fail({ type: 'cancelled' });
  signal.addEventListener('abort', onAbort);
  if (signal.aborted) onAbort();
  const report: WalkReport = { unreadable: skipped.unreadable };
  const files = request.targetIsFile
    ? singleFile(request.target)
    : walkFiles(workspace, request.target, options.skippedFolders, report, signal);
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  // Buffers for first reads, reused: a fresh 64 KB per file would keep the garbage collector busy.
  const spare: Buffer[] = [];
  let stoppedByLimit = false;

  const load = async (file: { absolute: string; fromStart: string; isLink: boolean }): Promise<Loaded> => {
    const shown = workspace.display(file.absolute);
    let handle: import('node:fs/promises').FileHandle;
    try {
      handle = await workspace.open(file.absolute);
    } catch (error) {
      rethrowUnlessFileSystemError(error);
      return { type: 'unreadable', path: shown };
    }
    try {
      // Most files fit in the first read: open, read, close, with no stat on the way.
      const first = spare.pop() ?? Buffer.allocUnsafe(FIRST_READ_BYTES);
      let released = false;
      const release = (): void => {
        if (released) return;
        released = true;
        spare.push(first);
      };
      const { bytesRead } = await handle.read(first, 0, first.length, 0);
      const complete = bytesRead < first.length;
      if (complete ? bytesRead > maxSearchFileBytes : (await handle.stat()).size > maxSearchFileBytes) {
        release();
        await handle.close();
        return { type: 'too-large', path: shown };
      }
      return { type: 'open', path: shown, handle, first: first.subarray(0, bytesRead), complete, release };
    } catch (error) {
      await handle.close().catch(() => undefined);
      rethrowUnlessFileSystemError(error);
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
  const ahead: { loaded: Promise<Loaded>; done: boolean }[] = [];
  // Files are closed without waiting, off the path from one file to the next; all before returning.
  const closing: Promise<unknown>[] = [];
  let exhausted = false;
  const diskMode = readsLocalDisk(workspace) && (request.include === undefined || request.includePattern !== undefined);
  let engine: SearchOutcome['engine'] = 'node';
  try {
    if (diskMode) {
      const onDisk = await searchOnDisk(request, channel, matches, skipped, required);
      ({ stoppedByLimit, engine } = onDisk);
      searched = onDisk.searched;
    }
    while (!diskMode) {
      while (!exhausted && ahead.length < READ_AHEAD) {
        const file = await nextFile();
        if (file === undefined) exhausted = true;
        else {
          const entry = { loaded: load(file), done: false };
          void entry.loaded.then(() => (entry.done = true));
          ahead.push(entry);
        }
      }
      const entry = ahead.shift();
      if (entry === undefined) break;
      // Keep the worker busy while this thread waits for the disk.
      if (!entry.done) channel.flush();
      const loaded = await entry.loaded;
      if (channel.failure !== undefined || committed >= limit) {
        stoppedByLimit = channel.failure === undefined;
        if (loaded.type === 'open') {
          loaded.release();
          await loaded.handle.close();
        }
        break;
      }
      if (loaded.type === 'unreadable') skipped.unreadable.push(loaded.path);
      else if (loaded.type === 'too-large') skipped.tooLarge.push(loaded.path);
      else {
        const verdict = await searchFile(loaded, channel, buffer, limit - committed, closing);
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
    await Promise.all(ahead.map((entry) => entry.loaded.then((loaded) => (loaded.type === 'open' ? loaded.handle.close() : undefined), () => undefined)));
    await iterator.return?.(undefined);
    await Promise.all(closing);
  }
  if (channel.crash !== undefined) throw channel.crash;

  let limitReached = stoppedByLimit || passedOver > 0;
  if (mode === 'lines') {
    let left = limit;
    for (let index = 0; index < matches.length; index += 1) {
      const match = matches[index]!;
      // The worker counts every matching line but returns only as many as were wanted.
      if (match.count > match.lines.length) limitReached = true;
      if (left <= 0) {
        matches.length = index;
        limitReached = true;
        break;
      }
      // The file the limit cut counts the lines kept, however many were read ahead of the cut.
      if (match.count > match.lines.length || match.lines.length > left) {
        const kept = Math.min(left, match.lines.length);
        matches[index] = { ...match, count: kept, lines: match.lines.slice(0, kept) };
        limitReached = true;
      }
      left -= matches[index]!.lines.length;
    }
  } else {
    if (matches.length > limit) {
      matches.length = limit;
      limitReached = true;
    }
    // The worker stops counting a file's lines at its first match (per chunk read): say 1, whatever the reading.
    if (mode === 'files') for (let index = 0; index < matches.length; index += 1) matches[index] = { ...matches[index]!, count: 1 };
  }
  const stopped = channel.failure;
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

/** A search worker (see `acquireSearchWorker`), or `undefined` when `signal` or `timeoutMs` ended the wait for one. */
async function acquireWithin(signal: AbortSignal, timeoutMs: number): Promise<Worker | undefined> {
  const waited = new AbortController();
  const onAbort = (): void => waited.abort();
  const timer = setTimeout(onAbort, timeoutMs);
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();
  try {
    return await acquireSearchWorker(waited.signal);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

/** The files a search passed over, filled in as it runs. */
type Skipped = { binary: number; readonly notUtf8: string[]; readonly tooLarge: string[]; readonly unreadable: string[] };

/**
 * Disk mode: the worker walks, reads and matches; where matches turn out sparse, the walk
 * hands the rest to ripgrep (see {@link PROJECTED_FILES_PER_PROBE_FILE}). Fills `matches` and
 * `skipped`; says whether the limit left files unsearched, which engine answered and how many
 * files were searched.
 */
async function searchOnDisk(
  request: SearchRequest,
  channel: SearchChannel,
  matches: FileMatch[],
  skipped: Skipped,
  required: RequiredText | undefined,
): Promise<{ stoppedByLimit: boolean; engine: SearchOutcome['engine']; searched: number }> {
  const { options, mode, limit } = request;
  const { workspace, searchTimeoutMs } = options;
  let searched = 0;
  let engine: SearchOutcome['engine'] = 'node';
  const job: SearchWalkJob = {
    type: 'walk',
    start: request.target,
    startIsFile: request.targetIsFile,
    root: workspace.root,
    skipped: options.skippedFolders,
    include: request.includePattern,
    limit,
  };
  // Limit units (files, or lines in mode `lines`) the worker has committed so far.
  let committedUnits = 0;
  const onFound = (found: FoundMessage): void => {
    searched += found.searched;
    skipped.unreadable.push(...found.unreadable);
    for (const file of found.files) {
      if (file.verdict === 'text') {
        matches.push({ path: file.path, count: file.count, lines: file.lines });
        committedUnits += mode === 'lines' ? file.lines.length : 1;
      } else if (file.verdict === 'binary') skipped.binary += 1;
      else if (file.verdict === 'not-utf8') skipped.notUtf8.push(file.path);
      else if (file.verdict === 'too-large') skipped.tooLarge.push(file.path);
      else skipped.unreadable.push(file.path);
    }
    request.onCount?.(matches.length, searched);
  };
  // The walk starts at once; where matches turn out sparse, it hands the rest to ripgrep,
  // unless the byte prefilter can test the pattern (see PROJECTED_FILES_PER_PROBE_FILE).
  const probeFiles = options.ripgrepAfterFiles;
  const plan = request.targetIsFile || (probeFiles > 0 && prefilterIsSelective(required)) ? undefined : await planRipgrep(request);
  let end: WalkEnd | undefined =
    plan !== undefined && probeFiles === 0
      ? { stoppedByLimit: false, handedOffAfter: '' }
      : await channel.walk(plan === undefined ? job : { ...job, handOff: { probeFiles, maxProjectedFiles: PROJECTED_FILES_PER_PROBE_FILE * probeFiles, minFilesLeft: PROJECTED_FILES_PER_PROBE_FILE * probeFiles } }, onFound);
  if (plan !== undefined && end?.handedOffAfter !== undefined) {
    const answer = await runRipgrep(request, plan);
    if (answer.type === 'timeout') channel.fail({ type: 'timeout', afterMs: searchTimeoutMs });
    else if (answer.type === 'cancelled') channel.fail({ type: 'cancelled' });
    else if (answer.type === 'candidates') {
      engine = 'ripgrep';
      end = await channel.walk({ ...job, limit: limit - committedUnits, files: filesAfter(request, answer.files, end.handedOffAfter) }, onFound);
      searched = answer.searched;
    } else {
      // ripgrep could not do it: the walk again, whole, as if it had not been asked.
      matches.length = 0;
      skipped.binary = 0;
      for (const list of [skipped.notUtf8, skipped.tooLarge, skipped.unreadable]) list.length = 0;
      searched = 0;
      end = await channel.walk(job, onFound);
    }
  }
  return { stoppedByLimit: end?.stoppedByLimit === true, engine, searched };
}

/**
 * A walk that has searched `ripgrepAfterFiles` text files hands the rest to ripgrep when
 * reaching the limit at the rate of matches seen so far would mean searching more than this
 * many times as many files: then ripgrep's scan of the whole tree is the faster way to the
 * rest. A common pattern reaches the limit in the walk's first files and never starts
 * ripgrep; a rare one pays for the first few hundred files before it does.
 *
 * A walk whose folders are all listed, with fewer files than that left to search, finishes
 * them itself instead: a ripgrep scan costs a process start and a pass over the whole tree,
 * more than the walk's last files (a 1,000-file tree: 32 ms with the hand-off, 20 ms
 * without, measured side by side).
 *
 * A pattern whose required text the byte prefilter looks for as fast as ripgrep (see
 * {@link prefilterIsSelective}) is never handed off (unless `ripgrepAfterFiles` is 0): with
 * the prefilter a file costs the walk no more than it costs ripgrep, so the hand-off only
 * added a process and a second pass. Measured side by side
 * on the 20,000-file bench tree: `TODO` with `limit: 1000` 346 ms handed off against 94 ms
 * walked (a `docs/` folder without it came first), a rare regex with a literal 291 against
 * 205 ms; on this repository's `node_modules`, `require\(` with `limit: 1000` 555 against
 * 147 ms, a rare literal 1.00 against 0.87 times `rg -l`.
 */
const PROJECTED_FILES_PER_PROBE_FILE = 10;

/** Characters a required literal needs before the byte prefilter rules out most files: `x` of `[xq]u{2}x\d{3}` rules out almost none. */
const SELECTIVE_LITERAL_CHARACTERS = 3;

/**
 * True when the byte prefilter passes over a file as fast as ripgrep's scan would: one
 * case-sensitive literal of {@link SELECTIVE_LITERAL_CHARACTERS} or more, looked for with one
 * `indexOf`. Several literals cost a pass each, and a caseless one a slower pass, where ripgrep
 * looks for them all in one: those keep the hand-off (`quuxNever|zzyzxMarker` in `lines` mode on
 * `node_modules`: 1.37–1.48 times `rg` walked, 1.00–1.04 handed off).
 */
function prefilterIsSelective(required: RequiredText | undefined): boolean {
  return required !== undefined && !required.caseless && required.literals.length === 1 && required.literals[0]!.length >= SELECTIVE_LITERAL_CHARACTERS;
}

/** How ripgrep would be asked, or `undefined` when it is off, missing, or cannot express the pattern. */
async function planRipgrep(request: SearchRequest): Promise<{ program: string; pattern: string } | undefined> {
  const pattern = ripgrepPattern(request.pattern.source, request.pattern.flags);
  if (pattern === undefined) return undefined;
  const program = await locateRipgrep(request.options.ripgrep);
  return program === undefined ? undefined : { program, pattern };
}

function runRipgrep(request: SearchRequest, plan: { program: string; pattern: string }): Promise<RipgrepAnswer> {
  const { options } = request;
  return ripgrepCandidates({
    program: plan.program,
    start: request.target,
    pattern: plan.pattern,
    skipped: options.skippedFolders,
    glob: ripgrepGlob(request.includeGlob),
    timeoutMs: options.searchTimeoutMs,
    signal: request.signal,
  });
}

/**
 * ripgrep's files (relative to the folder searched) that the walk had not reached when it
 * handed off after `lastSearched` (a path as shown), and that `include` takes, as the
 * worker's `[absolute, shown]` pairs in walk order.
 */
function filesAfter(request: SearchRequest, candidates: readonly string[], lastSearched: string): [string, string][] {
  const { workspace } = request.options;
  const startShown = workspace.display(request.target);
  const shownPrefix = startShown === '.' ? '' : `${startShown}/`;
  // `''`: handed off before the first file.
  const reached = lastSearched === '' ? undefined : lastSearched.slice(shownPrefix.length);
  const files: [string, string][] = [];
  for (const file of candidates) {
    if (reached !== undefined && walkOrder(file, reached) <= 0) continue;
    if (request.include === undefined || request.include(file)) files.push([path.join(request.target, file), shownPrefix + file]);
  }
  return files;
}

/** Reads one file in chunks and sends its text to the worker; what the file turned out to be. */
async function searchFile(
  loaded: Extract<Loaded, { type: 'open' }>,
  channel: SearchChannel,
  buffer: Buffer,
  wanted: number,
  closing: Promise<unknown>[],
): Promise<'text' | 'binary' | 'not-utf8' | 'stopped'> {
  const file: FileState = { path: loaded.path, dropped: false, count: 0, lines: [] };
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const drop = (verdict: 'binary' | 'not-utf8'): 'binary' | 'not-utf8' => {
    file.dropped = true;
    return verdict;
  };
  try {
    let position = 0;
    const kind = describeNonText(loaded.first);
    if (kind !== undefined) return kind.startsWith('UTF-') ? 'not-utf8' : 'binary';
    let carry = '';
    let line = 1;
    let chunk: Buffer = loaded.first;
    let complete = loaded.complete;
    for (;;) {
      if (chunk.includes(0)) return drop('binary');
      let text: string;
      try {
        // The whole file in one read (the usual case) is decoded and sent in one piece.
        text = complete ? decoder.decode(chunk) : decoder.decode(chunk, { stream: true });
      } catch {
        return drop('not-utf8');
      }
      if (position === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      position += chunk.length;
      loaded.release();
      const combined = carry + text;
      if (complete) {
        channel.send(file, line, combined, wanted, true);
        return 'text';
      }
      const cut = combined.lastIndexOf('\n');
      if (cut === -1) carry = combined;
      else {
        const lines = combined.slice(0, cut + 1);
        carry = combined.slice(cut + 1);
        channel.send(file, line, lines, wanted, false);
        line += countLines(lines);
        await channel.waitForRoom(MAX_IN_FLIGHT_CHARACTERS);
        if (channel.failure !== undefined) return 'stopped';
      }
      const { bytesRead } = await loaded.handle.read(buffer, 0, buffer.length, position);
      chunk = buffer.subarray(0, bytesRead);
      complete = bytesRead < buffer.length;
    }
  } finally {
    loaded.release();
    closing.push(loaded.handle.close().catch(() => undefined));
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
