/**
 * Translating a `search_files` pattern (a JavaScript regular expression) into ripgrep's
 * syntax (Rust's `regex`), for the hand-off to ripgrep. The translation may widen the
 * pattern, never narrow it: ripgrep only picks the files the worker then reads and matches
 * with the JavaScript pattern itself.
 */

/** What JavaScript's `\s` matches (WhiteSpace and LineTerminator), as a ripgrep class body. */
const JS_SPACE = '\\t\\n\\x0B\\f\\r \\xA0\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
/** Characters ripgrep's regex syntax lets (or makes) us escape outside a class. */
const RUST_META = new Set('\\.+*?()|[]{}^$#&-~');
/** Characters escaped inside a ripgrep class. */
const RUST_CLASS_META = new Set('\\[]^-&~');
/** Any character but a line break: what a removed back reference could have matched. */
const ANY_TEXT = '[^\\n]*';
/** Any one character of a line: what a letter becomes when ripgrep's case folding may be older than JavaScript's. */
const ANY_CHARACTER = '[^\\n]';
/**
 * The end of a line, as search_files sees it: it strips a `\r` before `\n` from the line. Not
 * ripgrep's `--crlf`, which would take `\r` out of `\s` and `[^x]` too, while a lone `\r`
 * stays inside a search_files line.
 */
const END_OF_LINE = '(?:\\r?$)';

/**
 * A ripgrep (Rust `regex`) pattern that matches every line the JavaScript pattern matches,
 * and maybe more: `search_files` checks ripgrep's files with the JavaScript pattern, so a
 * wider pattern only costs reading a few more files, while a narrower one would lose
 * results. `undefined` when the pattern uses something this translation does not cover;
 * the search then runs without ripgrep.
 *
 * - `\d`, `\w`, `\s`, `\b` mean what JavaScript means (ASCII digits and word characters,
 *   JavaScript's white space), not Unicode's wider sets.
 * - Lookarounds are dropped and back references become "any text": both only widen.
 * - `\p{…}` outside a class, and `\W` or `\b` under `ignore_case` (where JavaScript's case
 *   folding of word characters differs), are widened to any character or dropped.
 * - Under `ignore_case`, a character beyond ASCII becomes any character (JavaScript may fold
 *   case with newer Unicode tables than ripgrep has); a class holding one is not translated.
 * - `^` is kept only where an alternative starts and `$` only where one ends (ripgrep 13
 *   misses an empty line with `$^`); elsewhere they are dropped. `$` also matches before the
 *   `\r` that search_files strips from the end of a line.
 * - A `-` in a class that is not a range is escaped: ripgrep reads `--` as set difference.
 * - Only patterns compiled with the `u` flag are translated: without it `.` matches half of
 *   a character outside the Basic Multilingual Plane, which no ripgrep pattern can.
 */
export function ripgrepPattern(source: string, flags: string): string | undefined {
  if (!flags.includes('u')) return undefined;
  const caseless = flags.includes('i');
  const characters = [...source];
  let output = caseless ? '(?i)' : '';
  /** True at the start of the pattern, of a group or of an alternative: where `^` is kept. */
  let atStart = true;
  let index = 0;
  while (index < characters.length) {
    const character = characters[index]!;
    let text: string;
    if (character === '\\') {
      const escape = translateEscape(characters, index + 1, caseless);
      if (escape === undefined) return undefined;
      text = escape.text;
      index = escape.next;
    } else if (character === '[') {
      const set = translateClass(characters, index + 1, caseless);
      if (set === undefined) return undefined;
      text = set.text;
      index = set.next;
    } else if (character === '(') {
      const group = translateGroupStart(characters, index + 1);
      if (group === undefined) return undefined;
      output += group.text;
      index = group.next;
      // A dropped lookaround leaves the position as it was.
      if (group.text !== '') atStart = true;
      continue;
    } else if (character === '{') {
      // With the `u` flag a brace is always a quantifier: copy it to its end.
      const end = characters.indexOf('}', index);
      if (end === -1) return undefined;
      text = characters.slice(index, end + 1).join('');
      index = end + 1;
    } else {
      index += 1;
      if (character === '|') {
        output += '|';
        atStart = true;
        continue;
      }
      // ripgrep 13 misses an anchor in the middle of an alternative (`$^`): dropped, which only widens.
      if (character === '^') text = atStart ? '^' : '';
      else if (character === '$') text = index === characters.length || characters[index] === '|' || characters[index] === ')' ? END_OF_LINE : '';
      else text = '.)*+?'.includes(character) ? character : literal(character, caseless);
    }
    output += text;
    if (text !== '' && text !== '^') atStart = false;
  }
  return output;
}

interface Translated {
  readonly text: string;
  /** Index of the first character after what was translated. */
  readonly next: number;
}

/**
 * One character as a ripgrep literal. Under `ignore_case` a character beyond ASCII matches
 * any character: JavaScript folds case with newer Unicode tables than ripgrep may have.
 */
function literal(character: string, caseless: boolean): string {
  if (caseless && character.codePointAt(0)! > 0x7f) return ANY_CHARACTER;
  return RUST_META.has(character) ? `\\${character}` : character;
}

function classLiteral(character: string): string {
  return RUST_CLASS_META.has(character) ? `\\${character}` : character;
}

/** An escape after a `\` outside a class. */
function translateEscape(characters: readonly string[], at: number, caseless: boolean): Translated | undefined {
  const letter = characters[at];
  if (letter === undefined) return undefined;
  const next = at + 1;
  switch (letter) {
    case 'd':
      return { text: '[0-9]', next };
    case 'D':
      return { text: '[^0-9]', next };
    case 'w':
      return { text: '[0-9A-Za-z_]', next };
    case 'W':
      return { text: caseless ? '[\\s\\S]' : '[^0-9A-Za-z_]', next };
    case 's':
      return { text: `[${JS_SPACE}]`, next };
    case 'S':
      return { text: `[^${JS_SPACE}]`, next };
    case 'b':
      return { text: caseless ? '' : '(?-u:\\b)', next };
    case 'B':
      return { text: caseless ? '' : '(?-u:\\B)', next };
    case 'p':
    case 'P': {
      const end = characters[next] === '{' ? characters.indexOf('}', next) : -1;
      return end === -1 ? undefined : { text: '[\\s\\S]', next: end + 1 };
    }
    case 'k': {
      const end = characters[next] === '<' ? characters.indexOf('>', next) : -1;
      return end === -1 ? undefined : { text: ANY_TEXT, next: end + 1 };
    }
    default: {
      if (/[1-9]/.test(letter)) {
        let end = next;
        while (end < characters.length && /[0-9]/.test(characters[end]!)) end += 1;
        return { text: ANY_TEXT, next: end };
      }
      return characterEscape(characters, at, caseless);
    }
  }
}

/**
 * An escape that stands for one character, the same inside and outside a class: `\t`,
 * `\x41`, `\u{1F600}`, `\cJ`, `\0`, or an escaped syntax character. `\n` is refused: no
 * line holds one, and ripgrep rejects it.
 */
function characterEscape(characters: readonly string[], at: number, caseless: boolean): Translated | undefined {
  const letter = characters[at]!;
  const next = at + 1;
  /** `\x{…}` for the code point in `digits` (exactly `length` of them when given), or `undefined`. */
  const hex = (digits: readonly string[], length?: number): string | undefined => {
    const text = digits.join('');
    const code = Number.parseInt(text, 16);
    if ((length !== undefined && digits.length !== length) || !/^[0-9a-fA-F]+$/.test(text)) return undefined;
    // A lone surrogate is not a character ripgrep can look for.
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return undefined;
    // Beyond ASCII, case folding may differ between the two (see `literal`).
    if (caseless && code > 0x7f) return ANY_CHARACTER;
    return `\\x{${code.toString(16)}}`;
  };
  const escaped = (text: string | undefined, after: number): Translated | undefined => (text === undefined ? undefined : { text, next: after });
  switch (letter) {
    case 't':
      return { text: '\\t', next };
    case 'r':
      return { text: '\\r', next };
    case 'f':
      return { text: '\\f', next };
    case 'v':
      return { text: '\\x0B', next };
    case '0':
      return /[0-9]/.test(characters[next] ?? '') ? undefined : { text: '\\x00', next };
    case 'x':
      return escaped(hex(characters.slice(next, next + 2), 2), next + 2);
    case 'u': {
      if (characters[next] !== '{') return escaped(hex(characters.slice(next, next + 4), 4), next + 4);
      const end = characters.indexOf('}', next);
      return end === -1 ? undefined : escaped(hex(characters.slice(next + 1, end)), end + 1);
    }
    case 'c': {
      const control = characters[next];
      if (control === undefined || !/[A-Za-z]/.test(control)) return undefined;
      return { text: `\\x{${(control.charCodeAt(0) % 32).toString(16)}}`, next: next + 1 };
    }
    default:
      // With the `u` flag only syntax characters (and `/`, `-`) may be escaped.
      if (!/[\^$\\.*+?()[\]{}|/-]/.test(letter)) return undefined;
      return { text: letter === '/' ? '/' : `\\${letter}`, next };
  }
}

/** A class after its `[`, as a ripgrep class that matches exactly the same characters. */
function translateClass(characters: readonly string[], at: number, caseless: boolean): Translated | undefined {
  let index = at;
  const negated = characters[index] === '^';
  if (negated) index += 1;
  let body = '';
  while (index < characters.length && characters[index] !== ']') {
    const first = classAtom(characters, index, caseless);
    if (first === undefined) return undefined;
    index = first.next;
    // `a-z` is a range only between two single characters; any other `-` is itself, and is
    // escaped, since ripgrep reads `--` as set difference.
    const isRange = first.single && characters[index] === '-' && index + 1 < characters.length && characters[index + 1] !== ']';
    if (!isRange) {
      body += first.text;
      continue;
    }
    const last = classAtom(characters, index + 1, caseless);
    if (last === undefined || !last.single) return undefined;
    body += `${first.text}-${last.text}`;
    index = last.next;
  }
  if (index >= characters.length) return undefined;
  // `[]` matches nothing and `[^]` anything: JavaScript only.
  if (body === '') return negated ? { text: '[\\s\\S]', next: index + 1 } : undefined;
  return { text: `[${negated ? '^' : ''}${body}]`, next: index + 1 };
}

/** Sets a class escape stands for, spelled for a ripgrep class. */
const CLASS_SETS: Readonly<Record<string, string>> = { d: '0-9', w: '0-9A-Za-z_', s: JS_SPACE, D: '[^0-9]', W: '[^0-9A-Za-z_]', S: `[^${JS_SPACE}]` };

/** One member of a class: a character (`single`, so it may start or end a range) or a set such as `\d`. */
function classAtom(characters: readonly string[], at: number, caseless: boolean): (Translated & { readonly single: boolean }) | undefined {
  const character = characters[at]!;
  if (character !== '\\') {
    // Case folding beyond ASCII may differ between JavaScript and ripgrep: not translated.
    if (caseless && character.codePointAt(0)! > 0x7f) return undefined;
    return { text: classLiteral(character), next: at + 1, single: true };
  }
  const letter = characters[at + 1];
  if (letter === undefined) return undefined;
  const set = CLASS_SETS[letter];
  if (set !== undefined) return { text: set, next: at + 2, single: false };
  if (letter === 'b') return { text: '\\x08', next: at + 2, single: true };
  // `\p{…}`, `\k` and back references do not belong in a class translated exactly.
  if ('pPk123456789'.includes(letter)) return undefined;
  const escape = characterEscape(characters, at + 1, caseless);
  if (escape === undefined || escape.text === ANY_CHARACTER) return undefined;
  return { text: escape.text, next: escape.next, single: true };
}

/** A group after its `(`: captures become plain groups, lookarounds are dropped. */
function translateGroupStart(characters: readonly string[], at: number): Translated | undefined {
  if (characters[at] !== '?') return { text: '(?:', next: at };
  const kind = characters.slice(at + 1, at + 3).join('');
  if (kind.startsWith(':')) return { text: '(?:', next: at + 2 };
  if (kind.startsWith('=') || kind.startsWith('!') || kind === '<=' || kind === '<!') {
    const end = groupEnd(characters, at);
    return end === undefined ? undefined : { text: '', next: end + 1 };
  }
  if (kind.startsWith('<')) {
    const end = characters.indexOf('>', at);
    return end === -1 ? undefined : { text: '(?:', next: end + 1 };
  }
  return undefined;
}

/** The index of the `)` closing the group whose `(` is just before `at`. */
function groupEnd(characters: readonly string[], at: number): number | undefined {
  let depth = 1;
  let inClass = false;
  for (let index = at; index < characters.length; index += 1) {
    const character = characters[index];
    if (character === '\\') index += 1;
    else if (inClass) inClass = character !== ']';
    else if (character === '[') inClass = true;
    else if (character === '(') depth += 1;
    else if (character === ')' && (depth -= 1) === 0) return index;
  }
  return undefined;
}
