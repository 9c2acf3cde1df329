import { describe, expect, it } from 'vitest';
import { checkCommand, commandApprovalKey, onlyChangesDirectory, prefixProblem, prepareApprovalKey } from './policy.js';

/** The key, after the parse run_shell makes before any approval. */
async function keyOf(command: string): Promise<string | undefined> {
  await prepareApprovalKey(command);
  return commandApprovalKey(command);
}

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
  it('is the first two words', async () => {
    expect(await keyOf('git status --short')).toBe('git status');
    expect(await keyOf('npm test')).toBe('npm test');
    expect(await keyOf('  ls   -la src')).toBe('ls -la');
    expect(await keyOf('pwd')).toBe('pwd');
  });

  it('is undefined for compound commands and for commands that run other commands', async () => {
    for (const command of ['git status; rm -rf x', 'a | b', 'echo $(id)', 'bash -c "rm -rf x"', 'sudo ls', 'xargs rm', 'FOO=1 npm test', 'env X=1 ls', '']) {
      expect(await keyOf(command), command).toBeUndefined();
    }
  });
});

describe('commandApprovalKey never remembers a shell or inline code under another spelling', () => {
  it('is undefined for a runner given by path, quoted, escaped or after `!`/`coproc`, and for inline code flags', async () => {
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
    for (const command of commands) expect(await keyOf(command), command).toBeUndefined();
    // Expansions that run code: "always" for `git status` must not cover them.
    expect(await keyOf("git status ${x:='$'(touch f)} ${x@P}")).toBeUndefined();
    expect(await keyOf('git status $[a[x]]')).toBeUndefined();
    expect(await keyOf('./node_modules/.bin/vitest run')).toBe('./node_modules/.bin/vitest run');
  });
});

describe('commandApprovalKey after quote removal and path stripping', () => {
  it('never keys a runner, an evaluating builtin or a package runner, however spelled', async () => {
    const commands = [
      "$'\\x65nv' FOO=1 true", "$'env' ls", "'env' ls", '"env" ls', 'e\\nv ls', '/usr/bin/env ls', "'/usr/bin/env' ls", '/usr/bin/e""nv ls', 'ENV ls',
      "'bash' -c x", 'B\\ASH x', "'x'args rm", 'su\\do ls', 'time ls', "'time' ls", 'eval x', 'command ls', 'builtin echo', 'trap x EXIT',
      "test -v 'a[1]'", 'printf x', 'declare x', "'let' x", 'read x', 'mapfile x', 'unset x', 'npm exec foo', 'npm x foo', 'pnpm dlx foo', 'npx foo',
      'git status $HOME', "git $'status'", 'git status # x', 'git st*', 'FOO=1 git status', "'git status' x", 'git "a b"',
    ];
    for (const command of commands) expect(await keyOf(command), command).toBeUndefined();
  });

  it('keys plain commands by their words after quote removal, so spellings share a key', async () => {
    expect(await keyOf("'git' status")).toBe('git status');
    expect(await keyOf('g\\it "status" --short')).toBe('git status');
    expect(await keyOf('npm run build')).toBe('npm run');
  });

  it('is undefined for a command that was not parsed yet, so "always" is never guessed', () => {
    expect(commandApprovalKey('git never-parsed-before')).toBeUndefined();
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
