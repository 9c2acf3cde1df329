import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool } from '../../run-tool.js';
import { createShellTools } from './index.js';
import { prefixProblem } from './policy.js';
import { shellHarness, temporaryWorkspace } from './test-support/harness.js';

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

/** Runs `script` under bash in a fresh folder, the way run_shell would, and says whether it made MARK. */
async function bashMakesMarker(script: string): Promise<boolean> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'toolbelt-proof-'));
  try {
    spawnSync('bash', ['-c', script], { cwd: folder, stdio: 'ignore', timeout: 5_000 });
    return existsSync(path.join(folder, 'MARK'));
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}

/**
 * Class 1 of the advisories: builtins and keywords in which bash evaluates array subscripts,
 * arithmetic or whole commands. Each `command` is what the model sends (every word a literal
 * after quote removal); `proof`, where bash can show it without input, is the same construct
 * run for real without an allowlist, to show the command is not harmless.
 */
const BUILTIN_CASES: ReadonlyArray<{ name: string; command: string; proof?: string }> = [
  { name: 'test', command: "test -v 'a[$(touch MARK)]'", proof: "test -v 'a[$(touch MARK)]'" },
  { name: 'test', command: `test -v 'a[$'"(touch MARK)]"`, proof: `test -v 'a[$'"(touch MARK)]"` },
  { name: 'test', command: 'test -v a\\[\\$\\(touch\\ MARK\\)\\]', proof: 'test -v a\\[\\$\\(touch\\ MARK\\)\\]' },
  { name: 'test', command: "test x -a -v 'a[$(touch MARK)]'", proof: "test x -a -v 'a[$(touch MARK)]'" },
  { name: '[', command: "[ -v 'a[$(touch MARK)]' ]", proof: "[ -v 'a[$(touch MARK)]' ]" },
  { name: '[', command: "'[' -v 'a[$(touch MARK)]' ']'", proof: "'[' -v 'a[$(touch MARK)]' ']'" },
  { name: '[[', command: "[[ -v 'a[$(touch MARK)]' ]]", proof: "[[ -v 'a[$(touch MARK)]' ]]" },
  { name: 'printf', command: "printf -v 'a[$(touch MARK)]' x", proof: "printf -v 'a[$(touch MARK)]' x" },
  { name: 'printf', command: "printf -v \"a[\\$(touch MARK)]\" x", proof: "printf -v \"a[\\$(touch MARK)]\" x" },
  { name: 'declare', command: "declare 'x[$(touch MARK)]=1'", proof: "declare 'x[$(touch MARK)]=1'" },
  { name: 'declare', command: "'declare' -a 'x=([$(touch MARK)]=1)'", proof: "'declare' -a 'x=([$(touch MARK)]=1)'" },
  { name: 'typeset', command: "typeset 'x[$(touch MARK)]=1'", proof: "typeset 'x[$(touch MARK)]=1'" },
  { name: 'local', command: "local 'a[$(touch MARK)]=1'", proof: "f() { local 'a[$(touch MARK)]=1'; }; f" },
  { name: 'readonly', command: "readonly -a 'x=([$(touch MARK)]=1)'", proof: "readonly -a 'x=([$(touch MARK)]=1)'" },
  { name: 'export', command: "export -a 'x=([$(touch MARK)]=1)'", proof: "export -a 'x=([$(touch MARK)]=1)'" },
  { name: 'let', command: "let 'a[$(touch MARK)]'", proof: "let 'a[$(touch MARK)]'" },
  { name: 'let', command: "l\\et 'a[$(touch MARK)]'", proof: "l\\et 'a[$(touch MARK)]'" },
  { name: '((', command: "(( 'a[$(touch MARK)]' ))", proof: "(( 'a[$(touch MARK)]' ))" },
  { name: 'unset', command: "unset 'a[$(touch MARK)]'", proof: "a=(1); unset 'a[$(touch MARK)]'" },
  { name: 'read', command: "read 'a[$(touch MARK)]'", proof: "read 'a[$(touch MARK)]' <<< x" },
  { name: 'read', command: "read -a 'a[$(touch MARK)]'" },
  { name: 'mapfile', command: "mapfile -C 'touch MARK' -c 1 a", proof: "mapfile -C 'touch MARK' -c 1 a <<< x" },
  { name: 'readarray', command: "readarray -C 'touch MARK' -c 1 a", proof: "readarray -C 'touch MARK' -c 1 a <<< x" },
  { name: 'wait', command: "wait -n -p 'a[$(touch MARK)]'", proof: "sleep 0 & wait -n -p 'a[$(touch MARK)]'" },
  { name: 'getopts', command: "getopts a 'x[$(touch MARK)]' -a" },
  { name: 'eval', command: "eval 'touch MARK'", proof: "eval 'touch MARK'" },
  { name: 'trap', command: "trap 'touch MARK' EXIT", proof: "trap 'touch MARK' EXIT" },
  { name: 'compgen', command: "compgen -C 'touch MARK' x", proof: "compgen -C 'touch MARK' x" },
  { name: 'complete', command: "complete -C 'touch MARK' x" },
  { name: 'jobs', command: 'jobs -x touch MARK', proof: 'jobs -x touch MARK' },
  { name: 'command', command: 'command touch MARK', proof: 'command touch MARK' },
  { name: 'builtin', command: "builtin eval 'touch MARK'", proof: "builtin eval 'touch MARK'" },
  { name: 'exec', command: 'exec touch MARK', proof: 'exec touch MARK' },
  { name: 'time', command: 'time touch MARK', proof: 'time touch MARK' },
  { name: 'coproc', command: 'coproc touch MARK' },
  { name: 'source', command: 'source /dev/stdin' },
  { name: '.', command: '. ./MARK.sh' },
  { name: 'enable', command: 'enable -f ./MARK.so x' },
  { name: 'fc', command: "fc -e 'touch MARK'" },
];

describe('class 1: builtins and keywords that evaluate code are refused whatever the allowlist says', () => {
  for (const { name, command, proof } of BUILTIN_CASES) {
    it(`refuses ${JSON.stringify(command)} with nothing run`, async () => {
      if (proof !== undefined) expect(await bashMakesMarker(proof), `proof: ${proof}`).toBe(true);
      // The host even allowed the builtin by name (where a prefix can name it: not `[[` or `((`).
      const prefix = name === '[' ? "'['" : name;
      const allow = prefixProblem(prefix) === undefined ? [prefix, 'touch ok'] : ['touch ok'];
      const { run, workspace } = await shellHarness({ allow });
      const result = await run({ command });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(new RegExp(`^Refused: \`${name.replace(/[[\]().]/g, '\\$&')}\` is a bash (builtin|keyword)`));
      expect(result.text).toContain('Nothing was run.');
      expect(existsSync(path.join(workspace.root, 'MARK'))).toBe(false);
    });
  }

  it('still runs test and printf without a subscript', async () => {
    const { run } = await shellHarness({ allow: ['test', 'printf'] });
    expect((await run({ command: 'test -d .' })).data).toMatchObject({ exitCode: 0 });
    expect((await run({ command: "printf '%s-%s' a 'b c'" })).data).toMatchObject({ output: 'a-b c' });
  });
});

describe('class 2: zsh with an allowlist needs a sandbox', () => {
  it('is refused when the collection is made, naming the sandbox option', async () => {
    const workspace = await temporaryWorkspace();
    for (const shell of ['zsh', '/usr/bin/zsh', 'fish']) {
      expect(() => createShellTools({ workspace, shell, allow: ['ls'] })).toThrow(/^The `allow` option checks commands with bash's grammar, .*`sandbox: 'bwrap'`/);
    }
    expect(() => createShellTools({ workspace, shell: 'zsh', allow: ['ls'] })).toThrow(
      "The `allow` option checks commands with bash's grammar, and `shell: 'zsh'` reads commands with its own (glob qualifiers and `=(…)` run code that bash would read as plain words), " +
        "so the allowlist could not hold. Add `sandbox: 'bwrap'` to make the sandbox the boundary, use `shell: 'bash'` or `'sh'`, or leave out `allow`.",
    );
    // zsh without an allowlist, and bash or sh with one, are made as before.
    expect(() => createShellTools({ workspace, shell: 'zsh' })).not.toThrow();
    expect(() => createShellTools({ workspace, shell: '/bin/sh', allow: ['ls'] })).not.toThrow();
    expect(existsSync(path.join(workspace.root, 'MARK'))).toBe(false);
  });
});

describe('class 3: "always" is never remembered for a runner, however it is spelled', () => {
  const spellings = ["$'\\x65nv'", "$'env'", "'env'", '"env"', 'e\\nv', '/usr/bin/env', "'/usr/bin/env'", '/usr/bin/e""nv'];
  for (const runner of spellings) {
    it(`asks again for ${runner} after "always"`, async () => {
      const { tool, session, workspace } = await shellHarness();
      const asked: boolean[] = [];
      const approve = (request: { canAlwaysApprove: boolean }) => {
        asked.push(request.canAlwaysApprove);
        return asked.length === 1 ? ('always' as const) : ('deny' as const);
      };
      expect((await runTool(tool, { command: `${runner} FOO=1 true` }, { session, approve })).isError).toBe(false);
      const second = await runTool(tool, { command: `${runner} FOO=1 touch MARK` }, { session, approve });
      expect(asked).toEqual([false, false]);
      expect(session.approvals).toEqual([]);
      expect(second.text).toMatch(/^Action denied by the user/);
      expect(existsSync(path.join(workspace.root, 'MARK'))).toBe(false);
    });
  }
});

describe('class 4: deny sees the parsed words, so no spelling of a denied command passes', () => {
  const spellings = [
    'touch $@MARK', 'touch MA$*RK', 'touch MA${unset}RK', 'touch $unset MARK', "touch $'\\x4dARK'", "touch $'MARK'", 'touch $"MARK"',
    'touch "MA"RK', "touch MA''RK", 'touch M\\ARK', "'touch' MARK", 'TOUCH mark', 'touch ${IFS}MARK', 'touch$IFS"MARK"', 'touch MAR?', 'touch MAR[K]',
    'touch {MARK,x}', 'touch ~/../MARK',
  ];
  for (const command of spellings) {
    it(`refuses ${JSON.stringify(command)}`, async () => {
      const { run, workspace } = await shellHarness({ allow: ['touch'], deny: ['touch MARK'] });
      // A file the glob spellings could match, so they would really expand to MARK.
      await fs.writeFile(path.join(workspace.root, 'MARX'), '');
      const result = await run({ command });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/^Refused: /);
      expect(existsSync(path.join(workspace.root, 'MARK'))).toBe(false);
    });
  }
});

describe('the rest of the allowlist, against the parser', () => {
  const refused = [
    'git status &',
    'git status \\\ntouch MARK',
    'git status # ; touch MARK',
    'git status #\ntouch MARK',
    'git status 2>MARK',
    'git status &>MARK',
    'git status >|MARK',
    'git status <<<MARK',
    'git status <<EOF\nx\nEOF',
    'git status |& touch MARK',
    'git status ;; touch MARK',
    '(touch MARK)',
    '{ touch MARK; }',
    'git ${IFS}status;touch${IFS}MARK',
    'git status $((a[$(touch MARK)]))',
    "git status $'\\x3b' touch MARK",
    'FOO=$(touch MARK) git status',
    'git "status $(touch MARK)"',
    'git "status `touch MARK`"',
    "git 'unclosed",
    'git status\ttouch\x01MARK',
    `git ${'x '.repeat(12_000)}; touch MARK`,
  ];
  for (const command of refused) {
    it(`refuses ${JSON.stringify(command.slice(0, 60))}`, async () => {
      const { run, workspace } = await shellHarness({ allow: ['git', 'touch ok'] });
      const result = await run({ command });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/^Refused: .*Nothing was run\./);
      expect(existsSync(path.join(workspace.root, 'MARK'))).toBe(false);
    });
  }

  it('runs plain commands with quoted words, including the characters it used to refuse inside quotes', async () => {
    const { run } = await shellHarness({ allow: ['echo'] });
    const result = await run({ command: `echo 'a; b' "c && d | e" f\\>g 'it'\\''s' "x\\"y" \${z}` });
    expect(result.text).toMatch(/^Refused: .*parameter expansion `\$\{`/);
    const plain = await run({ command: `echo 'a; b' "c && d | e" f\\>g 'it'\\''s' "x\\"y" 'h(i)' "#j"` });
    expect(plain.data).toMatchObject({ exitCode: 0, output: `a; b c && d | e f>g it's x"y h(i) #j` });
  });

  it('refuses a command longer than it parses, and still names a first word that is not allowed', async () => {
    const { run } = await shellHarness({ allow: ['echo'] });
    expect((await run({ command: `echo ${'x'.repeat(30_000)}` })).text).toBe(
      'Refused: this command is 30,005 characters long, and this host checks allowed commands of up to 20,000 characters. Nothing was run. Put long input in a file with the file tools and pass its name.',
    );
    const long = `echo ${'x '.repeat(9_000)}`;
    expect((await run({ command: long })).data).toMatchObject({ exitCode: 0 });
  });
});
