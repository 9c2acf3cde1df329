/**
 * What `edit_file` reports about an edit, built from the spans the edit already knows rather
 * than by diffing two whole texts: the changed lines for the reply, their ranges for
 * `data.changedLines`, and `data.diff`. Each stretch of lines a replacement touches is diffed
 * on its own (so lines old_string and new_string share show as context, as the `diff`
 * package shows them), the lines between stretches are only counted, and everything runs in
 * time slices: four million replacements cost a few hundred milliseconds, never a stall.
 * Both texts are read as {@link TextSource}s: strings, or a file's bytes (offsets then bytes).
 */
import type { EditSpans, NumberedLines } from './edit-text.js';
import { writeLinesDiff } from './line-diff.js';
import { countLineBreaks, firstAtOrAbove, type TextSource } from './line-scan.js';
import { formatCount } from './text.js';
import { DIFF_CONTEXT_LINES, equalRun, UnifiedDiffWriter, type MAX_DIFF_CHARACTERS } from './unified-diff-writer.js';
import { TimeSlicer } from '../../../time-slice.js';

/** Characters of old text past which replacements on touching lines start a stretch of their own. */
const MAX_JOINED_STRETCH = 16 * 1024;

/** Ranges in `data.changedLines`; an edit that changes more lines than this lists the first ones. */
export const MAX_CHANGED_RANGES = 1_000;

/** What {@link summarizeEdit} found. */
export interface EditSummary {
  /** The unified diff, cut at {@link MAX_DIFF_CHARACTERS} with a note. */
  readonly diff: string;
  /** Changed lines of the new text, merged where they touch: the first {@link MAX_CHANGED_RANGES}. */
  readonly ranges: readonly { readonly first: number; readonly last: number }[];
  /** The first `maxReplyLines` changed lines with their text, in groups as {@link EditSummary.ranges}. */
  readonly shown: readonly NumberedLines[];
  /** Every changed line of the new text, counted. */
  readonly changedLines: number;
}

/**
 * Reads the edit's spans once, in order, with forward-only line scanners over both texts
 * (no text is split whole), and returns what the reply and `data` need.
 */
export async function summarizeEdit(path: string, before: TextSource, after: TextSource, spans: EditSpans, maxReplyLines: number, slicer = new TimeSlicer()): Promise<EditSummary> {
  const diff = await editDiff(path, before, after, spans, slicer);
  const ranges: { first: number; last: number }[] = [];
  const shown: NumberedLines[] = [];
  let shownLines = 0;
  let changedLines = 0;
  let current: { first: number; last: number } | undefined;
  const close = (): void => {
    if (current === undefined) return;
    changedLines += current.last - current.first + 1;
    if (ranges.length < MAX_CHANGED_RANGES) ranges.push(current);
    const room = maxReplyLines - shownLines;
    if (room > 0) {
      const last = Math.min(current.last, current.first + room - 1);
      shown.push({ first: current.first, last, lines: reader.linesBetween(current.first, last) });
      shownLines += last - current.first + 1;
    }
  };
  const lines = new LineScanner(after);
  const reader = new LineReader(after);
  for (let index = 0; index < spans.count; index += 1) {
    if (slicer.due()) await slicer.pause();
    const start = spans.newStart(index);
    const end = start + spans.replacementLength;
    const first = lines.lineOf(start) + 1;
    const last = end > start ? lines.lineOf(end - 1) + 1 : first;
    if (current !== undefined && first <= current.last + 1) current.last = Math.max(current.last, last);
    else {
      close();
      current = { first, last };
    }
    // Further replacements on the same last line change nothing here: skip them at once.
    const lineBreak = lines.currentLineBreak();
    const reach = Math.max(0, spans.replacementLength - 1);
    if (lineBreak === -1) index = spans.count;
    // Most often the next replacement is on a later line: one look, no search.
    else if (index + 1 < spans.count && spans.newStart(index + 1) <= lineBreak - reach) index = firstAbove((at) => spans.newStart(at), index + 2, spans.count, lineBreak - reach) - 1;
  }
  close();
  return { diff, ranges, shown, changedLines };
}

/**
 * The unified diff of an edit: each stretch of whole lines that holds replacements (stretches
 * that touch are one) is diffed line by line; the lines between stretches are the same in
 * both texts, so only their count and their first and last lines are taken.
 */
async function editDiff(path: string, before: TextSource, after: TextSource, spans: EditSpans, slicer: TimeSlicer): Promise<string> {
  const writer = new UnifiedDiffWriter(path);
  const starts = new LineScanner(before);
  const ends = new LineScanner(before);
  let written = 0;
  let stretch: { oldStart: number; oldEnd: number; shift: number; endShift: number; replacements: number } | undefined;
  let shownReplacements = 0;
  // Characters the new text has more than the old one before the current replacement.
  let shift = 0;
  const flush = async (): Promise<void> => {
    if (stretch === undefined) return;
    const gap = await countLineBreaks(before, written, stretch.oldStart, slicer);
    const run = gapRun(before, written, stretch.oldStart, gap);
    writer.equal(gap, run.first, run.last);
    const oldText = before.slice(stretch.oldStart, stretch.oldEnd);
    const newText = after.slice(stretch.oldStart + stretch.shift, stretch.oldEnd + stretch.endShift);
    await writeLinesDiff(oldText, newText, writer, DIFF_CONTEXT_LINES, slicer);
    if (!writer.cut) shownReplacements += stretch.replacements;
    written = stretch.oldEnd;
    stretch = undefined;
  };
  for (let index = 0; index < spans.count && !writer.cut; index += 1) {
    if (slicer.due()) await slicer.pause();
    const oldStart = spans.oldStart(index);
    const oldEnd = spans.oldEnd(index);
    // Whole lines around the match: the text before its start and after its end is the same in both.
    const lineStart = starts.lineStartOf(oldStart);
    const lineEnd = ends.lineEndAfter(oldEnd);
    const endShift = shift + spans.replacementLength - (oldEnd - oldStart);
    // Replacements on the same lines are one stretch; so are replacements on lines that touch,
    // as the diff package would group them, while the stretch stays small enough to diff.
    const joins = stretch !== undefined && (lineStart < stretch.oldEnd || (lineStart === stretch.oldEnd && stretch.oldEnd - stretch.oldStart < MAX_JOINED_STRETCH));
    if (stretch !== undefined && joins) {
      stretch.oldEnd = Math.max(stretch.oldEnd, lineEnd);
      stretch.endShift = endShift;
      stretch.replacements += 1;
    } else {
      await flush();
      stretch = { oldStart: lineStart, oldEnd: lineEnd, shift, endShift, replacements: 1 };
    }
    shift = endShift;
    // Replacements that end inside the stretch's lines add nothing to it: skip them at once.
    const next = firstAbove((at) => spans.oldEnd(at), index + 1, spans.count, stretch.oldEnd - 1);
    if (next > index + 1) {
      const last = next - 1;
      shift = spans.newStart(last) + spans.replacementLength - spans.oldEnd(last);
      stretch.endShift = shift;
      stretch.replacements += next - index - 1;
      index = last;
    }
  }
  await flush();
  // Past the size limit only the count of replacements left out is worth the time.
  if (writer.cut) return writer.finish(`it shows ${formatCount(shownReplacements)} of the ${formatCount(spans.count)} replacements`);
  const tail = await countLineBreaks(before, written, before.length, slicer);
  const tailLines = tail + (written < before.length && !before.endsWith('\n') ? 1 : 0);
  const run = gapRun(before, written, before.length, tailLines);
  writer.equal(tailLines, run.first, run.last);
  return writer.finish();
}

/**
 * Line positions in one text, for offsets given in increasing order: each call moves forward
 * only, so a whole edit costs one pass over the text however many spans it has.
 */
class LineScanner {
  #line = 0;
  #lineStart = 0;
  /** Index of the `\n` that ends the current line, or -1 on the last line. */
  #lineBreak: number;
  /** Where each `\n` is, when the text keeps an index of them: then a move is a few steps or a halving, not a call a line. */
  readonly #breaks: Int32Array | undefined;

  constructor(private readonly text: TextSource) {
    this.#breaks = text.lineBreakIndex?.();
    this.#lineBreak = this.#breaks === undefined ? text.indexOf('\n') : (this.#breaks[0] ?? -1);
  }

  /** The 0-based line `offset` is on. */
  lineOf(offset: number): number {
    this.#moveTo(offset);
    return this.#line;
  }

  /** Where the line holding `offset` starts. */
  lineStartOf(offset: number): number {
    this.#moveTo(offset);
    return this.#lineStart;
  }

  /** The end (after its `\n`) of the line holding `offset`, or of the text; `offset` itself when it is the text's end. */
  lineEndAfter(offset: number): number {
    this.#moveTo(offset);
    return this.#lineBreak === -1 ? this.text.length : this.#lineBreak + 1;
  }

  /** Index of the `\n` that ends the line of the last offset asked about, or -1 on the last line. */
  currentLineBreak(): number {
    return this.#lineBreak;
  }

  #moveTo(offset: number): void {
    const breaks = this.#breaks;
    if (breaks !== undefined) {
      if (this.#lineBreak === -1 || this.#lineBreak >= offset) return;
      // The line holding `offset` is the one whose break is the first at or after it.
      let line = this.#line + 1;
      if (line < breaks.length && breaks[line]! < offset) line = firstAtOrAbove(breaks, offset, line + 1);
      this.#line = line;
      this.#lineStart = breaks[line - 1]! + 1;
      this.#lineBreak = line < breaks.length ? breaks[line]! : -1;
      return;
    }
    while (this.#lineBreak !== -1 && this.#lineBreak < offset) {
      this.#line += 1;
      this.#lineStart = this.#lineBreak + 1;
      this.#lineBreak = this.text.indexOf('\n', this.#lineStart);
    }
  }
}

/**
 * The first index in `from … to - 1` whose value in the ascending `valueAt` is above `limit`,
 * or `to`. It gallops from `from` (1, 2, 4 … ahead) before it halves: the answer is most often
 * `from` itself (the next replacement is on a later line), which then costs one look instead
 * of a whole binary search, once per replacement.
 */
function firstAbove(valueAt: (index: number) => number, from: number, to: number, limit: number): number {
  let low = from;
  let step = 1;
  while (low < to && valueAt(low) <= limit) {
    const next = low + step;
    if (next >= to || valueAt(next) > limit) return firstAboveBetween(valueAt, low + 1, Math.min(next, to), limit);
    low = next + 1;
    step *= 2;
  }
  return low;
}

/** {@link firstAbove} by halving, for a range whose end is above `limit` (or is the end). */
function firstAboveBetween(valueAt: (index: number) => number, from: number, to: number, limit: number): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (valueAt(middle) > limit) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * The lines {@link UnifiedDiffWriter.equal} needs of the `count` unchanged lines between the
 * line starts `from` and `to`: read from both ends, so a long gap costs no more than a short one.
 */
function gapRun(text: TextSource, from: number, to: number, count: number): { first: string[]; last: string[] } {
  if (count <= 2 * DIFF_CONTEXT_LINES) return equalRun(count, (index) => lineAfter(text, from, index), DIFF_CONTEXT_LINES);
  const first: string[] = [];
  for (let index = 0; index < DIFF_CONTEXT_LINES; index += 1) first.push(lineAfter(text, from, index));
  return { first, last: lastLinesBefore(text, to, DIFF_CONTEXT_LINES) };
}

/** Line `index` (0-based, with its break; a few at most) counted from the line start `from`. */
function lineAfter(text: TextSource, from: number, index: number): string {
  let start = from;
  for (let skipped = 0; skipped < index; skipped += 1) start = text.indexOf('\n', start) + 1;
  const end = text.indexOf('\n', start);
  return text.slice(start, end === -1 ? text.length : end + 1);
}

/** The last `count` lines before the line start `end`, with their breaks. */
function lastLinesBefore(text: TextSource, end: number, count: number): string[] {
  const lines: string[] = [];
  let stop = end;
  for (let index = 0; index < count && stop > 0; index += 1) {
    const start = stop < 2 ? 0 : text.lastIndexOf('\n', stop - 2) + 1;
    lines.push(text.slice(start, stop));
    stop = start;
  }
  return lines.reverse();
}

/** Reads lines of one text in increasing order, from where the last read stopped. */
class LineReader {
  #line = 1;
  #start = 0;

  constructor(private readonly text: TextSource) {}

  /** Lines `first … last` (1-based, at or after the last ones read), without their breaks. */
  linesBetween(first: number, last: number): string[] {
    while (this.#line < first && this.#start !== -1) this.#next();
    const lines: string[] = [];
    while (this.#line <= last && this.#start !== -1) {
      const end = this.text.indexOf('\n', this.#start);
      const raw = this.text.slice(this.#start, end === -1 ? this.text.length : end);
      lines.push(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
      this.#next();
    }
    return lines;
  }

  #next(): void {
    const end = this.text.indexOf('\n', this.#start);
    this.#start = end === -1 ? -1 : end + 1;
    this.#line += 1;
  }
}

