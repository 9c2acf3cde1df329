/**
 * The unified diff text itself, in the `diff` package's own format (`createTwoFilesPatch`):
 * the header, hunks grouped as its `structuredPatch` groups them, C-style quoted file names,
 * and a size limit past which changed lines are only counted. It knows nothing of how the
 * lines were matched: it is fed equal runs and changed lines in order.
 */
import { formatCount } from './text.js';

/** Lines of unchanged text shown around each change, as `diff`'s patches and `git diff` show them. */
export const DIFF_CONTEXT_LINES = 3;
/** Characters of `data.diff` past which the rest of the diff is counted, not shown. */
export const MAX_DIFF_CHARACTERS = 100_000;

/** Options of {@link UnifiedDiffWriter}. */
export interface UnifiedDiffOptions {
  /** @default {@link DIFF_CONTEXT_LINES} */
  readonly context?: number;
  /** @default {@link MAX_DIFF_CHARACTERS} */
  readonly maxCharacters?: number;
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

  constructor(path: string, options: UnifiedDiffOptions = {}) {
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
