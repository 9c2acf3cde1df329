/**
 * Unified line diffs for `write_file` and `edit_file`'s `data.diff`, in the `diff` package's
 * own format (`createTwoFilesPatch` with three lines of context), built in time slices so a
 * 10 MB file never holds the event loop, with a bounded amount of work and of output:
 *
 * - the common prefix and suffix are found by comparing the texts in large blocks, and only
 *   the lines between them are diffed;
 * - those lines are interned as numbers (one hash lookup per line) and diffed with the `diff`
 *   package's own Myers variant (the same choices, so small diffs come out hunk for hunk as it
 *   writes them), up to a work budget proportional to their number;
 * - past the budget, lines that occur once on each side anchor the two sides (patience
 *   diffing), the stretches between anchors are diffed within budgets of their own, and a
 *   stretch still too costly is shown as removed and then added;
 * - the text stops at {@link MAX_DIFF_CHARACTERS} with a last line saying how many changed
 *   lines were left out.
 */
import { countLineBreaks } from './line-scan.js';
import { TimeSlicer } from '../../../time-slice.js';
import { formatCount } from './text.js';

/** Lines of unchanged text shown around each change, as `diff`'s patches and `git diff` show them. */
export const DIFF_CONTEXT_LINES = 3;
/** Characters of `data.diff` past which the rest of the diff is counted, not shown. */
export const MAX_DIFF_CHARACTERS = 100_000;
/** Myers steps any diff may take before it falls back to anchors, however small. */
const MIN_DIFF_WORK = 200_000;
/** Myers steps allowed per line diffed, past {@link MIN_DIFF_WORK}: keeps the work linear in the lines. */
const DIFF_WORK_PER_LINE = 8;
/** Changed regions up to this many characters (both sides) are diffed without cutting off their common suffix. */
const WHOLE_DIFF_CHARACTERS = 256 * 1024;
/** Characters compared at a time while looking for the common prefix and suffix. */
const COMPARE_BLOCK = 64 * 1024;

/** Options of {@link unifiedLineDiff} and {@link UnifiedDiffWriter}. */
export interface LineDiffOptions {
  /** @default {@link DIFF_CONTEXT_LINES} */
  readonly context?: number;
  /** @default {@link MAX_DIFF_CHARACTERS} */
  readonly maxCharacters?: number;
  /** The time budget to share with the caller's own loops; a new one by default. */
  readonly slicer?: TimeSlicer;
  /** The old file's name when it differs from the new one (a file moved and changed); the header then has no `Index:` line, as `createTwoFilesPatch` writes it. */
  readonly oldPath?: string;
}

/**
 * Writes a unified diff from a stream of equal runs and changed lines, grouping them into
 * hunks exactly as the `diff` package's `structuredPatch` does: a change opens a hunk with
 * up to `context` lines before it, an equal run of at most twice `context` lines between two
 * changes stays inside the hunk, a longer one (or the last one) closes it after `context` lines.
 * Lines are given with their line break, if any; a line without one gets the
 * `\ No newline at end of file` marker.
 */
export class UnifiedDiffWriter {
  readonly #context: number;
  readonly #maxCharacters: number;
  readonly #parts: string[] = [];
  #characters = 0;
  #oldLine = 1;
  #newLine = 1;
  /** The equal run given last, kept until the next call says whether it is the last one. */
  #pending: EqualRun | undefined;
  /** The equal run before the current position, whose last lines open the next hunk. */
  #previous: EqualRun | undefined;
  #hunk: { oldStart: number; newStart: number; oldLines: number; newLines: number; lines: string[] } | undefined;
  #cut = false;
  #omitted = 0;

  constructor(path: string, options: LineDiffOptions = {}) {
    this.#context = options.context ?? DIFF_CONTEXT_LINES;
    this.#maxCharacters = options.maxCharacters ?? MAX_DIFF_CHARACTERS;
    const oldPath = options.oldPath ?? path;
    if (oldPath === path) this.#write(`Index: ${path}`);
    this.#write('===================================================================');
    this.#write(`--- ${quoteFileName(oldPath)}`);
    this.#write(`+++ ${quoteFileName(path)}`);
  }

  /** Whether the size limit was reached: what follows is only counted. */
  get cut(): boolean {
    return this.#cut;
  }

  /**
   * `count` unchanged lines. Only their first and last `context` lines are ever shown, so
   * only those are given: `first` holds lines `0 … min(context, count) - 1`, `last` the lines
   * from `max(first.length, count - context)` on (see {@link equalRun}).
   */
  equal(count: number, first: readonly string[], last: readonly string[]): void {
    if (count === 0) return;
    const run = { count, first, last };
    // Two runs in a row are one run, as the `diff` package would have found them.
    this.#pending = this.#pending === undefined ? run : joinRuns(this.#pending, run, this.#context);
  }

  /** `count` changed lines past the size limit, counted at once (only once {@link UnifiedDiffWriter.cut}). */
  omit(count: number): void {
    this.#omitted += count;
  }

  /** A line of the old text that the new text does not have. */
  removed(line: string): void {
    this.#change('-', line);
  }

  /** A line of the new text that the old text does not have. */
  added(line: string): void {
    this.#change('+', line);
  }

  /**
   * The whole diff, ending with a line on what was left out when it was cut: `rest` when
   * given (`it shows 12 of the 4,000 replacements`), else the count of changed lines not shown.
   */
  finish(rest?: string): string {
    this.#settlePending(true);
    this.#closeHunk();
    let text = this.#parts.join('\n') + '\n';
    if (this.#cut) {
      text += `Diff cut at ${formatCount(this.#maxCharacters)} characters: ${rest ?? `${formatCount(this.#omitted)} more changed ${this.#omitted === 1 ? 'line is' : 'lines are'} not shown`}.\n`;
    }
    return text;
  }

  #change(marker: '-' | '+', line: string): void {
    this.#settlePending(false);
    if (this.#cut) {
      this.#omitted += 1;
      return;
    }
    if (this.#hunk === undefined) {
      const lead = this.#previous === undefined ? [] : linesOf(this.#previous).slice(-this.#context);
      this.#hunk = { oldStart: this.#oldLine - lead.length, newStart: this.#newLine - lead.length, oldLines: 0, newLines: 0, lines: [] };
      for (const context of lead) this.#push(' ', context);
    }
    if (!this.#push(marker, line)) {
      this.#omitted += 1;
      return;
    }
    if (marker === '-') this.#oldLine += 1;
    else this.#newLine += 1;
  }

  #settlePending(isLast: boolean): void {
    const run = this.#pending;
    if (run === undefined) return;
    this.#pending = undefined;
    if (this.#hunk !== undefined) {
      if (run.count <= 2 * this.#context && !isLast) {
        for (const line of linesOf(run)) this.#push(' ', line);
      } else {
        for (const line of run.first.slice(0, Math.min(run.count, this.#context))) this.#push(' ', line);
        this.#closeHunk();
      }
    }
    this.#previous = run;
    this.#oldLine += run.count;
    this.#newLine += run.count;
  }

  /** Adds a line to the open hunk; false (and the diff cut from here on) when it would pass the size limit. */
  #push(marker: ' ' | '-' | '+', line: string): boolean {
    const hunk = this.#hunk!;
    if (this.#cut) return false;
    const ended = line.endsWith('\n');
    const text = marker + (ended ? line.slice(0, -1) : line);
    const cost = text.length + 1 + (ended ? 0 : NO_NEWLINE.length + 1) + HUNK_HEADER_ALLOWANCE;
    if (this.#characters + cost > this.#maxCharacters) {
      this.#cut = true;
      this.#closeHunk();
      return false;
    }
    hunk.lines.push(text);
    this.#characters += text.length + 1;
    if (!ended) {
      hunk.lines.push(NO_NEWLINE);
      this.#characters += NO_NEWLINE.length + 1;
    }
    if (marker !== '+') hunk.oldLines += 1;
    if (marker !== '-') hunk.newLines += 1;
    return true;
  }

  #closeHunk(): void {
    const hunk = this.#hunk;
    if (hunk === undefined) return;
    this.#hunk = undefined;
    if (!hunk.lines.some((line) => line.startsWith('-') || line.startsWith('+'))) return;
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    this.#write(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`);
    for (const line of hunk.lines) this.#parts.push(line);
  }

  #write(line: string): void {
    this.#parts.push(line);
    this.#characters += line.length + 1;
  }
}

const NO_NEWLINE = '\\ No newline at end of file';
/** Room kept for the header of the hunk a line goes into, so the cut text stays within the limit. */
const HUNK_HEADER_ALLOWANCE = 32;

/** An equal run as {@link UnifiedDiffWriter.equal} takes it. */
interface EqualRun {
  readonly count: number;
  readonly first: readonly string[];
  readonly last: readonly string[];
}

/** Every line of a run that is short enough to hold them all, else its first and last lines. */
function linesOf(run: EqualRun): readonly string[] {
  return run.last.length === 0 ? run.first : [...run.first, ...run.last];
}

/** Two equal runs in a row as one, keeping the lines {@link UnifiedDiffWriter.equal} needs of it. */
function joinRuns(before: EqualRun, after: EqualRun, context: number): EqualRun {
  const count = before.count + after.count;
  if (count <= 2 * context) {
    const all = [...linesOf(before), ...linesOf(after)];
    const first = all.slice(0, Math.min(context, count));
    return { count, first, last: all.slice(first.length) };
  }
  const first = [...linesOf(before).slice(0, context), ...linesOf(after).slice(0, context)].slice(0, context);
  const last = [...linesOf(before).slice(-context), ...linesOf(after).slice(-context)].slice(-context);
  return { count, first, last };
}

/** The lines {@link UnifiedDiffWriter.equal} needs of `count` lines read through `lineAt`. */
export function equalRun(count: number, lineAt: (index: number) => string, context = DIFF_CONTEXT_LINES): { first: string[]; last: string[] } {
  const first: string[] = [];
  for (let index = 0; index < Math.min(context, count); index += 1) first.push(lineAt(index));
  const last: string[] = [];
  for (let index = Math.max(first.length, count - context); index < count; index += 1) last.push(lineAt(index));
  return { first, last };
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
 * The diff for a file whose old content was not UTF-8 text (`write_file` may replace it): the
 * header and a line saying why no lines are compared.
 */
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

export function undecodedDiff(path: string, problem: string): string {
  return `${new UnifiedDiffWriter(path).finish()}The old content is not UTF-8 text (${problem}), so no lines are compared.\n`;
}

/** One run of a line diff: lines both sides share, or lines only the old or the new side has. */
export interface DiffStep {
  readonly kind: 'equal' | 'removed' | 'added';
  readonly count: number;
}

/**
 * The line diff of two sequences of interned lines: Myers within budget, else anchored on
 * lines unique to both sides (see the module comment). `distinct` is how many different ids
 * there are (ids run from 0).
 */
export async function diffIds(oldIds: Int32Array, newIds: Int32Array, distinct: number, slicer: TimeSlicer): Promise<DiffStep[]> {
  // Sides with no line in common: every line removed, then every line added, as Myers would
  // end up writing it after the longest search it can make.
  if (!(await shareALine(oldIds, newIds, distinct, slicer))) {
    const steps: DiffStep[] = [];
    pushStep(steps, 'removed', oldIds.length);
    pushStep(steps, 'added', newIds.length);
    return steps;
  }
  const budget = MIN_DIFF_WORK + DIFF_WORK_PER_LINE * (oldIds.length + newIds.length);
  const whole = await myersDiff(oldIds, newIds, budget, slicer);
  if (whole !== undefined) return whole;
  const steps: DiffStep[] = [];
  const anchors = await uniqueAnchors(oldIds, newIds, distinct, slicer);
  let oldAt = 0;
  let newAt = 0;
  for (const [oldAnchor, newAnchor] of [...anchors, [oldIds.length, newIds.length] as const]) {
    if (slicer.due()) await slicer.pause();
    await diffStretch(oldIds.subarray(oldAt, oldAnchor), newIds.subarray(newAt, newAnchor), anchors.length > 0, steps, slicer);
    if (oldAnchor < oldIds.length) pushStep(steps, 'equal', 1);
    oldAt = oldAnchor + 1;
    newAt = newAnchor + 1;
  }
  return steps;
}

async function shareALine(oldIds: Int32Array, newIds: Int32Array, distinct: number, slicer: TimeSlicer): Promise<boolean> {
  const seen = new Uint8Array(distinct);
  for (let index = 0; index < oldIds.length; index += 1) {
    seen[oldIds[index]!] = 1;
    if (slicer.due()) await slicer.pause();
  }
  for (let index = 0; index < newIds.length; index += 1) {
    if (seen[newIds[index]!] === 1) return true;
    if (slicer.due()) await slicer.pause();
  }
  return false;
}

/** The stretch between two anchors: its common ends, then Myers within a budget of its own, else removed-then-added. */
async function diffStretch(oldIds: Int32Array, newIds: Int32Array, tryMyers: boolean, steps: DiffStep[], slicer: TimeSlicer): Promise<void> {
  let head = 0;
  while (head < oldIds.length && head < newIds.length && oldIds[head] === newIds[head]) head += 1;
  let tail = 0;
  while (tail < oldIds.length - head && tail < newIds.length - head && oldIds[oldIds.length - 1 - tail] === newIds[newIds.length - 1 - tail]) tail += 1;
  pushStep(steps, 'equal', head);
  const oldMiddle = oldIds.subarray(head, oldIds.length - tail);
  const newMiddle = newIds.subarray(head, newIds.length - tail);
  const budget = DIFF_WORK_PER_LINE * (oldMiddle.length + newMiddle.length) + 1_000;
  const middle = tryMyers && oldMiddle.length > 0 && newMiddle.length > 0 ? await myersDiff(oldMiddle, newMiddle, budget, slicer) : undefined;
  if (middle !== undefined) for (const step of middle) pushStep(steps, step.kind, step.count);
  else {
    pushStep(steps, 'removed', oldMiddle.length);
    pushStep(steps, 'added', newMiddle.length);
  }
  pushStep(steps, 'equal', tail);
}

function pushStep(steps: DiffStep[], kind: DiffStep['kind'], count: number): void {
  if (count === 0) return;
  const last = steps.at(-1);
  if (last !== undefined && last.kind === kind) steps[steps.length - 1] = { kind, count: last.count + count };
  else steps.push({ kind, count });
}

/**
 * Pairs `[old index, new index]` of lines that occur exactly once on each side, as the
 * longest run that keeps both orders (patience diffing's anchors).
 */
async function uniqueAnchors(oldIds: Int32Array, newIds: Int32Array, distinct: number, slicer: TimeSlicer): Promise<(readonly [number, number])[]> {
  const oldCount = new Int32Array(distinct);
  const newCount = new Int32Array(distinct);
  const newPosition = new Int32Array(distinct);
  for (let index = 0; index < oldIds.length; index += 1) {
    oldCount[oldIds[index]!]! += 1;
    if (slicer.due()) await slicer.pause();
  }
  for (let index = 0; index < newIds.length; index += 1) {
    if (slicer.due()) await slicer.pause();
    const id = newIds[index]!;
    newCount[id]! += 1;
    newPosition[id] = index;
  }
  const pairs: [number, number][] = [];
  for (let index = 0; index < oldIds.length; index += 1) {
    const id = oldIds[index]!;
    if (oldCount[id] === 1 && newCount[id] === 1) pairs.push([index, newPosition[id]!]);
    if (slicer.due()) await slicer.pause();
  }
  // Longest increasing run of new positions (patience sorting, with links back).
  const tails: number[] = [];
  const previous = new Int32Array(pairs.length);
  for (let index = 0; index < pairs.length; index += 1) {
    if (slicer.due()) await slicer.pause();
    const value = pairs[index]![1];
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (pairs[tails[middle]!]![1] < value) low = middle + 1;
      else high = middle;
    }
    previous[index] = low > 0 ? tails[low - 1]! : -1;
    tails[low] = index;
  }
  const chosen: (readonly [number, number])[] = [];
  for (let index = tails.length > 0 ? tails.at(-1)! : -1; index !== -1; index = previous[index]!) chosen.push(pairs[index]!);
  return chosen.reverse();
}

/** Equal lines in a row after which Myers' walk along them compares blocks of this many natively. */
const SNAKE_BLOCK = 256;

interface Component {
  readonly count: number;
  readonly added: boolean;
  readonly removed: boolean;
  readonly previous: Component | undefined;
}

interface DiffPath {
  oldPos: number;
  last: Component | undefined;
}

/**
 * The `diff` package's Myers diff (its `Diff.diffWithOptionsObj`, same choices between
 * equally short paths) over interned lines, giving up with `undefined` past `budget` steps.
 */
async function myersDiff(oldIds: Int32Array, newIds: Int32Array, budget: number, slicer: TimeSlicer): Promise<DiffStep[] | undefined> {
  const oldLength = oldIds.length;
  const newLength = newIds.length;
  // The best path per diagonal, from -reach to +reach, grown as the edit length reaches further
  // (one array as long as both texts took 30 ms to allocate for a million lines).
  let reach = 1_024;
  let bestPath: (DiffPath | undefined)[] = new Array(2 * reach + 3).fill(undefined);
  const pathAt = (diagonal: number): DiffPath | undefined => bestPath[reach + 1 + diagonal];
  const setPath = (diagonal: number, path: DiffPath | undefined): void => {
    bestPath[reach + 1 + diagonal] = path;
  };
  let work = 0;
  let nextCheck = 16_384;
  // Byte views of the ids, so a long run of equal lines is compared natively, a block at a time.
  const oldBytes = Buffer.from(oldIds.buffer, oldIds.byteOffset, oldIds.byteLength);
  const newBytes = Buffer.from(newIds.buffer, newIds.byteOffset, newIds.byteLength);
  const extractCommon = (path: DiffPath, diagonal: number): number => {
    let oldPos = path.oldPos;
    let newPos = oldPos - diagonal;
    let common = 0;
    while (newPos + 1 < newLength && oldPos + 1 < oldLength && oldIds[oldPos + 1] === newIds[newPos + 1]) {
      newPos += 1;
      oldPos += 1;
      common += 1;
      // Past a few equal lines, skip whole equal blocks with one native comparison each
      // (a million equal lines cost 40 ms one by one).
      if (common === SNAKE_BLOCK) {
        while (
          newPos + 1 + SNAKE_BLOCK <= newLength &&
          oldPos + 1 + SNAKE_BLOCK <= oldLength &&
          oldBytes.compare(newBytes, (newPos + 1) * 4, (newPos + 1 + SNAKE_BLOCK) * 4, (oldPos + 1) * 4, (oldPos + 1 + SNAKE_BLOCK) * 4) === 0
        ) {
          newPos += SNAKE_BLOCK;
          oldPos += SNAKE_BLOCK;
          common += SNAKE_BLOCK;
        }
      }
    }
    work += common;
    if (common > 0) path.last = { count: common, added: false, removed: false, previous: path.last };
    path.oldPos = oldPos;
    return newPos;
  };
  const addToPath = (path: DiffPath, added: boolean, removed: boolean, oldPosIncrease: number): DiffPath => {
    const last = path.last;
    if (last !== undefined && last.added === added && last.removed === removed) {
      return { oldPos: path.oldPos + oldPosIncrease, last: { count: last.count + 1, added, removed, previous: last.previous } };
    }
    return { oldPos: path.oldPos + oldPosIncrease, last: { count: 1, added, removed, previous: last } };
  };

  const start: DiffPath = { oldPos: -1, last: undefined };
  setPath(0, start);
  let newPos = extractCommon(start, 0);
  if (start.oldPos + 1 >= oldLength && newPos + 1 >= newLength) return stepsOf(start.last);
  let minDiagonal = -Infinity;
  let maxDiagonal = Infinity;
  for (let editLength = 1; editLength <= oldLength + newLength; editLength += 1) {
    if (editLength >= reach) {
      const grown: (DiffPath | undefined)[] = new Array(4 * reach + 3).fill(undefined);
      for (let index = 0; index < bestPath.length; index += 1) grown[index + reach] = bestPath[index];
      bestPath = grown;
      reach *= 2;
    }
    for (let diagonal = Math.max(minDiagonal, -editLength); diagonal <= Math.min(maxDiagonal, editLength); diagonal += 2) {
      work += 1;
      const removePath = pathAt(diagonal - 1);
      const addPath = pathAt(diagonal + 1);
      if (removePath !== undefined) setPath(diagonal - 1, undefined);
      let canAdd = false;
      if (addPath !== undefined) {
        const addPathNewPos = addPath.oldPos - diagonal;
        canAdd = addPathNewPos >= 0 && addPathNewPos < newLength;
      }
      const canRemove = removePath !== undefined && removePath.oldPos + 1 < oldLength;
      if (!canAdd && !canRemove) {
        setPath(diagonal, undefined);
        continue;
      }
      const basePath = !canRemove || (canAdd && removePath.oldPos < addPath!.oldPos) ? addToPath(addPath!, true, false, 0) : addToPath(removePath, false, true, 1);
      newPos = extractCommon(basePath, diagonal);
      if (basePath.oldPos + 1 >= oldLength && newPos + 1 >= newLength) return stepsOf(basePath.last);
      setPath(diagonal, basePath);
      if (basePath.oldPos + 1 >= oldLength) maxDiagonal = Math.min(maxDiagonal, diagonal - 1);
      if (newPos + 1 >= newLength) minDiagonal = Math.max(minDiagonal, diagonal + 1);
      // Checked per diagonal: long runs of equal lines make a single edit length's pass long.
      if (work >= nextCheck) {
        nextCheck = work + 16_384;
        if (slicer.dueNow()) await slicer.pause();
      }
    }
    if (work > budget) return undefined;
  }
  return undefined;
}

function stepsOf(last: Component | undefined): DiffStep[] {
  const steps: DiffStep[] = [];
  for (let component = last; component !== undefined; component = component.previous) {
    steps.push({ kind: component.added ? 'added' : component.removed ? 'removed' : 'equal', count: component.count });
  }
  return steps.reverse();
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

/**
 * The lines of two texts as numbers, equal lines alike, without making a string per line: each
 * side's line starts, and each line's id from a hash table over the texts themselves. Interning
 * line strings in a `Map` cost about a microsecond a line, made garbage the collector then held
 * the event loop for, and rehashed 262,144 entries at once (30–45 ms) in a 10 MB rewrite.
 */
class LineTable {
  private constructor(
    /** Where each old line starts, then the old text's length: line `i` is `oldStarts[i] … oldStarts[i + 1]`, with its break. */
    readonly oldStarts: Int32Array,
    readonly newStarts: Int32Array,
    readonly oldIds: Int32Array,
    readonly newIds: Int32Array,
    /** How many different lines there are; ids run from 0. */
    readonly distinct: number,
  ) {}

  static async build(oldText: string, newText: string, slicer: TimeSlicer): Promise<LineTable> {
    const oldStarts = await lineStarts(oldText, slicer);
    const newStarts = await lineStarts(newText, slicer);
    const oldCount = oldStarts.length - 1;
    const newCount = newStarts.length - 1;
    // Open addressing, at most half full: slot holds id + 1 (0 is empty).
    let size = 16;
    while (size < 2 * (oldCount + newCount)) size *= 2;
    const slots = new Int32Array(size);
    const slotHashes = new Int32Array(size);
    // Where each id's first line is: which text, and its start and end.
    const firstSide = new Uint8Array(oldCount + newCount);
    const firstStart = new Int32Array(oldCount + newCount);
    const firstEnd = new Int32Array(oldCount + newCount);
    const texts = [oldText, newText] as const;
    let distinct = 0;
    const intern = async (side: 0 | 1, starts: Int32Array): Promise<Int32Array> => {
      const text = texts[side];
      const ids = new Int32Array(starts.length - 1);
      for (let line = 0; line < ids.length; line += 1) {
        const start = starts[line]!;
        const end = starts[line + 1]!;
        // A long line (minified code, a 4 MB line of one edit) is hashed from its length and a
        // sample of its characters: the hash only picks the slot, equality is always checked.
        // Its first and last characters are always taken: lines that differ at either end hash apart.
        const step = end - start > LONG_LINE ? Math.floor((end - start) / LONG_LINE) : 1;
        let hash = Math.imul(0x811c9dc5 ^ (end - start), 0x01000193);
        for (let index = start; index < end; index += step) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
        if (step > 1) {
          for (let index = start; index < start + LINE_ENDS; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
          for (let index = end - LINE_ENDS; index < end; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
        }
        let slot = hash & (size - 1);
        for (;;) {
          const held = slots[slot]!;
          if (held === 0) {
            slots[slot] = distinct + 1;
            slotHashes[slot] = hash;
            firstSide[distinct] = side;
            firstStart[distinct] = start;
            firstEnd[distinct] = end;
            ids[line] = distinct;
            distinct += 1;
            break;
          }
          const id = held - 1;
          if (slotHashes[slot] === hash && sameText(texts[firstSide[id]!], firstStart[id]!, firstEnd[id]!, text, start, end)) {
            ids[line] = id;
            break;
          }
          slot = (slot + 1) & (size - 1);
        }
        if (slicer.due()) await slicer.pause();
      }
      return ids;
    };
    const oldIds = await intern(0, oldStarts);
    const newIds = await intern(1, newStarts);
    return new LineTable(oldStarts, newStarts, oldIds, newIds, distinct);
  }
}

/** Characters of a line hashed whole; a longer line is hashed from this many of them, spread along it. */
const LONG_LINE = 1_024;
/** Characters at each end of a long line that its hash always includes. */
const LINE_ENDS = 128;

/** Where each line of `text` starts, then `text.length`: the `diff` package's line tokens, each with its break. */
async function lineStarts(text: string, slicer: TimeSlicer): Promise<Int32Array> {
  const breaks = await countLineBreaks(text, 0, text.length, slicer);
  const lines = breaks + (text.length > 0 && !text.endsWith('\n') ? 1 : 0);
  const starts = new Int32Array(lines + 1);
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && line <= lines; index = text.indexOf('\n', index + 1)) {
    starts[line] = index + 1;
    line += 1;
    if (slicer.due()) await slicer.pause();
  }
  starts[lines] = text.length;
  return starts;
}

/** Whether `a.slice(aStart, aEnd)` and `b.slice(bStart, bEnd)` are the same text, without making either. */
function sameText(a: string, aStart: number, aEnd: number, b: string, bStart: number, bEnd: number): boolean {
  if (aEnd - aStart !== bEnd - bStart) return false;
  // Long lines are compared natively (the slices are views, not copies).
  if (aEnd - aStart > 256) return a.slice(aStart, aEnd) === b.slice(bStart, bEnd);
  for (let offset = 0; offset < aEnd - aStart; offset += 1) {
    if (a.charCodeAt(aStart + offset) !== b.charCodeAt(bStart + offset)) return false;
  }
  return true;
}

/** File names as the `diff` package writes them: C-style quoted when they hold control, quote, backslash or non-ASCII characters. */
function quoteFileName(name: string): string {
  if (!/[^\x20-\x7e]|["\\]/.test(name)) return name;
  const escapes: Record<number, string> = { 0x07: '\\a', 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0b: '\\v', 0x0c: '\\f', 0x0d: '\\r', 0x22: '\\"', 0x5c: '\\\\' };
  let quoted = '"';
  for (const byte of Buffer.from(name, 'utf8')) {
    quoted += escapes[byte] ?? (byte >= 0x20 && byte <= 0x7e ? String.fromCharCode(byte) : `\\${byte.toString(8).padStart(3, '0')}`);
  }
  return `${quoted}"`;
}
