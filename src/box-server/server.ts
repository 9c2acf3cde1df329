import { hostname } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { createMessageConnection, ResponseError } from 'vscode-jsonrpc/node';
import { BatchedMessageReader, BatchedMessageWriter } from '../workspace/remote/framing.js';
import { findExecutable } from '../collections/shell/sandbox.js';
import { OnLoopCalls } from '../workspace/file-system-calls.js';
import { Workspace } from '../workspace/workspace.js';
import { PROTOCOL_NAME, PROTOCOL_VERSION, REPORTED_PROGRAMS, RemoteErrorCode, type InitializeResult } from '../workspace/remote/protocol.js';
import { registerFileHandleHandlers, registerPathHandlers } from './file-system-handlers.js';
import { registerFileToolHandlers } from './file-tool-handlers.js';
import { registerJobHandlers } from './job-handlers.js';
import { registerProcessHandlers } from './process-handlers.js';
import { ServedConnection } from './served-connection.js';
import { dispatchMessagesPromptly } from './prompt-dispatch.js';

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
  // This loop serves one caller: the read path's calls are cheaper made on it than sent to the thread pool.
  const workspace = new Workspace(options.root, { fileSystemCalls: new OnLoopCalls() });
  const bwrap = options.sandbox === 'bwrap' ? findExecutable('bwrap') : undefined;
  if (options.sandbox === 'bwrap' && bwrap === undefined) {
    throw new TypeError('serve-workspace --sandbox bwrap needs bubblewrap in the box, and `bwrap` is not on PATH. Install it (`apt-get install bubblewrap`) or leave out --sandbox.');
  }
  // Every request starts the moment it is read: calls in flight run side by side.
  dispatchMessagesPromptly();
  const connection = createMessageConnection(new BatchedMessageReader(options.input), new BatchedMessageWriter(options.output));
  const served = new ServedConnection(connection, workspace, bwrap);
  registerHandshake(served, options.serverVersion);
  registerPathHandlers(served);
  registerFileHandleHandlers(served);
  registerFileToolHandlers(served);
  registerProcessHandlers(served);
  registerJobHandlers(served, options.jobRunner);

  const closed = new Promise<void>((resolve) => {
    const finish = () => {
      served.close();
      resolve();
    };
    connection.onClose(finish);
    options.input.once('end', finish);
  });
  connection.listen();
  return { closed };
}

/** `initialize`: refuses another protocol version, and tells the caller what this box is and has. */
function registerHandshake(served: ServedConnection, serverVersion: string): void {
  served.on('initialize', async (params) => {
    if (params.protocol !== PROTOCOL_NAME || params.version !== PROTOCOL_VERSION) {
      throw new ResponseError(
        RemoteErrorCode.version,
        `The caller speaks ${params.protocol} version ${params.version}, this server (agent-toolbelt ${serverVersion}) speaks ${PROTOCOL_NAME} version ${PROTOCOL_VERSION}. Install the same agent-toolbelt version in the box as on the caller.`,
      );
    }
    served.initialized = true;
    const environment: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined) environment[name] = value;
    const programs: Record<string, string | null> = {};
    for (const name of REPORTED_PROGRAMS) programs[name] = findExecutable(name) ?? null;
    const result: InitializeResult = {
      protocol: PROTOCOL_NAME,
      version: PROTOCOL_VERSION,
      serverVersion,
      root: served.workspace.root,
      node: process.version,
      platform: process.platform,
      hostname: hostname(),
      environment,
      programs,
      sandbox: served.bwrap === undefined ? null : 'bwrap',
    };
    return result;
  });
}
