/**
 * Unified line diffs for `write_file` and `edit_file`'s `data.diff`, in the `diff` package's
 * own format (`createTwoFilesPatch` with three lines of context), built in time slices so a
 * 10 MB file never holds the event loop, with a bounded amount of work and of output:
 *
 * - the common prefix and suffix are found by comparing the texts in large blocks, and only
 *   the lines between them are diffed;
 * - those lines are interned as numbers ({@link LineTable}) and diffed within a work budget
 *   ({@link diffIds}: Myers, then patience anchors);
 * - the text stops at {@link MAX_DIFF_CHARACTERS} with a last line saying how many changed
 *   lines were left out ({@link UnifiedDiffWriter}).
 */
import { diffIds } from './bounded-diff.js';
import { LineTable } from './line-table.js';
import { countLineBreaks } from './line-scan.js';
import { DIFF_CONTEXT_LINES, equalRun, UnifiedDiffWriter, type MAX_DIFF_CHARACTERS, type UnifiedDiffOptions } from './unified-diff-writer.js';
import { TimeSlicer } from '../../../time-slice.js';

/** Changed regions up to this many characters (both sides) are diffed without cutting off their common suffix. */
const WHOLE_DIFF_CHARACTERS = 256 * 1024;
/** Characters compared at a time while looking for the common prefix and suffix. */
const COMPARE_BLOCK = 64 * 1024;

/** Options of {@link unifiedLineDiff}. */
export interface LineDiffOptions extends UnifiedDiffOptions {
  /** The time budget to share with the caller's own loops; a new one by default. */
  readonly slicer?: TimeSlicer;
}

/**
 * The unified diff of `before` and `after` (see the module comment for how its work and size
 * are bounded). Identical texts give the header alone, as `createTwoFilesPatch` does.
 */
export async function unifiedLineDiff(path: string, before: string, after: string, options: LineDiffOptions = {}): Promise<string> {
  const slicer = options.slicer ?? new TimeSlicer();
  const context = options.context ?? DIFF_CONTEXT_LINES;
  const writer = new UnifiedDiffWriter(path, options);
  if (before === after) return writer.finish();

  const prefixEnd = await commonPrefixLineEnd(before, after, slicer);
  // Small texts are diffed to their ends, as the `diff` package does, so equal lines near the
  // end are placed as it places them; only large ones have their common suffix cut off first.
  const small = before.length + after.length - 2 * prefixEnd <= WHOLE_DIFF_CHARACTERS;
  const [oldEnd, newEnd] = small ? [before.length, after.length] : await commonSuffixLineStart(before, after, prefixEnd, slicer);
  const prefixLines = await countLineBreaks(before, 0, prefixEnd, slicer);
  const prefixContext = lastLines(before, prefixEnd, Math.min(prefixLines, context));
  writer.equal(prefixLines, prefixLines <= context ? prefixContext : [], prefixLines <= context ? [] : prefixContext);

  await writeLinesDiff(before.slice(prefixEnd, oldEnd), after.slice(prefixEnd, newEnd), writer, context, slicer);

  const suffixLines = await countSuffixLines(before, oldEnd, slicer);
  const suffixContext = firstLines(before, oldEnd, Math.min(suffixLines, 2 * context));
  const run = equalRun(suffixLines, (index) => suffixContext[index] ?? '', context);
  writer.equal(suffixLines, run.first, suffixLines <= 2 * context ? run.last : []);
  return writer.finish();
}

/**
 * Diffs two texts line by line into `writer`: tokenized, interned and diffed by
 * {@link diffIds}, equal runs shown with `context` lines on each side. Both the whole-file
 * diff and edit_file's per-stretch diff use it.
 */
export async function writeLinesDiff(oldText: string, newText: string, writer: UnifiedDiffWriter, context: number, slicer: TimeSlicer): Promise<void> {
  const table = await LineTable.build(oldText, newText, slicer);
  const oldLine = (index: number): string => oldText.slice(table.oldStarts[index]!, table.oldStarts[index + 1]!);
  const newLine = (index: number): string => newText.slice(table.newStarts[index]!, table.newStarts[index + 1]!);
  let oldIndex = 0;
  let newIndex = 0;
  for (const step of await diffIds(table.oldIds, table.newIds, table.distinct, slicer)) {
    if (slicer.due()) await slicer.pause();
    if (step.kind === 'equal') {
      const start = oldIndex;
      const run = equalRun(step.count, (index) => oldLine(start + index), context);
      writer.equal(step.count, run.first, run.last);
      oldIndex += step.count;
      newIndex += step.count;
    } else if (step.kind === 'removed') {
      for (let index = 0; index < step.count; index += 1) {
        // Past the size limit the rest are only counted: count them at once.
        if (writer.cut) {
          writer.omit(step.count - index);
          break;
        }
        writer.removed(oldLine(oldIndex + index));
        if (slicer.due()) await slicer.pause();
      }
      oldIndex += step.count;
    } else {
      for (let index = 0; index < step.count; index += 1) {
        if (writer.cut) {
          writer.omit(step.count - index);
          break;
        }
        writer.added(newLine(newIndex + index));
        if (slicer.due()) await slicer.pause();
      }
      newIndex += step.count;
    }
  }
}

/**
 * The diff for a file whose old content was not UTF-8 text (`write_file` may replace it): the
 * header and a line saying why no lines are compared.
 */
export function undecodedDiff(path: string, problem: string): string {
  return `${new UnifiedDiffWriter(path).finish()}The old content is not UTF-8 text (${problem}), so no lines are compared.\n`;
}

/** Where the lines both texts start with end: a line start (0 when the first lines differ). */
async function commonPrefixLineEnd(before: string, after: string, slicer: TimeSlicer): Promise<number> {
  const limit = Math.min(before.length, after.length);
  let same = 0;
  while (same < limit) {
    if (slicer.dueNow()) await slicer.pause();
    const end = Math.min(limit, same + COMPARE_BLOCK);
    if (before.slice(same, end) === after.slice(same, end)) {
      same = end;
      continue;
    }
    while (same < end && before.charCodeAt(same) === after.charCodeAt(same)) same += 1;
    break;
  }
  if (same === limit && before.length === after.length) return same;
  // The last line both start alike differs (it ends inside the other text's line, or sooner).
  if (same === 0) return 0;
  return before.lastIndexOf('\n', same - 1) + 1;
}

/**
 * Where the lines both texts end with start, in each: line starts at or after `floor` in
 * both, the same text from there on (the ends when the last lines differ).
 */
async function commonSuffixLineStart(before: string, after: string, floor: number, slicer: TimeSlicer): Promise<[number, number]> {
  const limit = Math.min(before.length, after.length) - floor;
  let same = 0;
  while (same < limit) {
    if (slicer.dueNow()) await slicer.pause();
    const length = Math.min(limit - same, COMPARE_BLOCK);
    if (before.slice(before.length - same - length, before.length - same) === after.slice(after.length - same - length, after.length - same)) {
      same += length;
      continue;
    }
    while (same < limit && before.charCodeAt(before.length - 1 - same) === after.charCodeAt(after.length - 1 - same)) same += 1;
    break;
  }
  let oldStart = before.length - same;
  const shift = after.length - before.length;
  const atLineStart = (at: number): boolean =>
    (at === floor || before.charCodeAt(at - 1) === 10) && (at + shift === floor || after.charCodeAt(at + shift - 1) === 10);
  if (!atLineStart(oldStart)) {
    const next = before.indexOf('\n', oldStart);
    oldStart = next === -1 ? before.length : next + 1;
  }
  return [oldStart, oldStart + shift];
}

/** Lines from `from` to the end of `text`: a last line without a break counts. */
async function countSuffixLines(text: string, from: number, slicer: TimeSlicer): Promise<number> {
  const breaks = await countLineBreaks(text, from, text.length, slicer);
  return breaks + (from < text.length && !text.endsWith('\n') ? 1 : 0);
}

/** The last `count` lines before `end` (a line start), with their breaks. */
function lastLines(text: string, end: number, count: number): string[] {
  const lines: string[] = [];
  let stop = end;
  for (let index = 0; index < count; index += 1) {
    // (lastIndexOf reads a negative start as 0, which would find a break at 0 as before it.)
    const start = stop < 2 ? 0 : text.lastIndexOf('\n', stop - 2) + 1;
    lines.push(text.slice(start, stop));
    stop = start;
  }
  return lines.reverse();
}

/** The first `count` lines from `start` (a line start), with their breaks. */
function firstLines(text: string, start: number, count: number): string[] {
  const lines: string[] = [];
  let at = start;
  for (let index = 0; index < count && at < text.length; index += 1) {
    const end = text.indexOf('\n', at);
    const stop = end === -1 ? text.length : end + 1;
    lines.push(text.slice(at, stop));
    at = stop;
  }
  return lines;
}
