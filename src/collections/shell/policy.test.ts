import { beforeAll, describe, expect, it } from 'vitest';
import { checkCommand, commandApprovalKey, onlyChangesDirectory, prefixProblem, prepareCommandPolicy } from './policy.js';

beforeAll(prepareCommandPolicy);

describe('allow prefixes', () => {
  it('match whole words, ignoring case', async () => {
    const allowed = async (command: string, prefix: string) => (await checkCommand(command, { allow: [prefix] })) === undefined;
    expect(await allowed('git log --oneline', 'git')).toBe(true);
    expect(await allowed('GIT Log', 'git log')).toBe(true);
    expect(await allowed('gitk', 'git')).toBe(false);
    expect(await allowed('git', 'git status')).toBe(false);
    expect(await allowed('git statusx', 'git status')).toBe(false);
    expect(await allowed('  git\tstatus ', 'git status')).toBe(true);
  });

  it('sees words as the shell does after quote removal, so quoting cannot slip past deny', async () => {
    const policy = { allow: ['git'], deny: ['git push'] };
    for (const command of ['git "push" origin', "git pu''sh", 'git pu\\sh', "'git' push"]) {
      expect(await checkCommand(command, policy), command).toBe(
        'Refused: commands starting with `git push` are denied on this host. Nothing was run. Do not retry it in another form; ask the user if it is needed.',
      );
    }
    expect(await checkCommand('"git" status', policy)).toBeUndefined();
  });
});

describe('prefixProblem', () => {
  it('finds chaining, substitution, expansion, redirection and patterns, and nothing in plain prefixes', () => {
    expect(prefixProblem('npm test -- --grep "a b"')).toBeUndefined();
    expect(prefixProblem('echo $HOME')).toBe('a variable expansion `$`');
    expect(prefixProblem('a >(b)')).toBe('process substitution `>(`');
    expect(prefixProblem('a && b')).toBe('`&&`');
    expect(prefixProblem('git*')).toBe('a pattern character (`*` `?` `[` `{` `~`)');
  });
});

describe('commandApprovalKey', () => {
  it('is the first two words', () => {
    expect(commandApprovalKey('git status --short')).toBe('git status');
    expect(commandApprovalKey('npm test')).toBe('npm test');
    expect(commandApprovalKey('  ls   -la src')).toBe('ls -la');
    expect(commandApprovalKey('pwd')).toBe('pwd');
  });

  it('is undefined for compound commands and for commands that run other commands', () => {
    for (const command of ['git status; rm -rf x', 'a | b', 'echo $(id)', 'bash -c "rm -rf x"', 'sudo ls', 'xargs rm', 'FOO=1 npm test', 'env X=1 ls', '']) {
      expect(commandApprovalKey(command), command).toBeUndefined();
    }
  });
});

describe('commandApprovalKey never remembers a shell or inline code under another spelling', () => {
  it('is undefined for a runner given by path, quoted, escaped or after `!`/`coproc`, and for inline code flags', () => {
    const commands = [
      '/bin/bash -c "rm -rf x"',
      "'bash' -c x",
      '"sh" -c x',
      '\\bash -c x',
      'b\\ash -c x',
      '/usr/bin/env rm -rf x',
      '! bash -c x',
      'coproc bash -c x',
      'node -e "require(1)"',
      'python3 -c "import os"',
      'perl -e 1',
      'node --eval 1',
    ];
    for (const command of commands) expect(commandApprovalKey(command), command).toBeUndefined();
    // Expansions that run code: "always" for `git status` must not cover them.
    expect(commandApprovalKey("git status ${x:='$'(touch f)} ${x@P}")).toBeUndefined();
    expect(commandApprovalKey('git status $[a[x]]')).toBeUndefined();
    expect(commandApprovalKey('./node_modules/.bin/vitest run')).toBe('./node_modules/.bin/vitest run');
  });
});

describe('onlyChangesDirectory', () => {
  it('spots commands that only cd', () => {
    expect(onlyChangesDirectory('cd src')).toBe(true);
    expect(onlyChangesDirectory('cd src && cd ..')).toBe(true);
    expect(onlyChangesDirectory('cd')).toBe(true);
    expect(onlyChangesDirectory('cd src && ls')).toBe(false);
    expect(onlyChangesDirectory('cdk deploy')).toBe(false);
  });
});

describe('checkCommand', () => {
  it('quotes at most 100 characters of a refused command, however long its first word', async () => {
    expect(await checkCommand(`${'x'.repeat(200_000)} status`, { allow: ['git'] })).toBe(
      `Refused: \`${'x'.repeat(100)}…\` is not an allowed command on this host (allowed: \`git\`). Nothing was run. Use an allowed command, or ask the user to run this one.`,
    );
  });

  it('refuses an empty command and lets anything else through without an allowlist', async () => {
    expect(await checkCommand('  ', {})).toBe('The command is empty. Pass the command to run, such as `git status`.');
    expect(await checkCommand('rm -rf build; make', {})).toBeUndefined();
  });
});
