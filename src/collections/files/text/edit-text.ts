import { withLineEnding } from './line-endings.js';
import { lfViewOf, prevailingLineEndingOf } from './line-scan.js';
import { TimeSlicer } from '../../../time-slice.js';

/**
 * Where the replacements of one edit sit, as offsets (`start` inclusive, `end` exclusive), for
 * `index` from 0 to `count - 1`, in increasing order. In the new text every replacement is
 * `replacementLength` characters long. Read through methods because the offsets are kept in
 * fixed-size typed-array chunks: millions of them cost no large copy as they grow, and an edit
 * whose matches all have old_string's length keeps only their starts.
 */
export interface EditSpans {
  readonly count: number;
  readonly replacementLength: number;
  /** Where match `index` starts in the old text. */
  oldStart(index: number): number;
  /** Where match `index` ends in the old text (it may hold `\r\n` where old_string had `\n`). */
  oldEnd(index: number): number;
  /** Where replacement `index` starts in the new text. */
  newStart(index: number): number;
}

/** What {@link replaceExactText} did. */
export type TextEditOutcome =
  | {
      readonly type: 'edited';
      /** The whole new text. */
      readonly text: string;
      readonly replacements: number;
      readonly spans: EditSpans;
    }
  | { readonly type: 'not-found' }
  | { readonly type: 'ambiguous'; readonly occurrences: number };

/**
 * Replaces `oldString` in `original` with `newString`, literally: no pattern characters, and
 * `$&`, `$$` or `$1` in the replacement stay as typed. Line breaks in `oldString` match `\n`
 * and `\r\n` alike; the replacement is written with the text's prevailing line ending, and the
 * text outside the matches keeps its own. Without `replaceAll`, `oldString` must occur exactly
 * once.
 *
 * Runs in time slices (see {@link TimeSlicer}): four million replacements in a 4 MB file take
 * a few hundred milliseconds and never hold the event loop for more than a few.
 */
export async function replaceExactText(original: string, oldString: string, newString: string, replaceAll: boolean, slicer = new TimeSlicer()): Promise<TextEditOutcome> {
  const needle = oldString.replaceAll('\r\n', '\n');
  // Without a line break in it, old_string matches the same text in the file as in its LF view,
  // so a CRLF file needs no view (and replace_all takes the fast path below).
  const view = needle.includes('\n') || needle.includes('\r') ? await lfViewOf(original, slicer) : { text: original, toOriginal: (offset: number) => offset };
  const first = view.text.indexOf(needle);
  if (first === -1) return { type: 'not-found' };
  if (!replaceAll && view.text.indexOf(needle, first + needle.length) !== -1) {
    return { type: 'ambiguous', occurrences: await countOccurrences(view.text, needle, slicer) };
  }

  const replacement = withLineEnding(newString, await prevailingLineEndingOf(original, slicer));
  if (replaceAll && view.text === original) return replaceEverywhere(original, needle, replacement, slicer);
  const spans = new SpanList(replacement.length, undefined);
  // Pieces are joined slice by slice, so no single join holds the thread for long.
  const joined: string[] = [];
  let parts: string[] = [];
  let cursor = 0;
  let length = 0;
  for (let match = first; match !== -1; match = replaceAll ? view.text.indexOf(needle, match + needle.length) : -1) {
    const start = view.toOriginal(match);
    const end = view.toOriginal(match + needle.length);
    parts.push(original.slice(cursor, start), replacement);
    length += start - cursor;
    spans.pushVaried(start, end, length);
    length += replacement.length;
    cursor = end;
    if (slicer.due()) {
      joined.push(parts.join(''));
      parts = [];
      await slicer.pause();
    }
  }
  parts.push(original.slice(cursor));
  joined.push(parts.join(''));
  return { type: 'edited', text: joined.join(''), replacements: spans.count, spans };
}

/**
 * Characters one native `split` handles at a time in {@link replaceInWindows}: at worst (a
 * match at every character) a window costs 3–6 ms on this machine.
 */
export const REPLACE_ALL_WINDOW = 32 * 1024;

/** `replace_all` in text without CRLF, or of an old_string without line breaks: see {@link replaceInWindows}. */
async function replaceEverywhere(original: string, needle: string, replacement: string, slicer: TimeSlicer): Promise<TextEditOutcome> {
  const spans = new SpanList(replacement.length, needle.length);
  const pieces = await replaceInWindows(original, needle, replacement, spans, slicer);
  return { type: 'edited', text: pieces.join(''), replacements: spans.count, spans };
}

/**
 * Every occurrence of `needle` in `text` replaced by `replacement`, a window of
 * {@link REPLACE_ALL_WINDOW} characters at a time: each window is split and joined natively, several
 * times faster than a loop of `indexOf` calls when there are many matches, and each match's
 * start is pushed to `spans`. The matches are those a scan from the start finds: a window
 * starts where the next match is the first occurrence from there on (a match's end, or a place
 * no match straddles), so its `split` finds what the whole would, however the needle overlaps
 * itself (`aa` in `aaaa…`). Returns the new text in pieces, one a window.
 */
export async function replaceInWindows(text: string, needle: string, replacement: string, spans: SpanList, slicer: TimeSlicer, windowSize = REPLACE_ALL_WINDOW): Promise<string[]> {
  const pieces: string[] = [];
  // A window holds a match whole, so each one moves on.
  const window = Math.max(windowSize, 2 * needle.length);
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + window);
    const parts = text.slice(start, end).split(needle);
    let at = start;
    for (let index = 0; index < parts.length - 1; index += 1) {
      at += parts[index]!.length;
      spans.pushStart(at);
      at += needle.length;
    }
    // A match that starts in the window and ends past it belongs to the next window. It can
    // only start in the window's last `needle.length - 1` characters, after the matches found
    // (any earlier one lies whole in the window, and `split` found it): looking only there
    // keeps a window's cost its own, where a search on to the next match could read the rest
    // of the text once a window.
    if (end < text.length) {
      const from = Math.max(at, end - needle.length + 1);
      const near = text.slice(from, end + needle.length - 1).indexOf(needle);
      if (near !== -1) {
        parts[parts.length - 1] = text.slice(at, from + near);
        end = from + near;
      }
    }
    pieces.push(parts.join(replacement));
    start = end;
    if (slicer.dueNow()) await slicer.pause();
  }
  return pieces;
}

/** Non-overlapping occurrences of `needle` in `text`. */
export async function countOccurrences(text: string, needle: string, slicer = new TimeSlicer()): Promise<number> {
  let count = 0;
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) {
    count += 1;
    if (slicer.due()) await slicer.pause();
  }
  return count;
}

/**
 * Offsets per chunk of a {@link SpanList}: 16 Ki of them, 64 KB per array, under the size
 * (128 KiB) past which an allocation comes fresh from the kernel, page by page (about 1 ms for
 * 256 KB on this machine).
 */
const CHUNK_BITS = 14;
const CHUNK_SIZE = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_SIZE - 1;

/**
 * A growing {@link EditSpans} in fixed-size chunks, so growing never copies (a doubling array
 * of 10 million offsets stalled the event loop for 100 ms at each copy). When every match is
 * `oldLength` characters long (text without CRLF), only the starts are kept: the ends and the
 * new starts follow from them.
 */
export class SpanList implements EditSpans {
  count = 0;
  readonly #oldStarts: Int32Array[] = [];
  /** Kept only when matches differ in length (CRLF text). */
  readonly #oldEnds: Int32Array[] = [];
  readonly #newStarts: Int32Array[] = [];

  constructor(
    readonly replacementLength: number,
    /** The length of every match, or `undefined` when it varies. */
    private readonly oldLength: number | undefined,
  ) {}

  /** Adds a match of `oldLength` characters (the uniform case). */
  pushStart(oldStart: number): void {
    const slot = this.count & CHUNK_MASK;
    if (slot === 0) this.#oldStarts.push(new Int32Array(CHUNK_SIZE));
    this.#oldStarts[this.#oldStarts.length - 1]![slot] = oldStart;
    this.count += 1;
  }

  /** Adds matches of `oldLength` characters at each of `starts` (ascending, after those added so far), a chunk's worth at a time. */
  pushStarts(starts: Int32Array): void {
    for (let taken = 0; taken < starts.length; ) {
      const slot = this.count & CHUNK_MASK;
      if (slot === 0) this.#oldStarts.push(new Int32Array(CHUNK_SIZE));
      const piece = starts.subarray(taken, taken + CHUNK_SIZE - slot);
      this.#oldStarts[this.#oldStarts.length - 1]!.set(piece, slot);
      taken += piece.length;
      this.count += piece.length;
    }
  }

  /** Adds a match of any length, with where its replacement starts in the new text. */
  pushVaried(oldStart: number, oldEnd: number, newStart: number): void {
    const slot = this.count & CHUNK_MASK;
    if (slot === 0) {
      this.#oldStarts.push(new Int32Array(CHUNK_SIZE));
      this.#oldEnds.push(new Int32Array(CHUNK_SIZE));
      this.#newStarts.push(new Int32Array(CHUNK_SIZE));
    }
    const chunk = this.#oldStarts.length - 1;
    this.#oldStarts[chunk]![slot] = oldStart;
    this.#oldEnds[chunk]![slot] = oldEnd;
    this.#newStarts[chunk]![slot] = newStart;
    this.count += 1;
  }

  oldStart(index: number): number {
    return this.#oldStarts[index >>> CHUNK_BITS]![index & CHUNK_MASK]!;
  }

  oldEnd(index: number): number {
    if (this.oldLength !== undefined) return this.oldStart(index) + this.oldLength;
    return this.#oldEnds[index >>> CHUNK_BITS]![index & CHUNK_MASK]!;
  }

  newStart(index: number): number {
    if (this.oldLength !== undefined) return this.oldStart(index) + index * (this.replacementLength - this.oldLength);
    return this.#newStarts[index >>> CHUNK_BITS]![index & CHUNK_MASK]!;
  }
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
export async function closestLines(text: string, oldString: string, slicer = new TimeSlicer()): Promise<NumberedLines | undefined> {
  const fileLines = await splitLinesInSlices(text, slicer);
  const wanted = oldString.replaceAll('\r\n', '\n').split('\n');
  if (wanted.length > 1 && wanted.at(-1) === '') wanted.pop();
  const wantedPairs = wanted.map((line) => letterPairs(squeeze(line)));
  const squeezed: string[] = [];
  for (const line of fileLines) {
    squeezed.push(squeeze(line));
    if (slicer.due()) await slicer.pause();
  }
  const windowLength = Math.min(wanted.length, fileLines.length);
  if (windowLength === 0) return undefined;

  let bestStart = 0;
  let bestScore = -1;
  if (fileLines.length * windowLength <= MAX_WINDOW_COMPARISONS) {
    for (let start = 0; start + windowLength <= fileLines.length; start += 1) {
      if (slicer.due()) await slicer.pause();
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
      if (slicer.due()) await slicer.pause();
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

/** `text` split at `\n`, a `\r` before it dropped (so a CRLF file reads like an LF one), in time slices. */
async function splitLinesInSlices(text: string, slicer: TimeSlicer): Promise<string[]> {
  const lines: string[] = [];
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    lines.push(text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end));
    start = end + 1;
    if (slicer.due()) await slicer.pause();
  }
  const last = text.slice(start);
  lines.push(last.endsWith('\r') ? last.slice(0, -1) : last);
  return lines;
}

/** A line with indentation and runs of whitespace ignored, as lines are compared. */
function squeeze(line: string): string {
  const trimmed = line.trim();
  // Most lines hold no run of whitespace to squeeze: testing for one is several times cheaper than replacing.
  return UNSQUEEZED.test(trimmed) ? trimmed.replace(/\s+/g, ' ') : trimmed;
}

/** Whitespace other than a single space, or two spaces in a row: what {@link squeeze} changes. */
const UNSQUEEZED = /[^\S ]| {2}/;

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
