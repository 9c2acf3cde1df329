/**
 * The search worker: a thread that matches lines, so a regular expression that never finishes
 * can be stopped by terminating it (`search-channel.ts` watches it). Chunks are text the main
 * thread read through the workspace; in disk mode (a local workspace only) files are read here
 * with synchronous calls, which cost far less than a thread-pool round trip per open, read and
 * close, while a walker thread of its own (`search-walker-thread.ts`) lists the folders. It
 * also runs `find_files`' walk. Started by `search-worker.ts`; never imported by the main thread.
 */
import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MessageChannel, parentPort, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { listFolder, listingContext, walkFolders, type ListingState } from './folder-listing.js';
import {
  CONTROL_SLOTS,
  READING,
  SHARE_FOLDERS,
  WORKER_CHUNK_BYTES,
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
  type WalkerMessage,
  type WorkerMessage,
} from './search-protocol.js';
import { BINARY_SIGNATURES, BINARY_SNIFF_BYTES } from './text.js';
import { workerScript } from './worker-script.js';

const port = parentPort!;
const post = (message: WorkerMessage): void => port.postMessage(message);
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);
let buffer: Buffer | undefined;
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
let needle: Buffer | undefined;

function init(message: SearchWorkerInit): void {
  ({ mode, maxMatchLineLength, maxFileBytes } = message);
  progress = new Int32Array(message.progress);
  pathBytes = Buffer.from(message.path);
  regex = new RegExp(message.source, message.flags);
  whole = message.prefilter ? new RegExp(message.source, `${message.flags}m`) : undefined;
  needle = message.literal === undefined ? undefined : Buffer.from(message.literal, 'utf8');
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
  const parts = text.split('\n');
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  for (let index = 0; index < parts.length; index += 1) {
    Atomics.store(progress, 1, base + index);
    let line = parts[index]!;
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

function match(chunk: SearchChunk): ChunkResult {
  Atomics.store(progress, 0, chunk.sequence);
  const result: MutableResult = { count: 0, lines: [] };
  matchText(chunk.text, chunk.startLine, 0, chunk.wanted, result);
  return result;
}

function describe(head: Buffer): FileVerdict | undefined {
  for (const signature of BINARY_SIGNATURES) {
    const offset = signature.offset ?? 0;
    if (head.length >= offset + signature.bytes.length && signature.bytes.every((byte, index) => head[offset + index] === byte)) return 'binary';
  }
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) return 'not-utf8';
  if (head.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return 'binary';
  return undefined;
}

function fill(fd: number, into: Buffer, position: number): number {
  let filled = 0;
  while (filled < into.length) {
    const read = fs.readSync(fd, into, filled, into.length - filled, position + filled);
    if (read === 0) break;
    filled += read;
  }
  return filled;
}

function countLines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}

/** The same steps as the main thread's chunked reading, with the verdict in the answer. */
function searchFile(absolute: string, wanted: number): MutableResult {
  Atomics.store(progress, 1, READING);
  const result: MutableResult = { count: 0, lines: [], verdict: 'text' };
  const fail = (verdict: FileVerdict): MutableResult => ({ count: 0, lines: [], verdict });
  let fd: number;
  try {
    fd = fs.openSync(absolute, OPEN_FLAGS);
  } catch {
    return fail('unreadable');
  }
  try {
    buffer ??= Buffer.allocUnsafe(WORKER_CHUNK_BYTES);
    let position = 0;
    let line = 0;
    let carry = '';
    let decoder: InstanceType<typeof TextDecoder> | undefined;
    for (;;) {
      Atomics.store(progress, 1, READING);
      const filled = fill(fd, buffer, position);
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
      let text: string;
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

/** The next message on the walker's port for walk `id` (older walks' leftovers passed over), waiting for it. */
function nextFromWalker(from: MessagePort, id: number, accept: (message: WalkerMessage) => boolean): WalkerMessage {
  for (;;) {
    const posted = Atomics.load(control, CONTROL_SLOTS.posted);
    const received = receiveMessageOnPort(from);
    if (received === undefined) {
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
  // Returns false once the limit is reached and another file is left, or the walk is handed off.
  const visit = (absolute: string, shown: string): boolean => {
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
  thread.walker.postMessage({ type: 'walk', id, start: job.start, skipped: job.skipped, include: job.include, shownPrefix, startShown });
  let queue: readonly WalkEntry[] = [];
  let next = 0;
  let ended = false;
  const take = (): WalkEntry | undefined => {
    for (;;) {
      if (next < queue.length) return queue[next++];
      if (ended) return undefined;
      const message = nextFromWalker(thread.port, id, (candidate) => candidate.found === undefined);
      if (message.found !== undefined) continue;
      queue = message.entries;
      next = 0;
      ended = message.end;
    }
  };
  try {
    for (let entry = take(); entry !== undefined; entry = take()) {
      if (entry[0] === 'u') unreadable.push(entry[2]);
      else if (!visit(entry[1], entry[2])) {
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
 * find_files: breadth first until there are enough folders to share, then each thread walks
 * half of them depth first; the walker's half comes back in one message.
 */
function find(job: FindJob): void {
  const context = listingContext(job);
  const state: ListingState = { walked: 0, files: [], unreadable: [] };
  let frontier: PendingFolder[] = [{ absolute: job.start, fromStart: '' }];
  while (frontier.length > 0 && frontier.length < SHARE_FOLDERS) {
    const next: PendingFolder[] = [];
    for (const folder of frontier) listFolder(folder, context, state, next);
    frontier = next;
  }
  const theirs = frontier.filter((_, index) => index % 2 === 1);
  const id = (walkId += 1);
  const thread = theirs.length === 0 ? undefined : walker !== undefined && walkerPort !== undefined ? { walker, port: walkerPort } : startWalker();
  if (thread !== undefined) {
    const { type: _type, ...rest } = job;
    thread.walker.postMessage({ type: 'find', id, job: rest, folders: theirs });
  }
  walkFolders(
    frontier.filter((_, index) => index % 2 === 0),
    context,
    state,
  );
  if (thread !== undefined) {
    const answer = nextFromWalker(thread.port, id, (message) => message.found !== undefined);
    if (answer.found === undefined) throw new Error('The find_files walker thread sent a batch instead of its answer.');
    if ('error' in answer && answer.error !== undefined) throw new Error(`The find_files walker thread failed: ${answer.error}`);
    state.walked += answer.found.walked;
    for (const file of answer.found.files) state.files.push([...file]);
    for (const folder of answer.found.unreadable) state.unreadable.push(folder);
  }
  post({ type: 'listed', ...state });
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
  else walk(job);
});
post({ type: 'ready' });
