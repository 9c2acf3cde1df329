/**
 * The spawn host: a small Node.js process that starts programs for the process that forked it
 * (see `spawn-host-client.ts`) and hands it each program's output pipes, so their bytes go
 * straight from the program to that process. Starting a program forks the process that starts
 * it, and a fork's cost grows with that process's memory: a few milliseconds here, around a
 * hundred in a server holding a gigabyte, all of it blocking the thread that asked. Never
 * imported by the library itself; forked from its own module file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { ProcessTreeSignaller } from './process-tree.js';
import type { SpawnHostMessage, SpawnHostRequest } from './spawn-host-protocol.js';

const running = new Map<number, { readonly pid: number; readonly tree: ProcessTreeSignaller }>();

/** How often the host checks that the process that forked it is still its parent. */
const PARENT_CHECK_MS = 1_000;

function send(message: SpawnHostMessage, handle?: Socket): void {
  // A parent that has gone away is handled by `disconnect`; nothing to do here.
  process.send?.(message, handle, undefined, () => handle?.destroy());
}

/**
 * Node.js starts reading a child's pipe as soon as it makes the socket; bytes read here before
 * the pipe is handed over would be lost. Stopping the read before the event loop first polls
 * means none is read. (`_handle` is the stream's libuv handle, which `send` hands over.)
 */
function holdReading(socket: Socket): void {
  const handle = (socket as unknown as { _handle?: { reading: boolean; readStop(): number } })._handle;
  if (handle === undefined) return;
  handle.reading = false;
  handle.readStop();
}

function start(request: SpawnHostRequest): void {
  let child: ChildProcess;
  try {
    child = spawn(request.file, request.args, {
      cwd: request.cwd,
      env: request.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // A process group and session of its own, as spawn-process.ts starts programs itself.
      detached: true,
      windowsHide: true,
    });
  } catch (error) {
    send({ type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) });
    return;
  }
  const pid = child.pid;
  if (pid === undefined) {
    // Not started (no such program, no such folder): Node.js says why in an `error` event.
    child.once('error', (error) => send({ type: 'failed', id: request.id, message: error.message }));
    return;
  }
  child.on('error', () => undefined);
  running.set(request.id, { pid, tree: new ProcessTreeSignaller(request.marker) });
  send({ type: 'started', id: request.id, pid });
  for (const stream of ['stdout', 'stderr'] as const) {
    const socket = child[stream] as Socket;
    holdReading(socket);
    send({ type: 'output', id: request.id, stream }, socket);
  }
  child.once('exit', (exitCode, signal) => {
    running.delete(request.id);
    send({ type: 'exit', id: request.id, exitCode, signal });
  });
}

process.on('message', (request: SpawnHostRequest) => start(request));

/** The parent went away (killed, or it crashed): so do the programs it started, and the host. */
function parentGone(): void {
  for (const { pid, tree } of running.values()) tree.signalNow(pid, 'SIGKILL');
  process.exit(0);
}
process.on('disconnect', parentGone);
// The channel's end is how the host hears of it first. Twice in CI under load, host and programs
// were still alive 10 s after the parent's SIGKILL, so the host also looks whether it has been
// handed to another parent (the parent's death reparents it), once a second.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) parentGone();
}, PARENT_CHECK_MS).unref();
send({ type: 'ready' });
