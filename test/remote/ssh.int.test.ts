/**
 * A real OpenSSH server, started on a free loopback port with a throwaway host key and an
 * authorised key, serving a workspace through connectWorkspace({ command: ['ssh', …] }). The
 * login's home is a folder of the test's own (sshd's `SetEnv HOME`), whose `.bashrc` prints,
 * sleeps and counts its runs, as a heavy profile in a real box does.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileTools } from '../../src/dialects/file-tools.js';
import { createShellTools } from '../../src/collections/shell/index.js';
import { runTool } from '../../src/run-tool.js';
import { createSession } from '../../src/session.js';
import { connectWorkspace } from '../../src/workspace/remote/connect.js';
import { freePort } from '../support/free-port.js';
import { NODE, serverBundle, serverPid, temporaryFolder } from './support.js';

const SSHD = '/usr/sbin/sshd';
/** How long the box's `.bashrc` takes: a command that reads it takes at least this long. */
const BASHRC_SLEEP_SECONDS = 0.5;
const present = existsSync(SSHD) && spawnSync('ssh', ['-V']).status === 0 && spawnSync('ssh-keygen', ['-?']).error === undefined;

describe.skipIf(!present)('connectWorkspace through a real sshd (needs OpenSSH: /usr/sbin/sshd, ssh, ssh-keygen)', () => {
  let sshd: ChildProcess | undefined;
  let folder: string;
  let port: number;
  let sshCommand: string[];
  let home: string;

  beforeAll(async () => {
    folder = temporaryFolder('toolbelt-sshd-');
    port = await freePort();
    const key = (name: string) => spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(folder, name)], { encoding: 'utf8' });
    key('host_key');
    key('client_key');
    writeFileSync(path.join(folder, 'authorized_keys'), readFileSync(path.join(folder, 'client_key.pub')), { mode: 0o600 });
    home = path.join(folder, 'home');
    mkdirSync(home);
    // It prints to stderr: on stdout, the login shell's own run would break any ssh stdio channel (scp too).
    writeFileSync(path.join(home, '.bashrc'), `echo "the box's .bashrc ran" >&2\necho run >> "$HOME/bashrc-runs"\nsleep ${BASHRC_SLEEP_SECONDS}\n`);
    // sshd insists on its privilege-separation folder.
    if (!existsSync('/run/sshd')) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
    writeFileSync(
      path.join(folder, 'sshd_config'),
      [
        `Port ${port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${path.join(folder, 'host_key')}`,
        `AuthorizedKeysFile ${path.join(folder, 'authorized_keys')}`,
        `PidFile ${path.join(folder, 'sshd.pid')}`,
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'UsePAM no',
        'StrictModes no',
        'PermitRootLogin prohibit-password',
        'PrintMotd no',
        'AcceptEnv NONE',
        `SetEnv HOME=${home}`,
        '',
      ].join('\n'),
    );
    sshd = spawn(SSHD, ['-D', '-e', '-f', path.join(folder, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    sshd.stderr!.setEncoding('utf8').on('data', (text: string) => (log += text));
    // Wait until it accepts connections.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const probe = spawnSync('ssh', [...sshOptions(), `${userInfo().username}@127.0.0.1`, 'true'], { encoding: 'utf8', timeout: 5_000 });
      if (probe.status === 0) break;
      if (Date.now() > deadline) throw new Error(`sshd did not start: ${log} ${probe.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    sshCommand = ['ssh', ...sshOptions(), `${userInfo().username}@127.0.0.1`];
  });

  function sshOptions(): string[] {
    return ['-i', path.join(folder, 'client_key'), '-p', String(port), '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'BatchMode=yes', '-o', 'LogLevel=ERROR'];
  }

  afterAll(() => {
    sshd?.kill('SIGTERM');
  });

  it('serves the file and shell tools through ssh, with the box’s environment', async () => {
    const root = temporaryFolder('toolbelt-ssh-root-');
    writeFileSync(path.join(root, 'hello.txt'), 'hello over ssh\n');
    process.env.TOOLBELT_CALLER_ONLY = 'not for the box';
    const workspace = await connectWorkspace({ command: [...sshCommand, NODE, await serverBundle(), 'serve-workspace', '--root', root] });
    try {
      expect(workspace.root).toBe(root);
      const files = createFileTools({ workspace });
      const session = createSession();
      const read = await runTool(files.tools.find((tool) => tool.name === 'read_file')!, { path: 'hello.txt' }, { session });
      expect(read.text).toBe('hello.txt: line 1 of 1 (end of file).\n1: hello over ssh');
      const write = await runTool(files.tools.find((tool) => tool.name === 'write_file')!, { path: 'hello.txt', content: 'rewritten\n' }, { session, mode: 'auto' });
      expect(write.isError).toBe(false);
      expect(readFileSync(path.join(root, 'hello.txt'), 'utf8')).toBe('rewritten\n');
      const shell = createShellTools({ workspace });
      const run = await runTool(shell.tools.find((tool) => tool.name === 'run_shell')!, { command: 'echo "[${TOOLBELT_CALLER_ONLY-unset}] [${SSH_CONNECTION:+ssh}]"; pwd' }, { session, mode: 'auto' });
      expect(run.data).toMatchObject({ output: `[unset] [ssh]\n${root}` });
    } finally {
      delete process.env.TOOLBELT_CALLER_ONLY;
      await workspace.close();
    }
  });

  /** How many times the box's `.bashrc` has run. */
  function bashrcRuns(): number {
    const file = path.join(home, 'bashrc-runs');
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
  }

  it('runs each command without the box’s ~/.bashrc: only the ssh login reads it', async () => {
    const root = temporaryFolder('toolbelt-ssh-root-');
    const before = bashrcRuns();
    const workspace = await connectWorkspace({ command: [...sshCommand, NODE, await serverBundle(), 'serve-workspace', '--root', root] });
    try {
      // The shell ssh logs in with reads it once, before it starts the server: ssh's doing, not ours.
      expect(bashrcRuns()).toBe(before + 1);
      const runShell = createShellTools({ workspace }).tools.find((tool) => tool.name === 'run_shell')!;
      const durations: number[] = [];
      for (let index = 0; index < 5; index += 1) {
        const started = performance.now();
        const run = await runTool(runShell, { command: 'echo hi' }, { session: createSession(), mode: 'auto' });
        durations.push(performance.now() - started);
        expect(run.data).toMatchObject({ status: 'exited', exitCode: 0, output: 'hi' });
      }
      expect(bashrcRuns()).toBe(before + 1);
      // A command that read it would take its sleep at least.
      expect(durations.sort((a, b) => a - b)[2]).toBeLessThan(BASHRC_SLEEP_SECONDS * 1000);
      // The box's ssh variables still reach commands, at the level a command typed at the ssh prompt has.
      const level = await runTool(runShell, { command: 'echo "$SHLVL ${SSH_CLIENT:+ssh}"' }, { session: createSession(), mode: 'auto' });
      expect(level.data).toMatchObject({ output: '2 ssh' });
    } finally {
      await workspace.close();
    }
  });

  it('says the ssh connection ended when the server is killed in the box', async () => {
    const root = temporaryFolder('toolbelt-ssh-root-');
    const workspace = await connectWorkspace({ command: [...sshCommand, NODE, await serverBundle(), 'serve-workspace', '--root', root] });
    try {
      const listDirectory = createFileTools({ workspace }).tools.find((tool) => tool.name === 'list_directory')!;
      process.kill(serverPid(root), 'SIGKILL');
      const started = Date.now();
      const result = await runTool(listDirectory, {}, { session: createSession() });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(
        /^The remote workspace \(`ssh … .* serve-workspace --root .*`\) is gone: the ssh connection ended \(`ssh` exited with code 255: the connection failed or dropped, or the server in the box was killed\)\. /,
      );
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await workspace.close();
    }
  });

  it('runs the single-file server uploaded through ssh (the README’s recipe)', async () => {
    const root = temporaryFolder('toolbelt-ssh-root-');
    writeFileSync(path.join(root, 'hello.txt'), 'hello\n');
    const target = path.join(temporaryFolder('toolbelt-ssh-upload-'), 'agent-toolbelt-serve-workspace.mjs');
    const upload = spawnSync(sshCommand[0]!, [...sshCommand.slice(1), `cat > ${target}`], { input: readFileSync(await serverBundle()), encoding: 'utf8', timeout: 20_000 });
    expect(upload.status, upload.stderr).toBe(0);
    const workspace = await connectWorkspace({ command: [...sshCommand, NODE, target, 'serve-workspace', '--root', root] });
    try {
      const read = await runTool(createFileTools({ workspace }).tools.find((tool) => tool.name === 'read_file')!, { path: 'hello.txt' }, { session: createSession() });
      expect(read.text).toBe('hello.txt: line 1 of 1 (end of file).\n1: hello');
    } finally {
      await workspace.close();
    }
  });

  it('fails naming ssh’s own complaint when the key is refused', async () => {
    const error = await connectWorkspace({
      command: ['ssh', '-p', String(port), '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'BatchMode=yes', '-o', 'IdentitiesOnly=yes', '-i', '/dev/null', 'nobody@127.0.0.1', 'true'],
    }).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/the ssh connection ended \(`ssh` exited with code 255: .*Permission denied/s);
  });
});
