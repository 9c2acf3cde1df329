/**
 * The byte prefilter of `search_files`: text that every matching line must contain, found in
 * the pattern, and a test of a file's raw bytes for it. A file whose bytes hold none of it
 * cannot match, so it is neither decoded nor split into lines: most files of a search for a
 * rare pattern cost one `indexOf` over their bytes, as in ripgrep, instead of a UTF-8 decode
 * and a regular expression over the text (4–10 times slower, measured on this repository's
 * `node_modules`). The test may say "may match" for a file that does not (the worker then
 * matches it properly); it never says "cannot match" for a file that does.
 *
 * Also the text prefilter, {@link canPrefilter}: whether one test of a whole chunk of text can
 * stand for testing its lines one by one.
 */

/**
 * True when testing a whole chunk at once (with the `m` flag) can only miss if no line matches,
 * so a chunk without a whole-text match can be skipped. Lookarounds could see past a line's
 * end and `$` could stop at a `\r`, so patterns with them are matched line by line only.
 */
export function canPrefilter(source: string): boolean {
  return !/\(\?<?[=!]/.test(source) && !source.includes('$');
}

/** Text the pattern's matches must contain: one of `literals` in every matching line. */
export interface RequiredText {
  /** One per top-level alternative of the pattern: each of its matches contains that text. */
  readonly literals: readonly string[];
  /**
   * Compared ignoring ASCII case (the pattern has the `i` flag; the literals are ASCII then).
   * With `u` too, `k` also matches the Kelvin sign and `s` the long s, as JavaScript
   * folds them.
   */
  readonly caseless: boolean;
  /** `caseless` with the `u` flag: the two non-ASCII letters that fold to `k` and `s` count. */
  readonly unicodeFolds: boolean;
}

/** Alternatives past which a pattern gets no prefilter: each costs one pass over every file. */
const MAX_LITERALS = 16;

/**
 * ASCII characters from the rarest to the most common in source text (upper-case letters
 * counted as lower-case), measured over 6,000 files of this repository's `node_modules`. A
 * caseless literal is looked for by its rarest character, so the scan stops rarely.
 */
const RAREST_FIRST = '~^%798\\56$+43z#@<2q!|?&>1j][\'0_-xkw`{}v*:y";b/=)(,gfh.mupdclioansrte ';

/**
 * The text every line the pattern matches must contain, or `undefined` when the pattern has
 * an alternative without a required literal (`a|\d+`), or more than {@link MAX_LITERALS}
 * alternatives. Groups, classes, escapes other than escaped punctuation, anchors and
 * quantified characters end a literal; the longest literal of each top-level alternative is
 * kept. Under `i`, characters beyond ASCII end a literal too (their case folding is not
 * checked on bytes).
 */
export function requiredText(source: string, flags: string): RequiredText | undefined {
  // The `v` flag's nested classes are not parsed here (`compilePattern` never sets it).
  if (flags.includes('v')) return undefined;
  const characters = [...source];
  const scan = new LiteralScan(flags.includes('i'));
  for (let index = 0; index < characters.length; index += 1) {
    const last = scan.read(characters, index);
    if (last === undefined) return undefined;
    index = last;
  }
  const literals = scan.finish();
  if (literals === undefined || literals.length > MAX_LITERALS) return undefined;
  return { literals, caseless: scan.caseless, unicodeFolds: scan.caseless && flags.includes('u') };
}

/**
 * The literals of a pattern read one character at a time, for {@link requiredText}: the
 * longest run of literal text of each top-level alternative.
 */
class LiteralScan {
  readonly caseless: boolean;
  readonly #literals: string[] = [];
  /** The longest run of the current alternative so far. */
  #best = '';
  /** The run of literal text being read. */
  #run = '';
  #depth = 0;
  #inClass = false;

  constructor(caseless: boolean) {
    this.caseless = caseless;
  }

  /**
   * Reads the character at `index` (with what belongs to it); the index of the last character
   * read, or `undefined` when the pattern cannot have required text.
   */
  read(characters: readonly string[], index: number): number | undefined {
    const character = characters[index]!;
    if (this.#inClass) {
      if (character === '\\') return index + 1;
      if (character === ']') this.#inClass = false;
      return index;
    }
    if (character === '\\') return this.#escape(characters, index);
    if (character === '[' || character === '(' || character === ')') {
      this.#endRun();
      if (character === '[') this.#inClass = true;
      else this.#depth += character === '(' ? 1 : -1;
      return index;
    }
    // Inside a group nothing is taken: its alternatives and quantifiers are its own.
    if (this.#depth > 0) return index;
    if (character === '|') {
      this.#endRun();
      if (this.#best === '') return undefined;
      this.#literals.push(this.#best);
      this.#best = '';
      return index;
    }
    if (isQuantifierStart(characters, index)) {
      // A quantifier applies to the character before it, which may then be absent or repeated: it leaves the literal.
      if (this.#run.length > 0) this.#run = [...this.#run].slice(0, -1).join('');
      this.#endRun();
      return character === '{' ? characters.indexOf('}', index) : index;
    }
    if ('^$.{}]'.includes(character)) this.#endRun();
    else this.#literal(character);
    return index;
  }

  /** The literals, one per top-level alternative, once every character was read; `undefined` when the pattern has none to require. */
  finish(): string[] | undefined {
    this.#endRun();
    if (this.#inClass || this.#depth !== 0 || this.#best === '') return undefined;
    this.#literals.push(this.#best);
    return this.#literals;
  }

  /** An escape whose backslash is at `index`; the index of its last character. */
  #escape(characters: readonly string[], index: number): number | undefined {
    const next = characters[index + 1];
    if (next === undefined) return undefined;
    if (this.#depth === 0 && /^[!-/:-@[-`{-~]$/.test(next)) {
      // Escaped punctuation (`\.`, `\(`) stands for itself.
      if (isQuantifierStart(characters, index + 2)) this.#endRun();
      else this.#literal(next);
      return index + 1;
    }
    this.#endRun();
    // The escape's own arguments (`\x41`, `\u{1F600}`, `\p{Letter}`, `\k<name>`, `\12`) are not literal text.
    return escapeEnd(characters, index + 1);
  }

  /** A character that stands for itself, unless its bytes cannot be compared as they are. */
  #literal(character: string): void {
    const code = character.codePointAt(0)!;
    // A lone surrogate (a pattern without `u`) has no UTF-8 bytes of its own to look for.
    if (character === '\n' || character === '\r' || (code >= 0xd800 && code <= 0xdfff) || (this.caseless && code > 0x7f)) this.#endRun();
    else this.#run += character;
  }

  #endRun(): void {
    if (this.#run.length > this.#best.length) this.#best = this.#run;
    this.#run = '';
  }
}

/**
 * The index of the last character of the escape whose letter is at `index`: its arguments
 * (`\x41`, `\u{1F600}`, `\p{Letter}`, `\k<name>`, `\cJ`, `\12`) are not literal text.
 */
function escapeEnd(characters: readonly string[], index: number): number {
  const letter = characters[index]!;
  const opening = characters[index + 1];
  if ('upPk'.includes(letter) && (opening === '{' || opening === '<')) {
    const closing = characters.indexOf(opening === '{' ? '}' : '>', index + 1);
    return closing === -1 ? characters.length : closing;
  }
  if (letter === 'x') return index + 2;
  if (letter === 'u') return index + 4;
  if (letter === 'c') return index + 1;
  let end = index;
  if (/^\d$/.test(letter)) while (end + 1 < characters.length && /^\d$/.test(characters[end + 1]!)) end += 1;
  return end;
}

/** True when the character at `index` starts a quantifier: `*`, `+`, `?` or a well-formed `{n}`, `{n,}`, `{n,m}`. */
function isQuantifierStart(characters: readonly string[], index: number): boolean {
  const character = characters[index];
  if (character === '*' || character === '+' || character === '?') return true;
  if (character !== '{') return false;
  const end = characters.indexOf('}', index);
  return end !== -1 && /^\{\d+(,\d*)?\}$/.test(characters.slice(index, end + 1).join(''));
}

/** The UTF-8 bytes of the Kelvin sign (U+212A) and the long s (U+017F), which `/k/iu` and `/s/iu` match. */
const KELVIN_SIGN = Buffer.from('\u212a', 'utf8');
const LONG_S = Buffer.from('\u017f', 'utf8');

/**
 * A test of a file's bytes for {@link RequiredText}: `false` only when no line of the file
 * can match the pattern. Case-sensitive literals are looked for with `Buffer.indexOf`;
 * caseless ones by their rarest character in both cases, each hit compared in place.
 */
export function compileRequiredText(required: RequiredText): (bytes: Buffer) => boolean {
  const tests = required.literals.map((text) => (required.caseless ? caselessTest(text) : exactTest(text)));
  const folds = required.unicodeFolds && required.literals.some((text) => /[ks]/i.test(text));
  return (bytes) => {
    for (const test of tests) if (test(bytes)) return true;
    // A Kelvin sign or long s might stand for a `k` or `s` of the literal: let the pattern decide.
    return folds && (bytes.indexOf(KELVIN_SIGN) !== -1 || bytes.indexOf(LONG_S) !== -1);
  };
}

function exactTest(text: string): (bytes: Buffer) => boolean {
  const needle = Buffer.from(text, 'utf8');
  return (bytes) => bytes.indexOf(needle) !== -1;
}

/** ASCII `text` anywhere in the bytes, ignoring case: found by its rarest character, then compared byte by byte. */
function caselessTest(text: string): (bytes: Buffer) => boolean {
  const lower = Buffer.from(text.toLowerCase(), 'latin1');
  const isLetter = Array.from(lower, (code) => code >= 0x61 && code <= 0x7a);
  let anchor = 0;
  let anchorRank = Infinity;
  for (let index = 0; index < lower.length; index += 1) {
    // Characters not in the table (controls) are rarer still.
    const rank = RAREST_FIRST.indexOf(String.fromCharCode(lower[index]!));
    if (rank < anchorRank) {
      anchorRank = rank;
      anchor = index;
    }
  }
  const length = lower.length;
  const low = lower[anchor]!;
  const high = isLetter[anchor] ? low - 0x20 : -1;
  const matchesAt = (bytes: Buffer, start: number): boolean => {
    for (let index = 0; index < length; index += 1) {
      const code = bytes[start + index]!;
      if (isLetter[index] ? (code | 0x20) !== lower[index] : code !== lower[index]) return false;
    }
    return true;
  };
  return (bytes) => {
    const last = bytes.length - (length - anchor);
    let nextLow = bytes.indexOf(low, anchor);
    let nextHigh = high === -1 ? -1 : bytes.indexOf(high, anchor);
    for (;;) {
      let at: number;
      if (nextLow === -1 && nextHigh === -1) return false;
      if (nextHigh === -1 || (nextLow !== -1 && nextLow < nextHigh)) {
        at = nextLow;
        nextLow = bytes.indexOf(low, at + 1);
      } else {
        at = nextHigh;
        nextHigh = bytes.indexOf(high, at + 1);
      }
      if (at > last) return false;
      if (matchesAt(bytes, at - anchor)) return true;
    }
  };
}
