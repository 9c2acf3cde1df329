/**
 * @module Makes a page of numbered lines from a file's bytes, chunk by chunk, in order: what
 * `readPage` in `line-reader.ts` (which does the reading) hands each chunk to.
 */
import { countUtf8Characters, cutLine } from './text.js';

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
   * And a file smaller than a chunk is read in one read, which also finds its end.
   */
  readonly fileBytes?: number;
}

/** How a {@link PageAssembler} decodes; see {@link assemblePage}. */
export interface AssemblerOptions {
  /** False to decode every line on its own, the way a line split between chunks always is. */
  readonly wholeLines?: boolean;
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
 * Where a read is: passing over the lines before the page (`skip`), showing lines (`show`),
 * counting the lines after the page to learn the total (`count`), or done (`stopped`).
 */
type ReadPhase = 'skip' | 'show' | 'count' | 'stopped';

/** One page being built from the chunks of a file, in order; `readPage` (line-reader.ts) does the reading. */
export class PageAssembler {
  readonly #request: PageRequest;
  /** Bytes of a line kept to be shown: enough for `maxLineLength` characters of any width. */
  readonly #headLimitBytes: number;
  readonly #decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  readonly #lines: string[] = [];
  #characters = 0;
  #cutLines = 0;

  #lineNumber = 1;
  #newlines = 0;
  #lastByte = -1;
  #phase: ReadPhase;
  #end: PageEnd | undefined;
  #countedBytes = 0;
  #lastByteWasCarriageReturn = false;
  // The line being assembled: its first bytes, and how much of it was left out.
  #headParts: Buffer[] = [];
  #headBytes = 0;
  #restBytes = 0;
  #restCharacters = 0;
  #lineHasContent = false;

  /** False to decode every line on its own, the way a line split between chunks always is (tests compare the two). */
  readonly #wholeLines: boolean;

  constructor(request: PageRequest, options: AssemblerOptions = {}) {
    this.#request = request;
    this.#headLimitBytes = request.maxLineLength * 4;
    this.#phase = request.startLine > 1 ? 'skip' : 'show';
    this.#wholeLines = options.wholeLines ?? true;
  }

  /** True when nothing more of the file is needed. */
  get stopped(): boolean {
    return this.#phase === 'stopped';
  }

  /** Takes the next chunk of the file, which starts at byte `offset`. */
  take(chunk: Buffer, offset: number): void {
    this.#lastByte = chunk[chunk.length - 1]!;
    let index = 0;
    while (index < chunk.length && this.#phase !== 'stopped') {
      if (this.#phase === 'count') index = this.#countFrom(chunk, index, offset);
      else if (this.#phase === 'skip') index = this.#skipFrom(chunk, index);
      else if (this.#wholeLines && !this.#lineHasContent && this.#headParts.length === 0) index = this.#showWholeLinesFrom(chunk, index);
      else index = this.#showLineFrom(chunk, index);
    }
    // The caller reads its next chunk into the same buffer: a line that goes on keeps a copy of its start.
    for (let part = 0; part < this.#headParts.length; part += 1) {
      if (this.#headParts[part]!.buffer === chunk.buffer) this.#headParts[part] = Buffer.from(this.#headParts[part]!);
    }
  }

  /** The page, once the reading stopped: at the end of the file when `endOfFile`. */
  finish(endOfFile: boolean): Page {
    // A last line without a trailing newline.
    if (endOfFile && this.#phase === 'show' && this.#lineHasContent) this.#finishLine();
    const totalLines = endOfFile ? this.#newlines + (this.#lastByte !== -1 && this.#lastByte !== 10 ? 1 : 0) : undefined;
    const { startLine } = this.#request;
    const lines = this.#lines;
    const end = this.#end;

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
      cutLines: this.#cutLines,
    };
  }

  /** Counts the line breaks after the page, within the budget; returns where it stopped in `chunk`. */
  #countFrom(chunk: Buffer, index: number, offset: number): number {
    if (this.#countedBytes === 0 && this.#countCannotReachEnd(offset + index)) {
      this.#phase = 'stopped';
      return index;
    }
    const room = LINE_COUNT_BUDGET_BYTES - this.#countedBytes;
    const slice = chunk.subarray(index, index + room);
    this.#newlines += countNewlines(slice);
    this.#countedBytes += slice.length;
    if (this.#countedBytes >= LINE_COUNT_BUDGET_BYTES) this.#phase = 'stopped';
    return index + slice.length;
  }

  /** True when the bytes from `offset` to the end are more than the count may scan. */
  #countCannotReachEnd(offset: number): boolean {
    return this.#request.fileBytes !== undefined && this.#request.fileBytes - offset >= LINE_COUNT_BUDGET_BYTES;
  }

  /** Passes over lines before the page; returns where the page starts in `chunk`, or the chunk's end. */
  #skipFrom(chunk: Buffer, index: number): number {
    // Lines before the page are counted, never decoded: only their line breaks matter. The
    // counters are locals here because this loop runs once per line skipped, millions of times
    // for the last page of a large file.
    const { startLine } = this.#request;
    let lineNumber = this.#lineNumber;
    let newlines = this.#newlines;
    let at = index;
    let newline = chunk.indexOf(10, at);
    while (newline !== -1 && lineNumber < startLine) {
      newlines += 1;
      lineNumber += 1;
      at = newline + 1;
      if (lineNumber < startLine) newline = chunk.indexOf(10, at);
    }
    this.#lineNumber = lineNumber;
    this.#newlines = newlines;
    if (lineNumber !== startLine) return chunk.length;
    this.#phase = 'show';
    return at;
  }

  /**
   * Shows the whole lines `chunk` holds from `index` (where a line starts) with one decoding
   * for all of them and no copy of their bytes: about a tenth of what decoding and copying
   * each line on its own costs, which is what {@link #showLineFrom} does. The bytes up to the chunk's last line break are decoded at
   * once; when they hold a NUL byte or are not UTF-8, or a line is longer than a shown line
   * may be, the lines are left to {@link #showLineFrom}, which finds the exact line and says
   * what it holds. Returns where it stopped in `chunk`.
   */
  #showWholeLinesFrom(chunk: Buffer, index: number): number {
    const lastNewline = chunk.lastIndexOf(10);
    if (lastNewline < index) return this.#showLineFrom(chunk, index);
    const region = chunk.subarray(index, lastNewline + 1);
    if (region.includes(0)) return this.#showLineFrom(chunk, index);
    let text: string;
    try {
      text = this.#decoder.decode(region);
    } catch {
      return this.#showLineFrom(chunk, index);
    }
    const { maxLineLength } = this.#request;
    let at = index;
    let from = 0;
    while (this.#phase === 'show' && at <= lastNewline) {
      const newlineInText = text.indexOf('\n', from);
      let line = text.slice(from, newlineInText);
      // A line that is cut is shown by the bytes it keeps; that count is {@link #showLineFrom}'s.
      if (line.length > maxLineLength) return this.#showLineFrom(chunk, at);
      line = withoutByteOrderMark(line, this.#lineNumber);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      this.#newlines += 1;
      at = chunk.indexOf(10, at) + 1;
      from = newlineInText + 1;
      // (`#lastByteWasCarriageReturn` is not kept here: only a cut line reads it, and such a line sets it itself.)
      if (this.#pushLine(`${this.#lineNumber}: ${line}`)) this.#nextLine();
    }
    return at;
  }

  /** Adds what `chunk` holds of the current line from `index`, and shows the line if it ends there; returns where to go on. */
  #showLineFrom(chunk: Buffer, index: number): number {
    const newline = chunk.indexOf(10, index);
    const lineEnd = newline === -1 ? chunk.length : newline;
    this.#append(chunk.subarray(index, lineEnd));
    if (this.#phase !== 'show') return index;
    if (newline === -1) {
      this.#lastByteWasCarriageReturn = lineEnd > 0 && chunk[lineEnd - 1] === 13;
      return chunk.length;
    }
    this.#lastByteWasCarriageReturn = lineEnd > index ? chunk[lineEnd - 1] === 13 : this.#lastByteWasCarriageReturn;
    this.#newlines += 1;
    // A line that did not fit is counted as seen all the same, so the total stays right.
    if (this.#finishLine()) this.#nextLine();
    return newline + 1;
  }

  /** Adds a formatted line to the page; false (and the page stops) when it does not fit. */
  #pushLine(shown: string): boolean {
    if (this.#characters + shown.length + 1 > this.#request.maxCharacters - PAGE_RESERVE && this.#lines.length > 0) {
      this.#stop({ type: 'limit', line: this.#lineNumber }, 'count');
      return false;
    }
    this.#lines.push(shown);
    this.#characters += shown.length + 1;
    return true;
  }

  /** Moves on past a line shown; the page stops at `endLine`. */
  #nextLine(): void {
    this.#lineNumber += 1;
    if (this.#lineNumber > this.#request.endLine) this.#stop({ type: 'end-line' }, 'count');
  }

  /** Adds bytes of the line being assembled: its first ones are kept to be shown, the rest only counted. */
  #append(bytes: Buffer): void {
    this.#lineHasContent = this.#lineHasContent || bytes.length > 0;
    const room = this.#headLimitBytes - this.#headBytes;
    const kept = room > 0 ? bytes.subarray(0, room) : bytes.subarray(0, 0);
    if (kept.includes(0)) return this.#stop({ type: 'binary', line: this.#lineNumber }, 'stopped');
    if (kept.length > 0) {
      // Borrowed from the chunk; {@link take} copies it if the line goes on past the chunk.
      this.#headParts.push(kept);
      this.#headBytes += kept.length;
    }
    const rest = bytes.subarray(kept.length);
    if (rest.length > 0) {
      this.#restBytes += rest.length;
      this.#restCharacters += countUtf8Characters(rest);
      if (this.#restBytes > LONG_LINE_LIMIT_BYTES) this.#stop({ type: 'long-line', line: this.#lineNumber }, 'stopped');
    }
  }

  /** Formats the assembled line; false when it did not fit (or could not be decoded). */
  #finishLine(): boolean {
    const { maxLineLength } = this.#request;
    const lineNumber = this.#lineNumber;
    let bytes = this.#headParts.length === 1 ? this.#headParts[0]! : Buffer.concat(this.#headParts);
    const wasCut = this.#restBytes > 0;
    if (wasCut) bytes = trimToCharacterBoundary(bytes);
    let text: string;
    try {
      text = this.#decoder.decode(bytes);
    } catch {
      this.#stop({ type: 'not-utf8', line: lineNumber }, 'stopped');
      return false;
    }
    text = withoutByteOrderMark(text, lineNumber);
    if (!wasCut && text.endsWith('\r')) text = text.slice(0, -1);
    let restOfLine = this.#restCharacters;
    if (wasCut && restOfLine > 0 && this.#lastByteWasCarriageReturn) restOfLine -= 1;
    if (wasCut || text.length > maxLineLength) this.#cutLines += 1;
    if (!this.#pushLine(`${lineNumber}: ${cutLine(text, maxLineLength, wasCut ? restOfLine : 0)}`)) return false;
    this.#headParts = [];
    this.#headBytes = 0;
    this.#restBytes = 0;
    this.#restCharacters = 0;
    this.#lineHasContent = false;
    return true;
  }

  #stop(reason: PageEnd, nextPhase: 'count' | 'stopped'): void {
    this.#end = reason;
    this.#phase = nextPhase;
  }
}

/** Line 1's text without a UTF-8 byte order mark, which is not shown. */
function withoutByteOrderMark(text: string, lineNumber: number): string {
  return lineNumber === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
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
