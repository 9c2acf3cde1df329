/**
 * Starts programs through the spawn host (`spawn-host.ts`), a small process forked once, while
 * this one is still small: starting a program from this process would fork it, and a fork's
 * cost grows with the memory of the process forked (measured here: 40–100 ms with a gigabyte
 * resident), all of it blocking the event loop. From the host a start costs this process one
 * message; the host hands back the program's output pipes, so output flows from the program
 * to this process directly, with the kernel's own back-pressure.
 *
 * The host dies with this process and stops what it started then. If it dies first, every
 * program it was running is reported lost (`ProcessExit.lost`, naming the host); the next
 * start forks a new one.
 */
import { existsSync } from 'node:fs';
import { fork, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { PassThrough, type Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { SpawnHostMessage, SpawnHostRequest } from './spawn-host-protocol.js';
import type { ProcessExit } from './spawned-process.js';

/** A program started through the host, as `spawnProcess` wraps it. */
export interface HostedProgram {
  /** Undefined until the host has started the program. */
  readonly pid: number | undefined;
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly exited: Promise<ProcessExit>;
  /** Calls `listener` with the PID once the host has started the program. */
  onStarted(listener: (pid: number) => void): void;
  /**
   * After the program was killed: if the host has not said within {@link EXIT_REPORT_GRACE_MS}
   * that it ended (the host is stopped or hung), it is reported lost instead of waited for.
   */
  expectExit(): void;
}

/** How long a killed program's exit may take to be reported before the host is given up on. */
const EXIT_REPORT_GRACE_MS = 5_000;

interface Pending {
  readonly stdout: PassThrough;
  readonly stderr: PassThrough;
  /** The pipes handed over so far, each feeding its stream. */
  readonly pipes: Socket[];
  pid: number | undefined;
  readonly started: ((pid: number) => void)[];
  readonly finish: (exit: ProcessExit) => void;
}

let host: ChildProcess | undefined;
let ready = false;
let readiness: Promise<boolean> = Promise.resolve(false);
/** The host could not be started here (no module file beside this one, or the fork failed): programs start directly. */
let unavailable = false;
const pending = new Map<number, Pending>();
let nextId = 1;

/**
 * Forks the spawn host if it is not running, so that fork happens now, while this process is
 * small, rather than at a later, larger moment. Resolves to whether the host is ready; until
 * it is, `spawnProcess` holds a start back for it (up to 5 s) rather than fork this process.
 */
export function prepareSpawnHost(): Promise<boolean> {
  if (host !== undefined || unavailable) return readiness;
  const script = hostScript();
  if (script === undefined) {
    unavailable = true;
    return (readiness = Promise.resolve(false));
  }
  let started: ChildProcess;
  try {
    started = fork(fileURLToPath(script.url), [], {
      execArgv: script.execArgv,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      // Out of this process's group: a Ctrl-C in a terminal is this process's to handle.
      detached: true,
    });
  } catch {
    unavailable = true;
    return (readiness = Promise.resolve(false));
  }
  host = started;
  ready = false;
  // The host never keeps this process alive; its channel does only while the host starts (so
  // the readiness can be awaited) and while programs run through it.
  started.unref();
  readiness = new Promise<boolean>((resolve) => {
    started.on('message', (message: SpawnHostMessage, handle?: Socket) => {
      if (message.type === 'ready') {
        ready = true;
        if (pending.size === 0) started.channel?.unref();
        resolve(true);
      } else receive(message, handle);
    });
    const lost = (reason: string): void => {
      if (host !== started) return;
      host = undefined;
      // One that never got ready will not do better next time: start programs directly.
      if (!ready) unavailable = true;
      ready = false;
      resolve(false);
      for (const [id, program] of pending) {
        pending.delete(id);
        const host = `the spawn host process (PID ${started.pid ?? 'unknown'}) ${reason}`;
        endOutput(program);
        program.finish(
          program.pid === undefined
            ? { exitCode: null, signal: null, startError: new Error(`${host} before it started the command`) }
            : { exitCode: null, signal: null, lost: new Error(`${host} while the command ran; the command was stopped`) },
        );
      }
    };
    started.on('exit', (code, signal) => lost(signal !== null ? `was killed by ${signal}` : `exited with code ${code}`));
    started.on('error', (error) => lost(`failed (${error.message})`));
  });
  return readiness;
}

/** Whether the host has been forked and has not yet said it is ready: a start now should wait for it. */
export function spawnHostStarting(): boolean {
  return host !== undefined && !ready && !unavailable;
}

/** The running spawn host's PID, undefined when there is none: for diagnostics and tests. */
export function spawnHostPid(): number | undefined {
  return host?.pid;
}

/**
 * Starts `file` through the host, or returns undefined when the host is not ready (still
 * starting: see {@link spawnHostStarting}; or unavailable here: the caller starts it directly).
 */
export function spawnThroughHost(file: string, args: readonly string[], options: { cwd: string; env: Readonly<Record<string, string>>; marker: string }): HostedProgram | undefined {
  if (!ready || host === undefined || !host.connected) {
    void prepareSpawnHost();
    return undefined;
  }
  const running = host;
  const id = nextId++;
  let finish!: (exit: ProcessExit) => void;
  const exited = new Promise<ProcessExit>((resolve) => {
    finish = (exit) => {
      resolve(exit);
      if (pending.size === 0) running.channel?.unref();
    };
  });
  const program: Pending = { stdout: new PassThrough(), stderr: new PassThrough(), pipes: [], pid: undefined, started: [], finish };
  pending.set(id, program);
  running.channel?.ref();
  running.send({ id, file, args, cwd: options.cwd, env: options.env, marker: options.marker } satisfies SpawnHostRequest, (error) => {
    if (error === null || error === undefined || !pending.has(id)) return;
    pending.delete(id);
    endOutput(program);
    finish({ exitCode: null, signal: null, startError: new Error(`the spawn host process could not be reached (${error.message})`) });
  });
  return {
    get pid() {
      return program.pid;
    },
    stdout: program.stdout,
    stderr: program.stderr,
    exited,
    onStarted(listener) {
      if (program.pid !== undefined) listener(program.pid);
      else program.started.push(listener);
    },
    expectExit() {
      const timer = setTimeout(() => {
        if (!pending.has(id)) return;
        pending.delete(id);
        endOutput(program);
        finish({ exitCode: null, signal: null, lost: new Error(`the spawn host process (PID ${running.pid ?? 'unknown'}) did not report how the command ended`) });
      }, EXIT_REPORT_GRACE_MS);
      timer.unref();
      void exited.then(() => clearTimeout(timer));
    },
  };
}

function receive(message: Exclude<SpawnHostMessage, { type: 'ready' }>, handle: Socket | undefined): void {
  const program = pending.get(message.id);
  if (program === undefined) {
    handle?.destroy();
    return;
  }
  switch (message.type) {
    case 'started':
      program.pid = message.pid;
      for (const listener of program.started.splice(0)) listener(message.pid);
      return;
    case 'output': {
      const target = program[message.stream];
      if (handle === undefined || target.destroyed) {
        handle?.destroy();
        if (handle === undefined) target.end();
        return;
      }
      program.pipes.push(handle);
      handle.pipe(target);
      // A pipe that breaks ends the output with what arrived; one let go of lets go of the pipe.
      handle.once('error', () => target.end());
      target.once('close', () => handle.destroy());
      return;
    }
    case 'exit':
      pending.delete(message.id);
      program.finish({ exitCode: message.exitCode, signal: message.signal });
      return;
    case 'failed':
      pending.delete(message.id);
      endOutput(program);
      program.finish({ exitCode: null, signal: null, startError: new Error(message.message) });
      return;
  }
}

/**
 * Ends a program's output now, with what arrived: its pipes are let go of first, so nothing
 * that still comes through them is written after the end.
 */
function endOutput(program: Pending): void {
  for (const pipe of program.pipes) {
    pipe.unpipe();
    pipe.destroy();
  }
  program.stdout.end();
  program.stderr.end();
}

/**
 * The host's module: the compiled `.js` beside this file, or, when the package runs from its
 * TypeScript sources (its own tests, `tsx`), the `.ts` beside it, run through tsx. Undefined
 * when neither is there (a bundle that moved this module away from its files).
 */
function hostScript(): { url: URL; execArgv: string[] } | undefined {
  const compiled = new URL('./spawn-host.js', import.meta.url);
  const source = new URL('./spawn-host.ts', import.meta.url);
  if (compiled.protocol !== 'file:') return undefined;
  if (existsSync(fileURLToPath(compiled))) return { url: compiled, execArgv: [] };
  if (existsSync(fileURLToPath(source))) return { url: source, execArgv: ['--import', import.meta.resolve('tsx')] };
  return undefined;
}
