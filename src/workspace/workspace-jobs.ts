/**
 * @module The workspace's contract for background jobs that live where its files are: a
 * remote workspace's box keeps them running after the caller's process ends. Background job
 * tools reach them through this interface (a workspace's optional `jobs`), never through the
 * remote classes; `box-server/box-jobs.ts` is the box end.
 */

/** Parameters of `process/spawn`. */
export interface SpawnParams {
  readonly file: string;
  readonly args: readonly string[];
  /** Absolute, inside the root (checked again in the box). */
  readonly cwd: string;
  /** The program's whole environment. */
  readonly env: Readonly<Record<string, string>>;
}

/** A job started in the box: it outlives the connection (see `box-jobs.ts`). */
export interface WireJob {
  readonly id: string;
  readonly label: string;
  readonly status: 'running' | 'finished' | 'failed' | 'stopped' | 'timed-out';
  readonly startedAt: number;
  readonly endedAt: number | null;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** Bytes of output written so far. */
  readonly outputBytes: number;
}

/**
 * Background jobs that live in the box of a remote workspace (its `jobs`), keyed by session id: a
 * job started here keeps running when this process ends, and a later connection to the same
 * root lists, reads and stops it with the same session id.
 */
export interface WorkspaceJobs {
  /** Starts a program in the box as a job of `sessionId`, stopped after `maxRuntimeMs`. */
  start(sessionId: string, options: { label: string; spawn: Omit<SpawnParams, 'cwd'> & { cwd: string }; maxRuntimeMs: number }): Promise<WireJob>;
  /** The session's jobs, oldest first. */
  list(sessionId: string): Promise<WireJob[]>;
  /** Output bytes from `position` on (at most `length`), and the job as it is now. */
  read(sessionId: string, id: string, position: number, length?: number): Promise<{ job: WireJob; data: Buffer }>;
  /** Stops the job's whole process tree; resolves with the job once it has ended (or after 5 s). */
  stop(sessionId: string, id: string): Promise<WireJob>;
}

