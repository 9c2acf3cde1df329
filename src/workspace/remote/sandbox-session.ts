/**
 * The part of the AI SDK's `Experimental_SandboxSession` (from `ai`, implemented by Vercel
 * Sandbox and others) that {@link connectWorkspace} uses, typed here by shape so the core
 * never imports `ai`. A real session is assignable to it; `sandbox-session.test-d.ts` checks
 * that against the published type.
 */
export interface SandboxSessionLike {
  /** What the provider says about the sandbox (its root, ports, host name). */
  readonly description: string;
  /** Runs a shell command to its end. */
  readonly run: (options: { command: string; workingDirectory?: string; env?: Record<string, string>; abortSignal?: AbortSignal }) => PromiseLike<{
    exitCode: number;
    stdout: string;
    stderr: string;
  }>;
  /** Starts a shell command with standard input open. */
  readonly spawn: (options: {
    command: string;
    workingDirectory?: string;
    env?: Record<string, string>;
    abortSignal?: AbortSignal;
    stdin: true;
  }) => PromiseLike<SandboxProcessLike>;
  /** Writes a file (parents created, an existing file replaced). */
  readonly writeBinaryFile: (options: { path: string; content: Uint8Array; abortSignal?: AbortSignal }) => PromiseLike<void>;
  /** The type and size of a path, links followed; `null` when nothing is there. */
  readonly stat: (options: { path: string; abortSignal?: AbortSignal }) => PromiseLike<{ type: 'file' | 'directory' | 'other'; size: number } | null>;
}

/** A process started with `stdin: true`: web streams, as the AI SDK defines them. */
export interface SandboxProcessLike {
  readonly pid?: number;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly stdin: WritableStream<Uint8Array>;
  wait(): PromiseLike<{ exitCode: number }>;
  kill(): PromiseLike<void>;
}
