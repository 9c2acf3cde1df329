import { Readable } from 'node:stream';
import type { ProcessExit, SpawnedProcess, SpawnProcessOptions } from '../spawned-process.js';
import type { RemoteConnection } from './connection.js';
import type { RemoteNotifications } from './protocol.js';

/**
 * A process's output stream on the caller's side. Each chunk is acknowledged to the server
 * once the stream has taken it without going over its buffer; a consumer that stops reading
 * stops the acknowledgements, the server stops reading the process, and the process blocks on
 * its pipe in the box: back-pressure from the reader to the writer.
 */
class RemoteOutput extends Readable {
  #unacknowledged = 0;
  readonly #acknowledge: (bytes: number) => void;

  constructor(acknowledge: (bytes: number) => void) {
    super({ highWaterMark: 256 * 1024 });
    this.#acknowledge = acknowledge;
  }

  override _read(): void {
    if (this.#unacknowledged === 0) return;
    const bytes = this.#unacknowledged;
    this.#unacknowledged = 0;
    this.#acknowledge(bytes);
  }

  deliver(chunk: Buffer): void {
    if (this.destroyed || this.readableEnded) return;
    if (this.push(chunk)) this.#acknowledge(chunk.length);
    else this.#unacknowledged += chunk.length;
  }

  finish(note?: string): void {
    if (this.destroyed || this.readableEnded) return;
    if (note !== undefined) this.push(Buffer.from(note));
    this.push(null);
  }
}

/** Routes the server's process notifications to the processes started on this connection. */
export class RemoteProcesses {
  readonly #connection: RemoteConnection;
  readonly #running = new Map<number, { deliver(params: RemoteNotifications['process/output']): void; end(stream: 'stdout' | 'stderr'): void; exit(exit: ProcessExit): void }>();
  #next = 1;

  constructor(connection: RemoteConnection) {
    this.#connection = connection;
    connection.onNotification('process/output', (params) => this.#running.get(params.id)?.deliver(params));
    connection.onNotification('process/end', (params) => this.#running.get(params.id)?.end(params.stream));
    connection.onNotification('process/exit', (params) =>
      this.#running.get(params.id)?.exit({
        exitCode: params.exitCode,
        signal: params.signal as NodeJS.Signals | null,
        ...(params.startError === undefined ? {} : { startError: new Error(params.startError) }),
      }),
    );
  }

  /**
   * Starts `file` in the box. The answer is not waited for: the handle is returned at once,
   * like a local spawn, and a program that cannot start, or a connection that is lost, ends it
   * with `startError` or with a note in its output that names what happened.
   */
  spawn(file: string, args: readonly string[], options: SpawnProcessOptions): SpawnedProcess {
    const connection = this.#connection;
    const id = this.#next++;
    let pid: number | undefined;
    let resolveExit!: (exit: ProcessExit) => void;
    let exitSettled = false;
    const exited = new Promise<ProcessExit>((resolve) => {
      resolveExit = (exit) => {
        if (exitSettled) return;
        exitSettled = true;
        resolve(exit);
      };
    });
    const streams = {
      stdout: new RemoteOutput((bytes) => connection.notify('process/ack', { id, stream: 'stdout', bytes })),
      stderr: new RemoteOutput((bytes) => connection.notify('process/ack', { id, stream: 'stderr', bytes })),
    };
    const forget = () => {
      if (streams.stdout.readableEnded && streams.stderr.readableEnded && exitSettled) this.#running.delete(id);
    };
    this.#running.set(id, {
      deliver: ({ stream, data }) => streams[stream].deliver(Buffer.from(data, 'base64')),
      end: (stream) => {
        streams[stream].finish();
        forget();
      },
      exit: (exit) => {
        resolveExit(exit);
        forget();
      },
    });
    const unsubscribe = connection.onLost((error) => {
      streams.stdout.finish();
      streams.stderr.finish();
      // The status says what happened; a program the box had started ended we know not how.
      resolveExit(pid === undefined ? { exitCode: null, signal: null, startError: error } : { exitCode: null, signal: null, lost: error });
      this.#running.delete(id);
    });
    void exited.then(unsubscribe);
    connection.request('process/spawn', { id, file, args: [...args], cwd: options.cwd, env: { ...options.env } }).then(
      (answer) => {
        pid = answer.pid ?? undefined;
      },
      (error: Error) => {
        streams.stdout.finish();
        streams.stderr.finish();
        resolveExit({ exitCode: null, signal: null, startError: error });
        this.#running.delete(id);
      },
    );
    return {
      get pid() {
        return pid;
      },
      stdout: streams.stdout,
      stderr: streams.stderr,
      exited,
      stop(signal) {
        void connection.request('process/stop', { id, signal }).catch(() => undefined);
      },
      releaseOutput() {
        streams.stdout.destroy();
        streams.stderr.destroy();
        void connection.request('process/release', { id }).catch(() => undefined);
      },
    };
  }
}
