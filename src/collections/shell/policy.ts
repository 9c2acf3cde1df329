/**
 * The allow and deny prefix lists of `run_shell`. They guard against honest mistakes, not
 * against a determined attacker: a sandbox is the boundary.
 */

/** What the allowlist refuses in a command, with the name the refusal uses for it. */
const COMPOUND_SYNTAX: readonly (readonly [string, string])[] = [
  ['\0', 'a NUL byte'],
  ['\n', 'a line break'],
  ['\r', 'a carriage return'],
  ['$(', 'command substitution `$(`'],
  ['`', 'command substitution with backticks'],
  // `${x@P}` (prompt expansion) and array subscripts in `${…}` and `$[…]` (arithmetic) run
  // `$(…)` that quoting or `$'\x24'` put together, so they count as substitution.
  ['${', 'parameter expansion `${`'],
  ['$[', 'arithmetic expansion `$[`'],
  ['<(', 'process substitution `<(`'],
  ['>(', 'process substitution `>(`'],
  ['&&', '`&&`'],
  ['||', '`||`'],
  [';', '`;`'],
  ['&', '`&`'],
  ['|', 'a pipe `|`'],
  ['>', 'redirection `>`'],
  ['<', 'redirection `<`'],
];

/**
 * Commands that run other commands, so remembering "always" for their first words would
 * approve anything at all.
 */
export const COMMAND_RUNNERS: ReadonlySet<string> = new Set([
  'bash', 'sh', 'zsh', 'dash', 'ksh', 'fish', 'eval', 'exec', 'source', '.', 'env', 'sudo', 'su', 'doas',
  'xargs', 'nohup', 'timeout', 'nice', 'ionice', 'time', 'command', 'builtin', 'watch', 'ssh', 'setsid',
  'stdbuf', 'chroot', 'unshare', 'nsenter', 'script', 'parallel', '!', 'coproc',
]);

/** Second words that hand a program code to run (`node -e`, `python -c`): "always" would approve any code. */
const INLINE_CODE_FLAGS: ReadonlySet<string> = new Set(['-c', '-e', '--eval', '--command']);

/** Characters of a refused command's first words quoted in the refusal (a word can be huge). */
const MAX_QUOTED_COMMAND = 100;

/** The allow and deny lists after validation. */
export interface CommandPolicy {
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
}

/** The first piece of compound syntax in `command` (chaining, substitution, redirection, line breaks), described. */
export function findCompoundSyntax(command: string): string | undefined {
  for (const [token, name] of COMPOUND_SYNTAX) {
    if (command.includes(token)) return name;
  }
  return undefined;
}

/** The command's words, split on blanks. */
export function commandWords(command: string): string[] {
  return command.trim().split(/[ \t]+/).filter((word) => word.length > 0);
}

/**
 * True when the command's first words are the prefix's words, ignoring case (`git` matches
 * `git log`, not `gitk`). Quotes and backslashes are dropped first, as the shell drops them,
 * so `git "push"` matches `git push`.
 */
export function matchesPrefix(command: string, prefix: string): boolean {
  const words = commandWords(command);
  const wanted = commandWords(prefix);
  if (wanted.length === 0 || words.length < wanted.length) return false;
  return wanted.every((word, index) => unquoted(words[index]!).toLowerCase() === unquoted(word).toLowerCase());
}

/** A word without its quotes and backslashes. */
function unquoted(word: string): string {
  return word.replace(/["'\\]/g, '');
}

/**
 * Why the policy refuses `command`, written for the model, or `undefined` when it may run.
 * Without an allowlist everything may run.
 */
export function checkCommand(command: string, policy: CommandPolicy): string | undefined {
  if (command.trim() === '') return 'The command is empty. Pass the command to run, such as `git status`.';
  if (policy.allow === undefined) return undefined;
  const allowed = policy.allow.map((prefix) => `\`${prefix}\``).join(', ');
  const compound = findCompoundSyntax(command);
  if (compound !== undefined) {
    return (
      `Refused: this host only allows single commands starting with ${allowed}, and this command contains ${compound}. ` +
      'Nothing was run. Run one command per call, without chaining (`;` `&` `|` `&&` `||`), substitution (`$(` `${` `$[` and backticks), ' +
      'redirection (`<` `>`) or line breaks; use working_directory instead of `cd`, and the file tools to write files.'
    );
  }
  const words = commandWords(command).slice(0, 2).join(' ');
  const first = words.length > MAX_QUOTED_COMMAND ? `${words.slice(0, MAX_QUOTED_COMMAND)}…` : words;
  if (!policy.allow.some((prefix) => matchesPrefix(command, prefix))) {
    return `Refused: \`${first}\` is not an allowed command on this host (allowed: ${allowed}). Nothing was run. Use an allowed command, or ask the user to run this one.`;
  }
  const denied = policy.deny?.find((prefix) => matchesPrefix(command, prefix));
  if (denied !== undefined) {
    return `Refused: commands starting with \`${denied}\` are denied on this host. Nothing was run. Do not retry it in another form; ask the user if it is needed.`;
  }
  return undefined;
}

/**
 * The key an "always" approval of `command` is remembered under: its first two words
 * (`git status`, `npm test`, `ls -la`), or its only word. "Always" for `npm run build` thus
 * covers every `npm run …`. `undefined` for chained or compound commands, for leading
 * variable assignments, for commands that run other commands (`bash -c`, `/bin/sh`, `xargs`,
 * `sudo`) and for inline code (`node -e`, `python -c`), so "always" is never remembered for them.
 */
export function commandApprovalKey(command: string): string | undefined {
  if (findCompoundSyntax(command) !== undefined) return undefined;
  const words = commandWords(command);
  const first = words[0];
  if (first === undefined) return undefined;
  // The program as the shell finds it: `/bin/bash`, `'bash'` and `b\ash` all run bash.
  const program = unquoted(first).split('/').at(-1)!;
  if (COMMAND_RUNNERS.has(program) || first.includes('=') || first.startsWith('(') || first.startsWith('{')) return undefined;
  if (words[1] !== undefined && INLINE_CODE_FLAGS.has(unquoted(words[1]))) return undefined;
  return words.slice(0, 2).join(' ');
}

/** True when the command only changes directory, which has no effect on later calls. */
export function onlyChangesDirectory(command: string): boolean {
  const parts = command
    .split(/&&|;|\n/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  return parts.length > 0 && parts.every((part) => /^(cd|pushd|popd)(\s|$)/.test(part));
}
