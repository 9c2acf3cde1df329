/**
 * The shape of a started program, shared by every way a workspace starts one: here
 * (`spawn-process.ts`), through the spawn host (`spawn-host-client.ts`) or in a remote box
 * (`remote/remote-process.ts`).
 */
import type { Readable } from 'node:stream';

/** How `spawnProcess` (or a workspace's `spawn`) starts a program. */
export interface SpawnProcessOptions {
  /** The folder the program starts in (absolute). */
  readonly cwd: string;
  /** The program's whole environment: nothing else is inherited. */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Start the program from the spawn host, a small helper process forked early, instead of
   * from this process (default `false`). Starting a program forks the process that starts it,
   * and a fork's cost grows with that process's memory: around a hundred milliseconds of
   * blocked event loop in a server holding a gigabyte. Through the host the program's output
   * still comes straight to this process; `pid` is known only once the host has started it.
   * Where the host cannot run (or is still starting) the program starts here, as without it.
   * `run_shell` sets this.
   */
  readonly useSpawnHost?: boolean;
}

/** How a process ended. */
export interface ProcessExit {
  /** The exit code, or `null` when a signal ended it or it never started. */
  readonly exitCode: number | null;
  /** The signal that ended it, if any. */
  readonly signal: NodeJS.Signals | null;
  /** Set when the program could not be started (not found, not executable, bad folder). */
  readonly startError?: Error;
  /**
   * Set when the connection to the machine running the program was lost while it ran (a
   * remote workspace's box died, or the spawn host that started it died): how it ended is not
   * known, and whatever is left of it was stopped.
   */
  readonly lost?: Error;
}

/**
 * A running program, as the shell tools see it. The local implementation is `spawnProcess`
 * (`spawn-process.ts`); a container or remote sandbox can provide the same shape.
 */
export interface SpawnedProcess {
  /** Undefined when the program could not be started (or, through a spawn host, has not been started yet). */
  readonly pid: number | undefined;
  /** Raw bytes the program writes to standard output. */
  readonly stdout: Readable;
  /** Raw bytes the program writes to standard error. */
  readonly stderr: Readable;
  /** Settles when the main process has ended (its output may still be arriving). */
  readonly exited: Promise<ProcessExit>;
  /**
   * Sends `signal` to the process, its process group and every descendant seen so far,
   * including ones that started a session of their own. Returns at once: on Linux the tree is
   * found by reading `/proc` in slices of a few milliseconds, and the signals follow (several
   * stops are sent in the order asked).
   */
  stop(signal: NodeJS.Signals): void;
  /** Stops reading the output and lets go of the pipes (a leftover child still holds them). */
  releaseOutput(): void;
}
