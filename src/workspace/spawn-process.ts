import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { execa } from 'execa';

/** How {@link spawnProcess} starts a program. */
export interface SpawnProcessOptions {
  /** The folder the program starts in (absolute). */
  readonly cwd: string;
  /** The program's whole environment: nothing else is inherited. */
  readonly env: Readonly<Record<string, string>>;
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
   * remote workspace's box died): how it ended is not known.
   */
  readonly lost?: Error;
}

/**
 * A running program, as the shell tools see it. The local implementation is
 * {@link spawnProcess}; a container or remote sandbox can provide the same shape.
 */
export interface SpawnedProcess {
  /** Undefined when the program could not be started. */
  readonly pid: number | undefined;
  /** Raw bytes the program writes to standard output. */
  readonly stdout: Readable;
  /** Raw bytes the program writes to standard error. */
  readonly stderr: Readable;
  /** Settles when the main process has ended (its output may still be arriving). */
  readonly exited: Promise<ProcessExit>;
  /**
   * Sends `signal` to the process, its process group and every descendant seen so far,
   * including ones that started a session of their own.
   */
  stop(signal: NodeJS.Signals): void;
  /** Stops reading the output and lets go of the pipes (a leftover child still holds them). */
  releaseOutput(): void;
}

const running = new Set<SpawnedProcess>();

/**
 * Set, with a value of its own, in the environment of every program {@link spawnProcess}
 * starts, and so inherited by what it starts: a leftover that started a session of its own
 * and lost its parent (`setsid server &`) is still found by it and stopped.
 */
export const PROCESS_MARKER_VARIABLE = 'AGENT_TOOLBELT_PROCESS';
let exitHookInstalled = false;

/**
 * Starts `file` with `args` in a process group of its own (a new session, so it has no
 * controlling terminal and cannot prompt on `/dev/tty`), with standard input closed.
 * Whatever is still running when Node.js exits is killed, whole trees included.
 */
export function spawnProcess(file: string, args: readonly string[], options: SpawnProcessOptions): SpawnedProcess {
  installExitHook();
  const marker = randomUUID();
  const subprocess = execa(file, args, {
    cwd: options.cwd,
    env: { ...options.env, [PROCESS_MARKER_VARIABLE]: marker },
    extendEnv: false,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    detached: true,
    cleanup: false,
    windowsHide: true,
    stripFinalNewline: false,
  });
  const pid = subprocess.pid;
  const seen = new Map<number, string>();

  const exited = new Promise<ProcessExit>((resolve) => {
    subprocess.nodeChildProcess.once('exit', (code, signal) => resolve({ exitCode: code, signal }));
    void subprocess.then((result) => {
      if (result.failed && result.exitCode === undefined && result.signal === undefined) {
        resolve({ exitCode: null, signal: null, startError: new Error(result.originalMessage || result.shortMessage) });
      }
    });
  });

  const handle: SpawnedProcess = {
    pid,
    stdout: subprocess.stdout,
    stderr: subprocess.stderr,
    exited,
    stop(signal) {
      if (pid === undefined) return;
      for (const [member, started] of processTree(pid)) seen.set(member, started);
      for (const [member, started] of markedProcesses(marker)) seen.set(member, started);
      try {
        process.kill(-pid, signal);
      } catch {
        // The group is gone already.
      }
      for (const [member, started] of seen) {
        // A PID seen earlier is only signalled while it still names the same process.
        if (startTime(member) !== started) {
          seen.delete(member);
          continue;
        }
        try {
          process.kill(member, signal);
        } catch {
          seen.delete(member);
        }
      }
    },
    releaseOutput() {
      subprocess.stdout.destroy();
      subprocess.stderr.destroy();
    },
  };
  running.add(handle);
  void exited.then(() => {
    const release = () => running.delete(handle);
    if (subprocess.stdout.closed && subprocess.stderr.closed) release();
    else void subprocess.then(release, release);
  });
  return handle;
}

/** Signals that end Node.js when nobody handles them. */
const FATAL_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Detached processes do not die with their parent, so they are killed when Node.js exits,
 * and when it is about to die of a signal that the host does not handle itself (Ctrl-C in
 * a CLI). A host that handles the signal keeps control: its own exit runs the exit hook.
 */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  const killAll = () => {
    for (const handle of running) handle.stop('SIGKILL');
  };
  process.once('exit', killAll);
  for (const signal of FATAL_SIGNALS) {
    const onSignal = () => {
      if (process.listenerCount(signal) > 1) return;
      killAll();
      process.off(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

/**
 * The process group led by `pid` and every descendant of `pid`, with their start times, read
 * from `/proc` (Linux). Elsewhere only the group is known, and the map is empty.
 */
function processTree(pid: number): Map<number, string> {
  const tree = new Map<number, string>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return tree;
  }
  const children = new Map<number, number[]>();
  const starts = new Map<number, string>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat === undefined) continue;
    starts.set(stat.pid, stat.startTime);
    if (stat.processGroup === pid && stat.pid !== pid) tree.set(stat.pid, stat.startTime);
    const siblings = children.get(stat.parent) ?? [];
    siblings.push(stat.pid);
    children.set(stat.parent, siblings);
  }
  const pending = [pid, ...tree.keys()];
  const visited = new Set(pending);
  while (pending.length > 0) {
    const parent = pending.pop()!;
    for (const child of children.get(parent) ?? []) {
      if (visited.has(child)) continue;
      visited.add(child);
      tree.set(child, starts.get(child)!);
      pending.push(child);
    }
  }
  const own = starts.get(pid);
  if (own !== undefined) tree.set(pid, own);
  return tree;
}

/**
 * Processes (Linux, same user) whose environment holds {@link PROCESS_MARKER_VARIABLE} set to
 * `marker`: descendants that left the process group and the parent chain.
 */
function markedProcesses(marker: string): Map<number, string> {
  const found = new Map<number, string>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  const wanted = Buffer.from(`${PROCESS_MARKER_VARIABLE}=${marker}\0`);
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let environment: Buffer;
    try {
      environment = readFileSync(`/proc/${entry}/environ`);
    } catch {
      continue;
    }
    if (!environment.includes(wanted)) continue;
    const started = startTime(Number(entry));
    if (started !== undefined) found.set(Number(entry), started);
  }
  return found;
}

function startTime(pid: number): string | undefined {
  return readStat(pid)?.startTime;
}

function readStat(pid: number): { pid: number; parent: number; processGroup: number; startTime: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may hold spaces or parentheses itself.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
  return { pid, parent: Number(fields[1]), processGroup: Number(fields[2]), startTime: fields[19] ?? '' };
}
