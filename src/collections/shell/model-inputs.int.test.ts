import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { shellHarness } from './test-support/harness.js';

/** run_shell as models call it when trained on other harnesses (see `input-aliases.ts`, `fenced-command.ts`). */
describe('run_shell with another harness’s fields', () => {
  it('runs in the folder Codex’s `workdir` and Gemini CLI’s `directory` name, never in the root', async () => {
    const { run, workspace } = await shellHarness();
    await fs.mkdir(path.join(workspace.root, 'logs'));
    await fs.writeFile(path.join(workspace.root, 'keep.log'), 'root');
    await fs.writeFile(path.join(workspace.root, 'logs', 'old.log'), 'old');
    const result = await run({ command: 'rm -f *.log && pwd', workdir: 'logs' });
    expect(result.isError).toBe(false);
    expect(result.text).toContain('(Read `workdir` as `working_directory`: send the fields by these names next time.)');
    expect(existsSync(path.join(workspace.root, 'keep.log'))).toBe(true);
    expect(existsSync(path.join(workspace.root, 'logs', 'old.log'))).toBe(false);
    for (const key of ['cwd', 'working_dir', 'directory', 'dir_path']) {
      expect((await run({ command: 'basename "$PWD"', [key]: 'logs' })).text).toMatch(/Output:\nlogs\n/);
    }
  });

  it('converts Codex’s `timeout_ms` to seconds exactly, and refuses a bare `timeout` naming the unit', async () => {
    const { run, workspace } = await shellHarness();
    const timed = await run({ command: 'sleep 5', timeout_ms: 1000 });
    expect(timed.text).toMatch(/^Status: timed out after 1(\.0)? s/);
    expect(timed.text).toContain('Read `timeout_ms` 1000 as `timeout_seconds` 1');
    const bare = await run({ command: 'touch ran', timeout: 60 });
    expect(bare).toMatchObject({ isError: true });
    expect(bare.text).toMatch(/^You sent `timeout`, whose unit is not certain \(Claude Code counts it in milliseconds, other tools in seconds\): send `timeout_seconds` in seconds, such as 120, or `timeout_ms` in milliseconds\. Nothing was run\./);
    expect(existsSync(path.join(workspace.root, 'ran'))).toBe(false);
  });

  it('refuses Claude Code’s `description` and a background run it cannot give, running nothing', async () => {
    const { run, workspace } = await shellHarness();
    const described = await run({ command: 'touch ran', description: 'Create a marker' });
    expect(described.text).toMatch(/^run_shell takes no `description` \(say what the command does in your message instead\): send the same call without `description`\. Nothing was run\./);
    for (const key of ['run_in_background', 'is_background']) {
      const background = await run({ command: 'touch ran', [key]: true });
      expect(background.text).toMatch(/^Background jobs are not offered here, so run_shell runs every command in the foreground/);
    }
    expect(existsSync(path.join(workspace.root, 'ran'))).toBe(false);
  });

  it('runs Codex’s `cmd` list: a shell invocation as its script, any other list word for word', async () => {
    const { run } = await shellHarness();
    const script = await run({ cmd: ['bash', '-lc', 'echo "$((6 * 7))"'] });
    expect(script.text).toMatch(/Output:\n42\n/);
    expect(script.text).toContain('Read `cmd` ["bash","-lc","echo \\"$((6 * 7))\\""] as `command` "echo \\"$((6 * 7))\\""');
    const argv = await run({ cmd: ['printf', '[%s]', 'a b', '$HOME', '*'] });
    expect(argv.text).toMatch(/Output:\n\[a b\]\[\$HOME\]\[\*\]\n/);
    expect((await run({ cmd: 'echo text' })).text).toMatch(/Output:\ntext\n/);
  });

  it('refuses `command` sent as a list, naming the one string to send', async () => {
    const { run } = await shellHarness();
    expect((await run({ command: ['bash', '-lc', 'npm test'] })).text).toBe(
      'Invalid arguments for run_shell: `command`: send the command as one string, not a list: "npm test". Fix the arguments and call run_shell again.',
    );
  });
});

describe('run_shell with a command in Markdown', () => {
  it('runs the command inside a fence, says so, and checks and shows that command', async () => {
    const { tool, session } = await shellHarness({ allow: ['echo'] });
    const prompts: string[] = [];
    const result = await runTool(tool, { command: '```bash\necho fenced\n```' }, {
      session,
      approve: (request) => {
        prompts.push(request.description);
        return 'approve';
      },
    });
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(/Output:\nfenced\nNote: The command came wrapped in a Markdown fence \(```bash\)/);
    expect(prompts).toEqual(['Run: echo fenced']);
    expect(result.data).toMatchObject({ command: 'echo fenced' });
  });

  it('refuses a fence with prose around it before anything runs, naming the command to send', async () => {
    const { run, workspace } = await shellHarness();
    const result = await run({ command: 'Create the marker:\n```bash\ntouch ran\n```' });
    expect(result).toMatchObject({ isError: true });
    expect(result.text).toContain('Send only the command inside the fence: "touch ran".');
    expect(existsSync(path.join(workspace.root, 'ran'))).toBe(false);
  });
});

describe('run_shell with a command over the system’s argument limit', () => {
  it('says to write it to a script file and run that, not that the shell is missing', async () => {
    const { run } = await shellHarness();
    const result = await run({ command: 'x'.repeat(3_000_000) });
    expect(result).toMatchObject({ isError: true });
    expect(result.text).toMatch(
      /^Status: failed to start: the command is 3,000,000 characters, more than this system lets one command line hold \(.*E2BIG.*\)\.\nThe command was not run\. Write it to a script file with create_file \(such as `script\.sh`\) and run that: `(bash|sh) script\.sh`\./,
    );
    expect(result.text).not.toContain('is installed');
  });
});
