import { Worker } from 'node:worker_threads';
import { BINARY_SIGNATURES, BINARY_SNIFF_BYTES } from './text.js';

/** Bytes the worker reads from a file at a time in disk mode; most files fit in one read (files are read whole up to this size). */
export const WORKER_CHUNK_BYTES = 1024 * 1024;

/** What the worker needs to match lines. */
export interface SearchWorkerInit {
  readonly source: string;
  readonly flags: string;
  readonly mode: 'files' | 'lines' | 'counts';
  readonly maxMatchLineLength: number;
  /** The whole-text test may skip a chunk with no match (see {@link canPrefilter}). */
  readonly prefilter: boolean;
  /** The pattern is a case-sensitive literal (see {@link literalOf}): files without its bytes are not decoded. */
  readonly literal: string | undefined;
  /** Disk mode: files over this many bytes are not read (answered `too-large`). */
  readonly maxFileBytes: number;
  /**
   * Where the worker says what it is doing, readable while it is stuck: slot 0 holds the
   * sequence number of the chunk (or file) it is matching, slot 1 the index of the line
   * within it (-1 during the whole-text test, {@link READING} while it reads a file), slot 2
   * (disk mode) the length of the path in `path`.
   */
  readonly progress: SharedArrayBuffer;
  /** Disk mode: the UTF-8 path of the file being matched, {@link PATH_BYTES} long. */
  readonly path: SharedArrayBuffer;
}

/** The progress marker while the worker reads a file in disk mode: not a regular expression stuck. */
export const READING = -2;

/** A piece of one file's text: whole lines, except that the last piece may end without `\n`. */
export interface SearchChunk {
  readonly type: 'chunk';
  /** Numbers chunks in the order they are sent, so the watchdog can tell which one is stuck. */
  readonly sequence: number;
  readonly startLine: number;
  readonly text: string;
  /** Most matching lines wanted back (mode `lines`). */
  readonly wanted: number;
}

/**
 * Disk mode: the worker's walker thread walks the tree (links never followed, skipped folders
 * not entered, entries in name order, as `walkFiles` does) while the worker reads each file
 * and matches it, and stops once `limit` files (mode `lines`: lines) matched.
 */
export interface SearchWalkJob {
  readonly type: 'walk';
  /** Canonical absolute path of the folder (or file) to search. */
  readonly start: string;
  readonly startIsFile: boolean;
  /** The workspace root, for the paths shown. */
  readonly root: string;
  readonly skipped: readonly string[];
  /** The include glob as {@link compileGlob} reads it, compiled to a regular expression. */
  readonly include: IncludePattern | undefined;
  readonly limit: number;
  /**
   * The files to search, in this order, instead of walking: `[absolute path, path shown]`.
   * Used when ripgrep already picked the files that may match.
   */
  readonly files?: readonly (readonly [string, string])[];
  /**
   * Hand the rest of the walk to ripgrep when matches are sparse: after `probeFiles` text
   * files, if reaching the limit at the rate seen so far would take more than
   * `maxProjectedFiles`, the walk stops there (see {@link FoundMessage.end}).
   */
  readonly handOff?: { readonly probeFiles: number; readonly maxProjectedFiles: number };
}

/**
 * `find_files` on a local workspace: the worker walks the tree itself with synchronous calls
 * (links listed, never followed; skipped folders not entered) and answers with the files
 * `include` matches, their modification times and, for links, their targets.
 */
export interface FindJob {
  readonly type: 'find';
  /** Canonical absolute path of the folder to walk. */
  readonly start: string;
  /** The workspace root, for the paths shown. */
  readonly root: string;
  readonly skipped: readonly string[];
  readonly include: IncludePattern;
}

/** The worker's answer to a {@link FindJob}. */
export interface FindAnswer {
  readonly type: 'listed';
  /** Files (and links) looked at. */
  readonly walked: number;
  /** `[path shown, modification time in ms, link target or undefined]`, in no particular order. */
  readonly files: readonly (readonly [string, number, string | undefined])[];
  /** Folders that could not be listed, relative to the workspace root. */
  readonly unreadable: readonly string[];
}

/** An include glob for the worker: it matches when the path equals `glob` or `regex` matches the path (or, with `basename`, the file name). */
export interface IncludePattern {
  readonly glob: string;
  readonly source: string;
  readonly flags: string;
  readonly basename: boolean;
}

/** A file the disk-mode worker reports: one that matched or that it did not search. */
export interface FoundFile {
  /** Relative to the workspace root. */
  readonly path: string;
  readonly verdict: FileVerdict;
  readonly count: number;
  readonly lines: readonly (readonly [number, string])[];
}

/** Disk mode: what the worker found since its last message. */
export interface FoundMessage {
  readonly type: 'found';
  /** Text files searched since the last message. */
  readonly searched: number;
  readonly files: readonly FoundFile[];
  /** Folders that could not be listed, relative to the workspace root. */
  readonly unreadable: readonly string[];
  /**
   * Set on the last message: whether files were left unsearched because the limit was
   * reached, and, when the walk was handed off, the last file searched (every file before it
   * in walk order was searched too, and none after it).
   */
  readonly end?: { readonly stoppedByLimit: boolean; readonly handedOffAfter?: string };
}

/** What a file turned out to be; only `text` files were searched. */
export type FileVerdict = 'text' | 'binary' | 'not-utf8' | 'too-large' | 'unreadable';

/** The worker's answer for one chunk or file. */
export interface ChunkResult {
  /** Lines of the chunk that match. In mode `files` the worker stops at the first. */
  readonly count: number;
  /** Mode `lines`: `[line number, text cut around the match]`, at most `wanted`. */
  readonly lines: readonly (readonly [number, string])[];
  /** File jobs only. */
  readonly verdict?: FileVerdict;
}

/** Messages the worker sends: `results` answer the jobs in the order they were sent (a batch may be answered in parts). */
export type WorkerMessage = { readonly type: 'ready' } | { readonly type: 'results'; readonly results: readonly ChunkResult[] } | FoundMessage | FindAnswer;

/** Bytes of shared memory where the disk-mode worker writes the path of the file it is matching, for the watchdog. */
export const PATH_BYTES = 16 * 1024;

/**
 * What the search worker and its walker thread share for `find_files` (and the include
 * check), pasted into both as plain JavaScript: listing one folder (links listed, never
 * followed; skipped folders not entered), with modification times and link targets of the
 * files `include` matches.
 */
const FIND_SOURCE = String.raw`
function includer(include) {
  if (include === undefined) return () => true;
  const regex = new RegExp(include.source, include.flags);
  return (fromStart) => fromStart === include.glob || regex.test(include.basename ? fromStart.slice(fromStart.lastIndexOf('/') + 1) : fromStart);
}

function findContext(job) {
  return {
    skipped: new Set(job.skipped),
    included: includer(job.include),
    display: (absolute) => path.relative(job.root, absolute).split(path.sep).join('/') || '.',
  };
}

// Lists one folder into state ({ walked, files, unreadable }); its subfolders go on pending.
function listFolder(folder, context, state, pending) {
  let listed;
  try {
    listed = fs.readdirSync(folder.absolute, { withFileTypes: true });
  } catch {
    state.unreadable.push(context.display(folder.absolute));
    return;
  }
  const prefix = folder.fromStart === '' ? '' : folder.fromStart + '/';
  for (const entry of listed) {
    const absolute = folder.absolute + path.sep + entry.name;
    if (entry.isDirectory()) {
      if (!context.skipped.has(entry.name)) pending.push({ absolute, fromStart: prefix + entry.name });
      continue;
    }
    const link = entry.isSymbolicLink();
    if (!link && !entry.isFile()) continue;
    state.walked += 1;
    if (!context.included(prefix + entry.name)) continue;
    // Gone since the listing, or out of reach (a path over PATH_MAX, a folder listed but not
    // entered): left out, as find_files' walk through the workspace does.
    let stats;
    try {
      stats = fs.lstatSync(absolute, { throwIfNoEntry: false });
    } catch {
      continue;
    }
    if (stats === undefined) continue;
    let target;
    if (link) {
      try {
        target = fs.readlinkSync(absolute);
      } catch {
        target = '?';
      }
    }
    state.files.push([context.display(absolute), stats.mtimeMs, target]);
  }
}

// Walks folders and everything below them, depth first.
function walkFolders(folders, context, state) {
  const pending = folders.slice();
  while (pending.length > 0) listFolder(pending.pop(), context, state, pending);
}
`;

/** Folders `find_files` lists breadth first before the search worker shares the walk with its walker thread. */
const SHARE_FOLDERS = 64;

/**
 * The worker's code, plain JavaScript run with `eval: true`, so it works the same from the
 * TypeScript sources, the built package and a bundler (no worker file to locate). It imports
 * only Node's built-in modules. Chunks are text the main thread read through the workspace;
 * in disk mode (a local workspace only) files are read here with synchronous calls, which
 * cost far less than a thread-pool round trip per open, read and close, while a walker
 * thread of its own lists the folders.
 */
const SEARCH_WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { isUtf8 } = require('node:buffer');
const { signatures, sniffBytes, chunkBytes, reading } = workerData;
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);
let buffer;
const { receiveMessageOnPort, MessageChannel, Worker } = require('node:worker_threads');
// Slots of the control memory shared with the walker: batches it posted, batches taken here, the walk it may continue.
const POSTED_SLOT = 0, TAKEN_SLOT = 1, STOP_SLOT = 2;
const control = new Int32Array(new SharedArrayBuffer(12));
// Started at the first walk (a search through a non-local workspace needs none).
let walker, walkerPort;
let walkId = 0;

function startWalker() {
  const channel = new MessageChannel();
  walkerPort = channel.port1;
  walker = new Worker(workerData.walkerSource, { eval: true, workerData: { port: channel.port2, control: control.buffer }, transferList: [channel.port2] });
  walker.unref();
}
// Set by each search's init message: a worker is reused by the next search once one ends normally.
let mode, maxMatchLineLength, maxFileBytes, progress, pathBytes, regex, whole, needle;

function init(message) {
  ({ mode, maxMatchLineLength, maxFileBytes } = message);
  progress = new Int32Array(message.progress);
  pathBytes = Buffer.from(message.path);
  regex = new RegExp(message.source, message.flags);
  whole = message.prefilter ? new RegExp(message.source, message.flags + 'm') : undefined;
  needle = message.literal === undefined ? undefined : Buffer.from(message.literal, 'utf8');
  parentPort.postMessage({ type: 'ready' });
}

function cut(line, index) {
  if (line.length <= maxMatchLineLength) return line;
  const before = Math.floor(maxMatchLineLength / 4);
  const start = Math.max(0, Math.min(index - before, line.length - maxMatchLineLength));
  const end = Math.min(line.length, start + maxMatchLineLength);
  const shown = (start > 0 ? '…' : '') + line.slice(start, end) + (end < line.length ? '…' : '');
  return shown + ' [line of ' + line.length.toLocaleString('en-US') + ' characters cut around the match]';
}

// Matches the lines of text, numbered from startLine; progress slot 1 counts from base.
function matchText(text, startLine, base, wanted, result) {
  Atomics.store(progress, 1, -1);
  if (whole && !whole.test(text)) return;
  const parts = text.split('\n');
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  for (let index = 0; index < parts.length; index += 1) {
    Atomics.store(progress, 1, base + index);
    let line = parts[index];
    if (line.endsWith('\r')) line = line.slice(0, -1);
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

function match(chunk) {
  Atomics.store(progress, 0, chunk.sequence);
  const result = { count: 0, lines: [] };
  matchText(chunk.text, chunk.startLine, 0, chunk.wanted, result);
  return result;
}

function describe(head) {
  for (const signature of signatures) {
    const offset = signature.offset ?? 0;
    if (head.length >= offset + signature.bytes.length && signature.bytes.every((byte, index) => head[offset + index] === byte)) return 'binary';
  }
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) return 'not-utf8';
  if (head.subarray(0, sniffBytes).includes(0)) return 'binary';
  return undefined;
}

function fill(fd, position) {
  let filled = 0;
  while (filled < buffer.length) {
    const read = fs.readSync(fd, buffer, filled, buffer.length - filled, position + filled);
    if (read === 0) break;
    filled += read;
  }
  return filled;
}

function countLines(text) {
  let count = 0;
  let index = text.indexOf('\n');
  while (index !== -1) {
    count += 1;
    index = text.indexOf('\n', index + 1);
  }
  return count;
}

// The same steps as the main thread's chunked reading, with the verdict in the answer.
function searchFile(absolute, wanted) {
  Atomics.store(progress, 1, reading);
  const result = { count: 0, lines: [], verdict: 'text' };
  const fail = (verdict) => ({ count: 0, lines: [], verdict });
  let fd;
  try {
    fd = fs.openSync(absolute, OPEN_FLAGS);
  } catch {
    return fail('unreadable');
  }
  try {
    buffer ??= Buffer.allocUnsafe(chunkBytes);
    let position = 0;
    let line = 0;
    let carry = '';
    let decoder;
    for (;;) {
      Atomics.store(progress, 1, reading);
      const filled = fill(fd, position);
      const bytes = buffer.subarray(0, filled);
      const complete = filled < buffer.length;
      // Most files fit in the first read, which gives their size without a stat.
      if (position === 0 && (complete ? filled : fs.fstatSync(fd).size) > maxFileBytes) return fail('too-large');
      if (position === 0) {
        const kind = describe(bytes);
        if (kind !== undefined) return fail(kind);
      }
      if (bytes.includes(0)) return fail('binary');
      if (position + filled > maxFileBytes) return fail('too-large');
      let text;
      if (position === 0 && complete) {
        // The whole file in one read (the usual case): validated and, for a literal, looked for as bytes first.
        if (!isUtf8(bytes)) return fail('not-utf8');
        if (needle !== undefined && bytes.indexOf(needle) === -1) return result;
        text = bytes.toString('utf8');
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      } else {
        decoder ??= new TextDecoder('utf-8', { fatal: true });
        try {
          text = decoder.decode(bytes, { stream: !complete });
        } catch {
          return fail('not-utf8');
        }
        if (position === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      position += filled;
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
    }
  } catch {
    return fail('unreadable');
  } finally {
    fs.closeSync(fd);
  }
}

/** Milliseconds between progress messages while nothing else is worth sending. */
const PROGRESS_MS = 25;

function walk(job) {
  const display = (absolute) => {
    const relative = path.relative(job.root, absolute);
    return relative === '' ? '.' : relative.split(path.sep).join('/');
  };
  // Paths below the start are shown as the start's path and the path from it.
  const startShown = display(job.start);
  const shownPrefix = startShown === '.' ? '' : startShown + '/';
  let searched = 0;
  let files = [];
  let unreadable = [];
  let lastPost = Date.now();
  const post = (end) => {
    parentPort.postMessage({ type: 'found', searched, files, unreadable, ...(end === undefined ? {} : { end }) });
    searched = 0;
    files = [];
    unreadable = [];
    lastPost = Date.now();
  };
  let committed = 0;
  let sequence = 0;
  let textFiles = 0;
  let handedOffAfter;
  // Returns false once the limit is reached and another file is left, or the walk is handed off.
  const visit = (absolute, shown) => {
    if (committed >= job.limit) return false;
    Atomics.store(progress, 0, sequence++);
    Atomics.store(progress, 2, pathBytes.write(shown, 0));
    const result = searchFile(absolute, job.limit - committed);
    if (result.verdict === 'text') {
      searched += 1;
      textFiles += 1;
      if (result.count > 0) committed += mode === 'lines' ? result.lines.length : 1;
      // Sparse matches: ripgrep reaches the rest sooner than this walk would.
      if (job.handOff !== undefined && textFiles === job.handOff.probeFiles && committed < job.limit) {
        const projected = committed === 0 ? Infinity : (textFiles * job.limit) / committed;
        if (projected > job.handOff.maxProjectedFiles) handedOffAfter = shown;
      }
    }
    // A match or a file passed over goes out at once, so it is not lost if a later file gets the worker stuck.
    if (result.count > 0 || result.verdict !== 'text') {
      files.push({ path: shown, verdict: result.verdict, count: result.count, lines: result.lines });
      post();
    } else if (Date.now() - lastPost > PROGRESS_MS) post();
    return handedOffAfter === undefined;
  };
  // Why visit() said stop: the limit, or a hand-off.
  const stop = () => post(handedOffAfter === undefined ? { stoppedByLimit: true } : { stoppedByLimit: false, handedOffAfter });
  if (job.startIsFile) {
    visit(job.start, startShown);
    return post({ stoppedByLimit: false });
  }
  if (job.files !== undefined) {
    for (const [absolute, shown] of job.files) if (!visit(absolute, shown)) return post({ stoppedByLimit: true });
    return post({ stoppedByLimit: false });
  }
  // The walker thread lists folders while this one reads and matches: two cores, and the
  // order stays the walk's. Entries come in batches: ['f', absolute, shown] or ['u', '', shown].
  if (walker === undefined) startWalker();
  const id = (walkId += 1);
  Atomics.store(control, STOP_SLOT, id);
  walker.postMessage({ id, start: job.start, skipped: job.skipped, include: job.include, shownPrefix, startShown });
  let queue = [];
  let next = 0;
  let ended = false;
  const take = () => {
    for (;;) {
      if (next < queue.length) return queue[next++];
      if (ended) return undefined;
      const posted = Atomics.load(control, POSTED_SLOT);
      const received = receiveMessageOnPort(walkerPort);
      if (received === undefined) {
        Atomics.store(progress, 1, reading);
        Atomics.wait(control, POSTED_SLOT, posted, 100);
        continue;
      }
      Atomics.add(control, TAKEN_SLOT, 1);
      Atomics.notify(control, TAKEN_SLOT);
      const message = received.message;
      if (message.id !== id) continue;
      queue = message.entries;
      next = 0;
      ended = message.end;
    }
  };
  try {
    for (let entry = take(); entry !== undefined; entry = take()) {
      if (entry[0] === 'u') unreadable.push(entry[2]);
      else if (!visit(entry[1], entry[2])) return stop();
    }
    post({ stoppedByLimit: false });
  } finally {
    // Tell the walker to stop; what it still sends for this walk is passed over by the next.
    Atomics.store(control, STOP_SLOT, 0);
    Atomics.notify(control, TAKEN_SLOT);
  }
}

${FIND_SOURCE}

/** Folders listed breadth first before the walk is shared with the walker thread. */
const SHARE_FOLDERS = ${SHARE_FOLDERS};

// find_files: breadth first until there are enough folders to share, then each thread walks
// half of them depth first; the walker's half comes back in one message.
function find(job) {
  const context = findContext(job);
  const state = { walked: 0, files: [], unreadable: [] };
  let frontier = [{ absolute: job.start, fromStart: '' }];
  while (frontier.length > 0 && frontier.length < SHARE_FOLDERS) {
    const next = [];
    for (const folder of frontier) listFolder(folder, context, state, next);
    frontier = next;
  }
  const theirs = frontier.filter((_, index) => index % 2 === 1);
  const id = (walkId += 1);
  if (theirs.length > 0) {
    if (walker === undefined) startWalker();
    walker.postMessage({ type: 'find', id, job, folders: theirs });
  }
  walkFolders(frontier.filter((_, index) => index % 2 === 0), context, state);
  if (theirs.length > 0) {
    const other = waitForWalker(id);
    state.walked += other.walked;
    for (const file of other.files) state.files.push(file);
    for (const folder of other.unreadable) state.unreadable.push(folder);
  }
  parentPort.postMessage({ type: 'listed', ...state });
}

// The walker's answer to find job id; batches left over from an earlier walk are passed over.
function waitForWalker(id) {
  for (;;) {
    const posted = Atomics.load(control, POSTED_SLOT);
    const received = receiveMessageOnPort(walkerPort);
    if (received === undefined) {
      Atomics.wait(control, POSTED_SLOT, posted, 100);
      continue;
    }
    Atomics.add(control, TAKEN_SLOT, 1);
    Atomics.notify(control, TAKEN_SLOT);
    const message = received.message;
    if (message.id !== id || message.found === undefined) continue;
    if (message.error !== undefined) throw new Error('The find_files walker thread failed: ' + message.error);
    return message.found;
  }
}

// Answers go out in order; a result worth keeping (a match, a file passed over) goes out at once
// with those before it, so it is not lost if a later file gets the worker stuck and terminated.
parentPort.on('message', (batch) => {
  if (batch.type === 'init') return init(batch);
  if (batch.type === 'find') return find(batch);
  if (!Array.isArray(batch)) return walk(batch);
  let results = [];
  for (const job of batch) {
    const result = match(job);
    results.push(result);
    if (result.count > 0 || (result.verdict !== undefined && result.verdict !== 'text')) {
      parentPort.postMessage({ type: 'results', results });
      results = [];
    }
  }
  if (results.length > 0) parentPort.postMessage({ type: 'results', results });
});
parentPort.postMessage({ type: 'ready' });
`;

/** Batches of files the walker may send ahead of the reading (memory stays bounded on a huge tree). */
const WALK_BATCHES_AHEAD = 64;
/** Files in one of the walker's batches, about. */
const WALK_BATCH_ENTRIES = 256;

/**
 * The walker, a thread the search worker starts: it lists folders (links never followed,
 * skipped folders not entered, entries in name order, files before subfolders) and sends
 * the files to search in batches, at most {@link WALK_BATCHES_AHEAD} ahead of the reading.
 */
const WALKER_SOURCE = String.raw`
const { workerData, parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { port } = workerData;
const control = new Int32Array(workerData.control);
const POSTED_SLOT = 0, TAKEN_SLOT = 1, STOP_SLOT = 2;
const AHEAD = ${WALK_BATCHES_AHEAD};
const BATCH = ${WALK_BATCH_ENTRIES};

${FIND_SOURCE}

function byName(a, b) {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

// find_files: the folders the search worker shared, walked here; the answer goes back in one message.
function find(message) {
  const state = { walked: 0, files: [], unreadable: [] };
  // Always answer, or the search worker would wait for ever: an error goes back to be thrown there.
  try {
    walkFolders(message.folders, findContext(message.job), state);
    port.postMessage({ id: message.id, found: state });
  } catch (error) {
    port.postMessage({ id: message.id, found: state, error: String(error?.stack ?? error) });
  }
  Atomics.add(control, POSTED_SLOT, 1);
  Atomics.notify(control, POSTED_SLOT);
}

parentPort.on('message', (job) => {
  if (job.type === 'find') return find(job);
  const stopped = () => Atomics.load(control, STOP_SLOT) !== job.id;
  const skipped = new Set(job.skipped);
  const included = includer(job.include);
  let entries = [];
  let sent = 0;
  const send = (end) => {
    for (;;) {
      const taken = Atomics.load(control, TAKEN_SLOT);
      if (Atomics.load(control, POSTED_SLOT) - taken < AHEAD || stopped()) break;
      Atomics.wait(control, TAKEN_SLOT, taken, 100);
    }
    port.postMessage({ id: job.id, entries, end });
    entries = [];
    sent += 1;
    Atomics.add(control, POSTED_SLOT, 1);
    Atomics.notify(control, POSTED_SLOT);
  };
  const pending = [{ absolute: job.start, fromStart: '' }];
  while (pending.length > 0 && !stopped()) {
    const folder = pending.pop();
    let listed;
    try {
      listed = fs.readdirSync(folder.absolute, { withFileTypes: true });
    } catch {
      entries.push(['u', '', folder.fromStart === '' ? job.startShown : job.shownPrefix + folder.fromStart]);
      continue;
    }
    listed.sort(byName);
    const prefix = folder.fromStart === '' ? '' : folder.fromStart + '/';
    const subfolders = [];
    for (const entry of listed) {
      if (entry.isDirectory()) {
        if (!skipped.has(entry.name)) subfolders.push({ absolute: folder.absolute + path.sep + entry.name, fromStart: prefix + entry.name });
      } else if (entry.isFile()) {
        const fromStart = prefix + entry.name;
        if (included(fromStart)) entries.push(['f', folder.absolute + path.sep + entry.name, job.shownPrefix + fromStart]);
      }
    }
    for (let index = subfolders.length - 1; index >= 0; index -= 1) pending.push(subfolders[index]);
    // Small batches first, so reading starts at once; larger ones after.
    if (entries.length >= (sent < 4 ? 16 : BATCH)) send(false);
  }
  send(true);
});
`;

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
    worker = new Worker(SEARCH_WORKER_SOURCE, {
      eval: true,
      workerData: {
        signatures: BINARY_SIGNATURES,
        sniffBytes: BINARY_SNIFF_BYTES,
        chunkBytes: WORKER_CHUNK_BYTES,
        reading: READING,
        walkerSource: WALKER_SOURCE,
      },
    });
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

/**
 * The text a pattern matches exactly, when it is a case-sensitive literal (no regular
 * expression syntax, no `i` flag): a file whose bytes do not contain it cannot match, so the
 * worker skips decoding and splitting it. `undefined` otherwise.
 */
export function literalOf(source: string, flags: string): string | undefined {
  if (flags.includes('i') || source.length === 0) return undefined;
  return /^[^\\^$.|?*+()[\]{}\n\r]+$/.test(source) ? source : undefined;
}
