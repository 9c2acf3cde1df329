import type { FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, ResponseError, type CancellationToken } from 'vscode-jsonrpc/node';
import { compileGlob, globForWorker } from '../collections/files/find-files.js';
import { validateReadToolsOptions, type ReadToolsOptions } from '../collections/files/read-tools.js';
import { runSearch } from '../collections/files/search/run-search.js';
import { FileToolRunner } from '../collections/files/in-box/runner.js';
import type { StepAnswer } from '../collections/files/in-box/in-place-tools.js';
import type { ProgressUpdate } from '../progress.js';
import { bwrapArguments, findExecutable } from '../collections/shell/sandbox.js';
import type { SpawnedProcess } from '../workspace/spawn-process.js';
import { Workspace } from '../workspace/workspace.js';
import { BoxJobs } from './box-jobs.js';
import {
  OUTPUT_WINDOW_BYTES,
  PROTOCOL_NAME,
  PROTOCOL_VERSION,
  REPORTED_PROGRAMS,
  RemoteErrorCode,
  type InitializeResult,
  type RemoteNotifications,
  type RemoteRequests,
  type SpawnParams,
  type StepProgressWire,
  type WireStepAnswer,
} from '../workspace/remote/protocol.js';
import { encodeDirent, encodeError, encodeStats } from '../workspace/remote/wire-values.js';

/** What {@link serveWorkspace} needs. */
export interface ServeWorkspaceOptions {
  /** The folder to serve; must exist in the box. */
  readonly root: string;
  /** Run every program under bubblewrap (the same layout as the shell's `sandbox: 'bwrap'`). */
  readonly sandbox?: 'bwrap';
  /** Where requests come from (the process's stdin). */
  readonly input: Readable;
  /** Where answers go (the process's stdout; nothing else may write there). */
  readonly output: Writable;
  /** The package version, reported in the handshake. */
  readonly serverVersion: string;
  /** How to start a job runner that outlives this server: the program and its arguments before `--run-job DIR`. */
  readonly jobRunner: readonly string[];
}

/** A program the server started for the caller, and the caller's unspent credit for its output. */
interface ServedProcess {
  readonly child: SpawnedProcess;
  readonly inFlight: { stdout: number; stderr: number };
}

/**
 * The box end of a remote workspace: answers the caller's requests with a local
 * {@link Workspace} over `root`, so the jail, atomic writes and process-tree kill run next to
 * the files. Every path the caller sends is put through the jail again before use: the caller
 * is trusted with nothing. Resolves when the caller closes the connection; by then every
 * program it started has been killed (background jobs, which run apart, go on).
 *
 * @throws {WorkspaceError} when the root does not exist or is not a folder.
 */
export function serveWorkspace(options: ServeWorkspaceOptions): { readonly closed: Promise<void> } {
  const workspace = new Workspace(options.root);
  const bwrap = options.sandbox === 'bwrap' ? findExecutable('bwrap') : undefined;
  if (options.sandbox === 'bwrap' && bwrap === undefined) {
    throw new TypeError('serve-workspace --sandbox bwrap needs bubblewrap in the box, and `bwrap` is not on PATH. Install it (`apt-get install bubblewrap`) or leave out --sandbox.');
  }
  const connection = createMessageConnection(new StreamMessageReader(options.input), new StreamMessageWriter(options.output));
  const jobs = new BoxJobs(workspace, options.jobRunner);
  const tools = new FileToolRunner(workspace);
  const handles = new Map<number, FileHandle>();
  const writers = new Map<number, Writable>();
  const processes = new Map<number, ServedProcess>();
  let nextId = 1;
  let initialized = false;

  const on = <M extends keyof RemoteRequests>(method: M, handler: (params: RemoteRequests[M][0], token: CancellationToken) => Promise<RemoteRequests[M][1]>) => {
    connection.onRequest(method, async (params: RemoteRequests[M][0], token: CancellationToken) => {
      if (!initialized && method !== 'initialize') throw new ResponseError(RemoteErrorCode.failed, 'The handshake (initialize) must come first.');
      try {
        return await handler(params, token);
      } catch (error) {
        throw encodeError(error);
      }
    });
  };
  const notify = <N extends keyof RemoteNotifications>(name: N, params: RemoteNotifications[N]) => {
    void connection.sendNotification(name, params).catch(() => undefined);
  };
  /** The canonical path of `absolute` after the jail; links in the last segment followed unless said. */
  const jailed = async (absolute: string, followFinalLink = true) => (await workspace.resolve(absolute, { followFinalLink })).absolute;
  const handle = (id: number) => {
    const found = handles.get(id);
    if (found === undefined) throw new ResponseError(RemoteErrorCode.failed, `No open file with handle ${id}.`);
    return found;
  };

  on('initialize', async (params) => {
    if (params.protocol !== PROTOCOL_NAME || params.version !== PROTOCOL_VERSION) {
      throw new ResponseError(
        RemoteErrorCode.version,
        `The caller speaks ${params.protocol} version ${params.version}, this server (agent-toolbelt ${options.serverVersion}) speaks ${PROTOCOL_NAME} version ${PROTOCOL_VERSION}. Install the same agent-toolbelt version in the box as on the caller.`,
      );
    }
    initialized = true;
    const environment: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined) environment[name] = value;
    const programs: Record<string, string | null> = {};
    for (const name of REPORTED_PROGRAMS) programs[name] = findExecutable(name) ?? null;
    const result: InitializeResult = {
      protocol: PROTOCOL_NAME,
      version: PROTOCOL_VERSION,
      serverVersion: options.serverVersion,
      root: workspace.root,
      node: process.version,
      platform: process.platform,
      hostname: hostname(),
      environment,
      programs,
      sandbox: bwrap === undefined ? null : 'bwrap',
    };
    return result;
  });
  on('workspace/resolve', async ({ path, followFinalLink }) => {
    const { absolute, relative, exists } = await workspace.resolve(path, { followFinalLink: followFinalLink ?? true });
    return { absolute, relative, exists };
  });
  on('workspace/resolveFile', async ({ path, followFinalLink }) => {
    const { absolute, relative, exists, stats } = await workspace.resolveFile(path, { followFinalLink: followFinalLink ?? true });
    return { absolute, relative, exists, stats: encodeStats(stats) };
  });
  on('workspace/resolveDirectory', async ({ path }) => {
    const { absolute, relative, exists } = await workspace.resolveDirectory(path);
    return { absolute, relative, exists };
  });
  on('workspace/privateDir', async ({ segments }) => workspace.privateDir(...segments));
  on('fs/lstat', async ({ path }) => {
    const stats = await workspace.lstatOrUndefined(await jailed(path, false));
    return stats === undefined ? null : encodeStats(stats);
  });
  on('fs/stat', async ({ path }) => {
    const stats = await workspace.statOrUndefined(await jailed(path));
    return stats === undefined ? null : encodeStats(stats);
  });
  on('fs/readFile', async ({ path }) => (await workspace.readFile(await jailed(path))).toString('base64'));
  on('fs/open', async ({ path, prefetch, closeIfWhole }) => {
    const file = await workspace.open(await jailed(path));
    const id = nextId++;
    handles.set(id, file);
    const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(prefetch ?? 0, 16 * 1024 * 1024)));
    const [stats, { bytesRead }] = await Promise.all([file.stat(), file.read(buffer, 0, buffer.length, 0)]);
    const head = buffer.subarray(0, bytesRead).toString('base64');
    if (closeIfWhole === true && bytesRead < buffer.length) {
      handles.delete(id);
      await file.close();
      return { handle: null, stats: encodeStats(stats), head };
    }
    return { handle: id, stats: encodeStats(stats), head };
  });
  on('fs/read', async (params) => {
    const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(params.length, 16 * 1024 * 1024)));
    const { bytesRead } = await handle(params.handle).read(buffer, 0, buffer.length, params.position);
    return buffer.subarray(0, bytesRead).toString('base64');
  });
  on('fs/fstat', async (params) => encodeStats(await handle(params.handle).stat()));
  on('fs/close', async (params) => {
    const file = handles.get(params.handle);
    handles.delete(params.handle);
    await file?.close();
    return null;
  });
  on('fs/create', async ({ path }) => {
    const stream = await workspace.createFileStream(await jailed(path, false));
    const id = nextId++;
    writers.set(id, stream);
    return { handle: id };
  });
  on('fs/append', async (params) => {
    const stream = writers.get(params.handle);
    if (stream === undefined) throw new ResponseError(RemoteErrorCode.failed, `No file being written with handle ${params.handle}.`);
    // Answered when the disk has taken the bytes: the caller's next write waits, which is the back-pressure.
    await new Promise<void>((resolve, reject) => stream.write(Buffer.from(params.data, 'base64'), (error) => (error ? reject(error) : resolve())));
    return null;
  });
  on('fs/finish', async (params) => {
    const stream = writers.get(params.handle);
    writers.delete(params.handle);
    if (stream !== undefined) await new Promise<void>((resolve) => stream.end(() => resolve()));
    return null;
  });
  on('fs/list', async ({ path }) => (await workspace.list(await jailed(path))).map(encodeDirent));
  on('fs/makeDirectory', async ({ path }) => {
    await workspace.makeDirectory(await jailed(path));
    return null;
  });
  on('fs/readLink', async ({ path }) => workspace.readLink(await jailed(path, false)));
  on('fs/createSymlink', async ({ target, path }) => {
    await workspace.createSymlink(target, await jailed(path, false));
    return null;
  });
  on('fs/remove', async ({ path }) => {
    await workspace.remove(await jailed(path, false));
    return null;
  });
  on('fs/renameExclusive', async ({ from, to }) => {
    await workspace.renameExclusive(await jailed(from, false), await jailed(to, false));
    return null;
  });
  on('fs/writeFileAtomic', async ({ path, data, upload, exclusive, mode }) => {
    const encoded = upload === undefined ? data : joinPieces({ data: upload }).data!;
    await workspace.writeFileAtomic(await jailed(path, false), Buffer.from(encoded, 'base64'), {
      ...(exclusive === undefined ? {} : { exclusive }),
      ...(mode === undefined ? {} : { mode }),
    });
    return null;
  });

  on('files/search', async (params, token) => {
    const controller = new AbortController();
    token.onCancellationRequested(() => controller.abort());
    const options = validateReadToolsOptions({ ...(params.options as Omit<ReadToolsOptions, 'workspace'>), workspace });
    const include = params.includeGlob === undefined ? undefined : compileGlob(params.includeGlob, 'include');
    return runSearch({
      options,
      target: await jailed(params.target),
      targetIsFile: params.targetIsFile,
      pattern: params.pattern,
      mode: params.mode,
      limit: params.limit,
      include,
      includePattern: params.includeGlob === undefined ? undefined : globForWorker(params.includeGlob),
      includeGlob: params.includeGlob,
      signal: controller.signal,
    });
  });

  on('tools/run', async (params, token) => {
    const step = params.pieces === undefined ? params : { ...params, input: { ...params.input, ...joinPieces(params.pieces) } };
    const controller = new AbortController();
    token.onCancellationRequested(() => controller.abort());
    const progress = params.progressId === undefined ? undefined : new ProgressCoalescer((update) => notify('tools/progress', { id: params.progressId!, update }));
    try {
      return encodeAnswer(await tools.run(step, { signal: controller.signal, ...(progress === undefined ? {} : { onProgress: progress.report }) }));
    } finally {
      // The last progress goes out before the answer, which follows it on the same stream.
      progress?.flush();
    }
  });
  on('tools/undo', async (params) => encodeAnswer(await tools.undo(params)));
  /** Pieces of long string inputs, by upload id, until the `tools/run` that names them. */
  const uploads = new Map<number, string[]>();
  connection.onNotification('upload/piece', ({ upload, text }: RemoteNotifications['upload/piece']) => {
    const pieces = uploads.get(upload) ?? [];
    pieces.push(text);
    uploads.set(upload, pieces);
  });
  const joinPieces = (named: Readonly<Record<string, number>>): Record<string, string> => {
    const fields: Record<string, string> = {};
    for (const [field, upload] of Object.entries(named)) {
      const pieces = uploads.get(upload);
      if (pieces === undefined) throw new ResponseError(RemoteErrorCode.failed, `No pieces arrived for upload ${upload} (the input field \`${field}\`).`);
      uploads.delete(upload);
      fields[field] = pieces.join('');
    }
    return fields;
  };

  const sandboxed = async (params: SpawnParams): Promise<SpawnParams> => {
    const cwd = await jailed(params.cwd);
    if (bwrap === undefined) return { ...params, cwd };
    return { ...params, cwd, file: bwrap, args: [...bwrapArguments({ root: workspace.root }), '--chdir', cwd, '--', params.file, ...params.args] };
  };
  on('process/spawn', async (params) => {
    const start = await sandboxed(params);
    const id = params.id;
    if (processes.has(id)) throw new ResponseError(RemoteErrorCode.failed, `Process id ${id} is in use.`);
    const child = workspace.spawn(start.file, start.args, { cwd: start.cwd, env: start.env });
    const served: ServedProcess = { child, inFlight: { stdout: 0, stderr: 0 } };
    processes.set(id, served);
    {
      for (const stream of ['stdout', 'stderr'] as const) {
        const readable = child[stream];
        readable.on('data', (chunk: Buffer) => {
          served.inFlight[stream] += chunk.length;
          notify('process/output', { id, stream, data: chunk.toString('base64') });
          if (served.inFlight[stream] > OUTPUT_WINDOW_BYTES) readable.pause();
        });
        readable.once('close', () => notify('process/end', { id, stream }));
      }
      void child.exited.then((exit) => {
        notify('process/exit', {
          id,
          exitCode: exit.exitCode,
          signal: exit.signal,
          ...(exit.startError === undefined ? {} : { startError: exit.startError.message }),
        });
      });
    }
    return { pid: child.pid ?? null };
  });
  connection.onNotification('process/ack', (params: RemoteNotifications['process/ack']) => {
    const served = processes.get(params.id);
    if (served === undefined) return;
    served.inFlight[params.stream] = Math.max(0, served.inFlight[params.stream] - params.bytes);
    if (served.inFlight[params.stream] <= OUTPUT_WINDOW_BYTES) served.child[params.stream].resume();
  });
  on('process/stop', async ({ id, signal }) => {
    processes.get(id)?.child.stop(signal as NodeJS.Signals);
    return null;
  });
  on('process/release', async ({ id }) => {
    const served = processes.get(id);
    processes.delete(id);
    served?.child.releaseOutput();
    return null;
  });

  on('jobs/start', async ({ sessionId, label, spawn, maxRuntimeMs }) => jobs.start(sessionId, label, await sandboxed(spawn), maxRuntimeMs));
  on('jobs/list', async ({ sessionId }) => jobs.list(sessionId));
  on('jobs/read', async ({ sessionId, id, position, length }) => jobs.read(sessionId, id, position, length));
  on('jobs/stop', async ({ sessionId, id }) => jobs.stop(sessionId, id));

  const closed = new Promise<void>((resolve) => {
    const finish = () => {
      for (const served of processes.values()) served.child.stop('SIGKILL');
      processes.clear();
      for (const file of handles.values()) void file.close().catch(() => undefined);
      handles.clear();
      for (const stream of writers.values()) stream.end();
      writers.clear();
      uploads.clear();
      connection.dispose();
      resolve();
    };
    connection.onClose(finish);
    options.input.once('end', finish);
  });
  connection.listen();
  return { closed };
}

/** A step's answer for the wire: a thrown error as a JSON-RPC error's code, message and data. */
function encodeAnswer(answer: StepAnswer): WireStepAnswer {
  if (answer.outcome.type !== 'thrown') return answer as WireStepAnswer;
  const error = encodeError(answer.outcome.error);
  return { changes: answer.changes, outcome: { type: 'error', code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) } };
}

/** Progress of one step is sent at most this often; the caller's reporter throttles further. */
const PROGRESS_INTERVAL_MS = 100;
/** Output characters one progress notification carries at most (the newest kept). */
const MAX_PROGRESS_OUTPUT = 16_000;

/** Gathers a step's progress updates and sends them together, at most every {@link PROGRESS_INTERVAL_MS}. */
class ProgressCoalescer {
  readonly #send: (update: StepProgressWire) => void;
  #pending: { output?: string; message?: string; progress?: number; total?: number } | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(send: (update: StepProgressWire) => void) {
    this.#send = send;
  }

  readonly report = (update: ProgressUpdate): void => {
    const pending = (this.#pending ??= {});
    const { output, ...status } = typeof update === 'string' ? { output: update } : update;
    if (output !== undefined) pending.output = ((pending.output ?? '') + output).slice(-MAX_PROGRESS_OUTPUT);
    Object.assign(pending, status);
    this.#timer ??= setTimeout(() => this.flush(), PROGRESS_INTERVAL_MS);
  };

  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending !== undefined) this.#send(this.#pending);
    this.#pending = undefined;
  }
}
