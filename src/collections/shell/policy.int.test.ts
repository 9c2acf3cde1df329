import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { shellHarness } from './test-support/harness.js';

describe('run_shell allowlist: bypasses are refused with nothing run', () => {
  const bypasses: Array<[string, string]> = [
    ['git status; touch MARK', '`;`'],
    ['git status & touch MARK', '`&`'],
    ['git status && touch MARK', '`&&`'],
    ['git status || touch MARK', '`||`'],
    ['git status | touch MARK', 'a pipe `|`'],
    ['git status $(touch MARK)', 'command substitution `$(`'],
    ['git status `touch MARK`', 'command substitution with backticks'],
    ['git status > MARK', 'redirection `>`'],
    ['git status >> MARK', 'redirection `>`'],
    ['git status < MARK', 'redirection `<`'],
    ['git diff <(touch MARK)', 'process substitution `<(`'],
    // Bash runs code through expansions without `$(`: prompt expansion and arithmetic subscripts.
    ["git status ${x:='$'(touch MARK)} ${x@P}", 'parameter expansion `${`'],
    ["git status ${x:=$'\\x60touch MARK\\x60'} ${x@P}", 'parameter expansion `${`'],
    ["git status ${z[$'\\x24(touch MARK)']}", 'parameter expansion `${`'],
    ["git status ${x:=a['$'(touch MARK)]} $[x]", 'parameter expansion `${`'],
    ["git status $[a[x]]", 'arithmetic expansion `$[`'],
    ['git status\ntouch MARK', 'a line break'],
    ['git status\rtouch MARK', 'a carriage return'],
    ['git status\0touch MARK', 'a NUL byte'],
  ];

  for (const [command, named] of bypasses) {
    it(`refuses ${JSON.stringify(command)} before approval`, async () => {
      const { tool, session, workspace } = await shellHarness({ allow: ['git'] });
      let asked = false;
      const result = await runTool(tool, { command }, { session, approve: () => ((asked = true), 'approve') });
      expect(result.isError).toBe(true);
      expect(result.text).toBe(
        `Refused: this host only allows single commands starting with \`git\`, and this command contains ${named}. Nothing was run. ` +
          'Run one command per call, without chaining (`;` `&` `|` `&&` `||`), substitution (`$(` `${` `$[` and backticks), redirection (`<` `>`) or line breaks; ' +
          'use working_directory instead of `cd`, and the file tools to write files.',
      );
      expect(asked).toBe(false);
      expect(existsSync(path.join(workspace.root, 'MARK'))).toBe(false);
    });
  }

  it('matches whole first words, ignoring case', async () => {
    const { run, workspace } = await shellHarness({ allow: ['git', 'touch ok'] });
    // The policy lets it through; Linux then has no command spelled `GIT`.
    expect((await run({ command: 'GIT --version' })).data).toMatchObject({ status: 'exited', exitCode: 127, output: expect.stringContaining('GIT: command not found') });
    const gitk = await run({ command: 'gitk --all' });
    expect(gitk.text).toBe(
      'Refused: `gitk --all` is not an allowed command on this host (allowed: `git`, `touch ok`). Nothing was run. Use an allowed command, or ask the user to run this one.',
    );
    const other = await run({ command: 'touch MARK' });
    expect(other.isError).toBe(true);
    expect(existsSync(path.join(workspace.root, 'MARK'))).toBe(false);
    expect((await run({ command: 'touch ok' })).isError).toBe(false);
    expect(existsSync(path.join(workspace.root, 'ok'))).toBe(true);
  });

  it('carves exceptions with deny, ignoring case and spacing', async () => {
    const { run } = await shellHarness({ allow: ['git'], deny: ['git push', 'git config'] });
    for (const command of ['git push origin main', 'Git   PUSH', 'git config user.name x']) {
      const result = await run({ command });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/^Refused: commands starting with `git (push|config)` are denied on this host\. Nothing was run\./);
    }
    expect((await run({ command: 'git --version' })).isError).toBe(false);
  });

  it('allows everything without an allowlist', async () => {
    const { run } = await shellHarness();
    const result = await run({ command: 'echo a | tr a b; echo c' });
    expect(result.data).toMatchObject({ output: 'b\nc' });
  });
});
