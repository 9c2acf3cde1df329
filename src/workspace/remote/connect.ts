import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { RemoteWorkspaceError } from '../../errors/remote-workspace-error.js';
import { channelEnding } from './channel-ending.js';
import { RemoteConnection, type Transport } from './connection.js';
import { PROTOCOL_NAME, PROTOCOL_VERSION, RemoteErrorCode, type InitializeResult } from './protocol.js';
import { RemoteWorkspace } from './remote-workspace.js';
import type { SandboxSessionLike } from './sandbox-session.js';
import { PathError } from '../../errors/path-error.js';

/** How long the box may take to start the server and answer the handshake: 30 s. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** The oldest Node.js major version the server runs on. */
export const MINIMUM_NODE_MAJOR = 22;

/** Options every connector takes. */
interface CommonConnectOptions {
  /** How long starting the server and the handshake may take. @default 30_000 */
  readonly connectTimeoutMs?: number;
  /** How long one request may take before it fails with an error result naming it. @default 120_000 */
  readonly requestTimeoutMs?: number;
}

/** {@link connectWorkspace} through any program whose stdin and stdout reach the box. */
export interface CommandConnectOptions extends CommonConnectOptions {
  /**
   * The program and its arguments, ending in the server:
   * `['ssh', 'box', 'npx', '-y', 'agent-toolbelt', 'serve-workspace', '--root', '/work']`,
   * `['docker', 'exec', '-i', 'box', 'agent-toolbelt', 'serve-workspace', '--root', '/work']`.
   */
  readonly command: readonly string[];
  /**
   * The environment of the channel program on this machine. By default this process's own:
   * `ssh`, `docker` and `kubectl` need `PATH`, `HOME`, their sockets and config. What reaches
   * the box is the channel's business (ssh forwards only what `SendEnv` names; `docker exec`
   * and `kubectl exec` nothing; give `bwrap` `--clearenv`).
   */
  readonly env?: Readonly<Record<string, string>>;
}

/** {@link connectWorkspace} through an AI SDK `Experimental_SandboxSession` (Vercel Sandbox and others). */
export interface SandboxConnectOptions extends CommonConnectOptions {
  readonly sandbox: SandboxSessionLike;
  /** The workspace folder in the sandbox (absolute). */
  readonly root: string;
  /**
   * Variables to set for the server in the sandbox, which its programs inherit. Nothing of this
   * process's environment is sent unless it is named here.
   */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * `'auto'` (default): `agent-toolbelt` when the sandbox has it on `PATH`, else the package's
   * single-file server, uploaded. `'upload'`: always upload. A string: the shell command that
   * starts the server, `--root` and all.
   * @default 'auto'
   */
  readonly server?: 'auto' | 'upload' | string;
  /** The single-file server to upload. @default the package's own `dist/serve-workspace.mjs` */
  readonly serverBundle?: string;
  /** Run every program in the sandbox under bubblewrap (`serve-workspace --sandbox bwrap`). */
  readonly bwrap?: boolean;
}

/** The options of {@link connectWorkspace}: a command, or a sandbox session and a root. */
export type ConnectWorkspaceOptions = CommandConnectOptions | SandboxConnectOptions;

/**
 * Connects to a workspace in a box and returns a {@link Workspace} whose work runs there:
 * `createFileTools`, `createShellTools` and the other collections take it unchanged, and
 * the jail, atomic writes, search engine and process-tree kill run next to the files, in
 * `agent-toolbelt serve-workspace --root DIR`. Close it with `workspace.close()`.
 *
 * With `command`, any program that gives stdio inside the box carries the connection (ssh,
 * `docker exec -i`, `kubectl exec -i … --`, `bwrap … --`). With `sandbox` and `root`, an AI SDK
 * sandbox session starts the server itself, uploading the single-file build when the sandbox
 * has Node.js 22+ but not the package.
 *
 * @throws {RemoteWorkspaceError} when the box cannot be reached, has no Node.js 22+, the root
 *   is missing, or the server speaks another protocol version; the message says what to fix.
 * @throws {TypeError} for a wrong option.
 *
 * @example
 * const workspace = await connectWorkspace({ command: ['ssh', 'box', 'npx', '-y', 'agent-toolbelt', 'serve-workspace', '--root', '/work'] });
 * const files = createFileTools({ workspace });
 * // … run the agent …
 * await workspace.close();
 */
export async function connectWorkspace(options: ConnectWorkspaceOptions): Promise<RemoteWorkspace> {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('Expected connectWorkspace() to get `{ command: [...] }` or `{ sandbox, root }`.');
  }
  const connectTimeoutMs = positive('connectTimeoutMs', options.connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS);
  const requestTimeoutMs = positive('requestTimeoutMs', options.requestTimeoutMs, undefined);
  if ('command' in options && options.command !== undefined) {
    const command = options.command;
    if (!Array.isArray(command) || command.length === 0 || command.some((part) => typeof part !== 'string' || part === '')) {
      throw new TypeError(
        `Expected the \`command\` option to be a non-empty array of strings, such as ['ssh', 'box', 'agent-toolbelt', 'serve-workspace', '--root', '/work'], got \`${JSON.stringify(command)}\`.`,
      );
    }
    // Long channel commands (bwrap's mounts) are shown by their ends: the program and the server part.
    const description = `\`${command.length > 8 ? `${command[0]} … ${command.slice(-4).join(' ')}` : command.join(' ')}\``;
    const transport = await commandTransport(command, options.env, description);
    return handshake(transport, description, { connectTimeoutMs, ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }) });
  }
  if ('sandbox' in options && options.sandbox !== undefined) {
    const { sandbox, root } = options;
    if (typeof sandbox.spawn !== 'function' || typeof sandbox.run !== 'function') {
      throw new TypeError('Expected the `sandbox` option to be an AI SDK sandbox session (with `run` and `spawn`), such as a Vercel Sandbox session.');
    }
    if (typeof root !== 'string' || !root.startsWith('/')) {
      throw new TypeError(`Expected the \`root\` option to be an absolute folder path in the sandbox, such as '/vercel/sandbox', got \`${String(root)}\`.`);
    }
    const serverCommand = await sandboxServerCommand(options);
    const description = `the sandbox session (${firstLine(sandbox.description)})`;
    const transport = await sandboxTransport(sandbox, serverCommand, options.env);
    return handshake(transport, description, { connectTimeoutMs, ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }) });
  }
  throw new TypeError('Expected connectWorkspace() to get `{ command: [...] }` or `{ sandbox, root }`.');
}

/** Starts the channel program on this machine. */
async function commandTransport(command: readonly string[], env: Readonly<Record<string, string>> | undefined, description: string): Promise<Transport> {
  const [program, ...args] = command;
  const child = spawn(program!, args, { stdio: ['pipe', 'pipe', 'pipe'], env: env === undefined ? process.env : { ...env } });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error) => {
      const missing = (error as { code?: string }).code === 'ENOENT';
      reject(
        new RemoteWorkspaceError(
          description,
          missing
            ? `connectWorkspace() could not start \`${program}\`: it is not on this machine's PATH. Install it, or give its full path as the first entry of \`command\`.`
            : `connectWorkspace() could not start \`${program}\`: ${error.message}.`,
          { cause: error },
        ),
      );
    });
  });
  const ended = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(channelEnding(program!, code, signal)));
  });
  return {
    input: child.stdin!,
    output: child.stdout!,
    errors: child.stderr!,
    ended,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** Starts the server through the sandbox session's `spawn`, on its web streams. */
async function sandboxTransport(sandbox: SandboxSessionLike, command: string, env: Readonly<Record<string, string>> | undefined): Promise<Transport> {
  const started = await sandbox.spawn({ command, stdin: true, ...(env === undefined ? {} : { env: { ...env } }) });
  const ended = Promise.resolve(started.wait()).then(
    ({ exitCode }) => channelEnding('the sandbox', exitCode, null),
    (error: unknown) => `its server ended: ${String((error as Error)?.message ?? error)}`,
  );
  return {
    input: Writable.fromWeb(started.stdin as import('node:stream/web').WritableStream<Uint8Array>),
    output: Readable.fromWeb(started.stdout as import('node:stream/web').ReadableStream<Uint8Array>),
    errors: Readable.fromWeb(started.stderr as import('node:stream/web').ReadableStream<Uint8Array>),
    ended,
    kill: () => void Promise.resolve(started.kill()).catch(() => undefined),
  };
}

/**
 * The shell command that starts the server in the sandbox: checks Node.js there, then uses
 * the installed package or uploads the single-file server (once per version: it is kept in
 * `/tmp` under a name holding its hash).
 */
async function sandboxServerCommand(options: SandboxConnectOptions): Promise<string> {
  const { sandbox } = options;
  const sandboxFlag = options.bwrap === true ? ' --sandbox bwrap' : '';
  const arguments_ = `serve-workspace --root ${quote(options.root)}${sandboxFlag}`;
  if (typeof options.server === 'string' && options.server !== 'auto' && options.server !== 'upload') return options.server;
  const description = 'the sandbox session';
  const node = await sandbox.run({ command: 'node --version' });
  const version = node.stdout.trim();
  const major = Number(/^v(\d+)/.exec(version)?.[1]);
  if (node.exitCode !== 0 || !Number.isFinite(major)) {
    throw new RemoteWorkspaceError(
      description,
      `The sandbox has no Node.js (\`node --version\` ${node.exitCode === 127 ? 'was not found' : `failed: ${firstLine(node.stderr || node.stdout)}`}). The workspace server needs Node.js ${MINIMUM_NODE_MAJOR} or newer: use a sandbox image with it (Vercel Sandbox: runtime \`node22\`), or install it.`,
    );
  }
  if (major < MINIMUM_NODE_MAJOR) {
    throw new RemoteWorkspaceError(description, `The sandbox has Node.js ${version}; the workspace server needs ${MINIMUM_NODE_MAJOR} or newer. Use a sandbox image with Node.js ${MINIMUM_NODE_MAJOR}+ (Vercel Sandbox: runtime \`node22\`).`);
  }
  const root = await sandbox.stat({ path: options.root });
  if (root === null || root.type !== 'directory') {
    throw new RemoteWorkspaceError(
      description,
      `The workspace root \`${options.root}\` ${root === null ? 'does not exist' : 'is not a folder'} in the sandbox. Create it first (for example \`await sandbox.run({ command: 'mkdir -p ${options.root}' })\`) or pass another \`root\`.`,
    );
  }
  if (options.server !== 'upload') {
    const installed = await sandbox.run({ command: 'command -v agent-toolbelt' });
    if (installed.exitCode === 0 && installed.stdout.trim() !== '') return `agent-toolbelt ${arguments_}`;
  }
  const bundlePath = options.serverBundle ?? findServerBundle();
  if (bundlePath === undefined || !existsSync(bundlePath)) {
    throw new RemoteWorkspaceError(
      description,
      `The single-file workspace server to upload is missing${bundlePath === undefined ? '' : ` (${bundlePath})`}. It is built by \`npm run build\` as dist/serve-workspace.mjs; build the package, pass \`serverBundle\`, or install agent-toolbelt in the sandbox.`,
    );
  }
  const bytes = readFileSync(bundlePath);
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const target = `/tmp/agent-toolbelt-serve-workspace-${hash}.mjs`;
  const present = await sandbox.stat({ path: target });
  if (present === null || present.size !== bytes.length) await sandbox.writeBinaryFile({ path: target, content: bytes });
  return `node ${target} ${arguments_}`;
}

/** `dist/serve-workspace.mjs` beside this module's build, or the source tree's `dist/`. */
function findServerBundle(): string | undefined {
  for (const candidate of ['../../../serve-workspace.mjs', '../../../dist/serve-workspace.mjs']) {
    const file = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** Waits for the server's handshake and checks that it speaks this protocol version. */
async function handshake(transport: Transport, description: string, options: { connectTimeoutMs: number; requestTimeoutMs?: number }): Promise<RemoteWorkspace> {
  const connection = new RemoteConnection(transport, description, options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs });
  let info: InitializeResult;
  try {
    info = await connection.request('initialize', { protocol: PROTOCOL_NAME, version: PROTOCOL_VERSION }, { timeoutMs: options.connectTimeoutMs });
  } catch (error) {
    await connection.settled();
    const stderr = connection.stderr;
    connection.fail('the handshake failed');
    throw connectError(description, error, stderr);
  }
  if (info.protocol !== PROTOCOL_NAME || info.version !== PROTOCOL_VERSION) {
    connection.fail('it speaks another protocol version');
    throw new RemoteWorkspaceError(
      description,
      `The workspace server (${description}) speaks ${String(info.protocol)} version ${String(info.version)}; this agent-toolbelt speaks ${PROTOCOL_NAME} version ${PROTOCOL_VERSION}. Install the same agent-toolbelt version in the box.`,
    );
  }
  return new RemoteWorkspace(connection, info);
}

/** What went wrong before the handshake finished, with what to install or fix. */
function connectError(description: string, error: unknown, stderr: string): RemoteWorkspaceError {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof PathError) return new RemoteWorkspaceError(description, message, { cause: error });
  if ((error as { code?: unknown })?.code === RemoteErrorCode.version || /speaks .* version/.test(message)) {
    return new RemoteWorkspaceError(description, message, { cause: error });
  }
  if (/Unhandled method initialize|method not found/i.test(message)) {
    return new RemoteWorkspaceError(description, `The program at the other end of ${description} is not an agent-toolbelt workspace server (it does not know the handshake). Check that the command ends in \`agent-toolbelt serve-workspace --root DIR\`.`, { cause: error });
  }
  let hint = '';
  if (/needs Node\.js \d+ or newer/.test(stderr)) hint = '';
  else if (/(^|\W)(node|npx|agent-toolbelt)(: not found|: command not found|: No such file)/m.test(stderr) || /env: .?node.?: No such file/.test(stderr)) {
    hint = ` The box lacks Node.js ${MINIMUM_NODE_MAJOR}+ or the package: install Node.js ${MINIMUM_NODE_MAJOR}+ there, and run the server with \`npx -y agent-toolbelt serve-workspace --root DIR\` (or install agent-toolbelt globally).`;
  } else if (/is not a folder/.test(stderr)) {
    hint = ' Pass a folder in the box as --root.';
  } else if (/does not exist/.test(stderr) && !/Create the folder/.test(stderr)) {
    // The server's own message (from a version that says no fix) is completed, never repeated.
    hint = ' Create the folder in the box or pass another --root.';
  }
  const reason = message.replace(/^The remote workspace \([^)]*\) is gone: /, '').replace(/ The call was not completed.*$/s, '');
  if (reason.includes('not the workspace protocol')) {
    hint = ' Check that the command ends in `agent-toolbelt serve-workspace --root DIR` and that nothing else (a login banner, a shell profile that prints) writes to its stdout.';
  }
  return new RemoteWorkspaceError(
    description,
    `connectWorkspace() could not start the workspace server through ${description}: ${reason}${stderr === '' || reason.includes(stderr.slice(-100)) ? '' : ` Its stderr: ${stderr.slice(-500)}`}${hint}`,
    { cause: error },
  );
}

function positive(name: string, value: unknown, fallback: number): number;
function positive(name: string, value: unknown, fallback: undefined): number | undefined;
function positive(name: string, value: unknown, fallback: number | undefined): number | undefined {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`Expected the \`${name}\` option of connectWorkspace() to be a positive integer (milliseconds), got \`${String(value)}\`.`);
  }
  return value;
}

function quote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

function firstLine(text: string): string {
  return (text.split('\n').find((line) => line.trim() !== '') ?? '').trim().slice(0, 200);
}
