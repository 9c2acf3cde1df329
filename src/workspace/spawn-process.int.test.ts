import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, waitFor } from '../collections/shell/test-support/harness.js';

/** A Node.js process that starts `sleep` through spawnProcess, prints the PIDs, then waits. */
const script = (pidFile: string) => `
import { spawnProcess } from ${JSON.stringify(path.resolve('src/workspace/spawn-process.ts'))};
const child = spawnProcess('bash', ['-c', 'sleep 300 & echo $! > ${pidFile}; echo $$ >> ${pidFile}; wait'], { cwd: '/', env: { PATH: process.env.PATH } });
child.stdout.resume();
setInterval(() => {}, 1000);
`;

describe('spawnProcess', () => {
  it('kills the detached process tree when the host dies of an unhandled SIGTERM or SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-spawn-'));
      const pidFile = path.join(folder, 'pids');
      const host = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(pidFile)], { stdio: 'ignore' });
      expect(await waitFor(async () => (await fs.readFile(pidFile, 'utf8').catch(() => '')).trim().split('\n').length === 2, 10_000)).toBe(true);
      const pids = (await fs.readFile(pidFile, 'utf8')).trim().split('\n').map(Number);
      expect(pids.every(isAlive)).toBe(true);
      const exited = new Promise<NodeJS.Signals | null>((resolve) => host.once('exit', (_code, received) => resolve(received)));
      host.kill(signal);
      expect(await exited).toBe(signal);
      expect(await waitFor(() => pids.every((pid) => !isAlive(pid)))).toBe(true);
    }
  }, 30_000);

  it('leaves the decision to a host that handles the signal itself', async () => {
    const output = execFileSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', `
        import { spawnProcess } from ${JSON.stringify(path.resolve('src/workspace/spawn-process.ts'))};
        process.on('SIGTERM', () => { console.log('host handled it'); process.exit(0); });
        const child = spawnProcess('sleep', ['300'], { cwd: '/', env: { PATH: process.env.PATH } });
        setTimeout(() => process.kill(process.pid, 'SIGTERM'), 200);
        process.on('exit', () => console.log('exit hook ran; child ' + child.pid));
      `],
      { encoding: 'utf8' },
    );
    expect(output).toMatch(/^host handled it\nexit hook ran; child \d+\n$/);
    const pid = Number(/child (\d+)/.exec(output)![1]);
    expect(await waitFor(() => !isAlive(pid))).toBe(true);
  });
});
