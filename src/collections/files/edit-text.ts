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

/** Line comparisons above which {@link closestLines} places one anchor line instead of whole windows. */
const MAX_WINDOW_COMPARISONS = 400_000;
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
  const wantedPairs = wanted.map((line) => letterPairs(squeeze(line)));
  const squeezed = fileLines.map(squeeze);
  const windowLength = Math.min(wanted.length, fileLines.length);
  if (windowLength === 0) return undefined;

  let bestStart = 0;
  let bestScore = -1;
  if (fileLines.length * windowLength <= MAX_WINDOW_COMPARISONS) {
    for (let start = 0; start + windowLength <= fileLines.length; start += 1) {
      let score = 0;
      for (let offset = 0; offset < windowLength; offset += 1) score += similarity(squeezed[start + offset]!, wantedPairs[offset]!);
      if (score > bestScore) {
        bestScore = score;
        bestStart = start;
      }
    }
  } else {
    // A large file: place the longest wanted line only, then score the window around it.
    const anchor = wanted.reduce((best, line, index) => (squeeze(line).length > squeeze(wanted[best]!).length ? index : best), 0);
    let anchorLine = 0;
    let anchorScore = -1;
    for (let line = 0; line < squeezed.length; line += 1) {
      const score = similarity(squeezed[line]!, wantedPairs[anchor]!);
      if (score > anchorScore) {
        anchorScore = score;
        anchorLine = line;
      }
    }
    bestStart = Math.max(0, Math.min(anchorLine - anchor, fileLines.length - windowLength));
    bestScore = 0;
    for (let offset = 0; offset < windowLength; offset += 1) bestScore += similarity(squeezed[bestStart + offset]!, wantedPairs[offset]!);
    if (bestScore / windowLength < MIN_SIMILARITY && anchorScore >= MIN_SIMILARITY) {
      return { first: anchorLine + 1, last: anchorLine + 1, lines: [fileLines[anchorLine]!] };
    }
  }
  if (bestScore / windowLength < MIN_SIMILARITY) return undefined;
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

/** A line with indentation and runs of whitespace ignored, as lines are compared. */
function squeeze(line: string): string {
  return line.trim().replace(/\s+/g, ' ');
}

/** The set of adjacent letter pairs of a squeezed line, each as one number. */
function letterPairs(squeezed: string): Set<number> {
  const pairs = new Set<number>();
  if (squeezed.length === 1) pairs.add(squeezed.charCodeAt(0));
  for (let index = 0; index + 1 < squeezed.length; index += 1) pairs.add(squeezed.charCodeAt(index) * 65_536 + squeezed.charCodeAt(index + 1));
  return pairs;
}

/**
 * Dice's coefficient of a squeezed line's letter pairs and a wanted line's: 1 for equal lines
 * (two blank lines too), 0 for nothing shared. Pairs of the line are not deduplicated, which
 * is close enough for ranking and avoids building a set per line of a large file.
 */
function similarity(squeezed: string, wanted: Set<number>): number {
  const count = squeezed.length === 1 ? 1 : Math.max(0, squeezed.length - 1);
  if (count === 0 && wanted.size === 0) return 1;
  if (count === 0 || wanted.size === 0) return 0;
  // Lines of very different length cannot be alike: skip the pair scan.
  if ((2 * Math.min(count, wanted.size)) / (count + wanted.size) < MIN_SIMILARITY / 2) return 0;
  let shared = 0;
  if (squeezed.length === 1) shared = wanted.has(squeezed.charCodeAt(0)) ? 1 : 0;
  for (let index = 0; index + 1 < squeezed.length; index += 1) {
    if (wanted.has(squeezed.charCodeAt(index) * 65_536 + squeezed.charCodeAt(index + 1))) shared += 1;
  }
  return (2 * Math.min(shared, wanted.size)) / (count + wanted.size);
}
