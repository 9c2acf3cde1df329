import type { FileHandle } from 'node:fs/promises';
import { countUtf8Characters, cutLine, describeNonText } from './text.js';

/** Bytes read from the file at a time: one read is enough for a typical first page. */
const CHUNK_BYTES = 64 * 1024;
/**
 * Bytes read at a time when the page starts further in: the lines before it are only
 * counted, and 1 MB reads cost a sixteenth of the round trips (the last page of a 1 GB file:
 * 2.8 s in 64 KB reads).
 */
const SKIPPING_CHUNK_BYTES = 1024 * 1024;
/** After the page, this many more bytes are scanned to learn the total number of lines. */
export const LINE_COUNT_BUDGET_BYTES = 8 * 1024 * 1024;
/** One line longer than this many bytes stops the page: its end is not looked for. */
export const LONG_LINE_LIMIT_BYTES = 32 * 1024 * 1024;
/** Characters kept free in a reply for the header and the closing note. */
const PAGE_RESERVE = 400;

/** What to read. */
export interface PageRequest {
  readonly startLine: number;
  /** Inclusive; `Infinity` for "as many as fit". */
  readonly endLine: number;
  readonly maxCharacters: number;
  readonly maxLineLength: number;
  /**
   * The file's size when it was opened. With it, the line count after the page is skipped
   * when the rest of the file is larger than {@link LINE_COUNT_BUDGET_BYTES}: that count could
   * not reach the end, so it would only cost the first page of a large file its 8 MB of reads.
   */
  readonly fileBytes?: number;
}

/** Why a page ended. */
export type PageEnd =
  /** The last line of the file was shown. */
  | { readonly type: 'end-of-file' }
  /** `endLine` was reached. */
  | { readonly type: 'end-line' }
  /** The reply limit was reached; line `line` is the first not shown. */
  | { readonly type: 'limit'; readonly line: number }
  /** Line `line` holds a NUL byte: binary data from there on. */
  | { readonly type: 'binary'; readonly line: number }
  /** Line `line` is not valid UTF-8. */
  | { readonly type: 'not-utf8'; readonly line: number }
  /** Line `line` is too long to find its end. */
  | { readonly type: 'long-line'; readonly line: number };

/** One page of a file. */
export type Page =
  | {
      readonly type: 'lines';
      /** Already formatted as `N: text`. */
      readonly lines: readonly string[];
      readonly firstLine: number;
      readonly end: PageEnd;
      /** Lines in the file, when the end of the file was found within the scan budget. */
      readonly totalLines: number | undefined;
      /** True when something follows the last line shown. */
      readonly more: boolean;
      /** Lines that were cut because they were too long. */
      readonly cutLines: number;
    }
  /** The file is not text from its first bytes (`kind` says what it is). */
  | { readonly type: 'not-text'; readonly kind: string }
  /** `startLine` is past the last line. */
  | { readonly type: 'past-end'; readonly totalLines: number };

/**
 * Reads one page of numbered lines from an open file, as a stream: the file is read in
 * 64 KB chunks, lines before `startLine` are only counted (never decoded), an over-long line
 * keeps only its first bytes, and reading stops as soon as the page is full. So the first page
 * of a multi-gigabyte file is as fast as that of a small one, and memory stays flat. CRLF line
 * ends are shown without `\r`; a UTF-8 byte order mark is not shown.
 */
export async function readPage(handle: FileHandle, request: PageRequest): Promise<Page> {
  const { startLine, endLine, maxCharacters, maxLineLength } = request;
  const headLimitBytes = maxLineLength * 4;
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const chunkBytes = startLine > 1 ? SKIPPING_CHUNK_BYTES : CHUNK_BYTES;
  const buffer = Buffer.allocUnsafe(chunkBytes);
  const lines: string[] = [];
  let characters = 0;
  let cutLines = 0;

  let position = 0;
  let lineNumber = 1;
  let newlines = 0;
  let lastByte = -1;
  // Widened on purpose: the helpers below change it, which the compiler cannot follow.
  let phase = (startLine > 1 ? 'skip' : 'show') as 'skip' | 'show' | 'count' | 'stopped';
  let end: PageEnd | undefined;
  let countedBytes = 0;
  let endOfFile = false;
  let lastByteWasCarriageReturn = false;
  // The line being assembled: its first bytes, and how much of it was left out.
  let headParts: Buffer[] = [];
  let headBytes = 0;
  let restBytes = 0;
  let restCharacters = 0;
  let lineHasContent = false;

  const stop = (reason: PageEnd, nextPhase: 'count' | 'stopped'): void => {
    end = reason;
    phase = nextPhase;
  };

  /** True when the bytes from `offset` to the end are more than the count may scan. */
  const countCannotReachEnd = (offset: number): boolean =>
    request.fileBytes !== undefined && request.fileBytes - offset >= LINE_COUNT_BUDGET_BYTES;

  const append = (bytes: Buffer): void => {
    lineHasContent = lineHasContent || bytes.length > 0;
    const room = headLimitBytes - headBytes;
    const kept = room > 0 ? bytes.subarray(0, room) : bytes.subarray(0, 0);
    if (kept.includes(0)) return stop({ type: 'binary', line: lineNumber }, 'stopped');
    if (kept.length > 0) {
      headParts.push(Buffer.from(kept));
      headBytes += kept.length;
    }
    const rest = bytes.subarray(kept.length);
    if (rest.length > 0) {
      restBytes += rest.length;
      restCharacters += countUtf8Characters(rest);
      if (restBytes > LONG_LINE_LIMIT_BYTES) stop({ type: 'long-line', line: lineNumber }, 'stopped');
    }
  };

  /** Formats the assembled line; false when it did not fit (or could not be decoded). */
  const finishLine = (): boolean => {
    let bytes = headParts.length === 1 ? headParts[0]! : Buffer.concat(headParts);
    const wasCut = restBytes > 0;
    if (wasCut) bytes = trimToCharacterBoundary(bytes);
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      stop({ type: 'not-utf8', line: lineNumber }, 'stopped');
      return false;
    }
    if (lineNumber === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (!wasCut && text.endsWith('\r')) text = text.slice(0, -1);
    let restOfLine = restCharacters;
    if (wasCut && restOfLine > 0 && lastByteWasCarriageReturn) restOfLine -= 1;
    if (wasCut || text.length > maxLineLength) cutLines += 1;
    const shown = `${lineNumber}: ${cutLine(text, maxLineLength, wasCut ? restOfLine : 0)}`;
    if (characters + shown.length + 1 > maxCharacters - PAGE_RESERVE && lines.length > 0) {
      stop({ type: 'limit', line: lineNumber }, 'count');
      return false;
    }
    lines.push(shown);
    characters += shown.length + 1;
    headParts = [];
    headBytes = 0;
    restBytes = 0;
    restCharacters = 0;
    lineHasContent = false;
    return true;
  };

  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, chunkBytes, position);
    if (bytesRead === 0) {
      endOfFile = true;
      break;
    }
    const chunk = buffer.subarray(0, bytesRead);
    let index = 0;
    if (position === 0) {
      const kind = describeNonText(chunk);
      if (kind !== undefined) return { type: 'not-text', kind };
    }
    position += bytesRead;
    lastByte = chunk[bytesRead - 1]!;

    while (index < chunk.length && phase !== 'stopped') {
      if (phase === 'count') {
        if (countedBytes === 0 && countCannotReachEnd(position - bytesRead + index)) {
          phase = 'stopped';
          continue;
        }
        const room = LINE_COUNT_BUDGET_BYTES - countedBytes;
        const slice = chunk.subarray(index, index + room);
        newlines += countNewlines(slice);
        countedBytes += slice.length;
        index += slice.length;
        if (countedBytes >= LINE_COUNT_BUDGET_BYTES) phase = 'stopped';
        continue;
      }
      if (phase === 'skip') {
        // Lines before the page are counted, never decoded: only their line breaks matter.
        let newline = chunk.indexOf(10, index);
        while (newline !== -1 && lineNumber < startLine) {
          newlines += 1;
          lineNumber += 1;
          index = newline + 1;
          if (lineNumber < startLine) newline = chunk.indexOf(10, index);
        }
        if (lineNumber === startLine) phase = 'show';
        else index = chunk.length;
        continue;
      }
      const newline = chunk.indexOf(10, index);
      // phase === 'show'
      const lineEnd = newline === -1 ? chunk.length : newline;
      append(chunk.subarray(index, lineEnd));
      if (phase !== 'show') break;
      if (newline === -1) {
        lastByteWasCarriageReturn = lineEnd > 0 && chunk[lineEnd - 1] === 13;
        index = chunk.length;
        continue;
      }
      lastByteWasCarriageReturn = lineEnd > index ? chunk[lineEnd - 1] === 13 : lastByteWasCarriageReturn;
      newlines += 1;
      index = newline + 1;
      if (!finishLine()) {
        // The line did not fit: count it as seen so the total stays right.
        if ((phase as string) === 'count') continue;
        break;
      }
      lineNumber += 1;
      if (lineNumber > endLine) stop({ type: 'end-line' }, 'count');
    }
    if (phase === 'stopped') break;
  }

  // A last line without a trailing newline.
  if (endOfFile && phase === 'show' && lineHasContent && finishLine()) lineNumber += 1;
  const totalLines = endOfFile ? newlines + (lastByte !== -1 && lastByte !== 10 ? 1 : 0) : undefined;

  if (lines.length === 0 && end === undefined) return { type: 'past-end', totalLines: totalLines ?? 0 };
  const lastShown = startLine + lines.length - 1;
  let more: boolean;
  if (end === undefined) more = false;
  else if (end.type === 'end-line') more = totalLines === undefined || lastShown < totalLines;
  else more = true;
  return {
    type: 'lines',
    lines,
    firstLine: startLine,
    end: more ? end! : { type: 'end-of-file' },
    totalLines,
    more,
    cutLines,
  };
}

/** Counts `\n` bytes. */
function countNewlines(bytes: Uint8Array): number {
  let count = 0;
  let index = bytes.indexOf(10);
  while (index !== -1) {
    count += 1;
    index = bytes.indexOf(10, index + 1);
  }
  return count;
}

/** Drops an incomplete UTF-8 sequence at the end of bytes cut from a longer line. */
function trimToCharacterBoundary(bytes: Buffer): Buffer {
  for (let back = 1; back <= 4 && back <= bytes.length; back += 1) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.subarray(0, bytes.length - back) : bytes;
  }
  return bytes;
}
