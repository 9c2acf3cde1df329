import type { Dirent, Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import type { SpawnedProcess, SpawnProcessOptions } from '../spawned-process.js';
import { ROOT_ELSEWHERE, Workspace, type AtomicWriteOptions, type ResolvedPath, type ResolveOptions, type WorkspaceCapabilities } from '../workspace.js';
import type { RemoteConnection } from './connection.js';
import type { FileToolStep, FileUndoStep, InPlaceSearchRequest, SearchOutcome, StepAnswer, StepProgress } from '../in-place.js';
import { DEFAULT_SEARCH_TIMEOUT_MS } from '../in-place.js';
import { OPEN_PREFETCH_BYTES, type InitializeResult, type WireSearchRequest } from './protocol.js';
import type { SpawnParams, WireJob, WorkspaceJobs } from '../workspace-jobs.js';
import { RemoteProcesses } from './remote-process.js';
import { decodeDirent, decodeStats, decodeError } from './wire-values.js';
import { ResponseError } from 'vscode-jsonrpc/node';
import { INPUT_PIECE_CHARACTERS, RemoteErrorCode, type WireStepAnswer } from './protocol.js';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Bytes of one piece when a whole file comes over the connection: about 1.4 MB of JSON, decoded in a few milliseconds. */
const READ_PIECE_BYTES = 1024 * 1024;

/**
 * A {@link Workspace} whose files and programs are in a box, reached over a
 * {@link RemoteConnection} to `agent-toolbelt serve-workspace`. Every method is one request
 * to the box, where the same local `Workspace` code does the work: paths are resolved and
 * jailed by the box's kernel paths, never here; writes are atomic there; processes start
 * there, in their own process group, and are stopped there tree and all. Made by
 * {@link connectWorkspace}; collections take it unchanged.
 */
export class RemoteWorkspace extends Workspace {
  readonly #connection: RemoteConnection;
  readonly #info: InitializeResult;
  readonly #processes: RemoteProcesses;
  /** Listeners of `tools/run` steps that report progress, by the id sent with the step. */
  readonly #progress = new Map<number, (update: StepProgress) => void>();
  #nextProgressId = 1;
  #nextUpload = 1;
  /** Background jobs in the box (see {@link WorkspaceJobs}). */
  readonly jobs: WorkspaceJobs;

  /** Use {@link connectWorkspace}. */
  constructor(connection: RemoteConnection, info: InitializeResult) {
    super(info.root, ROOT_ELSEWHERE);
    this.#connection = connection;
    this.#info = info;
    this.#processes = new RemoteProcesses(connection);
    connection.onNotification('tools/progress', ({ id, update }) => this.#progress.get(id)?.(update));
    this.jobs = {
      start: (sessionId, options) => connection.request('jobs/start', { sessionId, label: options.label, spawn: options.spawn, maxRuntimeMs: options.maxRuntimeMs }),
      list: (sessionId) => connection.request('jobs/list', { sessionId }),
      read: async (sessionId, id, position, length = 1024 * 1024) => {
        const answer = await connection.request('jobs/read', { sessionId, id, position, length });
        return { job: answer.job, data: Buffer.from(answer.data, 'base64') };
      },
      stop: (sessionId, id) => connection.request('jobs/stop', { sessionId, id }),
    };
  }

  override get description(): string {
    return `the folder ${this.root} in a remote box (${this.#info.hostname}, Node.js ${this.#info.node}${this.#info.sandbox === null ? '' : ', programs under bubblewrap'}), reached through ${this.#connection.description}`;
  }

  override get capabilities(): WorkspaceCapabilities {
    return { readsLocalDisk: false, listsLocalDisk: false, spawnsLocally: false, runsFileToolsInPlace: true };
  }

  /** What the box told at connect time: its Node.js, platform, programs, server version. */
  get box(): InitializeResult {
    return this.#info;
  }

  /** Requests sent to the box so far, the handshake included: a file tool call costs one. For tests and diagnostics. */
  get requestCount(): number {
    return this.#connection.requestCount;
  }

  /** The reason the connection is gone, or `undefined` while it works. */
  get lost(): Error | undefined {
    return this.#connection.lost;
  }

  override processEnvironment(): Readonly<Record<string, string | undefined>> {
    return this.#info.environment;
  }

  override findProgram(name: string): string | undefined {
    const found = this.#info.programs[name];
    if (typeof found === 'string') return found;
    return name.includes('/') ? name : undefined;
  }

  override async close(): Promise<void> {
    await this.#connection.close();
  }

  override async resolve(input: string, options: ResolveOptions = {}): Promise<ResolvedPath> {
    return this.#connection.request('workspace/resolve', { path: input, ...(options.followFinalLink === undefined ? {} : { followFinalLink: options.followFinalLink }) });
  }

  override async resolveFile(input: string, options: ResolveOptions = {}): Promise<ResolvedPath & { stats: Stats }> {
    const answer = await this.#connection.request('workspace/resolveFile', {
      path: input,
      ...(options.followFinalLink === undefined ? {} : { followFinalLink: options.followFinalLink }),
    });
    return { absolute: answer.absolute, relative: answer.relative, exists: answer.exists, stats: decodeStats(answer.stats) };
  }

  override async resolveDirectory(input: string): Promise<ResolvedPath> {
    return this.#connection.request('workspace/resolveDirectory', { path: input });
  }

  override async privateDir(...segments: string[]): Promise<string> {
    return this.#connection.request('workspace/privateDir', { segments });
  }

  override async lstatOrUndefined(absolute: string): Promise<Stats | undefined> {
    const stats = await this.#connection.request('fs/lstat', { path: absolute });
    return stats === null ? undefined : decodeStats(stats);
  }

  override async statOrUndefined(absolute: string): Promise<Stats | undefined> {
    const stats = await this.#connection.request('fs/stat', { path: absolute });
    return stats === null ? undefined : decodeStats(stats);
  }

  /**
   * The whole file, from one open file in the box (so the bytes are of one version even if
   * the file is replaced meanwhile): a file up to 1 MB in one request, a larger one in 1 MB
   * pieces, so that no single message holds the caller's event loop long while it is decoded.
   */
  override async readFile(absolute: string): Promise<Buffer> {
    const connection = this.#connection;
    const opened = await connection.request('fs/open', { path: absolute, prefetch: READ_PIECE_BYTES, closeIfWhole: true });
    const head = Buffer.from(opened.head, 'base64');
    const handle = opened.handle;
    if (handle === null) return head;
    try {
      const pieces = [head];
      let position = head.length;
      for (;;) {
        const piece = Buffer.from(await connection.request('fs/read', { handle, position, length: READ_PIECE_BYTES }), 'base64');
        if (piece.length > 0) pieces.push(piece);
        position += piece.length;
        if (piece.length < READ_PIECE_BYTES) break;
      }
      return Buffer.concat(pieces);
    } finally {
      void connection.request('fs/close', { handle }).catch(() => undefined);
    }
  }

  /**
   * A file open in the box, with the three `FileHandle` methods the tools use (`read`,
   * `stat`, `close`). Opening brings the stats and the first 64 KB along, so reading a small
   * file (or the first page of a large one) and its `stat` cost no further round trip; a read
   * beyond is one request, and `close` is sent without waiting for its answer.
   */
  override async open(absolute: string): Promise<FileHandle> {
    const connection = this.#connection;
    const opened = await connection.request('fs/open', { path: absolute, prefetch: OPEN_PREFETCH_BYTES });
    if (opened.handle === null) throw new TypeError('The workspace server closed a file it was asked to keep open.');
    const handle = opened.handle;
    const head = Buffer.from(opened.head, 'base64');
    // Fewer bytes than asked for: the head is the whole file (as it was when opened).
    const headIsWhole = head.length < OPEN_PREFETCH_BYTES;
    const stats = decodeStats(opened.stats);
    let closed = false;
    const file = {
      async read(buffer: Buffer, offset: number, length: number, position: number) {
        if (position + length <= head.length || (headIsWhole && position <= head.length)) {
          const copied = head.copy(buffer, offset, position, Math.min(head.length, position + length));
          return { bytesRead: copied, buffer };
        }
        const data = Buffer.from(await connection.request('fs/read', { handle, position, length }), 'base64');
        data.copy(buffer, offset);
        return { bytesRead: data.length, buffer };
      },
      async stat() {
        return stats;
      },
      async close() {
        if (closed) return;
        closed = true;
        // Not waited for; a lost connection closed the file in the box already.
        void connection.request('fs/close', { handle }).catch(() => undefined);
      },
    };
    return file as unknown as FileHandle;
  }

  /** A new file in the box, written chunk by chunk: each chunk is one request, the next waits for its answer. */
  override async createFileStream(absolute: string): Promise<Writable> {
    const connection = this.#connection;
    const { handle } = await connection.request('fs/create', { path: absolute });
    return new Writable({
      highWaterMark: 256 * 1024,
      write(chunk: Buffer, _encoding, callback) {
        connection.request('fs/append', { handle, data: chunk.toString('base64') }).then(() => callback(), callback);
      },
      final(callback) {
        connection.request('fs/finish', { handle }).then(() => callback(), callback);
      },
    });
  }

  override async list(absolute: string): Promise<Dirent[]> {
    const entries = await this.#connection.request('fs/list', { path: absolute });
    return entries.map((entry) => decodeDirent(entry, absolute));
  }

  override async makeDirectory(absolute: string): Promise<void> {
    await this.#connection.request('fs/makeDirectory', { path: absolute });
  }

  override readLink(absolute: string): Promise<string> {
    return this.#connection.request('fs/readLink', { path: absolute });
  }

  override async createSymlink(target: string, absolute: string): Promise<void> {
    await this.#connection.request('fs/createSymlink', { target, path: absolute });
  }

  override async remove(absolute: string): Promise<void> {
    await this.#connection.request('fs/remove', { path: absolute });
  }

  override async renameExclusive(from: string, to: string): Promise<void> {
    await this.#connection.request('fs/renameExclusive', { from, to });
  }

  override async writeFileAtomic(absolute: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const encoded = bytes.toString('base64');
    const upload = encoded.length > INPUT_PIECE_CHARACTERS ? await this.#upload(encoded) : undefined;
    await this.#connection.request('fs/writeFileAtomic', {
      path: absolute,
      data: upload === undefined ? encoded : '',
      ...(upload === undefined ? {} : { upload }),
      ...(options.exclusive === undefined ? {} : { exclusive: options.exclusive }),
      ...(options.mode === undefined ? {} : { mode: options.mode }),
    });
  }

  /**
   * Runs search_files' engine in the box, in one request (the `SearchesInPlace` capability
   * that `runSearch` looks for): the walk, the reads, ripgrep when the box has it, and the
   * regular-expression worker all run next to the files. Cancelling the call cancels it there.
   */
  async searchInPlace(request: InPlaceSearchRequest): Promise<SearchOutcome> {
    const { workspace: _workspace, ...options } = request.options;
    const wire: WireSearchRequest = {
      target: request.target,
      targetIsFile: request.targetIsFile,
      pattern: { source: request.pattern.source, flags: request.pattern.flags },
      mode: request.mode,
      limit: request.limit,
      ...(request.includeGlob === undefined ? {} : { includeGlob: request.includeGlob }),
      options,
    };
    // The box stops the search at its own timeout; the request waits a little longer than that.
    return (await this.#connection.request('files/search', wire, { signal: request.signal, timeoutMs: request.options.searchTimeoutMs + 30_000 })) as SearchOutcome;
  }

  /**
   * Runs one file tool step in the box (the `RunsFileToolsInPlace` capability the file
   * collections look for): the box's server runs the same tool over its local workspace, so a
   * tool call is this one request. Cancelling `signal` cancels it there; progress the tool
   * reports comes back as notifications before the answer.
   */
  async runFileToolStep(step: FileToolStep, options: { readonly signal?: AbortSignal; readonly onProgress?: (update: StepProgress) => void } = {}): Promise<StepAnswer> {
    const progressId = options.onProgress === undefined ? undefined : this.#nextProgressId++;
    if (progressId !== undefined) this.#progress.set(progressId, options.onProgress!);
    const sent = await this.#sendLongInputs(step);
    // A search stops at its own timeout in the box; its request waits a little longer than that.
    const searchTimeoutMs = step.tool === 'search_files' ? Number(step.options.searchTimeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS) + 30_000 : undefined;
    try {
      const answer = await this.#connection.request('tools/run', { ...sent, ...(progressId === undefined ? {} : { progressId }) }, {
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(searchTimeoutMs === undefined ? {} : { timeoutMs: searchTimeoutMs }),
      });
      return decodeAnswer(answer);
    } finally {
      if (progressId !== undefined) this.#progress.delete(progressId);
    }
  }

  /**
   * Sends each long string of the step's input ahead in pieces (`upload/piece`
   * notifications, one event-loop turn each), so that a 4 MB `write_file` never makes one
   * message whose encoding holds this process's event loop; the step names the uploads.
   */
  async #sendLongInputs(step: FileToolStep): Promise<FileToolStep & { pieces?: Record<string, number> }> {
    const long = Object.entries(step.input).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].length > INPUT_PIECE_CHARACTERS);
    if (long.length === 0) return step;
    const input: Record<string, unknown> = { ...step.input };
    const pieces: Record<string, number> = {};
    for (const [field, text] of long) {
      input[field] = '';
      pieces[field] = await this.#upload(text);
    }
    return { ...step, input, pieces };
  }

  /** Sends a long string ahead as `upload/piece` notifications, one event-loop turn each; returns the upload id a request names. */
  async #upload(text: string): Promise<number> {
    const upload = this.#nextUpload++;
    // Code units are cut as they are: JSON carries a lone surrogate escaped, and the box joins the pieces back exactly.
    for (let start = 0; start < text.length; start += INPUT_PIECE_CHARACTERS) {
      this.#connection.notify('upload/piece', { upload, text: text.slice(start, start + INPUT_PIECE_CHARACTERS) });
      await nextTurn();
    }
    return upload;
  }

  /** Runs `files.undo(session)` in the box, in one request. */
  async undoFileToolsInPlace(step: FileUndoStep): Promise<StepAnswer> {
    return decodeAnswer(await this.#connection.request('tools/undo', step));
  }

  override spawn(file: string, args: readonly string[], options: SpawnProcessOptions): SpawnedProcess {
    return this.#processes.spawn(file, args, options);
  }
}

/** The box's answer with its error (if any) turned back into the error the local tool would have thrown. */
function decodeAnswer(answer: WireStepAnswer): StepAnswer {
  const { outcome } = answer;
  if (outcome.type !== 'error') return answer as StepAnswer;
  // A bug in the box reads as it would locally, without the "could not do it" wrapping of a failed primitive.
  const error = outcome.code === RemoteErrorCode.failed ? new Error(outcome.message) : decodeError(new ResponseError(outcome.code, outcome.message, outcome.data));
  return { changes: answer.changes, outcome: { type: 'thrown', error } };
}
