import { spawn } from 'node:child_process';
import { freePort } from '../../../test/support/free-port.js';
import { app, nextBin } from './next-build.js';

/** One `next start` of the built example on a free loopback port. */
export interface NextServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  /** Everything the server printed so far, for failure messages. */
  output(): string;
  /** Ends the server (SIGTERM) and waits for it; does nothing when it has exited already. */
  stop(): Promise<void>;
  /** Kills the server with SIGKILL (no shutdown of any kind) and waits until it has exited. */
  kill(): Promise<void>;
}

/**
 * Starts `next start` of the example (built by `buildExampleOnce()`) with `env` on top of this
 * process's environment, and resolves once it answers; throws with its output when it exits or
 * does not answer within 60 s. `port`: the port to listen on (to restart a stopped server where the page expects it); default a free one.
 */
export async function startNext(env: Record<string, string>, port?: number): Promise<NextServer> {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, [nextBin, 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: app,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  const stop = () => end('SIGTERM');
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`next start did not answer at ${url} within 60 s:\n${output}`);
    }
    if (await fetch(url).then((response) => response.ok, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, output: () => output, stop, kill: () => end('SIGKILL') };
}
