import type { FileHandle } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { ResponseError, type CancellationToken, type MessageConnection } from 'vscode-jsonrpc/node';
import { bwrapArguments } from '../collections/shell/sandbox.js';
import { RemoteErrorCode, type RemoteNotifications, type RemoteRequests } from '../workspace/remote/protocol.js';
import { encodeError } from '../workspace/remote/wire-values.js';
import type { SpawnedProcess } from '../workspace/spawned-process.js';
import type { Workspace } from '../workspace/workspace.js';
import type { SpawnParams } from '../workspace/workspace-jobs.js';
import { UploadPieces } from './upload-pieces.js';
import { serveTraced } from '../telemetry/remote-span.js';

/** A program the server started for the caller, and the caller's unspent credit for its output. */
export interface ServedProcess {
  readonly child: SpawnedProcess;
  readonly inFlight: { stdout: number; stderr: number };
}

/**
 * One caller's connection and what its handlers share. Everything it holds is the caller's
 * and goes when the caller does: {@link close} kills the programs and closes the files.
 */
export class ServedConnection {
  readonly workspace: Workspace;
  /** The bubblewrap program every spawn runs under; undefined when the server does not sandbox. */
  readonly bwrap: string | undefined;
  /** Files open for reading, by handle. */
  readonly handles = new Map<number, FileHandle>();
  /** Files being written as a stream, by handle. */
  readonly writers = new Map<number, Writable>();
  /** Programs started for the caller, by the id the caller gave. */
  readonly processes = new Map<number, ServedProcess>();
  readonly uploads = new UploadPieces();
  /** Set by the handshake; until then every other request is refused. */
  initialized = false;
  readonly #connection: MessageConnection;
  /** Open files and files being written draw from one counter, so a handle names one of them. */
  #nextId = 1;

  constructor(connection: MessageConnection, workspace: Workspace, bwrap: string | undefined) {
    this.#connection = connection;
    this.workspace = workspace;
    this.bwrap = bwrap;
    this.onNotification('upload/piece', ({ upload, text }) => this.uploads.add(upload, text));
  }

  /** A handle no open or written file of this connection has. */
  nextHandle(): number {
    return this.#nextId++;
  }

  /** Answers `method`; whatever the handler throws reaches the caller as a protocol error. */
  on<M extends keyof RemoteRequests>(method: M, handler: (params: RemoteRequests[M][0], token: CancellationToken) => Promise<RemoteRequests[M][1]>): void {
    this.#connection.onRequest(method, async (params: RemoteRequests[M][0], token: CancellationToken) => {
      if (!this.initialized && method !== 'initialize') throw new ResponseError(RemoteErrorCode.failed, 'The handshake (initialize) must come first.');
      try {
        // A request made inside a traced call carries its trace context: the box's work joins it.
        const meta = (params as { _meta?: unknown } | null)?._meta;
        if (meta === undefined) return await handler(params, token);
        const { _meta: _traced, ...own } = params as RemoteRequests[M][0] & { _meta?: unknown };
        return await serveTraced(method, meta, () => handler(own as RemoteRequests[M][0], token));
      } catch (error) {
        throw encodeError(error);
      }
    });
  }

  onNotification<N extends keyof RemoteNotifications>(name: N, handler: (params: RemoteNotifications[N]) => void): void {
    this.#connection.onNotification(name, handler);
  }

  /** Sends a notification; one the closing connection cannot take is dropped, as the caller is gone. */
  notify<N extends keyof RemoteNotifications>(name: N, params: RemoteNotifications[N]): void {
    void this.#connection.sendNotification(name, params).catch(() => undefined);
  }

  /** The canonical path of `absolute` after the jail; links in the last segment followed unless said. */
  async jailed(absolute: string, followFinalLink = true): Promise<string> {
    return (await this.workspace.resolve(absolute, { followFinalLink })).absolute;
  }

  /** A spawn as the box runs it: its folder put through the jail, and under bubblewrap when the server sandboxes. */
  async sandboxed(params: SpawnParams): Promise<SpawnParams> {
    const cwd = await this.jailed(params.cwd);
    if (this.bwrap === undefined) return { ...params, cwd };
    return { ...params, cwd, file: this.bwrap, args: [...bwrapArguments({ root: this.workspace.root }), '--chdir', cwd, '--', params.file, ...params.args] };
  }

  /** Kills every program the caller started and lets go of its files; background jobs run apart and go on. */
  close(): void {
    for (const served of this.processes.values()) served.child.stop('SIGKILL');
    this.processes.clear();
    for (const file of this.handles.values()) void file.close().catch(() => undefined);
    this.handles.clear();
    for (const stream of this.writers.values()) stream.end();
    this.writers.clear();
    this.uploads.clear();
    this.#connection.dispose();
  }
}
