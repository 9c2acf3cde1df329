/**
 * The messages between this process and the spawn host it forks (`spawn-host-client.ts` sends
 * and receives them, `spawn-host.ts` answers), over the fork's IPC channel.
 */

/** What the host is asked: start a program. */
export interface SpawnHostRequest {
  readonly id: number;
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** The program's marker (its `AGENT_TOOLBELT_PROCESS`), so the host can find its tree too. */
  readonly marker: string;
}

/** What the host says: ready, then per program started (or failed), its two pipes, and how it exited. */
export type SpawnHostMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'started'; readonly id: number; readonly pid: number }
  /** Sent with the pipe's socket as the message's handle. */
  | { readonly type: 'output'; readonly id: number; readonly stream: 'stdout' | 'stderr' }
  | { readonly type: 'exit'; readonly id: number; readonly exitCode: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };
