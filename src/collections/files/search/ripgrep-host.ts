/**
 * The ripgrep host: a small Node.js process that starts `rg` for the searches of the process
 * that forked it (see `ripgrep-process.ts`) and sends back the parsed answer. Starting a
 * program forks the process that starts it, and a fork costs in proportion to that process's
 * memory: a few milliseconds here, hundreds in a server holding a gigabyte, all of it on the
 * thread that asked. Never imported by the library itself; forked from its own module file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { HostReply, HostRequest } from './ripgrep-host-protocol.js';
import { parseRipgrepOutput } from './ripgrep-output.js';
import { lowerThisThreadsPriority } from './priority.js';

/** Milliseconds between asking ripgrep to stop and making it. */
const FORCE_KILL_AFTER_MS = 1_000;

// ripgrep, started from this thread, inherits its lower priority.
lowerThisThreadsPriority();

const running = new Map<number, { readonly child: ChildProcess; readonly stop: (answer: HostReply['answer']) => void }>();

function reply(message: HostReply): void {
  process.send?.(message);
}

function start(request: Extract<HostRequest, { type: 'run' }>): void {
  let settled = false;
  const chunks: Buffer[] = [];
  let bytes = 0;
  let child: ChildProcess;
  try {
    child = spawn(request.program, request.args, {
      cwd: request.cwd,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, RIPGREP_CONFIG_PATH: '' },
      windowsHide: true,
    });
  } catch (error) {
    reply({ id: request.id, answer: { type: 'failed', reason: (error as Error).message } });
    return;
  }
  const finish = (answer: HostReply['answer']): void => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    running.delete(request.id);
    reply({ id: request.id, answer });
  };
  const stop = (answer: HostReply['answer']): void => {
    finish(answer);
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), FORCE_KILL_AFTER_MS).unref();
  };
  const timer = setTimeout(() => stop({ type: 'timeout' }), request.timeoutMs);
  running.set(request.id, { child, stop });
  child.stdout!.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > request.maxBytes) stop({ type: 'failed', reason: 'more output than expected' });
    else chunks.push(chunk);
  });
  child.on('error', (error: NodeJS.ErrnoException) => finish({ type: 'failed', reason: error.code === 'ENOENT' ? 'not found' : error.message }));
  child.on('close', (code, signal) => {
    // 0: matches, 1: none; 2 (an error, such as a folder it could not read) or anything else: without ripgrep.
    if (code !== 0 && code !== 1) finish({ type: 'failed', reason: `exit code ${code ?? signal}` });
    else finish(parseRipgrepOutput(Buffer.concat(chunks)));
  });
}

process.on('message', (request: HostRequest) => {
  if (request.type === 'run') start(request);
  else running.get(request.id)?.stop({ type: 'cancelled' });
});
// The parent went away: so does the host, and ripgrep with it.
process.on('disconnect', () => {
  for (const { child } of running.values()) child.kill('SIGKILL');
  process.exit(0);
});
