import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { execa } from 'execa';
import { PROCESS_MARKER_VARIABLE, ProcessTreeSignaller } from './process-tree.js';
import { prepareSpawnHost, spawnHostStarting, spawnThroughHost, type HostedProgram } from './spawn-host-client.js';
import type { ProcessExit, SpawnedProcess, SpawnProcessOptions } from './spawned-process.js';

/** Programs started and not yet done, each with a way to kill it at once (for the exit hook, which cannot wait). */
const running = new Map<SpawnedProcess, () => void>();
let exitHookInstalled = false;

/** A started program before {@link spawnProcess} wraps it: started here, or through the spawn host. */
interface StartedProgram {
  readonly pid: number | undefined;
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly exited: Promise<ProcessExit>;
  readonly hosted: boolean;
  onStarted?(listener: (pid: number) => void): void;
  expectExit?(): void;
  /** Called on a stop: a program not started yet (waiting for the host) is then never started. */
  cancel?(signal: NodeJS.Signals): void;
}

/**
 * How long a start waits for a spawn host that is still starting before it forks this process
 * instead. The host is ready within a few hundred milliseconds on a quiet machine; a fork of a
 * large process blocks the event loop for tens of them, so waiting is the cheaper way.
 */
const HOST_READY_WAIT_MS = 5_000;

/**
 * Starts `file` with `args` in a process group of its own (a new session, so it has no
 * controlling terminal and cannot prompt on `/dev/tty`), with standard input closed.
 * Whatever is still running when Node.js exits is killed, whole trees included.
 */
export function spawnProcess(file: string, args: readonly string[], options: SpawnProcessOptions): SpawnedProcess {
  installExitHook();
  const marker = randomUUID();
  const env = { ...options.env, [PROCESS_MARKER_VARIABLE]: marker };
  const program = options.useSpawnHost === true ? startHosted(file, args, options.cwd, env, marker) : startHere(file, args, options.cwd, env);
  const tree = new ProcessTreeSignaller(marker);
  // A stop asked for before the host reported the PID reaches the program once it does.
  let requested: NodeJS.Signals | undefined;
  program.onStarted?.((pid) => {
    if (requested !== undefined) void tree.signal(pid, requested);
  });
  // Started here without a PID: it never ran. Through the host: its marker finds it.
  const mayBeRunning = (): boolean => program.pid !== undefined || program.hosted;

  const handle: SpawnedProcess = {
    get pid() {
      return program.pid;
    },
    stdout: program.stdout,
    stderr: program.stderr,
    exited: program.exited,
    stop(signal) {
      if (!mayBeRunning()) return;
      requested = signal;
      program.cancel?.(signal);
      // The scan of /proc that finds the whole tree runs in slices: this returns at once.
      void tree.signal(program.pid, signal);
      if (signal === 'SIGKILL') program.expectExit?.();
    },
    releaseOutput() {
      program.stdout.destroy();
      program.stderr.destroy();
    },
  };
  running.set(handle, () => {
    if (mayBeRunning()) tree.signalNow(program.pid, 'SIGKILL');
  });
  void program.exited.then((exit) => {
    // A program whose host died is stopped: nothing of it keeps running unseen.
    if (exit.lost !== undefined) handle.stop('SIGKILL');
    void Promise.all([closed(program.stdout), closed(program.stderr)]).then(() => running.delete(handle));
  });
  return handle;
}

/**
 * Starts the program through the spawn host; while the host is still starting (the first
 * command after `createShellTools`), waits for it rather than forking this process, which
 * would block the event loop for as long as a fork of this process's memory takes.
 */
function startHosted(file: string, args: readonly string[], cwd: string, env: Record<string, string>, marker: string): StartedProgram {
  const hosted = spawnThroughHost(file, args, { cwd, env, marker });
  if (hosted !== undefined) return hostedProgram(hosted);
  if (!spawnHostStarting()) return startHere(file, args, cwd, env);
  return onceHostReady(() => {
    const later = spawnThroughHost(file, args, { cwd, env, marker });
    return later === undefined ? startHere(file, args, cwd, env) : hostedProgram(later);
  });
}

/** A program started by `start` once the spawn host is ready (or has taken too long), its output and end passed on. */
function onceHostReady(start: () => StartedProgram): StartedProgram {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const listeners: ((pid: number) => void)[] = [];
  let inner: StartedProgram | undefined;
  let cancelled: NodeJS.Signals | undefined;
  let expectExit = false;
  let finish!: (exit: ProcessExit) => void;
  const exited = new Promise<ProcessExit>((resolve) => (finish = resolve));
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, HOST_READY_WAIT_MS);
    void prepareSpawnHost().then(() => resolve());
  });
  void waited.then(() => {
    clearTimeout(timer);
    if (cancelled !== undefined) {
      stdout.end();
      stderr.end();
      finish({ exitCode: null, signal: cancelled });
      return;
    }
    const program = (inner = start());
    for (const [from, to] of [[program.stdout, stdout], [program.stderr, stderr]] as const) {
      from.pipe(to);
      from.once('error', () => to.end());
      to.once('close', () => from.destroy());
    }
    const started = (pid: number): void => {
      for (const listener of listeners.splice(0)) listener(pid);
    };
    if (program.pid !== undefined) started(program.pid);
    else program.onStarted?.(started);
    if (expectExit) program.expectExit?.();
    void program.exited.then(finish);
  });
  return {
    get pid() {
      return inner?.pid;
    },
    stdout,
    stderr,
    exited,
    // Until it starts, nothing runs; once it does, its marker finds it wherever it started.
    hosted: true,
    onStarted(listener) {
      if (inner?.pid !== undefined) listener(inner.pid);
      else listeners.push(listener);
    },
    expectExit() {
      if (inner === undefined) expectExit = true;
      else inner.expectExit?.();
    },
    cancel(signal) {
      if (inner === undefined) cancelled = signal;
    },
  };
}

/** The hosted program as a {@link StartedProgram}, its `pid` read live (it arrives later). */
function hostedProgram(hosted: HostedProgram): StartedProgram {
  return {
    get pid() {
      return hosted.pid;
    },
    stdout: hosted.stdout,
    stderr: hosted.stderr,
    exited: hosted.exited,
    hosted: true,
    onStarted: (listener) => hosted.onStarted(listener),
    expectExit: () => hosted.expectExit(),
  };
}

/** Starts the program from this process, through execa. */
function startHere(file: string, args: readonly string[], cwd: string, env: Record<string, string>): StartedProgram {
  const subprocess = execa(file, args, {
    cwd,
    env,
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
  const exited = new Promise<ProcessExit>((resolve) => {
    subprocess.nodeChildProcess.once('exit', (code, signal) => resolve({ exitCode: code, signal }));
    void subprocess.then((result) => {
      if (result.failed && result.exitCode === undefined && result.signal === undefined) {
        resolve({ exitCode: null, signal: null, startError: new Error(result.originalMessage || result.shortMessage) });
      }
    });
  });
  return { pid: subprocess.pid, stdout: subprocess.stdout, stderr: subprocess.stderr, exited, hosted: false };
}

/** Settles when `stream` has closed (ended and read, or destroyed). */
function closed(stream: Readable): Promise<void> {
  if (stream.closed || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => stream.once('close', () => resolve()));
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
    for (const killNow of running.values()) killNow();
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
