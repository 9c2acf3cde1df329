import { ToolError } from '../../../errors/tool-error.js';
import { closestLines, type NumberedLines } from '../edit-text.js';
import { prevailingLineEnding } from '../line-endings.js';
import { plural } from '../text.js';
import { formatNumberedLines, lineRange } from '../write-guards.js';
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
export function applyChunks(text: string, chunks: readonly PatchChunk[], shown: string, maxLineLength: number): ChunksApplied {
  const { lines, endings } = splitWithEndings(text);
  const replacements: Replacement[] = [];
  let cursor = 0;
  for (const [index, chunk] of chunks.entries()) {
    const name = `Chunk ${index + 1} of ${plural(chunks.length, 'chunk')} for \`${shown}\` (patch line ${chunk.patchLine})`;
    const added = chunk.lines.filter((line) => line.kind !== '-').map((line) => line.text);
    const wanted = chunk.lines.filter((line) => line.kind !== '+').map((line) => line.text);
    if (chunk.insertAfterLine !== undefined) {
      if (chunk.insertAfterLine < 0 || chunk.insertAfterLine > lines.length) {
        throw new ToolError(`insert_line ${chunk.insertAfterLine} is outside \`${shown}\`, which has ${plural(lines.length, 'line')}. Give a line from 0 (before the first line) to ${lines.length} (after the last).`);
      }
      replacements.push({ start: chunk.insertAfterLine, removed: 0, added });
      cursor = chunk.insertAfterLine;
      continue;
    }
    for (const anchor of chunk.anchors) {
      const found = findAnchor(lines, anchor, cursor);
      if (found === -1) {
        throw new ToolError(`${name}: its \`@@ ${anchor}\` line matches no line of the file${cursor > 0 ? ` after line ${cursor}` : ''}. ${rereadAdvice()}`);
      }
      cursor = found + 1;
    }
    if (wanted.length === 0) {
      // Only added lines: after the @@ lines, or at the end of the file.
      const start = chunk.anchors.length > 0 && !chunk.endOfFile ? cursor : lines.length;
      replacements.push({ start, removed: 0, added });
      cursor = start;
      continue;
    }
    const matches = chunk.endOfFile ? (sequenceAt(lines, wanted, lines.length - wanted.length) ? [lines.length - wanted.length] : []) : findSequence(lines, wanted, cursor);
    if (matches.length === 0) throw new ToolError(notFoundMessage(name, text, wanted, chunk.endOfFile, cursor, maxLineLength));
    if (matches.length > 1) {
      throw new ToolError(
        `${name}: its context and removed lines occur ${plural(matches.length, 'time')}${cursor > 0 ? ` after line ${cursor}` : ''} (lines ${matches.map((start) => start + 1).join(', ')}), so the patch did not know which one to change. Add context lines, or an \`@@\` line naming a line above the change (such as the function it is in), until the chunk fits one place.`,
      );
    }
    replacements.push({ start: matches[0]!, removed: wanted.length, added });
    cursor = matches[0]! + wanted.length;
  }
  return assemble(lines, endings, replacements, prevailingLineEnding(text));
}

/** Lines without their breaks, and each line's break (`''` for a last line without one). */
export function splitWithEndings(text: string): { lines: string[]; endings: string[] } {
  const lines: string[] = [];
  const endings: string[] = [];
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    if (newline === -1) {
      lines.push(text.slice(start));
      endings.push('');
      break;
    }
    const crlf = newline > start && text.charCodeAt(newline - 1) === 13;
    lines.push(text.slice(start, crlf ? newline - 1 : newline));
    endings.push(crlf ? '\r\n' : '\n');
    start = newline + 1;
  }
  return { lines, endings };
}

function assemble(lines: readonly string[], endings: readonly string[], replacements: readonly Replacement[], ending: string): ChunksApplied {
  const outLines: string[] = [];
  const outEndings: string[] = [];
  const changed: NumberedLines[] = [];
  const noFinalBreak = lines.length > 0 && endings.at(-1) === '';
  let index = 0;
  for (const replacement of [...replacements].sort((a, b) => a.start - b.start)) {
    for (; index < replacement.start; index += 1) {
      outLines.push(lines[index]!);
      outEndings.push(endings[index]!);
    }
    const first = outLines.length + 1;
    for (const line of replacement.added) {
      outLines.push(line);
      outEndings.push(ending);
    }
    const last = outLines.length;
    changed.push(last >= first ? { first, last, lines: replacement.added } : { first: Math.max(1, first - 1), last: Math.max(1, first - 1), lines: [] });
    index = replacement.start + replacement.removed;
  }
  for (; index < lines.length; index += 1) {
    outLines.push(lines[index]!);
    outEndings.push(endings[index]!);
  }
  // Every line but the last ends with a break; the last keeps the file's choice.
  for (let line = 0; line < outEndings.length - 1; line += 1) if (outEndings[line] === '') outEndings[line] = ending;
  if (outEndings.length > 0) outEndings[outEndings.length - 1] = noFinalBreak ? '' : outEndings.at(-1) || ending;
  return { text: outLines.map((line, at) => line + outEndings[at]).join(''), changed };
}

function findAnchor(lines: readonly string[], anchor: string, from: number): number {
  const wanted = anchor.trim();
  // An anchor only points at a place and is never replaced, so indentation does not matter.
  for (let index = from; index < lines.length; index += 1) if (lines[index]!.trim() === wanted) return index;
  return -1;
}

function findSequence(lines: readonly string[], wanted: readonly string[], from: number): number[] {
  const matches: number[] = [];
  for (let start = from; start + wanted.length <= lines.length; start += 1) {
    if (sequenceAt(lines, wanted, start)) matches.push(start);
  }
  return matches;
}

function sequenceAt(lines: readonly string[], wanted: readonly string[], start: number): boolean {
  if (start < 0 || start + wanted.length > lines.length) return false;
  for (let offset = 0; offset < wanted.length; offset += 1) if (lines[start + offset] !== wanted[offset]) return false;
  return true;
}

function notFoundMessage(name: string, text: string, wanted: readonly string[], endOfFile: boolean, cursor: number, maxLineLength: number): string {
  const where = endOfFile ? ' at the end of the file' : cursor > 0 ? ` after line ${cursor}` : '';
  const closest = closestLines(text, wanted.join('\n'));
  if (closest === undefined) return `${name}: its context and removed lines were not found${where}, and no lines there resemble them. ${rereadAdvice()}`;
  const range = closest.first === closest.last ? `The closest line is ${closest.first}` : `The closest lines are ${lineRange(closest)}`;
  return `${name}: its context and removed lines were not found${where}. ${range}:\n${formatNumberedLines(closest, maxLineLength)}\n${rereadAdvice()}`;
}

function rereadAdvice(): string {
  return 'Read the file again with read_file and copy the lines exactly, whitespace included.';
}
