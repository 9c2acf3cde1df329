/**
 * Runs ripgrep through the ripgrep host (`ripgrep-host.ts`), a small process forked once:
 * starting `rg` from this process would fork it, and a fork's cost grows with the memory of
 * the process forked (about 300 ms with a gigabyte resident), all of it blocking the thread
 * that asked. From the host a start costs a few milliseconds, and the main thread only sends
 * one message and receives the parsed answer. The host starts with the first collection that
 * may use ripgrep (while the process is still small) and ends with this process.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { HostReply, HostRequest, RipgrepAnswer } from './ripgrep-host-protocol.js';
import { workerScript } from './worker-script.js';

/** Milliseconds past a run's own time limit after which a host that never answered is given up on. */
const HOST_GRACE_MS = 5_000;

let host: ChildProcess | undefined;
const pending = new Map<number, (answer: RipgrepAnswer) => void>();
let nextId = 1;

/** Starts the ripgrep host if it is not running, so the fork happens now rather than at a later, larger moment. */
export function prepareRipgrepHost(): void {
  if (host !== undefined) return;
  const script = workerScript('ripgrep-host');
  let started: ChildProcess;
  try {
    started = fork(fileURLToPath(script.url), [], {
      execArgv: script.options.execArgv ?? [],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
  } catch {
    return;
  }
  host = started;
  started.unref();
  started.channel?.unref();
  started.on('message', (message: HostReply) => pending.get(message.id)?.(message.answer));
  const lost = (): void => {
    if (host === started) host = undefined;
    for (const finish of [...pending.values()]) finish({ type: 'failed', reason: 'the ripgrep host stopped' });
  };
  started.on('exit', lost);
  started.on('error', lost);
}

/** Runs ripgrep with `args` in `cwd` through the host; a host that cannot start or dies answers `failed`. */
export function runRipgrep(request: Omit<Extract<HostRequest, { type: 'run' }>, 'type' | 'id'>, signal: AbortSignal): Promise<RipgrepAnswer> {
  if (signal.aborted) return Promise.resolve({ type: 'cancelled' });
  prepareRipgrepHost();
  const running = host;
  if (running === undefined || running.connected === false) return Promise.resolve({ type: 'failed', reason: 'the ripgrep host could not start' });
  const id = nextId++;
  return new Promise<RipgrepAnswer>((resolve) => {
    let done = false;
    const finish = (answer: RipgrepAnswer): void => {
      if (done) return;
      done = true;
      pending.delete(id);
      if (pending.size === 0) running.channel?.unref();
      clearTimeout(giveUp);
      signal.removeEventListener('abort', onAbort);
      resolve(answer);
    };
    const giveUp = setTimeout(() => finish({ type: 'failed', reason: 'the ripgrep host did not answer' }), request.timeoutMs + HOST_GRACE_MS);
    // The host stops ripgrep; this search does not wait for it to say so.
    const onAbort = (): void => {
      running.send({ type: 'cancel', id } satisfies HostRequest, () => undefined);
      finish({ type: 'cancelled' });
    };
    pending.set(id, finish);
    signal.addEventListener('abort', onAbort, { once: true });
    running.channel?.ref();
    running.send({ type: 'run', id, ...request } satisfies HostRequest, (error) => {
      if (error !== null && error !== undefined) finish({ type: 'failed', reason: 'the ripgrep host could not be reached' });
    });
  });
}
