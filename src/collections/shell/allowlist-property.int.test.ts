/**
 * Property test of the allowlist: commands generated from bash's grammar (allowed words, random
 * quoting, random insertion of every dangerous construct), each accepted one run for real under
 * bash. No accepted command may create a file, and bash must see exactly the words the check
 * decoded. Seeded, so a failure reproduces: ALLOWLIST_SEED=<seed> npx vitest run <this file>.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBashParser, type BashParser } from './bash-parser.js';
import { commandStructure } from './command-structure.js';
import { checkCommand } from './policy.js';

const SEED = Number(process.env.ALLOWLIST_SEED ?? 20_260_301);
const CASES = Number(process.env.ALLOWLIST_CASES ?? 2_000);

/** mulberry32: small, fast and good enough to pick grammar productions. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Commands the host allows: harmless programs and every builtin that evaluates code. */
const ALLOW = [
  'echo', 'true', 'printf', 'test', 'ls', 'cat', 'let', 'declare', 'typeset', 'local', 'readonly', 'export', 'eval', 'read', 'unset',
  'mapfile', 'readarray', 'wait', 'getopts', 'command', 'builtin', 'trap', 'compgen', 'complete', 'jobs', 'exec', 'source', 'time', 'coproc', 'enable',
];
const HARMLESS = ['echo', 'true', 'printf', 'test', 'ls', 'cat'];
const FIRST_WORDS = [...ALLOW, '[', '[[', '((', '.', 'touch', 'bash', 'env'];
/** Arguments, harmless and not: the payloads are what bash evaluates inside builtins. */
const WORDS = [
  'a', 'b c', '-v', '-a', '-x', '-C', '-p', '-n', '-c', '-e', '-W', '%s', '%d', 'x=1', '--', '1', ']', ']]', '))', '-eq', '=', 'MARK', 'touch', 'EXIT',
  'a[1]', 'a[$(touch MARK)]', 'x[$(touch MARK)]=1', 'x=([$(touch MARK)]=1)', 'x=($(touch MARK))', '$(touch MARK)', '`touch MARK`', 'touch MARK',
  '${x:=$(touch MARK)}', '${x@P}', '$((a[$(touch MARK)]))', '$[a[$(touch MARK)]]', "it's", 'say "hi"', 'back\\slash', 'tab\there', '*', '?', '~', '{a,b}',
  '#', '!', '$', '$@', '$*', '$IFS', 'é', '😀',
];
/** Constructs inserted between or inside words. */
const DANGEROUS = [
  '; touch MARK', ' & touch MARK', ' && touch MARK', ' || touch MARK', ' | touch MARK', ' |& touch MARK', '\ntouch MARK', '\rtouch MARK', ' > MARK', ' >> MARK',
  ' 2>MARK', ' &>MARK', ' >|MARK', ' < MARK', ' <<< MARK', ' <<EOF\n$(touch MARK)\nEOF', ' <(touch MARK)', ' >(touch MARK)', '$(touch MARK)', '`touch MARK`',
  '${IFS}', '$IFS', '$@', '$*', '${x:=$(touch MARK)}${x@P}', '$((a[$(touch MARK)]))', '$[a[$(touch MARK)]]', ' # ; touch MARK', ' (touch MARK)', ' { touch MARK; }',
  '\\\n; touch MARK', "$'\\x24(touch MARK)'", "$''", '$"x"', '=(touch MARK)', ' !', ' time', '\0', '\x01', ';', '&', '(', ')', '{', '}', '"', "'", '\\',
];

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

/** One way of writing `word` so that quote removal gives it back (or, for `$'…'`, decoding does). */
function quote(next: () => number, word: string): string {
  switch (Math.floor(next() * 12)) {
    case 0:
      return word;
    case 1:
      return `'${word.replaceAll("'", "'\\''")}'`;
    case 2:
      return `"${word.replace(/["\\$`]/g, (character) => `\\${character}`)}"`;
    case 3:
      return [...word].map((character) => `\\${character}`).join('');
    case 4:
      return `$'${[...word].map((character) => `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')}'`;
    case 5:
      return `$"${word}"`;
    case 6: {
      // Pieces in mixed quoting: `pu''sh`, `"pu"sh`, `p\ush`.
      const characters = [...word];
      const cut = Math.floor(next() * (characters.length + 1));
      const [head, tail] = [characters.slice(0, cut).join(''), characters.slice(cut).join('')];
      return `${quote(next, head)}${next() < 0.5 ? "''" : '""'}${quote(next, tail)}`;
    }
    case 7:
      return `"${word}"`;
    default:
      return word;
  }
}

function generate(next: () => number): string {
  // Half harmless programs, so that many commands are accepted and run; half anything.
  const words = [pick(next, next() < 0.5 ? HARMLESS : FIRST_WORDS)];
  const count = Math.floor(next() * 5);
  for (let index = 0; index < count; index += 1) words.push(pick(next, WORDS));
  let command = words.map((word) => quote(next, word)).join(next() < 0.9 ? ' ' : '\t');
  const insertions = next() < 0.55 ? 0 : 1 + Math.floor(next() * 2);
  for (let index = 0; index < insertions; index += 1) {
    const at = Math.floor(next() * (command.length + 1));
    command = command.slice(0, at) + pick(next, DANGEROUS) + command.slice(at);
  }
  return command;
}

/**
 * Runs every command as run_shell would (`bash -c 'exec 2>&1; …'`, input closed), each in a
 * bash of its own but all from one outer bash, which is much faster than a spawn per command
 * from Node.js. After each one it reports the words bash passes to a function called with the
 * command's words, then the files in the folder (and removes them).
 */
function runUnderBash(commands: readonly string[], folder: string): Array<{ made: string[]; words: string[] }> {
  const script = [
    'while IFS= read -r -d "" command; do',
    '  bash -c "exec 2>&1; $command" </dev/null >/dev/null 2>&1',
    "  bash -c \"words() { printf '%s\\\\0' \\\"\\$@\\\"; }; words $command\" </dev/null 2>/dev/null; printf '\\036'",
    '  made=(* .[!.]* ..?*)',
    '  if (( ${#made[@]} > 0 )); then printf "%s\\0" "${made[@]}"; rm -rf -- "${made[@]}"; fi; printf "\\036"',
    'done',
  ].join('\n');
  const result = spawnSync('bash', ['-O', 'nullglob', '-c', script], { cwd: folder, input: commands.map((command) => `${command}\0`).join(''), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 200_000 });
  const fields = result.stdout.split('\x1e');
  return commands.map((_, index) => ({
    words: fields[index * 2]!.split('\0').slice(0, -1),
    made: fields[index * 2 + 1]!.split('\0').filter((name) => name !== ''),
  }));
}

describe('allowlist property: no accepted command creates a file', () => {
  let parser: BashParser;
  const folder = mkdtempSync(path.join(os.tmpdir(), 'toolbelt-allowlist-property-'));
  beforeAll(async () => {
    parser = await loadBashParser();
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('sees the files a command makes and the words bash passes it', () => {
    expect(runUnderBash(['touch MARK', "echo 'a b'\\ c \"d\"", 'printf x > out'], folder)).toEqual([
      { words: ['touch', 'MARK'], made: ['MARK'] },
      { words: ['echo', 'a b c', 'd'], made: [] },
      // The redirection takes the words' output too.
      { words: [], made: ['out'] },
    ]);
  });

  it(`holds for ${CASES} generated commands (seed ${SEED})`, { timeout: 240_000 }, async () => {
    const next = random(SEED);
    const accepted: Array<{ index: number; command: string }> = [];
    for (let index = 0; index < CASES; index += 1) {
      const command = generate(next);
      if ((await checkCommand(command, { allow: ALLOW })) === undefined) accepted.push({ index, command });
    }
    const outcomes = runUnderBash(accepted.map(({ command }) => command), folder);
    accepted.forEach(({ index, command }, position) => {
      const { made, words } = outcomes[position]!;
      const label = `seed ${SEED}, case ${index}: ${JSON.stringify(command)}`;
      expect(made, `${label} was accepted and created files`).toEqual([]);
      // The words the check decided on are the words bash runs.
      const structure = commandStructure(parser, command);
      expect('words' in structure, label).toBe(true);
      if ('words' in structure && !structure.words.some((word) => word.hasPattern)) {
        expect(words, label).toEqual(structure.words.map((word) => word.value));
      }
    });
    // The generator must exercise both sides, and quoting on the accepted side.
    expect(accepted.length).toBeGreaterThan(CASES / 10);
    expect(accepted.length).toBeLessThan(CASES / 2);
    expect(accepted.filter(({ command }) => /['"\\]/.test(command)).length).toBeGreaterThan(accepted.length / 4);
  });
});
