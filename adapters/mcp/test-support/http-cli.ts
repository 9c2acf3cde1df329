import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Test support: the CLI started with --http from source (through tsx, so no build is needed).

const repository = fileURLToPath(new URL('../../..', import.meta.url));
const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));

/** A running `agent-toolbelt mcp --http` process and the URL it printed. */
export interface HttpCli {
  readonly url: URL;
  readonly process: ChildProcess;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * Starts `agent-toolbelt mcp --http --port 0 ...args` and waits for the line naming its URL.
 * Rejects with the process's stderr when it exits first or takes longer than `timeoutMs`.
 */
export function startHttpCli(args: readonly string[], options: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<HttpCli> {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'mcp', '--http', '--port', '0', ...args], {
    cwd: repository,
    env: { ...process.env, TOOLBELT_MCP_TOKEN: '', ...options.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise<HttpCli>((resolve, reject) => {
    const timer = setTimeout(() => (child.kill(), reject(new Error(`The CLI printed no URL in time:\n${stderr}`))), options.timeoutMs ?? 20_000);
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /over Streamable HTTP at (http:\/\/\S+?\/mcp)/.exec(stderr);
      if (match === null) return;
      clearTimeout(timer);
      resolve({
        url: new URL(match[1]!),
        process: child,
        stderr: () => stderr,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(Object.assign(new Error(`The CLI exited with code ${code}:\n${stderr}`), { code, stderr }))));
  });
}
