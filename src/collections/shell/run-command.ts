import type { Readable } from 'node:stream';
import type { ProcessExit, SpawnedProcess } from '../../workspace/spawned-process.js';
import type { Workspace } from '../../workspace/workspace.js';
import { OutputSection, type CollectedOutput } from './output-section.js';

/** After the main process ends, how long a leftover child may keep the output pipes open. */
export const PIPE_GRACE_MS = 2_000;
/** After SIGTERM, how long the process tree gets before SIGKILL. */
export const KILL_GRACE_MS = 1_000;

/** How a command ended. */
export type CommandStatus = 'exited' | 'timed-out' | 'cancelled' | 'failed-to-start' | 'lost';

/** What {@link runCommand} needs. */
export interface RunCommandOptions {
  readonly workspace: Workspace;
  /** The program and its arguments (the shell, possibly behind a sandbox or launcher). */
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Output sections: one merged section, or `stdout` and `stderr` apart. */
  readonly separateStreams: boolean;
  readonly windowCharacters: number;
  readonly spillThreshold: number;
  readonly maxLineCharacters: number;
  readonly maxSpillCharacters: number;
  readonly filter?: RegExp;
  readonly onText?: (text: string) => void;
}

/** The outcome of one command. */
export interface CommandOutcome {
  readonly status: CommandStatus;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly durationMs: number;
  /** `output` when merged, else `stdout` and `stderr`. */
  readonly sections: ReadonlyMap<string, CollectedOutput>;
  /** A leftover process kept the output open after the command ended; it was stopped. */
  readonly pipesHeld: boolean;
  readonly startError?: string;
  /** Why the command's fate is unknown, when its machine was lost while it ran (status `lost`). */
  readonly lost?: string;
}

/**
 * Runs a program in its own process group and collects its output in bounded memory. On
 * timeout or abort the whole process tree gets SIGTERM, then SIGKILL after
 * {@link KILL_GRACE_MS}, and the output so far is kept. After the main process ends, output
 * is read for at most {@link PIPE_GRACE_MS} more; a leftover child still holding the pipes is
 * stopped then, so it cannot hold the call.
 */
export async function runCommand(options: RunCommandOptions): Promise<CommandOutcome> {
  const started = performance.now();
  const sections = createSections(options);
  const sectionFor = (stream: 'stdout' | 'stderr') => sections.get(stream) ?? sections.get('output')!;

  // Through the spawn host where the workspace spawns here: a fork of this process, however
  // large it has grown, would hold the event loop (the remote workspace ignores the option).
  const child = options.workspace.spawn(options.file, options.args, { cwd: options.cwd, env: options.env, useSpawnHost: true });
  const readers = Promise.all([read(child.stdout, 'stdout', sectionFor('stdout')), read(child.stderr, 'stderr', sectionFor('stderr'))]);

  let ending: 'timed-out' | 'cancelled' | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  const terminate = (reason: 'timed-out' | 'cancelled') => {
    if (ending !== undefined) return;
    ending = reason;
    child.stop('SIGTERM');
    killTimer = setTimeout(() => child.stop('SIGKILL'), KILL_GRACE_MS);
  };
  const timeout = setTimeout(() => terminate('timed-out'), options.timeoutMs);
  const onAbort = () => terminate('cancelled');
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener('abort', onAbort, { once: true });

  let exit;
  let pipesHeld = false;
  try {
    exit = await child.exited;
    clearTimeout(timeout);
    pipesHeld = await finishReading(child, exit, readers);
  } finally {
    clearTimeout(timeout);
    clearTimeout(killTimer);
    options.signal.removeEventListener('abort', onAbort);
  }
  // Anything the tree left behind is stopped; the command is over.
  if (ending !== undefined) child.stop('SIGKILL');
  await Promise.all([...sections.values()].map((section) => section.end()));

  const status = exit.startError !== undefined ? 'failed-to-start' : exit.lost !== undefined ? 'lost' : (ending ?? 'exited');
  return {
    status,
    exitCode: exit.exitCode,
    signal: exit.signal,
    durationMs: performance.now() - started,
    sections: new Map([...sections].map(([name, section]) => [name, section.result()])),
    pipesHeld,
    ...(exit.startError === undefined ? {} : { startError: exit.startError.message }),
    ...(exit.lost === undefined ? {} : { lost: exit.lost.message }),
  };
}

/** The started program, as the workspace hands it back. */
type RunningCommand = ReturnType<Workspace['spawn']>;

/** The output sections of one command, each bounded in memory: one merged, or stdout and stderr with half the room each. */
function createSections(options: RunCommandOptions): Map<string, OutputSection> {
  const sectionOptions = {
    workspace: options.workspace,
    maxLineCharacters: options.maxLineCharacters,
    maxSpillCharacters: options.maxSpillCharacters,
    ...(options.filter === undefined ? {} : { filter: options.filter }),
    ...(options.onText === undefined ? {} : { onText: options.onText }),
  };
  const sections = new Map<string, OutputSection>();
  if (options.separateStreams) {
    const window = Math.ceil(options.windowCharacters / 2);
    const threshold = Math.ceil(options.spillThreshold / 2);
    sections.set('stdout', new OutputSection({ ...sectionOptions, windowCharacters: window, spillThreshold: threshold, spillSuffix: '-stdout' }));
    sections.set('stderr', new OutputSection({ ...sectionOptions, windowCharacters: window, spillThreshold: threshold, spillSuffix: '-stderr' }));
  } else {
    sections.set('output', new OutputSection({ ...sectionOptions, windowCharacters: options.windowCharacters, spillThreshold: options.spillThreshold }));
  }
  return sections;
}

/**
 * Reads what is left of the output once the main process has ended, for at most
 * {@link PIPE_GRACE_MS}; true when a leftover process still held the pipes and was stopped.
 */
async function finishReading(child: RunningCommand, exit: Awaited<RunningCommand['exited']>, readers: Promise<unknown>): Promise<boolean> {
  let pipesHeld = false;
  if (exit.startError === undefined && exit.lost === undefined) {
    let graceTimer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      readers.then(() => true),
      new Promise<false>((resolve) => {
        graceTimer = setTimeout(() => resolve(false), PIPE_GRACE_MS);
      }),
    ]);
    clearTimeout(graceTimer);
    if (!drained) {
      pipesHeld = true;
      child.stop('SIGKILL');
      child.releaseOutput();
    }
  } else {
    child.releaseOutput();
  }
  await readers;
  return pipesHeld;
}

/** Feeds a stream to its section as chunks arrive, pausing only while the section asks to wait. */
function read(stream: Readable, name: string, section: OutputSection): Promise<void> {
  return new Promise((resolve) => {
    stream.on('data', (chunk: Uint8Array) => {
      const wait = section.write(name, chunk);
      if (wait === undefined) return;
      stream.pause();
      void wait.then(() => stream.resume());
    });
    // A stream released on purpose (a leftover child held it) or broken keeps what arrived.
    stream.once('close', () => resolve());
    stream.once('error', () => resolve());
  });
}
