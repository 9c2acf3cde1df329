/**
 * The byte prefilter of `search_files`: text that every matching line must contain, found in
 * the pattern, and a test of a file's raw bytes for it. A file whose bytes hold none of it
 * cannot match, so it is neither decoded nor split into lines: most files of a search for a
 * rare pattern cost one `indexOf` over their bytes, as in ripgrep, instead of a UTF-8 decode
 * and a regular expression over the text (4–10 times slower, measured on this repository's
 * `node_modules`). The test may say "may match" for a file that does not (the worker then
 * matches it properly); it never says "cannot match" for a file that does.
 */

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
  const caseless = flags.includes('i');
  const characters = [...source];
  const literals: string[] = [];
  let best = '';
  let run = '';
  let depth = 0;
  let inClass = false;
  const endRun = (): void => {
    if (run.length > best.length) best = run;
    run = '';
  };
  /** A character that stands for itself, unless its bytes cannot be compared as they are. */
  const literal = (character: string): void => {
    const code = character.codePointAt(0)!;
    // A lone surrogate (a pattern without `u`) has no UTF-8 bytes of its own to look for.
    if (character === '\n' || character === '\r' || (code >= 0xd800 && code <= 0xdfff) || (caseless && code > 0x7f)) endRun();
    else run += character;
  };
  /** A quantifier applies to the character before it, which may then be absent or repeated: it leaves the literal. */
  const quantified = (): void => {
    if (run.length > 0) run = [...run].slice(0, -1).join('');
    endRun();
  };
  for (let index = 0; index < characters.length; index += 1) {
    const character = characters[index]!;
    if (inClass) {
      if (character === '\\') index += 1;
      else if (character === ']') inClass = false;
      continue;
    }
    if (character === '\\') {
      const next = characters[index + 1];
      if (next === undefined) return undefined;
      index += 1;
      if (depth === 0 && /^[!-/:-@[-`{-~]$/.test(next)) {
        // Escaped punctuation (`\.`, `\(`) stands for itself.
        if (isQuantifierStart(characters, index + 1)) endRun();
        else literal(next);
        continue;
      }
      endRun();
      // The escape's own arguments (`\x41`, `\u{1F600}`, `\p{Letter}`, `\k<name>`, `\12`) are not literal text.
      index = escapeEnd(characters, index);
      continue;
    }
    if (character === '[') {
      endRun();
      inClass = true;
      continue;
    }
    if (character === '(') {
      endRun();
      depth += 1;
      continue;
    }
    if (character === ')') {
      endRun();
      depth -= 1;
      continue;
    }
    // Inside a group nothing is taken: its alternatives and quantifiers are its own.
    if (depth > 0) continue;
    if (character === '|') {
      endRun();
      if (best === '') return undefined;
      literals.push(best);
      best = '';
      continue;
    }
    if (isQuantifierStart(characters, index)) {
      quantified();
      if (character === '{') index = characters.indexOf('}', index);
      continue;
    }
    if ('^$.{}]'.includes(character)) {
      endRun();
      continue;
    }
    literal(character);
  }
  endRun();
  if (inClass || depth !== 0 || best === '') return undefined;
  literals.push(best);
  if (literals.length > MAX_LITERALS) return undefined;
  return { literals, caseless, unicodeFolds: caseless && flags.includes('u') };
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
