import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { createSession } from '../../session.js';
import { createShellTools } from './index.js';
import { findExecutable, probeBwrap } from './sandbox.js';
import { runShellOf, temporaryWorkspace, waitFor } from './test-support/harness.js';

const bwrap = findExecutable('bwrap');
const probe = bwrap === undefined ? undefined : probeBwrap(bwrap, os.tmpdir());
const usable = probe?.usable === true;
if (!usable) {
  console.warn(
    bwrap === undefined
      ? 'Skipping the bubblewrap sandbox tests: bwrap is not installed (apt-get install bubblewrap).'
      : `Skipping the bubblewrap sandbox tests: bwrap cannot create its sandbox here (${probe?.usable === false ? probe.reason : ''}).`,
  );
}

async function sandboxed() {
  const workspace = await temporaryWorkspace('sandbox-');
  const tool = runShellOf(createShellTools({ workspace, sandbox: 'bwrap' }));
  const session = createSession();
  return { workspace, run: (command: string, extra: Record<string, unknown> = {}) => runTool(tool, { command, ...extra }, { session, mode: 'auto' }) };
}

describe.skipIf(!usable)('run_shell under bubblewrap', () => {
  it('writes inside the workspace and nowhere else', async () => {
    const { workspace, run } = await sandboxed();
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-outside-'));
    const result = await run(`echo inside > inside.txt && echo ok; touch ${outside}/escaped; echo "touch=$?"; touch /usr/escaped; echo "usr=$?"; touch /tmp/private && echo tmp-ok`);
    expect(result.data).toMatchObject({ status: 'exited' });
    expect((result.data as { output: string }).output).toMatch(/^ok\ntouch: cannot touch '.*\/escaped': No such file or directory\ntouch=1\ntouch: cannot touch '\/usr\/escaped': Read-only file system\nusr=1\ntmp-ok$/);
    expect(await fs.readFile(path.join(workspace.root, 'inside.txt'), 'utf8')).toBe('inside\n');
    expect(existsSync(path.join(outside, 'escaped'))).toBe(false);
    expect(existsSync('/usr/escaped')).toBe(false);
    expect(existsSync('/tmp/private')).toBe(false);
  });

  it('cannot read the home folder, other paths or the secret parts of /etc', async () => {
    const { run } = await sandboxed();
    const secret = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-secret-'));
    await fs.writeFile(path.join(secret, 'key'), 'hunter2');
    const result = await run(`cat ${secret}/key; ls ${os.homedir()} >/dev/null 2>&1; echo "home=$?"; test -e /etc/shadow; echo "shadow=$?"; echo "HOME=$HOME"`);
    const output = (result.data as { output: string }).output;
    expect(output).not.toContain('hunter2');
    expect(output).toContain(`cat: ${secret}/key: No such file or directory`);
    expect(output).toContain('home=2');
    expect(output).toContain('shadow=1');
    expect(output).toContain('HOME=/tmp');
  });

  it('has no network: only a loopback of its own, and the host\'s listening port cannot be reached', async () => {
    const server = net.createServer((socket) => socket.end('hello from the host\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const connect = `(exec 3<>/dev/tcp/127.0.0.1/${port} && head -n 1 <&3) 2>&1; echo "tcp=$?"`;
      const host = await runTool(runShellOf(createShellTools({ workspace: await temporaryWorkspace() })), { command: connect }, { session: createSession(), mode: 'auto' });
      expect((host.data as { output: string }).output).toBe('hello from the host\ntcp=0');
      const { run } = await sandboxed();
      const result = await run(`tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '; ${connect}`);
      const output = (result.data as { output: string }).output;
      // One interface, lo, then only the refused connection.
      expect(output).toMatch(/^lo\n(.*Connection refused\n)+tcp=1$/);
    } finally {
      server.close();
    }
  });

  it('sees its own processes only, and still honours working_directory and the timeout', async () => {
    const { workspace, run } = await sandboxed();
    await fs.mkdir(path.join(workspace.root, 'sub'));
    const pids = await run('pwd; ps -e --no-headers | wc -l', { working_directory: 'sub' });
    const [folder, count] = (pids.data as { output: string }).output.split('\n');
    expect(folder).toBe(path.join(workspace.root, 'sub'));
    expect(Number(count)).toBeLessThan(6);
    const slow = await run('echo start; sleep 31.4159', { timeout_seconds: 1 });
    expect(slow.data).toMatchObject({ status: 'timed-out', output: 'start' });
    expect(spawnSync('pgrep', ['-f', 'sleep 31.4159']).stdout.toString().trim()).toBe('');
  });

  it('ends leftover background processes with the command, even ones in their own session', async () => {
    const { run } = await sandboxed();
    const started = Date.now();
    const result = await run('sleep 32.718 & setsid sleep 32.718 > /dev/null 2>&1 & echo left');
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(result.data).toMatchObject({ status: 'exited', exitCode: 0, output: 'left' });
    expect(result.text).not.toContain('kept its output open');
    expect(await waitFor(() => spawnSync('pgrep', ['-f', 'sleep 32.718']).stdout.toString().trim() === '')).toBe(true);
  });
});
