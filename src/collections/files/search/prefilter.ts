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
 * stand for testing its lines one by one. The required text itself is read from the pattern on
 * the main thread (`requiredText` in `required-literals.ts`), so the search threads never load
 * the regular expression parser.
 */
import { anchorPlaces, byteRank, currentScanArena, MAX_SCAN_LITERAL_BYTES } from './literal-scan.js';

/**
 * True when testing a whole chunk at once (with the `m` flag) can only miss if no line matches,
 * so a chunk without a whole-text match can be skipped. Lookarounds could see past a line's
 * end and `$` could stop at a `\r`, so patterns with them are matched line by line only.
 */
export function canPrefilter(source: string): boolean {
  return !/\(\?<?[=!]/.test(source) && !source.includes('$');
}

/** Text the pattern's matches must contain (see `requiredText`): one of `literals` in every matching line. */
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
  /** The pattern is nothing but the literals, as alternatives: a line holding one matches (ignoring case when `caseless`). */
  readonly plain: boolean;
}

/** The UTF-8 bytes of the Kelvin sign (U+212A) and the long s (U+017F), which `/k/iu` and `/s/iu` match. */
const KELVIN_SIGN = Buffer.from('\u212a', 'utf8');
const LONG_S = Buffer.from('\u017f', 'utf8');

/**
 * Where a literal next occurs in a file's bytes at or after `from`, or -1: `Buffer.indexOf`
 * for a case-sensitive one, its rarest character in both cases for a caseless one. A
 * finder may remember where it looked in the last bytes it was given, for a next call further
 * on in them: the same `Buffer` must hold the same bytes from call to call.
 */
export type LiteralFinder = (bytes: Buffer, from: number) => number;

/** One {@link LiteralFinder} per required literal. */
export function literalFinders(required: RequiredText): LiteralFinder[] {
  return required.literals.map((text) => (required.caseless ? caselessFinder(text) : exactFinder(text)));
}

/**
 * True when a Kelvin sign or a long s in `bytes` may stand for a `k` or `s` of a caseless
 * literal (the `u` flag folds them): then lines without a literal's bytes may match too.
 */
export function mayHoldFolds(required: RequiredText, bytes: Buffer): boolean {
  if (!required.unicodeFolds || !required.literals.some((text) => /[ks]/i.test(text))) return false;
  return bytes.indexOf(KELVIN_SIGN) !== -1 || bytes.indexOf(LONG_S) !== -1;
}

/**
 * A test of a file's bytes for {@link RequiredText}: `false` only when no line of the file
 * can match the pattern.
 */
export function compileRequiredText(required: RequiredText): (bytes: Buffer) => boolean {
  const finders = literalFinders(required);
  return (bytes) => {
    for (const find of finders) if (find(bytes, 0) !== -1) return true;
    // A Kelvin sign or long s might stand for a `k` or `s` of the literal: let the pattern decide.
    return mayHoldFolds(required, bytes);
  };
}

/**
 * The longest needle `Buffer.indexOf` is given. Node.js searches needles of 8 bytes or more
 * with Boyer–Moore–Horspool, whose tables it sets up again on every call; over the many small
 * files of a tree that made `quuxNever` and `zzyzxMarker` 3–4 times slower to find than a
 * 6-byte piece of them found by its first byte and checked whole (on 26,000 files of
 * `node_modules`: 185 against 54 ms, 143 against 42 ms, `polyfill` 342 against 70 ms).
 */
const WINDOW_BYTES = 6;

/**
 * A case-sensitive literal: `Buffer.indexOf` of its bytes, or, for a longer one, of the
 * {@link WINDOW_BYTES} of it that begin with its rarest byte, each place checked for the whole.
 */
function exactFinder(text: string): LiteralFinder {
  const needle = Buffer.from(text, 'utf8');
  const length = needle.length;
  if (length <= WINDOW_BYTES) return (bytes, from) => bytes.indexOf(needle, from);
  let offset = 0;
  let offsetRank = Infinity;
  for (let index = 0; index + WINDOW_BYTES <= length; index += 1) {
    const rank = byteRank(needle[index]!);
    if (rank < offsetRank) {
      offsetRank = rank;
      offset = index;
    }
  }
  const window = needle.subarray(offset, offset + WINDOW_BYTES);
  return (bytes, from) => {
    // The window's places come in order, so the first whole match found is the first at or after `from`.
    for (let at = bytes.indexOf(window, from + offset); at !== -1; at = bytes.indexOf(window, at + 1)) {
      const start = at - offset;
      if (start + length > bytes.length) return -1;
      if (bytes.compare(needle, 0, length, start, start + length) === 0) return start;
    }
    return -1;
  };
}

/**
 * ASCII `text` ignoring case. In bytes a search thread read into its scan arena
 * (`literal-scan.ts`), the WebAssembly scan finds it by its two rarest characters sixteen
 * places at a time; elsewhere (no WebAssembly SIMD, a literal over 256 bytes, bytes from
 * another buffer) {@link caselessIndexOfFinder} does.
 */
function caselessFinder(text: string): LiteralFinder {
  const fallback = caselessIndexOfFinder(text);
  if (text.length === 0 || text.length > MAX_SCAN_LITERAL_BYTES || !/^[\x00-\x7f]*$/.test(text)) return fallback;
  const lower = text.toLowerCase();
  const [first, second] = anchorPlaces(Buffer.from(lower, 'latin1'));
  return (bytes, from) => {
    const arena = currentScanArena();
    return arena !== undefined && arena.holds(bytes) ? arena.find(lower, first, second, bytes, from) : fallback(bytes, from);
  };
}

/**
 * ASCII `text` ignoring case, with `indexOf`: found by its rarest character (in either case),
 * then compared byte by byte. Looking for two adjacent characters written every way instead
 * (the four of `yf` for `polyfill`) made fewer stops in a file held in memory, but searches of
 * `node_modules` 3–5% slower: twice the calls into `indexOf` per file.
 */
function caselessIndexOfFinder(text: string): LiteralFinder {
  const lower = Buffer.from(text.toLowerCase(), 'latin1');
  const isLetter = Array.from(lower, (code) => code >= 0x61 && code <= 0x7a);
  let anchor = 0;
  let anchorRank = Infinity;
  for (let index = 0; index < lower.length; index += 1) {
    const rank = byteRank(lower[index]!);
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
  // Where each case of the anchor is next, from the place last looked at in the same bytes: a
  // file's lines are looked through in order, and a case that is not there again (the capital,
  // mostly) would otherwise be looked for to the end of the file once per line found.
  let nextLow = -1;
  let nextHigh = -1;
  let lastBytes: Buffer | undefined;
  let lastFrom = 0;
  return (bytes, from) => {
    const last = bytes.length - (length - anchor);
    const start = from + anchor;
    // The first place at or after an earlier start is still the first at or after this one when it is not before it; -1 stays -1.
    const onward = bytes === lastBytes && from >= lastFrom;
    if (!onward || (nextLow !== -1 && nextLow < start)) nextLow = bytes.indexOf(low, start);
    if (high === -1) nextHigh = -1;
    else if (!onward || (nextHigh !== -1 && nextHigh < start)) nextHigh = bytes.indexOf(high, start);
    lastBytes = bytes;
    lastFrom = from;
    for (;;) {
      if (nextLow === -1 && nextHigh === -1) return -1;
      const lowFirst = nextHigh === -1 || (nextLow !== -1 && nextLow < nextHigh);
      const at = lowFirst ? nextLow : nextHigh;
      if (at > last) return -1;
      // A match leaves its place as the next one, so a call from the same place finds it again.
      if (matchesAt(bytes, at - anchor)) return at - anchor;
      if (lowFirst) nextLow = bytes.indexOf(low, at + 1);
      else nextHigh = bytes.indexOf(high, at + 1);
    }
  };
}
