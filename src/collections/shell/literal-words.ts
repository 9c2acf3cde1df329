/**
 * A strict reader of a command line as plain words: the second, independent half of the
 * allowlist's proof (the bash grammar is the first). It accepts only what bash reads as literal
 * words separated by blanks, does quote removal the way bash does, and names the first thing
 * that is anything else.
 */

/** What kind of advice a refusal gives the model. */
export type FindingKind = 'compound' | 'structure' | 'quoting' | 'expansion' | 'comment' | 'assignment' | 'syntax' | 'control' | 'builtin';

/** A piece of shell syntax that keeps a command from being plain, named for the model. */
export interface SyntaxFinding {
  /** How the refusal names it: "command substitution `$(`", "ANSI-C quoting `$'…'`". */
  readonly construct: string;
  readonly kind: FindingKind;
  /** With kind `builtin`: the builtin or keyword (`declare`, `[[`, `((`), whose refusal says why. */
  readonly builtin?: string;
}

/** One word of a plain command. */
export interface LiteralWord {
  /** The word after quote removal: what the program receives. */
  readonly value: string;
  /** The word as written. */
  readonly text: string;
  /** Where it starts and ends in the command (UTF-16 code units, as JavaScript strings count). */
  readonly start: number;
  readonly end: number;
  /**
   * The word has an unquoted `*`, `?`, `[`, `{` or `~`: bash may turn it into other words
   * (file names, brace expansion, the home folder), so its value is not certain.
   */
  readonly hasPattern: boolean;
}

/** The words of a plain command, or the first finding that makes it not plain. */
export type LiteralWordsResult = { readonly words: readonly LiteralWord[] } | { readonly finding: SyntaxFinding };

const BLANKS = new Set([' ', '\t']);
const PATTERN_CHARACTERS = new Set(['*', '?', '[', '{', '~']);
/** What `\` keeps its meaning before inside double quotes (a line break is refused before this). */
const DOUBLE_QUOTE_ESCAPES = new Set(['$', '`', '"', '\\']);
const CONTROL_CHARACTER = /[\x00-\x1f\x7f]/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\+?=|\[)/;

/**
 * Reads `command` as plain words: blanks (space, tab) between words; inside a word plain
 * characters, `\x` escapes, `'…'` and `"…"` without `$` or backticks. Anything else —
 * operators, expansions of any spelling, `$'…'` and `$"…"`, comments, control characters,
 * unclosed quotes, a leading `NAME=` — is a finding, named.
 */
export function readLiteralWords(command: string): LiteralWordsResult {
  const words: LiteralWord[] = [];
  let position = skipBlanks(command, 0);
  while (position < command.length) {
    const start = position;
    let value = '';
    let hasPattern = false;
    while (position < command.length && !BLANKS.has(command[position]!)) {
      const character = command[position]!;
      if (character === "'") {
        const close = command.indexOf("'", position + 1);
        if (close === -1) return found('an unclosed quote `\'`', 'syntax');
        const quoted = command.slice(position + 1, close);
        const control = CONTROL_CHARACTER.exec(quoted);
        if (control !== null) return { finding: controlFinding(control[0])! };
        value += quoted;
        position = close + 1;
      } else if (character === '"') {
        const read = readDoubleQuoted(command, position + 1);
        if ('finding' in read) return read;
        value += read.value;
        position = read.end;
      } else if (character === '\\') {
        if (position + 1 >= command.length) return found('a backslash at the end of the command', 'syntax');
        const control = controlFinding(command[position + 1]!);
        if (control !== undefined) return { finding: control };
        value += command[position + 1];
        position += 2;
      } else if (character === '#' && position === start) {
        return found('a comment `#`', 'comment');
      } else {
        const finding = unquotedFinding(command, position);
        if (finding !== undefined) return { finding };
        if (PATTERN_CHARACTERS.has(character)) hasPattern = true;
        value += character;
        position += 1;
      }
    }
    const text = command.slice(start, position);
    if (words.length === 0 && ASSIGNMENT.test(text)) return found('a variable assignment `NAME=`', 'assignment');
    words.push({ value, text, start, end: position, hasPattern });
    position = skipBlanks(command, position);
  }
  return { words };
}

function readDoubleQuoted(command: string, from: number): { value: string; end: number } | { finding: SyntaxFinding } {
  let value = '';
  let position = from;
  while (position < command.length) {
    const character = command[position]!;
    if (character === '"') return { value, end: position + 1 };
    if (character === '\\' && position + 1 < command.length && DOUBLE_QUOTE_ESCAPES.has(command[position + 1]!)) {
      value += command[position + 1];
      position += 2;
      continue;
    }
    if (character === '$') return { finding: dollarFinding(command, position) };
    if (character === '`') return { finding: { construct: 'command substitution with backticks', kind: 'compound' } };
    const control = controlFinding(character);
    if (control !== undefined) return { finding: control };
    value += character;
    position += 1;
  }
  return { finding: { construct: 'an unclosed quote `"`', kind: 'syntax' } };
}

/** The finding for an unquoted character, or `undefined` when it is a plain one. */
function unquotedFinding(command: string, position: number): SyntaxFinding | undefined {
  const character = command[position]!;
  const next = command[position + 1];
  switch (character) {
    case '$':
      return dollarFinding(command, position);
    case '`':
      return { construct: 'command substitution with backticks', kind: 'compound' };
    case ';':
      return { construct: '`;`', kind: 'compound' };
    case '&':
      if (next === '&') return { construct: '`&&`', kind: 'compound' };
      if (next === '>') return { construct: 'redirection `>`', kind: 'compound' };
      return { construct: '`&`', kind: 'compound' };
    case '|':
      return next === '|' ? { construct: '`||`', kind: 'compound' } : { construct: 'a pipe `|`', kind: 'compound' };
    case '<':
      if (next === '(') return { construct: 'process substitution `<(`', kind: 'compound' };
      return { construct: 'redirection `<`', kind: 'compound' };
    case '>':
      if (next === '(') return { construct: 'process substitution `>(`', kind: 'compound' };
      return { construct: 'redirection `>`', kind: 'compound' };
    case '(':
    case ')':
      return { construct: 'parentheses `( … )`', kind: 'structure' };
    default:
      return controlFinding(character);
  }
}

/** What a `$` starts, named. */
function dollarFinding(command: string, position: number): SyntaxFinding {
  const next = command[position + 1];
  if (next === "'") return { construct: "ANSI-C quoting `$'…'`", kind: 'quoting' };
  if (next === '"') return { construct: 'locale quoting `$"…"`', kind: 'quoting' };
  if (next === '(') {
    return command[position + 2] === '('
      ? { construct: 'arithmetic expansion `$((`', kind: 'compound' }
      : { construct: 'command substitution `$(`', kind: 'compound' };
  }
  if (next === '{') return { construct: 'parameter expansion `${`', kind: 'compound' };
  if (next === '[') return { construct: 'arithmetic expansion `$[`', kind: 'compound' };
  return { construct: 'a variable expansion `$`', kind: 'expansion' };
}

function controlFinding(character: string): SyntaxFinding | undefined {
  const code = character.charCodeAt(0);
  if (code === 0) return { construct: 'a NUL byte', kind: 'compound' };
  if (code === 10) return { construct: 'a line break', kind: 'compound' };
  if (code === 13) return { construct: 'a carriage return', kind: 'compound' };
  if (code < 0x20 || code === 0x7f) return { construct: 'a control character', kind: 'control' };
  return undefined;
}

function skipBlanks(command: string, from: number): number {
  let position = from;
  while (position < command.length && BLANKS.has(command[position]!)) position += 1;
  return position;
}

function found(construct: string, kind: FindingKind): { finding: SyntaxFinding } {
  return { finding: { construct, kind } };
}
