/**
 * @module A command sent as a list of words (Codex's `["bash", "-lc", "npm test"]`, or plain
 * argv such as `["git", "status"]`) as the one command line run_shell runs. A shell invocation
 * of the shell run_shell uses gives its script; any other list is quoted word by word, so bash
 * hands the program exactly those words: nothing expanded, split or globbed.
 */
import * as path from 'node:path';

/** Characters a word may hold and still go to bash unquoted. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Words bash reads as syntax in first place, not as a program: quoted there so they name the program. */
const FIRST_WORD_SYNTAX: ReadonlySet<string> = new Set([
  'if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function',
  'time', 'coproc', '{', '}', '!', '[[', ']]',
]);

/** One word for bash: as it is when it holds only plain characters, else in single quotes (`'` as `'\''`). */
export function quoteWord(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The command line that runs `argv` exactly, where `shellName` (`bash`, `sh`) is the shell
 * run_shell starts: `[shell, "-c" | "-lc" | "-l", "-c", script]` gives the script itself
 * (run_shell already runs it in that shell; the login profile is not read), any other list
 * its words quoted. Throws a `TypeError` saying the accepted form for an empty list or a
 * word that is not text.
 *
 * @example
 * commandFromArgv(['bash', '-lc', 'npm test'], 'bash'); // 'npm test'
 * commandFromArgv(['git', 'commit', '-m', "it's done"], 'bash'); // "git commit -m 'it'\\''s done'"
 */
export function commandFromArgv(argv: readonly unknown[], shellName: string): string {
  if (argv.length === 0 || !argv.every((word): word is string => typeof word === 'string')) {
    throw new TypeError('`command` as one string, such as "npm test" (a list must hold the program and its arguments as strings)');
  }
  if (argv.some((word) => word.includes('\0'))) throw new TypeError('`command` as one string, without NUL characters');
  const script = shellScript(argv, shellName);
  if (script !== undefined) return script;
  const [program, ...rest] = argv;
  const first = FIRST_WORD_SYNTAX.has(program!) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(program!) ? `'${program}'` : quoteWord(program!);
  return [first, ...rest.map(quoteWord)].join(' ');
}

/** The script of `[shell, …options, script]` when the options are only `-c` with `-l`/`--login` and nothing follows the script. */
function shellScript(argv: readonly string[], shellName: string): string | undefined {
  if (argv.length < 3 || path.posix.basename(argv[0]!) !== shellName) return undefined;
  // bash reads long options only before the short ones.
  const options = argv.slice(argv[1] === '--login' ? 2 : 1, -1);
  const known = options.every((option) => /^-[lc]+$/.test(option));
  return known && options.some((option) => option.includes('c')) ? argv.at(-1) : undefined;
}
