import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { createSession } from '../../session.js';
import { createShellTools } from './index.js';
import { isAlive, readPids, runShellOf, shellHarness, temporaryWorkspace, waitFor } from './test-support/harness.js';

describe('run_shell: running commands', () => {
  it('starts with the status and exit code, then the output', async () => {
    const { run } = await shellHarness();
    const result = await run({ command: 'echo hello; exit 3' });
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(/^Status: exited\nExit code: 3\nDuration: \d+ ms\nOutput:\nhello$/);
    expect(result.data).toMatchObject({ status: 'exited', exitCode: 3, output: 'hello', command: 'echo hello; exit 3', workingDirectory: '.' });
  });

  it('uses bash, so bash syntax works', async () => {
    const { run } = await shellHarness();
    const result = await run({ command: 'a=(x y z); [[ ${#a[@]} == 3 ]] && echo "three: ${a[2]}"' });
    expect(result.data).toMatchObject({ exitCode: 0, output: 'three: z' });
  });

  it('closes standard input, so cat returns at once', async () => {
    const { run } = await shellHarness();
    const started = Date.now();
    const result = await run({ command: 'cat; read line; echo "read=$?"', timeout_seconds: 20 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result.data).toMatchObject({ status: 'exited', exitCode: 0, output: 'read=1' });
  });

  it('merges stdout and stderr in the order they were written', async () => {
    const { run } = await shellHarness();
    const command = 'for i in 1 2 3 4 5 6; do echo "out $i"; echo "err $i" >&2; done';
    const result = await run({ command });
    const expected = [1, 2, 3, 4, 5, 6].map((i) => `out ${i}\nerr ${i}`).join('\n');
    expect(result.data).toMatchObject({ output: expected });
  });

  it('keeps stdout and stderr apart with separateStreams', async () => {
    const { run } = await shellHarness({ separateStreams: true });
    const result = await run({ command: 'echo one; echo two >&2; echo three' });
    expect(result.text).toContain('Stdout:\none\nthree\nStderr:\ntwo');
    expect(result.data).toMatchObject({ output: 'one\nthree', stderr: 'two' });
  });

  it('strips ANSI colours and terminal escapes, split across writes too', async () => {
    const { run } = await shellHarness();
    const command = String.raw`printf '\033[1;31mred\033[0m plain \033]8;;https://x.test\007link\033]8;;\007\n'; printf '\033[3'; sleep 0.05; printf '2mgreen\033[0m\r\n'`;
    const result = await run({ command });
    expect(result.data).toMatchObject({ output: 'red plain link\ngreen' });
  });

  it('keeps UTF-8 characters whole when their bytes arrive in separate chunks', async () => {
    const { run } = await shellHarness();
    // "é" is C3 A9, "😀" is F0 9F 98 80: each is split across two writes with a pause between.
    const command = String.raw`printf 'caf\xc3'; sleep 0.1; printf '\xa9 \xf0\x9f'; sleep 0.1; printf '\x98\x80 日本\n'`;
    const result = await run({ command });
    expect(result.data).toMatchObject({ output: 'café 😀 日本' });
  });

  it('reports a command that cannot start', async () => {
    const workspace = await temporaryWorkspace();
    const tool = runShellOf(createShellTools({ workspace, shell: '/nonexistent/shell' }));
    const result = await runTool(tool, { command: 'echo hi' }, { session: createSession(), mode: 'auto' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Status: failed to start: .*ENOENT/);
    expect(result.text).toContain('The command was not run. The shell is shell;');
    expect(result.data).toMatchObject({ status: 'failed-to-start', exitCode: null });
  });

  it('says that a command that only changes directory had no lasting effect', async () => {
    const { run, workspace } = await shellHarness();
    await fs.mkdir(path.join(workspace.root, 'src'));
    const result = await run({ command: 'cd src' });
    expect(result.text).toContain('Note: The command only changed directory. Each call starts a fresh shell in the workspace root, so it had no lasting effect: pass working_directory to run a command elsewhere.');
    const next = await run({ command: 'pwd' });
    expect(next.data).toMatchObject({ output: workspace.root });
  });
});

describe('run_shell: timeouts, cancellation and the process tree', () => {
  it('times out, returns the output so far and kills grandchildren, even ones in their own session', async () => {
    const { run, workspace } = await shellHarness();
    const pids = path.join(workspace.root, 'pids');
    const command = `echo before; sleep 300 & echo $! >> pids; (setsid sleep 300 & echo $! >> pids; wait) & bash -c 'echo $$ >> pids; sleep 300' & sleep 300`;
    const started = Date.now();
    const result = await run({ command, timeout_seconds: 1 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Status: timed out after 1\.0 s; the command and every process it started were stopped\.\nExit code: none\n/);
    expect(result.text).toContain('Output so far:\nbefore');
    expect(result.data).toMatchObject({ status: 'timed-out', output: 'before' });
    const children = await readPids(pids);
    expect(children).toHaveLength(3);
    expect(await waitFor(() => children.every((pid) => !isAlive(pid)), 3_000)).toBe(true);
  });

  it('stops the whole tree when the call is aborted', async () => {
    const { run, workspace } = await shellHarness();
    const controller = new AbortController();
    const pidFile = path.join(workspace.root, 'pids');
    const pending = run({ command: 'echo started; sleep 300 & echo $! >> pids; sleep 300 & echo $! >> pids; wait', timeout_seconds: 60 }, { signal: controller.signal });
    expect(await waitFor(async () => existsSync(pidFile) && (await readPids(pidFile)).length === 2)).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Status: cancelled; the command and every process it started were stopped\./);
    expect(result.text).toContain('Output so far:\nstarted');
    const children = await readPids(pidFile);
    expect(await waitFor(() => children.every((pid) => !isAlive(pid)), 3_000)).toBe(true);
  });

  it('does not wait for a leftover background child that holds the output open', async () => {
    const { run, workspace } = await shellHarness();
    const started = Date.now();
    const result = await run({ command: 'sleep 30 & echo $! > pid; echo done' });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1_900);
    expect(elapsed).toBeLessThan(3_500);
    expect(result.data).toMatchObject({ status: 'exited', exitCode: 0, output: 'done' });
    expect(result.text).toContain('Note: The command ended, but a process it left running in the background kept its output open, so it was stopped after 2 s.');
    const [pid] = await readPids(path.join(workspace.root, 'pid'));
    expect(await waitFor(() => !isAlive(pid!))).toBe(true);
  });

  it('also stops a leftover that started a session of its own and still holds the output open', async () => {
    const { run, workspace } = await shellHarness();
    const result = await run({ command: 'setsid sleep 30 & echo $! > pid; echo done' });
    expect(result.text).toContain('Note: The command ended, but a process it left running in the background kept its output open, so it was stopped after 2 s.');
    const [pid] = await readPids(path.join(workspace.root, 'pid'));
    const stopped = await waitFor(() => !isAlive(pid!));
    if (!stopped) process.kill(pid!, 'SIGKILL');
    expect(stopped).toBe(true);
  });

  it('caps timeout_seconds at the host maximum with a note, and refuses less than 1', async () => {
    const { run } = await shellHarness({ timeoutMs: 1_000, maxTimeoutMs: 2_000 });
    const capped = await run({ command: 'sleep 5', timeout_seconds: 900 });
    expect(capped.text).toMatch(/^Status: timed out after 2\.0 s;/);
    expect(capped.text).toContain("Note: timeout_seconds 900 is above this host's maximum, so the command ran with 2 s.");
    const tooSmall = await run({ command: 'echo hi', timeout_seconds: 0.5 });
    expect(tooSmall.isError).toBe(true);
    expect(tooSmall.text).toBe(
      'Invalid arguments for run_shell: `timeout_seconds`: timeout_seconds must be at least 1; leave it out for the default of 1 s. Fix the arguments and call run_shell again.',
    );
  });
});

describe('run_shell: long output', () => {
  it('cuts the middle to fit the budget and spills everything to a file it names', async () => {
    const { run, workspace } = await shellHarness({ maxOutputCharacters: 5_000 });
    const result = await run({ command: 'seq 1 20000' });
    expect(result.text.length).toBeLessThanOrEqual(5_000);
    expect(result.text).toMatch(/^Status: exited\nExit code: 0\n/);
    expect(result.text).toMatch(/Output:\n1\n2\n3\n/);
    expect(result.text).toMatch(/\n19999\n20000$/);
    const marker = /\[… ([\d,]+) characters \(([\d,]+) lines\) left out of the middle\. The whole of the output is saved in (\.toolbelt\/output\/shell-\d{8}-\d{6}-\w+\.txt); read it with read_file \(start_line\/end_line\) or search it with search_files\.\]/.exec(result.text);
    expect(marker).not.toBeNull();
    const spill = marker![3]!;
    const whole = await fs.readFile(path.join(workspace.root, spill), 'utf8');
    const expected = Array.from({ length: 20000 }, (_, index) => `${index + 1}\n`).join('');
    expect(whole).toBe(expected);
    // What is shown plus what was left out is everything.
    const shownLines = (result.data as { output: string }).output.split('\n').filter((line) => /^\d+$/.test(line)).length;
    expect(shownLines + Number(marker![2]!.replaceAll(',', ''))).toBe(20000);
    expect(result.data).toMatchObject({ spillFile: spill });
    expect(await fs.readFile(path.join(workspace.root, '.toolbelt/.gitignore'), 'utf8')).toBe('*\n');
  });

  it('cuts long lines, and the spill file keeps them whole', async () => {
    const { run, workspace } = await shellHarness({ maxLineCharacters: 100 });
    const result = await run({ command: 'printf "%0300d\\nshort\\n" 0' });
    expect(result.text).toContain(`Output:\n${'0'.repeat(100)} … [200 more characters on this line]\nshort`);
    expect(result.text).toContain('Note: 1 long line(s) of the output were cut.');
    const spill = (result.data as { spillFile: string }).spillFile;
    expect(await fs.readFile(path.join(workspace.root, spill), 'utf8')).toBe(`${'0'.repeat(300)}\nshort\n`);
  });

  it('says so and still cuts when the spill file cannot be written', async () => {
    const { run, workspace } = await shellHarness({ maxOutputCharacters: 2_000 });
    await fs.writeFile(path.join(workspace.root, '.toolbelt'), 'a file where the folder should be');
    const result = await run({ command: 'seq 1 5000' });
    expect(result.text.length).toBeLessThanOrEqual(2_000);
    expect(result.text).toMatch(/left out of the middle\. The whole of the output could not be saved \(The workspace's private folder `\.toolbelt` is a file, so nothing was written there\. Ask the user to remove or rename it\.\)\.\]/);
    expect(result.data).not.toHaveProperty('spillFile');
  });

  it('keeps only matching lines with output_filter and says how many of how many', async () => {
    const { run } = await shellHarness();
    const result = await run({ command: 'for i in $(seq 1 50); do if (( i % 10 == 0 )); then echo "error $i"; else echo "ok $i"; fi; done', output_filter: '^error' });
    expect(result.data).toMatchObject({ output: 'error 10\nerror 20\nerror 30\nerror 40\nerror 50' });
    expect(result.text).toContain('Note: output_filter kept 5 of 50 lines.');
  });

  it('refuses an invalid output_filter before running anything', async () => {
    const { run, workspace } = await shellHarness();
    const result = await run({ command: 'touch ran', output_filter: '(' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Invalid arguments for run_shell: `output_filter`: not a valid regular expression \(Invalid regular expression: \/\(\/: Unterminated group\); fix or drop output_filter\./);
    expect(existsSync(path.join(workspace.root, 'ran'))).toBe(false);
  });
});

describe('run_shell: environment', () => {
  it('adds the non-interactive set to the host environment', async () => {
    const { run, workspace } = await shellHarness();
    const result = await run({ command: 'echo "$GIT_TERMINAL_PROMPT $GCM_INTERACTIVE $NO_COLOR $PAGER $GIT_PAGER $DEBIAN_FRONTEND $GIT_EDITOR"; echo "$HOME"' });
    // The host environment is the workspace's: this process's, or a remote box's own.
    expect(result.data).toMatchObject({ output: `0 never 1 cat cat noninteractive true\n${workspace.processEnvironment().HOME ?? os.homedir()}` });
  });

  it('overrides and removes variables with env', async () => {
    process.env.TOOLBELT_TEST_REMOVED = 'visible';
    try {
      const { run } = await shellHarness({ env: { TOOLBELT_TEST_SET: 'set here', TOOLBELT_TEST_REMOVED: undefined, PAGER: 'less' } });
      const result = await run({ command: 'echo "[$TOOLBELT_TEST_SET] [${TOOLBELT_TEST_REMOVED-unset}] [$PAGER]"' });
      expect(result.data).toMatchObject({ output: '[set here] [unset] [less]' });
    } finally {
      delete process.env.TOOLBELT_TEST_REMOVED;
    }
  });

  it('withholds the host environment with inheritEnv: false, keeping PATH and the named variables', async () => {
    process.env.TOOLBELT_TEST_SECRET = 'hunter2';
    try {
      const { run } = await shellHarness({ inheritEnv: false, env: { NEEDED: 'yes' } });
      const result = await run({ command: 'env | grep -c hunter2; echo "[${TOOLBELT_TEST_SECRET-absent}] [$NEEDED] [${HOME-no home}]"; command -v ls' });
      expect(result.data).toMatchObject({ output: `0\n[absent] [yes] [no home]\n${(await import('./sandbox.js')).findExecutable('ls')}` });
    } finally {
      delete process.env.TOOLBELT_TEST_SECRET;
    }
  });
});

describe('run_shell: working_directory', () => {
  it('runs in a folder inside the workspace', async () => {
    const { run, workspace } = await shellHarness();
    await fs.mkdir(path.join(workspace.root, 'packages/app'), { recursive: true });
    const result = await run({ command: 'pwd', working_directory: 'packages/app' });
    expect(result.data).toMatchObject({ output: path.join(workspace.root, 'packages/app'), workingDirectory: 'packages/app' });
  });

  it('refuses .., a link out and a missing folder before running anything', async () => {
    const { run, workspace, tool, session } = await shellHarness();
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-outside-'));
    await fs.symlink(outside, path.join(workspace.root, 'escape'));
    const asked: string[] = [];
    const approve = (request: { description: string }) => {
      asked.push(request.description);
      return 'approve' as const;
    };
    const up = await runTool(tool, { command: 'touch ran', working_directory: '..' }, { session, approve });
    expect(up.text).toBe('working_directory: `..` is outside the workspace. Use a path relative to the workspace root, such as `src/index.ts`.');
    const link = await run({ command: 'touch ran', working_directory: 'escape' });
    expect(link.text).toBe('working_directory: `escape` leads outside the workspace through a symbolic link, so it cannot be used. Work with files inside the workspace.');
    const missing = await run({ command: 'touch ran', working_directory: 'nope' });
    expect(missing.text).toBe('working_directory: The folder `nope` does not exist. Check the path with list_directory.');
    for (const result of [up, link, missing]) expect(result.isError).toBe(true);
    expect(asked).toEqual([]);
    expect(existsSync(path.join(outside, 'ran'))).toBe(false);
    expect(existsSync(path.join(workspace.root, 'ran'))).toBe(false);
  });
});

describe('run_shell: approval', () => {
  it('asks by default, describes the call and remembers "always" by the first words', async () => {
    const { tool, session } = await shellHarness();
    const requests: Array<{ description: string; canAlwaysApprove: boolean }> = [];
    const approve = (request: { description: string; canAlwaysApprove: boolean }) => {
      requests.push(request);
      return 'always' as const;
    };
    expect((await runTool(tool, { command: 'git --version' }, { session, approve })).isError).toBe(false);
    expect((await runTool(tool, { command: 'git --version' }, { session, approve })).isError).toBe(false);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ description: 'Run: git --version', canAlwaysApprove: true });
    expect(session.approvals).toEqual(['run_shell:git --version']);
    await runTool(tool, { command: 'git status' }, { session, approve });
    expect(requests).toHaveLength(2);

    await runTool(tool, { command: 'echo a && echo b' }, { session, approve });
    await runTool(tool, { command: 'echo a && echo b' }, { session, approve });
    expect(requests.slice(2).map((request) => request.canAlwaysApprove)).toEqual([false, false]);
    expect(session.approvals).toEqual(['run_shell:git --version', 'run_shell:git status']);
  });

  it('is refused without an approver', async () => {
    const { tool, session, workspace } = await shellHarness();
    const result = await runTool(tool, { command: 'touch ran' }, { session });
    expect(result.text).toBe(
      "run_shell needs the user's approval and this host cannot ask for it, so it was not run. Tell the user what you wanted to do and let them run it, or use a tool that needs no approval.",
    );
    expect(existsSync(path.join(workspace.root, 'ran'))).toBe(false);
  });
});

describe('run_shell: launcher', () => {
  it('starts the shell through the launcher', async () => {
    const workspace = await temporaryWorkspace();
    const log = path.join(workspace.root, 'launcher.log');
    const launcher = path.join(workspace.root, 'launch.sh');
    await fs.writeFile(launcher, `#!/bin/sh\necho "launched: $*" >> '${log}'\nshift\nexec "$@"\n`, { mode: 0o755 });
    const tool = runShellOf(createShellTools({ workspace, launcher: [launcher, '--flag'], shell: 'bash' }));
    const result = await runTool(tool, { command: 'echo via launcher' }, { session: createSession(), mode: 'auto' });
    expect(result.data).toMatchObject({ status: 'exited', exitCode: 0, output: 'via launcher' });
    expect(await fs.readFile(log, 'utf8')).toBe('launched: --flag bash -c exec 2>&1; echo via launcher\n');
  });
});

describe('run_shell: separate streams that overflow', () => {
  it('cuts each stream in the middle, saves each whole, and stays within the budget', async () => {
    const { run, workspace } = await shellHarness({ separateStreams: true, maxOutputCharacters: 4_000 });
    const result = await run({ command: 'seq 1 3000; seq 5001 8000 >&2' });
    expect(result.text.length).toBeLessThanOrEqual(4_000);
    expect(result.text).toMatch(/Stdout:\n1\n2\n[\s\S]*The whole of stdout is saved in (\.toolbelt\/output\/shell-[\w-]+-stdout\.txt);[\s\S]*\n3000\nStderr:\n5001\n[\s\S]*The whole of stderr is saved in (\.toolbelt\/output\/shell-[\w-]+-stderr\.txt);[\s\S]*\n8000$/);
    const data = result.data as { spillFile: string; stderrSpillFile: string };
    const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => `${from + index}\n`).join('');
    expect(await fs.readFile(path.join(workspace.root, data.spillFile), 'utf8')).toBe(lines(1, 3000));
    expect(await fs.readFile(path.join(workspace.root, data.stderrSpillFile), 'utf8')).toBe(lines(5001, 8000));
  });
});
