/**
 * The allow and deny prefix lists of `run_shell`, and the key an "always" approval is
 * remembered under. With an allowlist a command runs only when the bash grammar and a strict
 * word reader both prove it one plain command of literal words (command-structure.ts);
 * the lists still do not look inside what an allowed program does with its arguments, so a
 * sandbox is the boundary.
 */
import { analyzeCommand, analyzedCommand, startCommandAnalyzer } from './command-analyzer.js';
import { readLiteralWords, type FindingKind, type LiteralWord, type SyntaxFinding } from './literal-words.js';

/**
 * Commands that run other commands, so remembering "always" for their first words would
 * approve anything at all. Matched after quote removal and path stripping, ignoring case
 * (`/usr/bin/env`, `'env'`, `e\nv` and `ENV` are all `env`).
 */
export const COMMAND_RUNNERS: ReadonlySet<string> = new Set([
  'bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'rbash', 'csh', 'tcsh', 'fish', 'pwsh', 'busybox', 'toybox',
  'eval', 'exec', 'source', '.', 'env', 'sudo', 'su', 'doas', 'pkexec', 'runuser', 'sg', 'xargs', 'nohup', 'timeout',
  'nice', 'ionice', 'time', 'command', 'builtin', 'watch', 'ssh', 'setsid', 'stdbuf', 'chroot', 'unshare', 'nsenter',
  'script', 'parallel', '!', 'coproc', 'flock', 'chronic', 'unbuffer', 'firejail', 'fakeroot', 'systemd-run', 'taskset',
  'chrt', 'prlimit', 'numactl', 'strace', 'ltrace', 'gdb', 'valgrind', 'npx', 'bunx', 'pnpx',
]);

/** Second words that hand a program code to run (`node -e`, `python -c`): "always" would approve any code. */
const INLINE_CODE_FLAGS: ReadonlySet<string> = new Set(['-c', '-e', '--eval', '--command']);

/** Package managers' subcommands that run any package (`npm exec`, `pnpm dlx`): never remembered. */
const PACKAGE_RUNNERS: Readonly<Record<string, ReadonlySet<string>>> = {
  npm: new Set(['exec', 'x']),
  pnpm: new Set(['exec', 'dlx']),
  yarn: new Set(['exec', 'dlx']),
  bun: new Set(['x', 'exec']),
};

/**
 * Bash builtins and keywords that evaluate array subscripts or arithmetic in their arguments
 * (`declare 'a[$(…)]=1'`, `let`, `read 'a[…]'`): a `$(…)` there runs, however it is quoted.
 * Found by running every builtin with such arguments under bash 5.2 (see policy.int.test.ts).
 */
const EVALUATING_BUILTINS: ReadonlySet<string> = new Set([
  'let', 'declare', 'typeset', 'local', 'readonly', 'export', 'unset', 'read', 'mapfile', 'readarray', 'getopts', 'wait',
  '((', '[[', '[',
]);

/** Builtins and keywords that run their arguments as code or as another command inside the shell. */
const CODE_RUNNING_BUILTINS: ReadonlySet<string> = new Set([
  'eval', 'source', '.', 'exec', 'command', 'builtin', 'trap', 'compgen', 'complete', 'compopt', 'enable', 'fc', 'jobs',
  'coproc', 'time', 'bind',
]);

/** Bash reserved words: syntax, not commands. */
const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function',
  '{', '}', '!', ']]',
]);

/** Builtins that evaluate subscripts only in some arguments (`test -v 'a[…]'`, `printf -v 'a[…]'`): refused when an argument has a `[`. */
const SUBSCRIPT_BUILTINS: ReadonlySet<string> = new Set(['test', 'printf']);

/** Characters of a refused command's first words quoted in the refusal (a word can be huge). */
const MAX_QUOTED_COMMAND = 100;

/**
 * Longest command the allowlist parses. Parsing is linear (about 0.1 ms per 1,000 characters
 * here); past this a parse would hold the event loop for milliseconds, and no plain command
 * an allowlist is for is this long.
 */
export const MAX_CHECKED_COMMAND_CHARACTERS = 20_000;

/** The allow and deny lists after validation. */
export interface CommandPolicy {
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
}

/**
 * Why an `allow` or `deny` entry is not a plain command prefix (`git; rm`, `git $x`,
 * `git*`), or `undefined` when it is one. Used when the collection is created.
 */
export function prefixProblem(prefix: string): string | undefined {
  const read = readLiteralWords(prefix);
  if ('finding' in read) return read.finding.construct;
  if (read.words.some((word) => word.hasPattern)) return 'a pattern character (`*` `?` `[` `{` `~`)';
  return undefined;
}

/**
 * True when the words start with the prefix's words, ignoring case (`git` matches
 * `git log`, not `gitk`). Both sides are compared after quote removal, so `git "push"` and
 * `git pu\sh` match `git push`.
 */
function startsWithPrefix(words: readonly LiteralWord[], prefix: string): boolean {
  const wanted = prefixWords(prefix);
  if (wanted.length === 0 || words.length < wanted.length) return false;
  return wanted.every((word, index) => words[index]!.value.toLowerCase() === word.toLowerCase());
}

/** Prefixes read once: they come from the host's lists, so there are few of them. */
const prefixWordsCache = new Map<string, readonly string[]>();

function prefixWords(prefix: string): readonly string[] {
  let words = prefixWordsCache.get(prefix);
  if (words === undefined) {
    const read = readLiteralWords(prefix);
    // Entries are checked when the collection is made; an unreadable one matches nothing.
    words = 'words' in read ? read.words.map((word) => word.value) : [];
    if (prefixWordsCache.size < 10_000) prefixWordsCache.set(prefix, words);
  }
  return words;
}

/**
 * Why the policy refuses `command`, written for the model, or `undefined` when it may run.
 * Without an allowlist everything may run (only an empty command is refused). With one, the
 * command must be a single plain command whose every word is a literal after quote removal,
 * starting with an allowed prefix and with no denied one. The command is parsed on a worker
 * thread that holds the bash grammar (started once per process; its load never holds this
 * thread's event loop).
 */
export async function checkCommand(command: string, policy: CommandPolicy): Promise<string | undefined> {
  if (command.trim() === '') return 'The command is empty. Pass the command to run, such as `git status`.';
  if (policy.allow === undefined) return undefined;
  const allow = policy.allow;
  const allowed = allow.map((prefix) => `\`${prefix}\``).join(', ');
  const character = characterFinding(command);
  if (character !== undefined) return syntaxRefusal(allowed, character);

  if (command.length > MAX_CHECKED_COMMAND_CHARACTERS) {
    const read = readLiteralWords(command);
    if ('words' in read && !allow.some((prefix) => startsWithPrefix(read.words, prefix))) return notAllowedRefusal(read.words, allowed);
    return (
      `Refused: this command is ${command.length.toLocaleString('en-US')} characters long, and this host checks allowed commands of up to ` +
      `${MAX_CHECKED_COMMAND_CHARACTERS.toLocaleString('en-US')} characters. Nothing was run. Put long input in a file with the file tools and pass its name.`
    );
  }

  const structure = await analyzeCommand(command);
  if ('finding' in structure) return syntaxRefusal(allowed, structure.finding);
  const words = structure.words;

  // Words a prefix is compared with must be what the program receives: no file-name patterns,
  // no brace expansion, no `~`.
  const checkedWords = Math.max(1, ...[...allow, ...(policy.deny ?? [])].map((prefix) => prefixWords(prefix).length));
  const patterned = words.slice(0, checkedWords).find((word) => word.hasPattern);
  if (patterned !== undefined) {
    return (
      `Refused: \`${quoted(patterned.text)}\` has a pattern character (\`*\` \`?\` \`[\` \`{\` \`~\`) where this host compares the command with its allowlist, ` +
      'so the words that would run are not certain. Nothing was run. Write the command name and its first words out literally.'
    );
  }
  if (!allow.some((prefix) => startsWithPrefix(words, prefix))) return notAllowedRefusal(words, allowed);
  const builtin = builtinRefusal(words);
  if (builtin !== undefined) return builtin;
  const denied = policy.deny?.find((prefix) => startsWithPrefix(words, prefix));
  if (denied !== undefined) {
    return `Refused: commands starting with \`${denied}\` are denied on this host. Nothing was run. Do not retry it in another form; ask the user if it is needed.`;
  }
  return undefined;
}

const LONE_SURROGATE = /\p{Surrogate}/u;

/** Characters refused before anything is parsed (line breaks named as the allowlist always named them). */
function characterFinding(command: string): SyntaxFinding | undefined {
  if (command.includes('\0')) return { construct: 'a NUL byte', kind: 'compound' };
  if (command.includes('\n')) return { construct: 'a line break', kind: 'compound' };
  if (command.includes('\r')) return { construct: 'a carriage return', kind: 'compound' };
  // Half a UTF-16 pair reaches the shell as U+FFFD, not as what was checked.
  if (LONE_SURROGATE.test(command)) return { construct: 'a broken character (half of a UTF-16 surrogate pair)', kind: 'control' };
  return undefined;
}

/** What the model is told to do instead, by what was found. */
const ADVICE: Readonly<Record<Exclude<FindingKind, 'builtin'>, string>> = {
  compound:
    'Run one command per call, without chaining (`;` `&` `|` `&&` `||`), substitution (`$(` `${` `$[` and backticks), ' +
    'redirection (`<` `>`) or line breaks; use working_directory instead of `cd`, and the file tools to write files.',
  structure: 'Run one plain command per call, without `( … )`, `{ … }`, `!`, `if`, `for`, `while`, `case` or functions; use working_directory instead of `cd`.',
  quoting: "Write every word as plain text, in '…' or in \"…\" without `$` or backticks: this host does not decode `$'…'` or `$\"…\"` in allowed commands.",
  expansion: 'Write the value out instead of a variable (`$HOME`, `$@`): this host does not expand variables in allowed commands.',
  comment: 'Leave out the comment.',
  assignment: 'Leave out the assignment: allowed commands run with the environment this host sets.',
  syntax: 'Check the quotes and brackets, and send one plain command.',
  control: 'Leave out control characters; separate words with spaces.',
};

function syntaxRefusal(allowed: string, finding: SyntaxFinding): string {
  if (finding.kind === 'builtin') return builtinRefusalText(finding.builtin ?? finding.construct);
  return (
    `Refused: this host only allows single commands starting with ${allowed}, and this command contains ${finding.construct}. ` +
    `Nothing was run. ${ADVICE[finding.kind]}`
  );
}

function notAllowedRefusal(words: readonly LiteralWord[], allowed: string): string {
  const first = quoted(words.slice(0, 2).map((word) => word.text).join(' '));
  return `Refused: \`${first}\` is not an allowed command on this host (allowed: ${allowed}). Nothing was run. Use an allowed command, or ask the user to run this one.`;
}

/** The refusal for a builtin or keyword that can run code the allowlist does not see, or `undefined`. */
function builtinRefusal(words: readonly LiteralWord[]): string | undefined {
  // Bash looks a name up as a builtin or keyword before the PATH; a name with a `/` is a program.
  const name = words[0]!.value.toLowerCase();
  if (EVALUATING_BUILTINS.has(name) || CODE_RUNNING_BUILTINS.has(name) || RESERVED_WORDS.has(name)) return builtinRefusalText(name);
  if (SUBSCRIPT_BUILTINS.has(name) && words.slice(1).some((word) => word.value.includes('['))) return builtinRefusalText(name);
  return undefined;
}

function builtinRefusalText(name: string): string {
  const keyword = RESERVED_WORDS.has(name) || name === '[[' || name === '((' || name === 'time' || name === 'coproc';
  const what = `\`${name}\` is a bash ${keyword ? 'keyword' : 'builtin'}`;
  if (SUBSCRIPT_BUILTINS.has(name)) {
    return (
      `Refused: ${what} that evaluates array subscripts in its arguments (\`${name} -v 'a[…]'\`), where \`$(…)\` runs commands however it is quoted, ` +
      `so this host does not accept \`${name}\` with a \`[\` in its arguments. Nothing was run. Leave out the \`[\`` +
      (name === 'test' ? ', or use `ls` or `stat` to look at files.' : ', or use `echo`.')
    );
  }
  if (EVALUATING_BUILTINS.has(name)) {
    return (
      `Refused: ${what} that evaluates array subscripts or arithmetic, where \`$(…)\` runs commands however it is quoted, so this host's allowlist does not accept it. ` +
      'Nothing was run. It would have no lasting effect in a one-command call anyway; run a program instead' +
      (name === '[' ? ' (`test -f file` where `test` is allowed).' : '.')
    );
  }
  if (CODE_RUNNING_BUILTINS.has(name)) {
    return `Refused: ${what} that runs its arguments as shell code or as another command, which this host's allowlist cannot check. Nothing was run. Call the program you want directly, as one plain command.`;
  }
  return `Refused: ${what}, not a command, and this host only allows single plain commands. Nothing was run. Run one plain command per call.`;
}

function quoted(text: string): string {
  return text.length > MAX_QUOTED_COMMAND ? `${text.slice(0, MAX_QUOTED_COMMAND)}…` : text;
}

/**
 * The key an "always" approval of `command` is remembered under: its first two words after
 * quote removal (`git status`, `npm test`, `ls -la`), or its only word. "Always" for
 * `npm run build` thus covers every `npm run …`. `undefined`, so "always" is never
 * remembered, unless the command is one plain command whose words are literals; and for
 * commands that run other commands (`bash`, `env`, `xargs`, `sudo`, `eval`, however they are
 * spelled: `/usr/bin/env`, `'env'`, `e\nv`), for builtins that evaluate code, for inline code
 * (`node -e`, `python -c`) and for `npm exec` and kin.
 *
 * It is synchronous, so it reads the parse that {@link prepareApprovalKey} or
 * {@link checkCommand} made of this command (`run_shell` makes it before any approval);
 * without one it returns `undefined`.
 */
export function commandApprovalKey(command: string): string | undefined {
  if (command.length > MAX_CHECKED_COMMAND_CHARACTERS || characterFinding(command) !== undefined) return undefined;
  const structure = analyzedCommand(command);
  if (structure === undefined || 'finding' in structure) return undefined;
  const keyWords = structure.words.slice(0, 2);
  // A word with a blank inside would make two different commands share a key.
  if (keyWords.some((word) => word.hasPattern || /[\s\p{Cc}]/u.test(word.value) || word.value === '')) return undefined;
  const [first, second] = keyWords.map((word) => word.value);
  const program = first!.split('/').at(-1)!.toLowerCase();
  if (program === '' || first!.includes('=')) return undefined;
  if (COMMAND_RUNNERS.has(program) || EVALUATING_BUILTINS.has(program) || CODE_RUNNING_BUILTINS.has(program)) return undefined;
  if (RESERVED_WORDS.has(program) || SUBSCRIPT_BUILTINS.has(program)) return undefined;
  if (second !== undefined && (INLINE_CODE_FLAGS.has(second) || PACKAGE_RUNNERS[program]?.has(second.toLowerCase()))) return undefined;
  return keyWords.map((word) => word.value).join(' ');
}

/**
 * Parses `command` so that {@link commandApprovalKey} can answer for it. Never rejects: when
 * the grammar cannot load, no key is remembered (and an allowlist's check reports the cause).
 */
export async function prepareApprovalKey(command: string): Promise<void> {
  if (command.length > MAX_CHECKED_COMMAND_CHARACTERS || characterFinding(command) !== undefined) return;
  await analyzeCommand(command).catch(() => undefined);
}

/** Starts the parser thread in the background, so the grammar is loaded by the first call. */
export function startCommandPolicy(): void {
  startCommandAnalyzer();
}

/** True when the command only changes directory, which has no effect on later calls. */
export function onlyChangesDirectory(command: string): boolean {
  const parts = command
    .split(/&&|;|\n/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  return parts.length > 0 && parts.every((part) => /^(cd|pushd|popd)(\s|$)/.test(part));
}
