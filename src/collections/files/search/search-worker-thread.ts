/**
 * The search worker: a thread that matches lines, so a regular expression that never finishes
 * can be stopped by terminating it (`search-channel.ts` watches it). Chunks are text the main
 * thread read through the workspace; in disk mode (a local workspace only) files are read here
 * with synchronous calls, which cost far less than a thread-pool round trip per open, read and
 * close, while a walker thread of its own (`search-walker-thread.ts`) lists the folders and
 * screens files from the far end of its list. Each file's bytes are checked for the
 * pattern's required text (`search-prefilter.ts`) before they are decoded. It also runs
 * `find_files`' walk. Started by `search-worker.ts`; never imported by the main thread.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MessageChannel, parentPort, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { addListing, emptyListing, findAnswer, firstFolder, isFolder, listFolder, listingContext, startMissing, walkShared } from './folder-listing.js';
import {
  CLAIM,
  CLAIM_VERDICTS,
  CONTROL_SLOTS,
  READING,
  SHARE_FOLDERS,
  type ChunkResult,
  type FileVerdict,
  type FindJob,
  type FoundFile,
  type FoundMessage,
  type PendingFolder,
  type SearchChunk,
  type SearchWalkJob,
  type SearchWorkerInit,
  type SearchWorkerRequest,
  type WalkEntry,
  type WalkerFindJob,
  type WalkerMessage,
  type WalkerSearchJob,
  type WorkerMessage,
} from './protocol.js';
import { SearchFileReader } from './file-reader.js';
import { lowerThisThreadsPriority } from './priority.js';
import { compileRequiredText, type RequiredText } from './prefilter.js';
import { workerScript } from './worker-script.js';

lowerThisThreadsPriority();
const port = parentPort!;
const post = (message: WorkerMessage): void => port.postMessage(message);
let reader: SearchFileReader | undefined;
const control = new Int32Array(new SharedArrayBuffer(12));
// Started at the first walk (a search through a non-local workspace needs none).
let walker: Worker | undefined;
let walkerPort: MessagePort | undefined;
let walkId = 0;

function startWalker(): { walker: Worker; port: MessagePort } {
  const channel = new MessageChannel();
  const script = workerScript('search-walker-thread');
  const started = new Worker(script.url, { ...script.options, workerData: { port: channel.port2, control: control.buffer }, transferList: [channel.port2] });
  started.unref();
  walker = started;
  walkerPort = channel.port1;
  return { walker: started, port: channel.port1 };
}

/** Set by each search's init message: a worker is reused by the next search once one ends normally. */
let mode: SearchWorkerInit['mode'] = 'files';
let maxMatchLineLength = 0;
let maxFileBytes = 0;
let progress: Int32Array<ArrayBufferLike> = new Int32Array(3);
let pathBytes: Buffer<ArrayBufferLike> = Buffer.alloc(0);
let regex = /$^/u;
let whole: RegExp | undefined;
let required: RequiredText | undefined;
let mayMatch: ((bytes: Buffer) => boolean) | undefined;
/** The required literals' bytes, when they are compared exactly (no `i` flag): the lines that can match hold one. */
let needles: readonly Buffer[] | undefined;
/** True when the pattern is nothing but those literals, one or several as alternatives. */
let plainLiterals = false;

/** `text` as a regular expression that matches it literally. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function init(message: SearchWorkerInit): void {
  ({ mode, maxMatchLineLength, maxFileBytes } = message);
  progress = new Int32Array(message.progress);
  pathBytes = Buffer.from(message.path);
  regex = new RegExp(message.source, message.flags);
  whole = message.prefilter ? new RegExp(message.source, `${message.flags}m`) : undefined;
  required = message.required;
  mayMatch = required === undefined ? undefined : compileRequiredText(required);
  needles = required === undefined || required.caseless ? undefined : required.literals.map((literal) => Buffer.from(literal, 'utf8'));
  // `Copyright`, `require\(`, `foo|bar`: the pattern is its literals, so finding one is a match
  // (a U+FEFF in one could be the byte order mark, which the match leaves out).
  plainLiterals = needles !== undefined && required!.literals.map(escapeRegExp).join('|') === message.source && !required!.literals.some((literal) => literal.includes('\ufeff'));
  post({ type: 'ready' });
}

function cut(line: string, index: number): string {
  if (line.length <= maxMatchLineLength) return line;
  const before = Math.floor(maxMatchLineLength / 4);
  const start = Math.max(0, Math.min(index - before, line.length - maxMatchLineLength));
  const end = Math.min(line.length, start + maxMatchLineLength);
  const shown = (start > 0 ? '…' : '') + line.slice(start, end) + (end < line.length ? '…' : '');
  return `${shown} [line of ${line.length.toLocaleString('en-US')} characters cut around the match]`;
}

interface MutableResult {
  count: number;
  lines: [number, string][];
  verdict?: FileVerdict;
}

/** Matches the lines of text, numbered from startLine; progress slot 1 counts from base. */
function matchText(text: string, startLine: number, base: number, wanted: number, result: MutableResult): void {
  Atomics.store(progress, 1, -1);
  if (whole !== undefined && !whole.test(text)) return;
  // Line by line with indexOf rather than split: no array of every line, and mode `files` stops at the first match.
  for (let start = 0, index = 0; start < text.length; index += 1) {
    Atomics.store(progress, 1, base + index);
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    start = end + 1;
    if (mode === 'lines' && result.lines.length < wanted) {
      const found = regex.exec(line);
      if (found === null) continue;
      result.count += 1;
      result.lines.push([startLine + index, cut(line, found.index)]);
    } else if (regex.test(line)) {
      result.count += 1;
      if (mode === 'files') break;
    }
  }
}

/**
 * Mode `files` with exact required literals: whether a line of `bytes` (valid UTF-8) matches,
 * decoding only the lines that hold one of `needles`, since every matching line does. A file
 * of megabytes whose pattern sits on its first lines is not decoded whole.
 */
function hasMatchingLine(bytes: Buffer, needles: readonly Buffer[]): boolean {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (const needle of needles) {
    // Lines counted so far (for the stuck-pattern report), up to `counted`.
    let line = 0;
    let counted = 0;
    for (let at = bytes.indexOf(needle); at !== -1; ) {
      const start = bytes.lastIndexOf(0x0a, at) + 1;
      let end = bytes.indexOf(0x0a, at);
      if (end === -1) end = bytes.length;
      for (let newline = bytes.indexOf(0x0a, counted); newline !== -1 && newline < start; newline = bytes.indexOf(0x0a, newline + 1)) line += 1;
      counted = start;
      Atomics.store(progress, 1, line);
      const lineEnd = end > start && bytes[end - 1] === 0x0d ? end - 1 : end;
      if (regex.test(bytes.toString('utf8', Math.max(start, bom), lineEnd))) return true;
      at = end + 1 >= bytes.length ? -1 : bytes.indexOf(needle, end + 1);
    }
  }
  return false;
}

function match(chunk: SearchChunk): ChunkResult {
  Atomics.store(progress, 0, chunk.sequence);
  const result: MutableResult = { count: 0, lines: [] };
  matchText(chunk.text, chunk.startLine, 0, chunk.wanted, result);
  return result;
}

function countLines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}

/** Reads, screens and matches one file in disk mode: the same rules as the main thread's reading, with the verdict in the answer. */
function searchFile(absolute: string, wanted: number): MutableResult {
  Atomics.store(progress, 1, READING);
  reader ??= new SearchFileReader();
  const read = reader.read(absolute, maxFileBytes);
  if (read.type === 'passed-over') return { count: 0, lines: [], verdict: read.verdict };
  const result: MutableResult = { count: 0, lines: [], verdict: 'text' };
  if (read.type === 'text') {
    // Most files of a search for a rare pattern end here: their bytes lack what every match needs.
    if (mayMatch !== undefined && !mayMatch(read.bytes)) return result;
    if (mode === 'files' && needles !== undefined) {
      // With plain literals the prefilter's hit above is the match: a literal's bytes found in
      // valid UTF-8 are the literal's characters.
      if (plainLiterals || hasMatchingLine(read.bytes, needles)) result.count = 1;
      return result;
    }
    let text = read.bytes.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    matchText(text, 1, 0, wanted, result);
    return result;
  }
  return searchLargeFile(read.fd, read.first, reader.chunkBuffer, wanted, result);
}

/**
 * The walker's answer for a file it took first (see `CLAIM`), waiting while it reads the
 * file; `undefined` when the file is this thread's to search: it got there first, or the
 * walker found the pattern's required text in it.
 */
function screened(claims: Int32Array, slot: number): MutableResult | undefined {
  if (Atomics.compareExchange(claims, slot, CLAIM.free, CLAIM.worker) === CLAIM.free) return undefined;
  Atomics.store(progress, 1, READING);
  let state = Atomics.load(claims, slot);
  while (state === CLAIM.screening) {
    Atomics.wait(claims, slot, CLAIM.screening, 100);
    state = Atomics.load(claims, slot);
  }
  if (state === CLAIM.noMatch) return { count: 0, lines: [], verdict: 'text' };
  const verdict = CLAIM_VERDICTS[state];
  return verdict === undefined ? undefined : { count: 0, lines: [], verdict };
}

/** A file too large to read whole, in chunks: decoded as a stream, matched chunk by chunk, closed at the end. */
function searchLargeFile(fd: number, first: Buffer, chunk: Buffer, wanted: number, result: MutableResult): MutableResult {
  const fail = (verdict: FileVerdict): MutableResult => ({ count: 0, lines: [], verdict });
  try {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let bytes = first;
    let position = 0;
    let line = 0;
    let carry = '';
    for (;;) {
      if (position > 0 && bytes.includes(0)) return fail('binary');
      const complete = bytes.length < chunk.length;
      let text: string;
      try {
        text = decoder.decode(bytes, { stream: !complete });
      } catch {
        return fail('not-utf8');
      }
      if (position === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      position += bytes.length;
      if (position > maxFileBytes) return fail('too-large');
      const combined = carry + text;
      const done = mode === 'files' && result.count > 0;
      if (complete) {
        if (!done) matchText(combined, line + 1, line, wanted, result);
        return result;
      }
      const at = combined.lastIndexOf('\n');
      if (at === -1) carry = combined;
      else {
        const lines = combined.slice(0, at + 1);
        carry = combined.slice(at + 1);
        if (!done) matchText(lines, line + 1, line, wanted, result);
        line += countLines(lines);
      }
      Atomics.store(progress, 1, READING);
      let filled = 0;
      while (filled < chunk.length) {
        const read = fs.readSync(fd, chunk, filled, chunk.length - filled, position + filled);
        if (read === 0) break;
        filled += read;
      }
      bytes = chunk.subarray(0, filled);
    }
  } catch {
    return fail('unreadable');
  } finally {
    fs.closeSync(fd);
  }
}

/** Milliseconds between progress messages while nothing else is worth sending. */
const PROGRESS_MS = 25;

/** The next message on the walker's port for walk `id` (older walks' leftovers passed over), waiting for it unless `wait` is false. */
function nextFromWalker(from: MessagePort, id: number, accept: (message: WalkerMessage) => boolean, wait = true): WalkerMessage | undefined {
  for (;;) {
    const posted = Atomics.load(control, CONTROL_SLOTS.posted);
    const received = receiveMessageOnPort(from);
    if (received === undefined) {
      if (!wait) return undefined;
      Atomics.store(progress, 1, READING);
      Atomics.wait(control, CONTROL_SLOTS.posted, posted, 100);
      continue;
    }
    Atomics.add(control, CONTROL_SLOTS.taken, 1);
    Atomics.notify(control, CONTROL_SLOTS.taken);
    const message = received.message as WalkerMessage;
    if (message.id === id && accept(message)) return message;
  }
}

function walk(job: SearchWalkJob): void {
  const display = (absolute: string): string => {
    const relative = path.relative(job.root, absolute);
    return relative === '' ? '.' : relative.split(path.sep).join('/');
  };
  // Paths below the start are shown as the start's path and the path from it.
  const startShown = display(job.start);
  const shownPrefix = startShown === '.' ? '' : `${startShown}/`;
  let searched = 0;
  let files: FoundFile[] = [];
  let unreadable: string[] = [];
  let lastPost = Date.now();
  const send = (end?: FoundMessage['end']): void => {
    post({ type: 'found', searched, files, unreadable, ...(end === undefined ? {} : { end }) });
    searched = 0;
    files = [];
    unreadable = [];
    lastPost = Date.now();
  };
  let committed = 0;
  let sequence = 0;
  let textFiles = 0;
  let handedOffAfter: string | undefined;
  /** Files the walk has still to search, counted up to `enough` (set below, where the walk's queue is). */
  let filesLeft = (enough: number): number => enough;
  // Returns false once the limit is reached and another file is left, or the walk is handed off.
  const visit = (absolute: string, shown: string, claims?: Int32Array, slot = 0): boolean => {
    if (committed >= job.limit) return false;
    Atomics.store(progress, 0, sequence++);
    Atomics.store(progress, 2, pathBytes.write(shown, 0));
    const result = (claims === undefined ? undefined : screened(claims, slot)) ?? searchFile(absolute, job.limit - committed);
    if (result.verdict === 'text') {
      searched += 1;
      textFiles += 1;
      if (result.count > 0) committed += mode === 'lines' ? result.lines.length : 1;
      // Sparse matches: ripgrep reaches the rest sooner than this walk would.
      if (job.handOff !== undefined && textFiles === job.handOff.probeFiles && committed < job.limit) {
        const projected = committed === 0 ? Infinity : (textFiles * job.limit) / committed;
        // On a small tree the walk is nearly done: finishing it is quicker than starting ripgrep over the whole tree.
        if (projected > job.handOff.maxProjectedFiles && filesLeft(job.handOff.minFilesLeft) >= job.handOff.minFilesLeft) handedOffAfter = shown;
      }
    }
    // A match or a file passed over goes out at once, so it is not lost if a later file gets the worker stuck.
    if (result.count > 0 || result.verdict !== 'text') {
      files.push({ path: shown, verdict: result.verdict!, count: result.count, lines: result.lines });
      send();
    } else if (Date.now() - lastPost > PROGRESS_MS) send();
    return handedOffAfter === undefined;
  };
  // Why visit() said stop: the limit, or a hand-off.
  const stop = (): void => send(handedOffAfter === undefined ? { stoppedByLimit: true } : { stoppedByLimit: false, handedOffAfter });
  if (job.startIsFile) {
    visit(job.start, startShown);
    send({ stoppedByLimit: false });
    return;
  }
  if (job.files !== undefined) {
    for (const [absolute, shown] of job.files) {
      if (!visit(absolute, shown)) {
        send({ stoppedByLimit: true });
        return;
      }
    }
    send({ stoppedByLimit: false });
    return;
  }
  // The walker thread lists folders while this one reads and matches: two cores, and the
  // order stays the walk's.
  const thread = walker !== undefined && walkerPort !== undefined ? { walker, port: walkerPort } : startWalker();
  const id = (walkId += 1);
  Atomics.store(control, CONTROL_SLOTS.stop, id);
  const screen = required === undefined ? {} : { screen: { required, maxFileBytes } };
  thread.walker.postMessage({ type: 'walk', id, start: job.start, skipped: job.skipped, include: job.include, shownPrefix, startShown, ...screen } satisfies WalkerSearchJob);
  let queue: readonly WalkEntry[] = [];
  let claims: Int32Array | undefined;
  let next = 0;
  let ended = false;
  const isBatch = (candidate: WalkerMessage): boolean => candidate.found === undefined;
  /** Batches taken off the port ahead of their turn, to count the files left; oldest first. */
  const early: Extract<WalkerMessage, { readonly entries: unknown }>[] = [];
  // Each batch taken here leaves the walker fewer ahead, and then it lists instead of screening (see WalkerSearchJob.screen), so this wait is short.
  filesLeft = (enough) => {
    let count = 0;
    for (let index = next; index < queue.length; index += 1) if (queue[index]![0] === 'f') count += 1;
    for (const message of early) for (const entry of message.entries) if (entry[0] === 'f') count += 1;
    while (count < enough && !ended && early.at(-1)?.end !== true) {
      const message = nextFromWalker(thread.port, id, isBatch)!;
      if (message.found !== undefined) continue;
      early.push(message);
      for (const entry of message.entries) if (entry[0] === 'f') count += 1;
    }
    return count;
  };
  const take = (): WalkEntry | undefined => {
    for (;;) {
      if (next < queue.length) return queue[next++];
      if (ended) return undefined;
      const message = early.shift() ?? nextFromWalker(thread.port, id, isBatch)!;
      if (message.found !== undefined) continue;
      queue = message.entries;
      claims = message.claims === undefined ? undefined : new Int32Array(message.claims);
      next = 0;
      ended = message.end;
    }
  };
  try {
    for (let entry = take(); entry !== undefined; entry = take()) {
      if (entry[0] === 'u') unreadable.push(entry[2]);
      else if (!visit(entry[1], entry[2], claims, next - 1)) {
        stop();
        return;
      }
    }
    send({ stoppedByLimit: false });
  } finally {
    // Tell the walker to stop; what it still sends for this walk is passed over by the next.
    Atomics.store(control, CONTROL_SLOTS.stop, 0);
    Atomics.notify(control, CONTROL_SLOTS.taken);
  }
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
  const id = (walkId += 1);
  const thread = frontier.length < 2 ? undefined : walker !== undefined && walkerPort !== undefined ? { walker, port: walkerPort } : startWalker();
  const taken = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  if (thread !== undefined) {
    const { type: _type, ...rest } = job;
    thread.walker.postMessage({ type: 'find', id, job: rest, folders: frontier, taken } satisfies WalkerFindJob);
  }
  walkShared(frontier, taken, context, state);
  if (thread !== undefined) {
    const answer = nextFromWalker(thread.port, id, (message) => message.found !== undefined)!;
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
    walk(job);
    reader?.releaseWholeBuffer();
  }
});
post({ type: 'ready' });
