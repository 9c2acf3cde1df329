import type { Readable, Writable } from 'node:stream';
import {
  CancellationTokenSource,
  createMessageConnection,
  ErrorCodes,
  ResponseError,
  type MessageConnection,
  type NotificationMessage,
} from 'vscode-jsonrpc/node';
import { RemoteWorkspaceError } from '../../errors/remote-workspace-error.js';
import { BatchedMessageReader, BatchedMessageWriter } from './framing.js';
import type { RemoteNotifications, RemoteRequests } from './protocol.js';
import { decodeError } from './wire-values.js';
import { startRequestSpan } from '../../telemetry/remote-span.js';

/** How long one request may take before it fails with an error naming it: 120 s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
/** Characters of the channel's stderr kept for messages. */
const STDERR_TAIL_CHARACTERS = 2_000;
/** Bytes of the server's first output kept, to show what garbage it sent. */
const OUTPUT_HEAD_BYTES = 200;

/** How a JSON-RPC message's header may begin, lower case, longest first. */
const HEADER_NAMES = ['content-length:', 'content-type:'];

/** The two byte streams to the server and how the program that carries them ends. */
export interface Transport {
  /** To the server's stdin. */
  readonly input: Writable;
  /** From the server's stdout. */
  readonly output: Readable;
  /** The channel's stderr, if it has one (ssh's messages, the server's usage errors). */
  readonly errors?: Readable;
  /** Settles with a clause naming how the channel program ended ("its server was killed by SIGKILL", "the ssh connection ended (…)"). */
  readonly ended: Promise<string>;
  /** Ends the channel program. */
  kill(): void;
}

/**
 * One JSON-RPC connection to `serve-workspace`, and the one place that turns every way it can
 * fail into a {@link RemoteWorkspaceError}: the channel program ending, the stream closing,
 * bytes that are not the protocol, a call past its timeout. When the connection is lost every
 * pending call rejects at once with the reason, and so does every later call.
 */
export class RemoteConnection {
  readonly description: string;
  readonly #connection: MessageConnection;
  readonly #transport: Transport;
  readonly #requestTimeoutMs: number;
  readonly #lostListeners = new Set<(error: RemoteWorkspaceError) => void>();
  readonly #notificationHandlers = new Map<string, (params: unknown) => void>();
  #lost: RemoteWorkspaceError | undefined;
  #closing = false;
  /** The stream from the server has closed: nothing more can be sent or cancelled. */
  #closed = false;
  #stderr = '';
  #head = Buffer.alloc(0);
  #requests = 0;

  constructor(transport: Transport, description: string, options: { requestTimeoutMs?: number } = {}) {
    this.description = description;
    this.#transport = transport;
    this.#requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    transport.errors?.setEncoding('utf8');
    transport.errors?.on('data', (text: string) => {
      this.#stderr = (this.#stderr + text).slice(-STDERR_TAIL_CHARACTERS);
    });
    transport.output.on('data', (chunk: Buffer) => {
      if (this.#head.length >= OUTPUT_HEAD_BYTES) return;
      const judged = this.#garbage();
      this.#head = Buffer.concat([this.#head, chunk]).subarray(0, OUTPUT_HEAD_BYTES);
      // The first bytes tell: a protocol message begins with its header. A banner, a profile's
      // greeting or another program's output fails the connection now, not at a timeout.
      if (!judged && this.#garbage()) this.#failSoon(() => `it sent something that is not the workspace protocol${this.#headNote()}`);
    });
    // A write to a channel that has gone must not crash the caller's process.
    transport.input.on('error', () => undefined);
    // The box's answers and notifications are handled as they are read, in the order they
    // came: answers by the library, which resolves one at once when its parallelism is
    // bounded; notifications by this connection. The library alone takes one message an
    // event-loop turn, 20 turns for a burst of 20 answers.
    const reader = new BatchedMessageReader(transport.output, { notifications: (message) => this.#notified(message) });
    const writer = new BatchedMessageWriter(transport.input);
    reader.onError((error) => this.fail(`it sent something that is not the workspace protocol (${error.message}${this.#headNote()})`));
    writer.onError(([error]) => this.#failSoon(`writing to it failed (${error.message})`));
    this.#connection = createMessageConnection(reader, writer, undefined, { maxParallelism: Number.MAX_SAFE_INTEGER });
    this.#connection.onClose(() => {
      this.#closed = true;
      this.#failSoon(this.#garbage() ? `it sent something that is not the workspace protocol and closed${this.#headNote()}` : 'the connection closed');
    });
    void transport.ended.then(async (how) => {
      // Its last words on stderr may still be in the pipe.
      await settled(transport.errors, 300);
      this.fail(`${how}${this.#garbage() ? `, after sending something that is not the workspace protocol${this.#headNote()}` : ''}`);
    });
    this.#connection.listen();
  }

  /**
   * Fails with the channel's own ending when it comes within a moment (it names more), else
   * with `what` (read then, so it holds what arrived meanwhile): within a second either way.
   */
  #failSoon(what: string | (() => string)): void {
    let timer: NodeJS.Timeout | undefined;
    void Promise.race([this.#transport.ended, new Promise((resolve) => (timer = setTimeout(resolve, 500)))]).then(() => {
      clearTimeout(timer);
      setTimeout(() => this.fail(typeof what === 'string' ? what : what()), 350);
    });
  }

  /** True when the server's first bytes cannot begin a JSON-RPC header (`Content-Length:` or `Content-Type:`). */
  #garbage(): boolean {
    if (this.#head.length === 0) return false;
    const start = this.#head.toString('latin1', 0, HEADER_NAMES[0]!.length).toLowerCase();
    return !HEADER_NAMES.some((header) => (start.length >= header.length ? start.startsWith(header) : header.startsWith(start)));
  }

  #headNote(): string {
    const head = this.#head.toString('utf8').replace(/\s+/g, ' ').trim().slice(0, 80);
    return head === '' ? '' : `; it began with \`${head}\``;
  }

  /** Waits until the channel's stderr has ended (or a moment has passed), so messages carry all of it. */
  async settled(): Promise<void> {
    await settled(this.#transport.errors, 500);
  }

  /** The reason the connection is gone, once it is. */
  get lost(): RemoteWorkspaceError | undefined {
    return this.#lost;
  }

  /** Requests sent so far (the handshake included): what one tool call costs, for tests and diagnostics. */
  get requestCount(): number {
    return this.#requests;
  }

  /** The last characters the channel wrote to stderr. */
  get stderr(): string {
    return this.#stderr.trim();
  }

  /** Calls `listener` once, when the connection is lost (at once if it is already). */
  onLost(listener: (error: RemoteWorkspaceError) => void): () => void {
    if (this.#lost !== undefined) {
      listener(this.#lost);
      return () => undefined;
    }
    this.#lostListeners.add(listener);
    return () => this.#lostListeners.delete(listener);
  }

  /**
   * Sends one request and waits for its answer, for at most the request timeout. An error the
   * box's workspace threw comes back as the same error (a `PathError`, an `ENOENT`); a lost
   * connection, a timeout or an abort as a {@link RemoteWorkspaceError}.
   */
  async request<M extends keyof RemoteRequests>(
    method: M,
    params: RemoteRequests[M][0],
    options: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<RemoteRequests[M][1]> {
    if (this.#lost !== undefined) throw this.#lost;
    this.#requests += 1;
    // Inside a traced tool call the request is a span, and its trace context goes to the box.
    const span = startRequestSpan(method, this.description);
    if (span !== undefined) params = { ...params, _meta: span.meta };
    const timeoutMs = options.timeoutMs ?? this.#requestTimeoutMs;
    const cancellation = new CancellationTokenSource();
    let timer: NodeJS.Timeout | undefined;
    let unsubscribe: (() => void) | undefined;
    // A connection that closed a moment ago (its loss not yet named) takes no cancellation:
    // vscode-jsonrpc would print its refusal to this process's stderr.
    const cancel = () => {
      if (!this.#closed) cancellation.cancel();
    };
    options.signal?.addEventListener('abort', cancel, { once: true });
    try {
      return await new Promise<RemoteRequests[M][1]>((resolve, reject) => {
        unsubscribe = this.onLost(reject);
        timer = setTimeout(() => {
          cancel();
          reject(
            new RemoteWorkspaceError(
              this.description,
              this.#garbage()
                ? `The remote workspace (${this.description}) did not answer ${method} within ${Math.round(timeoutMs / 1000)} s: it sent something that is not the workspace protocol${this.#headNote()}. Check that the command runs \`agent-toolbelt serve-workspace\` and that nothing else (a login banner, a shell profile) writes to its stdout.`
                : `The remote workspace (${this.description}) did not answer ${method} within ${Math.round(timeoutMs / 1000)} s. The box may be overloaded or hung; try again, or reconnect with connectWorkspace().`,
            ),
          );
        }, timeoutMs);
        this.#connection.sendRequest<RemoteRequests[M][1]>(method, params, cancellation.token).then((value) => {
          span?.end();
          resolve(value);
        }, (error: unknown) => {
          span?.end(error);
          // The request never reached the server (a write to a channel that has gone): the
          // channel's own ending, which comes within a moment, names the cause better.
          if (error instanceof ResponseError && isTransportCode(error.code)) this.#failSoon(`writing to it failed (${error.message})`);
          else if (error instanceof ResponseError) reject(decodeError(error));
          else reject(this.#lost ?? new RemoteWorkspaceError(this.description, `The remote workspace (${this.description}) failed: ${String((error as Error)?.message ?? error)}.`));
        });
      });
    } finally {
      clearTimeout(timer);
      unsubscribe?.();
      options.signal?.removeEventListener('abort', cancel);
      cancellation.dispose();
    }
  }

  /** Sends a notification; on a lost connection it is dropped. */
  notify<N extends keyof RemoteNotifications>(name: N, params: RemoteNotifications[N]): void {
    if (this.#lost !== undefined) return;
    void this.#connection.sendNotification(name, params).catch(() => undefined);
  }

  /** Handles a notification from the server; one handler a name, the last one set. */
  onNotification<N extends keyof RemoteNotifications>(name: N, handler: (params: RemoteNotifications[N]) => void): void {
    this.#notificationHandlers.set(name, handler as (params: unknown) => void);
  }

  /**
   * A notification from the server, handled in the turn it was read. As with the library's own
   * dispatch, one the connection has no handler for is dropped, and a handler that throws (a
   * notification whose params are not the protocol's) drops that one notification and no more.
   */
  #notified(message: NotificationMessage): void {
    if (this.#lost !== undefined) return;
    try {
      this.#notificationHandlers.get(message.method)?.(message.params);
    } catch {
      // Dropped, as the library drops it: the stream goes on.
    }
  }

  /**
   * Marks the connection lost with `what` (a clause: "its server exited with code 1"); every
   * pending and later call rejects with a message that names it. Only the first reason counts.
   */
  fail(what: string): void {
    if (this.#lost !== undefined) return;
    const stderr = this.stderr;
    const message = this.#closing
      ? `The remote workspace (${this.description}) was closed with workspace.close(); connect again with connectWorkspace().`
      : `The remote workspace (${this.description}) is gone: ${what}.${stderr === '' ? '' : ` Its last words on stderr: ${stderr.slice(-500)}`} ` +
        'The call was not completed; a file it was writing is either unchanged or written whole. Reconnect with connectWorkspace() and check the files before retrying.';
    this.#lost = new RemoteWorkspaceError(this.description, message);
    const listeners = [...this.#lostListeners];
    this.#lostListeners.clear();
    for (const listener of listeners) listener(this.#lost);
    this.#closed = true;
    this.#connection.dispose();
    this.#transport.kill();
  }

  /** Closes the connection: the server sees the end of its input and stops what it started. */
  async close(): Promise<void> {
    if (this.#lost !== undefined) return;
    this.#closing = true;
    this.#transport.input.end();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.#transport.ended, new Promise((resolve) => (timer = setTimeout(resolve, 2_000)))]);
    clearTimeout(timer);
    this.fail('closed');
  }
}

/** vscode-jsonrpc's own codes for a request that failed in this process (writing, reading, a closed connection), not in the server. */
function isTransportCode(code: number): boolean {
  return code === ErrorCodes.MessageWriteError || code === ErrorCodes.MessageReadError || code === ErrorCodes.PendingResponseRejected || code === ErrorCodes.ConnectionInactive;
}

/** Resolves when `stream` has ended or closed, or after `ms`. */
function settled(stream: Readable | undefined, ms: number): Promise<void> {
  if (stream === undefined || stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    stream.once('end', done);
    stream.once('close', done);
  });
}
