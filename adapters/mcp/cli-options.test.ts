import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CliUsageError, HELP_TEXT, parseCli } from './cli-options.js';

describe('parseCli', () => {
  it('reads every flag', () => {
    expect(parseCli(['mcp', '--root', '/repo', '--allow', 'git,npm', '--allow', 'ls', '--deny', 'git push', '--sandbox', 'bwrap', '--keep-backups', '--background', '--github', '--skills', '--mode', 'accept-edits'])).toEqual({
      command: 'mcp',
      options: {
        root: '/repo', readOnly: false, shell: true, allow: ['git', 'npm', 'ls'], deny: ['git push'], sandbox: 'bwrap',
        keepBackups: true, background: true, github: true, skills: true, mode: 'accept-edits', askForChanges: false,
      },
    });
    expect(parseCli(['mcp', '--root', '.', '--ask-for-changes', '--http', '--host', '0.0.0.0', '--port', '0', '--token-file', 'token.txt', '--allow-origin', 'https://a.example,http://localhost:3000', '--allow-origin', 'https://b.example:8443'])).toMatchObject({
      options: {
        mode: 'ask', askForChanges: true,
        http: { host: '0.0.0.0', port: 0, tokenFile: 'token.txt', allowedOrigins: ['https://a.example', 'http://localhost:3000', 'https://b.example:8443'] },
      },
    });
  });

  it('reads the OAuth flags', () => {
    expect(parseCli(['mcp', '--root', '.', '--http', '--host', '0.0.0.0', '--oauth-issuer', 'https://auth.example.com', '--oauth-resource', 'https://tools.example.com/mcp'])).toMatchObject({
      options: { http: { host: '0.0.0.0', oauth: { issuer: 'https://auth.example.com', resource: 'https://tools.example.com/mcp' } } },
    });
    expect(parseCli(['mcp', '--root', '.', '--http', '--oauth-issuer', 'https://a.example', '--oauth-resource', 'https://t.example/mcp', '--oauth-jwks-uri', 'https://a.example/keys'])).toMatchObject({
      options: { http: { oauth: { issuer: 'https://a.example', resource: 'https://t.example/mcp', jwksUri: 'https://a.example/keys' } } },
    });
  });

  it('reads --session-store as a folder or a database URL, and names the accepted forms for anything else', () => {
    expect(parseCli(['mcp', '--root', '.', '--http', '--session-store', 'file:.sessions'])).toMatchObject({ options: { sessionStore: { kind: 'file', dir: '.sessions' } } });
    expect(parseCli(['mcp', '--root', '.', '--session-store', 'postgres://app@db/tools'])).toMatchObject({ options: { sessionStore: { kind: 'postgres', connectionString: 'postgres://app@db/tools' } } });
    expect(parseCli(['mcp', '--root', '.', '--session-store', 'rediss://cache:6380'])).toMatchObject({ options: { sessionStore: { kind: 'redis', url: 'rediss://cache:6380' } } });
    expect(() => parseCli(['mcp', '--root', '.', '--session-store', '/tmp/sessions'])).toThrow(
      new CliUsageError('Expected `--session-store` to be file:DIR, postgres://USER@HOST/DB or redis://HOST:PORT, got `/tmp/sessions`.'),
    );
  });

  it('has safe defaults', () => {
    expect(parseCli(['mcp', '--root', '.'])).toEqual({
      command: 'mcp',
      options: { root: '.', readOnly: false, shell: true, keepBackups: false, background: false, github: false, skills: false, mode: 'ask', askForChanges: false },
    });
    expect(parseCli(['mcp', '--root', '.', '--http'])).toMatchObject({ options: { http: { host: '127.0.0.1', port: 8765, allowedOrigins: [] } } });
    expect(parseCli(['mcp', '--root', '.', '--read-only'])).toMatchObject({ options: { readOnly: true, shell: false } });
    expect(parseCli(['mcp', '--root', '.', '--no-shell'])).toMatchObject({ options: { readOnly: false, shell: false } });
  });

  it('answers --help and --version before anything else', () => {
    expect(parseCli(['--help'])).toEqual({ command: 'help' });
    expect(parseCli(['mcp', '-h'])).toEqual({ command: 'help' });
    expect(parseCli(['-v'])).toEqual({ command: 'version' });
  });

  it('names serve-workspace, the far end of connectWorkspace(), in --help', () => {
    expect(HELP_TEXT).toContain('       agent-toolbelt serve-workspace --root DIR [--sandbox bwrap]\n');
    expect(HELP_TEXT).toContain('`agent-toolbelt serve-workspace --help` shows its own.');
  });

  it('explains every flag in --help', () => {
    for (const flag of ['--root', '--read-only', '--allow', '--deny', '--no-shell', '--sandbox', '--keep-backups', '--background', '--github', '--skills', '--mode', '--ask-for-changes', '--http', '--host', '--port', '--token-file', '--allow-origin', '--oauth-issuer', '--oauth-resource', '--oauth-jwks-uri', '--help', '--version']) {
      expect(HELP_TEXT).toContain(flag);
    }
  });

  it.each([
    [[], 'Missing the command. Run `agent-toolbelt mcp --root DIR`, or `agent-toolbelt --help`.'],
    [['serve'], 'Unknown command `serve`. The commands are `mcp` (`agent-toolbelt mcp --root DIR`) and `serve-workspace` (the far end of a remote workspace).'],
    [['mcp'], 'Missing `--root DIR`: the folder the tools may touch, e.g. `agent-toolbelt mcp --root .`.'],
    [['mcp', '--root', '.', '--mode', 'yolo'], 'Expected `--mode` to be one of ask, accept-edits, plan, auto, got `yolo`.'],
    [['mcp', '--root', '.', '--sandbox', 'docker'], 'Expected `--sandbox` to be `bwrap`, got `docker`.'],
    [['mcp', '--root', '.', '--deny', 'rm'], '`--deny` makes exceptions to `--allow`, so it needs `--allow` too: `--allow git --deny "git push"`.'],
    [['mcp', '--root', '.', '--allow', 'git,,npm'], 'Expected `--allow` to list command prefixes separated by commas, got `git,,npm`.'],
    [['mcp', '--root', '.', '--read-only', '--allow', 'git'], '--allow configures run_shell, which `--read-only` leaves out. Drop one of them.'],
    [['mcp', '--root', '.', '--no-shell', '--background', '--sandbox', 'bwrap'], '--sandbox, --background configure run_shell, which `--no-shell` leaves out. Drop one of them.'],
    [['mcp', '--root', '.', '--ask-for-changes', '--mode', 'auto'], '`--ask-for-changes` asks before every change, which `--mode auto` decides otherwise. Drop one of them.'],
    [['mcp', '--root', '.', '--port', '80'], '--port configures the HTTP server, which only `--http` starts. Add `--http` or drop it.'],
    [['mcp', '--root', '.', '--host', '::', '--token-file', 't'], '--host, --token-file configure the HTTP server, which only `--http` starts. Add `--http` or drop them.'],
    [['mcp', '--root', '.', '--http', '--port', 'eighty'], 'Expected `--port` to be a number from 0 to 65535, got `eighty`.'],
    [['mcp', '--root', '.', '--http', '--port', '70000'], 'Expected `--port` to be a number from 0 to 65535, got `70000`.'],
    [['mcp', '--root', '.', '--http', '--allow-origin', 'https://a.example/path'], 'Expected `--allow-origin` to list origins such as https://app.example.com (scheme, host and port, no path), got `https://a.example/path`.'],
    [['mcp', '--root', '.', '--oauth-issuer', 'https://a.example'], '--oauth-issuer configures the HTTP server, which only `--http` starts. Add `--http` or drop it.'],
    [['mcp', '--root', '.', '--http', '--oauth-issuer', 'https://a.example'], "OAuth needs both `--oauth-issuer URL` (the authorization server) and `--oauth-resource URL` (this server's address as clients reach it)."],
    [['mcp', '--root', '.', '--http', '--oauth-issuer', 'https://a.example', '--oauth-resource', 'https://t.example/mcp', '--token-file', 't'], '`--token-file` and `--oauth-issuer` each say how requests prove who sends them. Keep one of them.'],
    [['mcp', '--root', '.', '--http', '--oauth-issuer', 'auth.example.com', '--oauth-resource', 'https://t.example/mcp'], 'Expected `--oauth-issuer` to be a URL such as https://auth.example.com, got `auth.example.com`.'],
    [['mcp', '--root', '.', '--read-only', '--keep-backups'], '`--keep-backups` has nothing to do with `--read-only`: no file is changed. Drop one of them.'],
  ])('refuses %j with a message saying what to change', (args, message) => {
    expect(() => parseCli(args)).toThrow(new CliUsageError(message));
  });

  it.each([
    [['mcp', '--roots', '.'], 'Unknown flag `--roots`. Did you mean `--root`? Run `agent-toolbelt --help` for the flags.'],
    [['mcp', '--root', '.', '--readonly'], 'Unknown flag `--readonly`. Did you mean `--read-only`? Run `agent-toolbelt --help` for the flags.'],
    [['mcp', '--root', '.', '--token', 'abc'], 'Unknown flag `--token`. Did you mean `--token-file`? Run `agent-toolbelt --help` for the flags.'],
    [['mcp', '--root', '.', '--allowed-origin', 'x'], 'Unknown flag `--allowed-origin`. Did you mean `--allow-origin`? Run `agent-toolbelt --help` for the flags.'],
    [['mcp', '--root', '.', '--yes'], 'Unknown flag `--yes`. Run `agent-toolbelt --help` for the flags.'],
    [['mcp', '--root'], '`--root` needs a value, as in `--root DIR`. Run `agent-toolbelt --help` for the flags.'],
    [['mcp', '--root', '.', '--http=yes'], '`--http` is a switch and takes no value: write `--http` alone. Run `agent-toolbelt --help` for the flags.'],
  ])('answers %j with the flag that was meant', (args, message) => {
    expect(() => parseCli(args)).toThrow(new CliUsageError(message));
  });
});

describe('the README', () => {
  /** The options of --help as [flag, meaning], continuation lines joined. */
  function helpOptions(): string[][] {
    const start = HELP_TEXT.indexOf('Options:\n') + 'Options:\n'.length;
    const rows: string[][] = [];
    for (const line of HELP_TEXT.slice(start, HELP_TEXT.indexOf('\n\n', start)).split('\n')) {
      const flag = /^ {2}(-\S.*?) {2,}(\S.*)$/.exec(line);
      if (flag !== null) rows.push([flag[1]!, flag[2]!]);
      else rows[rows.length - 1]![1] += ` ${line.trim()}`;
    }
    return rows;
  }

  it('has a flag table that says what --help says, word for word', () => {
    const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('| flag | meaning |'));
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    const cells = rows.map((row) => row.split(' | ').map((cell) => cell.replace(/^\| |\s\|$/g, '').replaceAll('`', '').trim()));
    expect(cells).toEqual(helpOptions());
    expect(cells.length).toBeGreaterThan(15);
  });
});
