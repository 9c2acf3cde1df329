import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import * as path from 'node:path';
import { runRipgrep } from './ripgrep-process.js';

/**
 * ripgrep as `search_files`' first pass on a local workspace. It never decides a result: it
 * names the files that may match (a superset, see {@link ripgrepPattern}), and the search
 * worker then reads only those, with the same rules and matcher as without ripgrep. So the
 * answer is the same either way, and ripgrep's speed at walking and scanning a large tree is
 * what the model waits for.
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

/**
 * A glob ripgrep can use to pass over files, when `include` is as simple as `*.ts`: ripgrep
 * reads such a glob as picomatch does. Anything else is left to the worker's own check.
 */
export function ripgrepGlob(include: string | undefined): string | undefined {
  return include !== undefined && /^\*(\.[A-Za-z0-9_-]+)+$/.test(include) ? include : undefined;
}

const located = new Map<string, Promise<string | undefined>>();

/**
 * The ripgrep program to use: `setting` when it is a path, `rg` found on PATH when it is
 * `true`, none when `false`. A lookup on PATH is made once per PATH value.
 */
export function locateRipgrep(setting: string | boolean): Promise<string | undefined> {
  if (setting === false) return Promise.resolve(undefined);
  if (typeof setting === 'string') return Promise.resolve(setting);
  const searchPath = process.env.PATH ?? '';
  let found = located.get(searchPath);
  if (found === undefined) {
    found = findOnPath('rg', searchPath);
    located.set(searchPath, found);
  }
  return found;
}

async function findOnPath(program: string, searchPath: string): Promise<string | undefined> {
  for (const folder of searchPath.split(path.delimiter)) {
    if (folder === '' || !path.isAbsolute(folder)) continue;
    const candidate = path.join(folder, program);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; try the next folder.
    }
  }
  return undefined;
}

/** What ripgrep was asked. */
export interface RipgrepQuery {
  readonly program: string;
  /** Canonical absolute folder to search; ripgrep runs there. */
  readonly start: string;
  /** From {@link ripgrepPattern}. */
  readonly pattern: string;
  /** Folder names not entered below the start. */
  readonly skipped: readonly string[];
  /** A glob ripgrep may use to pass over files (a superset of `include`), when there is one. */
  readonly glob: string | undefined;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

/** What ripgrep answered. */
export type RipgrepAnswer =
  /** Files that may match, relative to the start with `/`, in walk order; files ripgrep looked at. */
  | { readonly type: 'candidates'; readonly files: readonly string[]; readonly searched: number }
  /** ripgrep could not do it (an error, a folder it could not read): search without it. */
  | { readonly type: 'failed'; readonly reason: string }
  | { readonly type: 'timeout' }
  | { readonly type: 'cancelled' };

/** Bytes of file names ripgrep may print before it is stopped: far more than any tree this runs on. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/**
 * Runs ripgrep (through the ripgrep host, see `ripgrep-process.ts`) for the files under `start` that may match: hidden files included, ignore
 * files and config files not read, links never followed (ripgrep does not follow them unless
 * told to), skipped folders not entered, and binary files passed over as it finds them.
 */
export async function ripgrepCandidates(query: RipgrepQuery): Promise<RipgrepAnswer> {
  const args = [
    '--no-config',
    '--no-ignore',
    '--hidden',
    '--no-messages',
    '--files-with-matches',
    '--null',
    '--stats',
    // The last glob that matches wins: skipped folders last, so `*.ts` cannot bring back a folder named `x.ts`.
    ...(query.glob === undefined ? [] : ['--glob', query.glob]),
    ...query.skipped.flatMap((folder) => ['--glob', `!${escapeGlob(folder)}/`]),
    '--regexp',
    query.pattern,
    '--',
    '.',
  ];
  return runRipgrep({ program: query.program, args, cwd: query.start, timeoutMs: query.timeoutMs, maxBytes: MAX_OUTPUT_BYTES }, query.signal);
}

/**
 * ripgrep's answer from its output: each file name ends with a NUL; the statistics follow the
 * last one. Run in the ripgrep host, so a long list is parsed and sorted off this process.
 */
export function parseRipgrepOutput(stdout: Buffer): RipgrepAnswer {
  const end = stdout.lastIndexOf(0);
  const statistics = stdout.subarray(end + 1).toString('utf8');
  const searched = /^(\d+) files searched$/m.exec(statistics);
  if (searched === null) return { type: 'failed', reason: 'no statistics' };
  const files: string[] = [];
  let start = 0;
  while (start <= end) {
    const stop = stdout.indexOf(0, start);
    let name = stdout.toString('utf8', start, stop);
    if (name.startsWith('./')) name = name.slice(2);
    // A name that is not UTF-8 could not be opened again by its decoded form.
    if (name.includes('\ufffd')) return { type: 'failed', reason: 'a file name that is not UTF-8' };
    files.push(name);
    start = stop + 1;
  }
  files.sort(walkOrder);
  return { type: 'candidates', files, searched: Number(searched[1]) };
}

/**
 * The order `walkFiles` yields paths in (relative, `/`-separated): depth first, a folder's
 * files before its subfolders, names compared as strings.
 */
export function walkOrder(a: string, b: string): number {
  let index = 0;
  for (;;) {
    const slashA = a.indexOf('/', index);
    const slashB = b.indexOf('/', index);
    const partA = slashA === -1 ? a.slice(index) : a.slice(index, slashA);
    const partB = slashB === -1 ? b.slice(index) : b.slice(index, slashB);
    // A file comes before a subfolder of the same folder.
    if ((slashA === -1) !== (slashB === -1)) return slashA === -1 ? -1 : 1;
    if (partA !== partB) return partA < partB ? -1 : 1;
    if (slashA === -1) return 0;
    index = slashA + 1;
  }
}

/** A folder name as a literal in a ripgrep glob. */
function escapeGlob(name: string): string {
  return name.replace(/[\\*?[\]{}!]/g, (character) => `\\${character}`);
}
