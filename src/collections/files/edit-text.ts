import { lfView, prevailingLineEnding, withLineEnding } from './line-endings.js';
import { splitLines } from './text.js';

/** A span of text, as offsets: `start` inclusive, `end` exclusive. */
export interface TextSpan {
  readonly start: number;
  readonly end: number;
}

/** What {@link replaceExactText} did. */
export type TextEditOutcome =
  | {
      readonly type: 'edited';
      /** The whole new text. */
      readonly text: string;
      readonly replacements: number;
      /** Where each replacement sits in the new text. */
      readonly spans: readonly TextSpan[];
    }
  | { readonly type: 'not-found' }
  | { readonly type: 'ambiguous'; readonly occurrences: number };

/**
 * Replaces `oldString` in `original` with `newString`, literally: no pattern characters, and
 * `$&`, `$$` or `$1` in the replacement stay as typed. Line breaks in `oldString` match `\n`
 * and `\r\n` alike; the replacement is written with the text's prevailing line ending, and the
 * text outside the matches keeps its own. Without `replaceAll`, `oldString` must occur exactly
 * once.
 */
export function replaceExactText(original: string, oldString: string, newString: string, replaceAll: boolean): TextEditOutcome {
  const view = lfView(original);
  const needle = oldString.replaceAll('\r\n', '\n');
  const matches: number[] = [];
  for (let index = view.text.indexOf(needle); index !== -1; index = view.text.indexOf(needle, index + needle.length)) {
    matches.push(index);
    if (!replaceAll && matches.length > 1) break;
  }
  if (matches.length === 0) return { type: 'not-found' };
  if (matches.length > 1 && !replaceAll) return { type: 'ambiguous', occurrences: countOccurrences(view.text, needle) };

  const replacement = withLineEnding(newString, prevailingLineEnding(original));
  const parts: string[] = [];
  const spans: TextSpan[] = [];
  let cursor = 0;
  let length = 0;
  for (const match of matches) {
    const start = view.toOriginal(match);
    const end = view.toOriginal(match + needle.length);
    const kept = original.slice(cursor, start);
    parts.push(kept, replacement);
    length += kept.length;
    spans.push({ start: length, end: length + replacement.length });
    length += replacement.length;
    cursor = end;
  }
  parts.push(original.slice(cursor));
  return { type: 'edited', text: parts.join(''), replacements: matches.length, spans };
}

/** Non-overlapping occurrences of `needle` in `text`. */
export function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) count += 1;
  return count;
}

/** Lines of a file with their 1-based numbers. */
export interface NumberedLines {
  readonly first: number;
  readonly last: number;
  readonly lines: readonly string[];
}

/** Comparisons of line pairs above which {@link closestLines} compares one anchor line instead of whole windows. */
const MAX_WINDOW_COMPARISONS = 2_000_000;
/** A window must be at least this similar (0 to 1, per line on average) to be offered as "closest". */
const MIN_SIMILARITY = 0.3;

/**
 * The lines of `text` most like `oldString`, for the message when it was not found: a window
 * as many lines long as `oldString`, scored line by line on letter pairs with indentation
 * ignored (the usual mistakes are whitespace, a changed word, or text from an older read).
 * `undefined` when nothing is even roughly alike.
 */
export function closestLines(text: string, oldString: string): NumberedLines | undefined {
  const fileLines = splitLines(text);
  const wanted = oldString.replaceAll('\r\n', '\n').split('\n');
  if (wanted.length > 1 && wanted.at(-1) === '') wanted.pop();
  const wantedPairs = wanted.map((line) => letterPairs(line));
  const filePairs = fileLines.map((line) => letterPairs(line));
  const windowLength = Math.min(wanted.length, fileLines.length);

  let bestStart = 0;
  let bestScore = -1;
  if (fileLines.length * windowLength <= MAX_WINDOW_COMPARISONS) {
    for (let start = 0; start + windowLength <= fileLines.length; start += 1) {
      let score = 0;
      for (let offset = 0; offset < windowLength; offset += 1) score += similarity(filePairs[start + offset]!, wantedPairs[offset]!);
      if (score > bestScore) {
        bestScore = score;
        bestStart = start;
      }
    }
  } else {
    // A huge file: find the best place for the longest wanted line only.
    const anchor = wanted.reduce((best, line, index) => (line.trim().length > wanted[best]!.trim().length ? index : best), 0);
    for (let line = 0; line < fileLines.length; line += 1) {
      const score = similarity(filePairs[line]!, wantedPairs[anchor]!) * windowLength;
      if (score > bestScore) {
        bestScore = score;
        bestStart = Math.max(0, Math.min(line - anchor, fileLines.length - windowLength));
      }
    }
  }
  if (windowLength === 0 || bestScore / windowLength < MIN_SIMILARITY) return undefined;
  return { first: bestStart + 1, last: bestStart + windowLength, lines: fileLines.slice(bestStart, bestStart + windowLength) };
}

/** The lines of `text` that hold the given spans, merged where they touch, in order. */
export function linesOfSpans(text: string, spans: readonly TextSpan[]): NumberedLines[] {
  const groups: { first: number; last: number }[] = [];
  let line = 1;
  let scanned = 0;
  const lineAt = (offset: number): number => {
    // Spans come in order, so the scan only moves forward.
    for (let index = text.indexOf('\n', scanned); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
      line += 1;
      scanned = index + 1;
    }
    return line;
  };
  for (const span of spans) {
    const first = lineAt(span.start);
    const last = span.end > span.start ? lineAt(span.end - 1) : first;
    const previous = groups.at(-1);
    if (previous !== undefined && first <= previous.last + 1) previous.last = Math.max(previous.last, last);
    else groups.push({ first, last });
  }
  if (groups.length === 0) return [];
  const allLines = splitLines(text);
  return groups.map(({ first, last }) => ({ first, last, lines: allLines.slice(first - 1, last) }));
}

/** The set of adjacent letter pairs of a line, indentation and runs of spaces ignored. */
function letterPairs(line: string): Set<string> {
  const squeezed = line.trim().replace(/\s+/g, ' ');
  const pairs = new Set<string>();
  if (squeezed.length === 1) pairs.add(squeezed);
  for (let index = 0; index + 1 < squeezed.length; index += 1) pairs.add(squeezed.slice(index, index + 2));
  return pairs;
}

/** Dice's coefficient of two pair sets: 1 for equal lines (two blank lines too), 0 for nothing shared. */
function similarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const pair of small) if (large.has(pair)) shared += 1;
  return (2 * shared) / (a.size + b.size);
}
