/** Node's parser messages, rewritten to say what to type instead: for a mistyped flag, the one of `flags` (long names) meant. */
export function parseErrorText(error: Error & { code?: string }, flags: readonly string[]): string {
  const help = 'Run `agent-toolbelt --help` for the flags.';
  const unknown = /^Unknown option '(-{1,2}[^']*)'/.exec(error.message);
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown !== null) {
    const given = unknown[1]!;
    const nearest = nearestFlag(given.replace(/^-+/, ''), flags);
    return `Unknown flag \`${given}\`.${nearest === undefined ? '' : ` Did you mean \`--${nearest}\`?`} ${help}`;
  }
  const missing = /^Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(error.message);
  if (missing !== null) return `\`${missing[1]}\` needs a value, as in \`${missing[1]} ${VALUE_EXAMPLES[missing[1]!] ?? 'LIST'}\`. ${help}`;
  const extra = /^Option '(--[\w-]+)' does not take an argument/.exec(error.message);
  if (extra !== null) return `\`${extra[1]}\` is a switch and takes no value: write \`${extra[1]}\` alone. ${help}`;
  return `${error.message} ${help}`;
}

const VALUE_EXAMPLES: Record<string, string> = { '--root': 'DIR', '--mode': 'ask', '--sandbox': 'bwrap', '--host': '127.0.0.1', '--port': '8765', '--token-file': 'FILE' };

/** The flag a mistyped one most likely meant: within a few edits, or the only one it begins or ends. */
function nearestFlag(given: string, flags: readonly string[]): string | undefined {
  let best: { flag: string; distance: number } | undefined;
  for (const flag of flags) {
    const distance = editDistance(given, flag);
    if (best === undefined || distance < best.distance) best = { flag, distance };
  }
  if (best !== undefined && best.distance <= Math.max(1, Math.min(3, Math.floor(given.length / 3)))) return best.flag;
  const related = flags.filter((flag) => flag.startsWith(given) || given.startsWith(flag));
  return related.length === 1 ? related[0] : undefined;
}

/** Levenshtein distance: insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
