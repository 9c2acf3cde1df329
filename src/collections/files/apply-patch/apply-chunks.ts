import { ToolError } from '../../../errors/tool-error.js';
import { closestLines, type NumberedLines } from '../text/edit-text.js';
import { lfViewOf, prevailingLineEndingOf } from '../text/line-scan.js';
import { plural } from '../text/text.js';
import { TimeSlicer } from '../../../time-slice.js';
import { formatNumberedLines, lineRange } from '../guard/write-guards.js';
import type { PatchChunk } from './parse.js';

/** What {@link applyChunks} made of a file. */
export interface ChunksApplied {
  readonly text: string;
  /** The lines each chunk left, in the new text, in order. */
  readonly changed: readonly NumberedLines[];
}

interface Replacement {
  readonly start: number;
  readonly removed: number;
  readonly added: readonly string[];
}

/**
 * Applies an update's chunks to a file's text, or throws naming the chunk that does not fit
 * and why; nothing is written either way (the caller writes). The rules are `edit_file`'s:
 * a chunk's context and removed lines must match the file exactly (whitespace included, no
 * fuzz), line breaks match `\n` and `\r\n` alike, and the chunk must fit in exactly one place
 * after the previous chunk (and after its `@@` lines). Added lines take the file's prevailing
 * line ending; the lines around them keep theirs, and a file without a final line break stays
 * without one.
 */
export async function applyChunks(text: string, chunks: readonly PatchChunk[], shown: string, maxLineLength: number, slicer = new TimeSlicer()): Promise<ChunksApplied> {
  const file = await FileLines.create(text, slicer);
  await file.indexLines(chunks.flatMap((chunk) => chunk.lines.filter((line) => line.kind !== '+').slice(0, 1).map((line) => line.text)), slicer);
  const replacements: Replacement[] = [];
  let cursor = 0;
  for (const [index, chunk] of chunks.entries()) {
    const name = `Chunk ${index + 1} of ${plural(chunks.length, 'chunk')} for \`${shown}\` (patch line ${chunk.patchLine})`;
    const added = chunk.lines.filter((line) => line.kind !== '-').map((line) => line.text);
    const wanted = chunk.lines.filter((line) => line.kind !== '+').map((line) => line.text);
    if (chunk.insertAfterLine !== undefined) {
      if (chunk.insertAfterLine < 0 || chunk.insertAfterLine > file.count) {
        throw new ToolError(`insert_line ${chunk.insertAfterLine} is outside \`${shown}\`, which has ${plural(file.count, 'line')}. Give a line from 0 (before the first line) to ${file.count} (after the last).`);
      }
      replacements.push({ start: chunk.insertAfterLine, removed: 0, added });
      cursor = chunk.insertAfterLine;
      continue;
    }
    for (const anchor of chunk.anchors) {
      const found = file.findAnchor(anchor, cursor);
      if (found === -1) {
        throw new ToolError(`${name}: its \`@@ ${anchor}\` line matches no line of the file${cursor > 0 ? ` after line ${cursor}` : ''}. ${rereadAdvice()}`);
      }
      cursor = found + 1;
    }
    if (wanted.length === 0) {
      // Only added lines: after the @@ lines, or at the end of the file.
      const start = chunk.anchors.length > 0 && !chunk.endOfFile ? cursor : file.count;
      replacements.push({ start, removed: 0, added });
      cursor = start;
      continue;
    }
    const matches = chunk.endOfFile ? file.findSequence(wanted, Math.max(cursor, file.count - wanted.length)).filter((start) => start + wanted.length === file.count) : file.findSequence(wanted, cursor);
    if (matches.length === 0) throw new ToolError(await notFoundMessage(name, text, wanted, chunk.endOfFile, cursor, maxLineLength, slicer));
    if (matches.length > 1) {
      throw new ToolError(
        `${name}: its context and removed lines occur ${plural(matches.length, 'time')}${cursor > 0 ? ` after line ${cursor}` : ''} (lines ${matches.map((start) => start + 1).join(', ')}), so the patch did not know which one to change. Add context lines, or an \`@@\` line naming a line above the change (such as the function it is in), until the chunk fits one place.`,
      );
    }
    replacements.push({ start: matches[0]!, removed: wanted.length, added });
    cursor = matches[0]! + wanted.length;
  }
  return file.replace(replacements, await prevailingLineEndingOf(text, slicer));
}

/**
 * A file's text as lines, found by offsets rather than split apart, so a large file costs a
 * few scans: the LF view is searched with `indexOf`, and the new text is the original sliced
 * around the replaced lines (every line outside them keeps its own ending).
 */
class FileLines {
  readonly count: number;
  readonly #text: string;
  readonly #lf: string;
  /** Where each line starts, in the original text and in the LF view. */
  readonly #starts: number[];
  readonly #lfStarts: number[];
  readonly #noFinalBreak: boolean;
  /** For each line text a chunk starts with, the lines that hold it, ascending. */
  #positions = new Map<string, number[]>();

  private constructor(text: string, lf: string, starts: number[], lfStarts: number[]) {
    this.#text = text;
    this.#lf = lf;
    this.#starts = starts;
    this.#lfStarts = lfStarts;
    this.count = this.#starts.length;
    this.#noFinalBreak = text.length > 0 && !text.endsWith('\n');
  }

  /** Finds the lines of `text` in time slices (a 10 MB file has 200,000 of them). */
  static async create(text: string, slicer: TimeSlicer): Promise<FileLines> {
    const lf = (await lfViewOf(text, slicer)).text;
    const starts = await lineStarts(text, slicer);
    return new FileLines(text, lf, starts, lf === text ? starts : await lineStarts(lf, slicer));
  }

  /** Line `index` (0-based) without its line break. */
  line(index: number): string {
    const end = index + 1 < this.count ? this.#lfStarts[index + 1]! - 1 : this.#noFinalBreak ? this.#lf.length : this.#lf.length - 1;
    return this.#lf.slice(this.#lfStarts[index], end);
  }

  /** The first line at or after `from` whose text, trimmed, is the anchor's; -1 when none is. */
  findAnchor(anchor: string, from: number): number {
    const needle = anchor.trim();
    let offset = this.#lfOffset(from);
    while (offset <= this.#lf.length) {
      const found = this.#lf.indexOf(needle, offset);
      if (found === -1) return -1;
      const line = this.#lineAt(found);
      // An anchor only points at a place and is never replaced, so indentation does not matter.
      if (this.line(line).trim() === needle) return line;
      offset = this.#lfOffset(line + 1);
    }
    return -1;
  }

  /**
   * Notes where each of these line texts occurs, in one pass over the file, so finding every
   * place a chunk fits (to know it fits one only) costs a look-up per chunk, not a scan of the
   * rest of the file.
   */
  async indexLines(texts: readonly string[], slicer: TimeSlicer): Promise<void> {
    const wanted = new Set(texts);
    const lengths = new Set(texts.map((text) => text.length));
    for (const text of wanted) this.#positions.set(text, []);
    for (let index = 0; index < this.count; index += 1) {
      if (slicer.due()) await slicer.pause();
      if (!lengths.has(this.#lineLength(index))) continue;
      const text = this.line(index);
      if (wanted.has(text)) this.#positions.get(text)!.push(index);
    }
  }

  /** Every line at or after `from` where `wanted` starts, line for line, exactly. */
  findSequence(wanted: readonly string[], from: number): number[] {
    const candidates = this.#positions.get(wanted[0]!);
    if (candidates === undefined) return this.#scanSequence(wanted, from);
    return candidates.filter((start) => start >= from && start + wanted.length <= this.count && wanted.every((text, offset) => this.#lineIs(start + offset, text)));
  }

  /** {@link findSequence} without an index: a scan of the LF view from `from`. */
  #scanSequence(wanted: readonly string[], from: number): number[] {
    const needle = wanted.join('\n');
    const matches: number[] = [];
    for (let found = this.#lf.indexOf(needle, this.#lfOffset(from)); found !== -1; found = this.#lf.indexOf(needle, found + 1)) {
      const end = found + needle.length;
      const startsLine = found === 0 || this.#lf.charCodeAt(found - 1) === 10;
      const endsLine = end < this.#lf.length ? this.#lf.charCodeAt(end) === 10 : this.#noFinalBreak;
      if (startsLine && endsLine) matches.push(this.#lineAt(found));
      if (found >= this.#lf.length) break;
    }
    return matches;
  }

  #lineLength(index: number): number {
    const end = index + 1 < this.count ? this.#lfStarts[index + 1]! - 1 : this.#noFinalBreak ? this.#lf.length : this.#lf.length - 1;
    return end - this.#lfStarts[index]!;
  }

  #lineIs(index: number, text: string): boolean {
    return this.#lineLength(index) === text.length && this.#lf.startsWith(text, this.#lfStarts[index]);
  }

  /** The text with the replacements made (in line order, not overlapping), and where the new lines are. */
  replace(replacements: readonly Replacement[], ending: string): ChunksApplied {
    const parts: string[] = [];
    const changed: NumberedLines[] = [];
    let kept = 0;
    let shift = 0;
    for (const { start, removed, added } of [...replacements].sort((a, b) => a.start - b.start)) {
      parts.push(this.#text.slice(kept, this.#offset(start)));
      const reachesEnd = start + removed === this.count;
      if (reachesEnd && this.#noFinalBreak && removed === 0 && this.count > 0 && added.length > 0) parts.push(ending);
      const body = added.map((line) => line + ending).join('');
      // A file without a final line break keeps it that way.
      parts.push(reachesEnd && this.#noFinalBreak && added.length > 0 ? body.slice(0, -ending.length) : body);
      if (reachesEnd && this.#noFinalBreak && added.length === 0 && removed > 0) trimFinalBreak(parts);
      const first = start + shift + 1;
      changed.push(added.length > 0 ? { first, last: first + added.length - 1, lines: added } : { first: Math.max(1, first - 1), last: Math.max(1, first - 1), lines: [] });
      shift += added.length - removed;
      kept = this.#offset(start + removed);
    }
    parts.push(this.#text.slice(kept));
    return { text: parts.join(''), changed };
  }

  /** Offset in the original text where line `index` starts (the end of the text past the last line). */
  #offset(index: number): number {
    return index < this.count ? this.#starts[index]! : this.#text.length;
  }

  #lfOffset(index: number): number {
    return index < this.count ? this.#lfStarts[index]! : this.#lf.length;
  }

  /** The line an LF-view offset falls in. */
  #lineAt(offset: number): number {
    let low = 0;
    let high = this.count - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.#lfStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

/** Where each line of `text` starts; none for an empty text, and no line after a final line break. */
async function lineStarts(text: string, slicer: TimeSlicer): Promise<number[]> {
  if (text.length === 0) return [];
  const starts = [0];
  for (let index = text.indexOf('\n'); index !== -1 && index + 1 < text.length; index = text.indexOf('\n', index + 1)) {
    starts.push(index + 1);
    if (slicer.due()) await slicer.pause();
  }
  return starts;
}

/** Drops the line break that ends the text so far (the file's last line was removed, and it had none). */
function trimFinalBreak(parts: string[]): void {
  for (let index = parts.length - 1; index >= 0; index -= 1) {
    const part = parts[index]!;
    if (part === '') continue;
    parts[index] = part.endsWith('\r\n') ? part.slice(0, -2) : part.endsWith('\n') ? part.slice(0, -1) : part;
    return;
  }
}

async function notFoundMessage(name: string, text: string, wanted: readonly string[], endOfFile: boolean, cursor: number, maxLineLength: number, slicer: TimeSlicer): Promise<string> {
  const where = endOfFile ? ' at the end of the file' : cursor > 0 ? ` after line ${cursor}` : '';
  const closest = await closestLines(text, wanted.join('\n'), slicer);
  if (closest === undefined) return `${name}: its context and removed lines were not found${where}, and no lines there resemble them. ${rereadAdvice()}`;
  const range = closest.first === closest.last ? `The closest line is ${closest.first}` : `The closest lines are ${lineRange(closest)}`;
  return `${name}: its context and removed lines were not found${where}. ${range}:\n${formatNumberedLines(closest, maxLineLength)}\n${rereadAdvice()}`;
}

function rereadAdvice(): string {
  return 'Read the file again with read_file and copy the lines exactly, whitespace included.';
}
