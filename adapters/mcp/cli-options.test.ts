import { describe, expect, it } from 'vitest';
import { CliUsageError, HELP_TEXT, parseCli } from './cli-options.js';

describe('parseCli', () => {
  it('reads every flag', () => {
    expect(parseCli(['mcp', '--root', '/repo', '--allow', 'git,npm', '--allow', 'ls', '--deny', 'git push', '--sandbox', 'bwrap', '--keep-backups', '--background', '--github', '--skills', '--mode', 'accept-edits'])).toEqual({
      command: 'mcp',
      options: {
        root: '/repo', readOnly: false, shell: true, allow: ['git', 'npm', 'ls'], deny: ['git push'], sandbox: 'bwrap',
        keepBackups: true, background: true, github: true, skills: true, mode: 'accept-edits',
      },
    });
  });

  it('has safe defaults', () => {
    expect(parseCli(['mcp', '--root', '.'])).toEqual({
      command: 'mcp',
      options: { root: '.', readOnly: false, shell: true, keepBackups: false, background: false, github: false, skills: false, mode: 'ask' },
    });
    expect(parseCli(['mcp', '--root', '.', '--read-only'])).toMatchObject({ options: { readOnly: true, shell: false } });
    expect(parseCli(['mcp', '--root', '.', '--no-shell'])).toMatchObject({ options: { readOnly: false, shell: false } });
  });

  it('answers --help and --version before anything else', () => {
    expect(parseCli(['--help'])).toEqual({ command: 'help' });
    expect(parseCli(['mcp', '-h'])).toEqual({ command: 'help' });
    expect(parseCli(['-v'])).toEqual({ command: 'version' });
  });

  it('explains every flag in --help', () => {
    for (const flag of ['--root', '--read-only', '--allow', '--deny', '--no-shell', '--sandbox', '--keep-backups', '--background', '--github', '--skills', '--mode', '--help', '--version']) {
      expect(HELP_TEXT).toContain(flag);
    }
  });

  it.each([
    [[], 'Missing the command. Run `agent-toolbelt mcp --root DIR`, or `agent-toolbelt --help`.'],
    [['serve'], 'Unknown command `serve`. The only command is `mcp`: `agent-toolbelt mcp --root DIR`.'],
    [['mcp'], 'Missing `--root DIR`: the folder the tools may touch, e.g. `agent-toolbelt mcp --root .`.'],
    [['mcp', '--root', '.', '--mode', 'yolo'], 'Expected `--mode` to be one of ask, accept-edits, plan, auto, got `yolo`.'],
    [['mcp', '--root', '.', '--sandbox', 'docker'], 'Expected `--sandbox` to be `bwrap`, got `docker`.'],
    [['mcp', '--root', '.', '--deny', 'rm'], '`--deny` makes exceptions to `--allow`, so it needs `--allow` too: `--allow git --deny "git push"`.'],
    [['mcp', '--root', '.', '--allow', 'git,,npm'], 'Expected `--allow` to list command prefixes separated by commas, got `git,,npm`.'],
    [['mcp', '--root', '.', '--read-only', '--allow', 'git'], '--allow configure run_shell, which `--read-only` leaves out. Drop one of them.'],
    [['mcp', '--root', '.', '--no-shell', '--background'], '--background configure run_shell, which `--no-shell` leaves out. Drop one of them.'],
    [['mcp', '--root', '.', '--read-only', '--keep-backups'], '`--keep-backups` has nothing to do with `--read-only`: no file is changed. Drop one of them.'],
  ])('refuses %j with a message saying what to change', (args, message) => {
    expect(() => parseCli(args)).toThrow(new CliUsageError(message));
  });

  it('refuses unknown flags and flags without their value', () => {
    expect(() => parseCli(['mcp', '--root', '.', '--yes'])).toThrow(/^Unknown option '--yes'.*\nRun `agent-toolbelt --help` for the options\.$/s);
    expect(() => parseCli(['mcp', '--root'])).toThrow(/Option '--root <value>' argument missing/);
  });
});
