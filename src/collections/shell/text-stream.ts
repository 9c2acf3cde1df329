import { isAscii } from 'node:buffer';
import { TextDecoder } from 'node:util';
import stripAnsi from 'strip-ansi';

/** An escape sequence longer than this is not held back waiting for its end (OSC links are long). */
const MAX_HELD_ESCAPE = 512;

/**
 * Turns one stream's bytes into clean text as they arrive: UTF-8 decoded with characters
 * split across chunks kept whole, ANSI and terminal escapes removed even when a sequence is
 * split across chunks, and `\r\n` made `\n`.
 */
export class CleanTextStream {
  /** Made at the first chunk that needs it; one made after plain chunks keeps a BOM, which is then mid-stream. */
  #decoder: TextDecoder | undefined;
  #passedPlain = false;
  #held = '';
  /** The decoder may be holding the first bytes of a character split across chunks. */
  #decoderMayHold = false;

  /** The clean text of `chunk`; may hold back a few characters until the next chunk. */
  write(chunk: Uint8Array): string {
    const plain = this.takePlain(chunk);
    if (plain !== undefined) return plain.toString('latin1');
    // A chunk that ends in an ASCII byte leaves no character half-decoded.
    if (chunk.length > 0) this.#decoderMayHold = chunk[chunk.length - 1]! >= 0x80;
    this.#decoder ??= new TextDecoder('utf-8', { ignoreBOM: this.#passedPlain });
    return this.#clean(this.#held + this.#decoder.decode(chunk, { stream: true }), false);
  }

  /**
   * The chunk itself, taken as read, when it is plain: ASCII without escapes or carriage
   * returns, with nothing held back from the chunk before. Its text is then its bytes, one
   * character each, and needs neither decoding nor cleaning. Undefined, taking nothing, for
   * any other chunk: pass that one to {@link write}.
   *
   * Most floods are plain: three native scans prove it, where profiling a 1 GB flood put UTF-8
   * decoding and the escape scan at two thirds of its time.
   */
  takePlain(chunk: Uint8Array): Buffer | undefined {
    if (this.#held !== '' || this.#decoderMayHold || !isAscii(chunk)) return undefined;
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (bytes.indexOf(ESCAPE_BYTE) !== -1 || bytes.indexOf(CARRIAGE_RETURN_BYTE) !== -1) return undefined;
    this.#passedPlain ||= bytes.length > 0;
    return bytes;
  }

  /** Whatever was held back, at the end of the stream. */
  end(): string {
    return this.#clean(this.#held + (this.#decoder?.decode() ?? ''), true);
  }

  #clean(text: string, final: boolean): string {
    this.#held = '';
    // One scan decides whether there is anything to do: most output has no escapes or CRs.
    if (!SPECIAL.test(text)) return text;
    const hasEscape = text.includes('\u001b') || text.includes('\u009b');
    if (!final) {
      const escape = hasEscape ? Math.max(text.lastIndexOf('\u001b'), text.lastIndexOf('\u009b')) : -1;
      if (escape !== -1 && text.length - escape < MAX_HELD_ESCAPE) {
        const rest = text.slice(escape);
        // Held only while it is not a complete sequence yet.
        if (stripAnsi(rest) === rest) {
          this.#held = rest;
          text = text.slice(0, escape);
        }
      }
      if (this.#held === '' && text.endsWith('\r')) {
        this.#held = '\r';
        text = text.slice(0, -1);
      }
    }
    const stripped = hasEscape ? stripAnsi(text) : text;
    return stripped.includes('\r\n') ? stripped.replaceAll('\r\n', '\n') : stripped;
  }
}

/** Characters that need cleaning: escapes (7- and 8-bit) and carriage returns. */
const SPECIAL = /[\u001b\u009b\r]/;
/** ESC and CR as bytes; the 8-bit CSI (U+009B) is two bytes in UTF-8, so never in an ASCII chunk. */
const ESCAPE_BYTE = 0x1b;
const CARRIAGE_RETURN_BYTE = 0x0d;
const LINE_FEED_BYTE = 0x0a;

/**
 * Cuts lines longer than a limit as text streams through, ending each cut line with a marker
 * that says how much was left out. Keeps no more than the current line's length in memory.
 */
export class LineCapper {
  readonly #maxLine: number;
  #lineLength = 0;
  /** Characters left out of long lines so far. */
  cutCharacters = 0;
  /** Lines that were cut. */
  cutLines = 0;

  constructor(maxLineCharacters: number) {
    this.#maxLine = maxLineCharacters;
  }

  write(text: string): string {
    // Jumps from line break to line break while lines fit, and copies only around cuts, so
    // the usual case (no long line) costs a few scans and returns the text as it is.
    let output = '';
    let copied = 0;
    let changed = false;
    let start = 0;
    while (start < text.length) {
      if (this.#lineLength <= this.#maxLine) {
        const room = this.#maxLine - this.#lineLength;
        const jump = text.lastIndexOf('\n', start + room);
        if (jump >= start) {
          this.#lineLength = 0;
          start = jump + 1;
          continue;
        }
        const rest = text.length - start;
        if (rest <= room) {
          this.#lineLength += rest;
          break;
        }
        output += text.slice(copied, start + room);
        changed = true;
        start += room;
        copied = start;
        this.#lineLength = this.#maxLine;
      }
      // Past the limit: drop up to the line break, which ends the line with a marker.
      const newline = text.indexOf('\n', start);
      const end = newline === -1 ? text.length : newline;
      this.#lineLength += end - start;
      copied = end;
      changed = true;
      if (newline === -1) break;
      output += this.#closeLine();
      start = newline + 1;
    }
    return changed ? output + text.slice(copied) : text;
  }

  /**
   * For plain bytes (one ASCII character each, see {@link CleanTextStream.takePlain}): true,
   * taking them in, when no line reaches past the limit, so they pass unchanged; false, taking
   * nothing, when they need cutting: pass their text to {@link write} then.
   */
  acceptsUncut(bytes: Buffer): boolean {
    let lineLength = this.#lineLength;
    if (lineLength > this.#maxLine) return false;
    let start = 0;
    while (start < bytes.length) {
      const room = this.#maxLine - lineLength;
      const jump = bytes.lastIndexOf(LINE_FEED_BYTE, start + room);
      if (jump >= start) {
        lineLength = 0;
        start = jump + 1;
        continue;
      }
      if (bytes.length - start > room) return false;
      lineLength += bytes.length - start;
      break;
    }
    this.#lineLength = lineLength;
    return true;
  }

  end(): string {
    return this.#closeLine();
  }

  #closeLine(): string {
    const over = this.#lineLength - this.#maxLine;
    this.#lineLength = 0;
    if (over <= 0) return '';
    this.cutCharacters += over;
    this.cutLines += 1;
    return ` … [${over.toLocaleString('en-US')} more characters on this line]`;
  }
}

/**
 * Keeps only the lines that match a regular expression, counting kept and total lines.
 * Holds at most one (already capped) line in memory.
 */
export class LineFilter {
  readonly #pattern: RegExp;
  #partial = '';
  totalLines = 0;
  keptLines = 0;

  constructor(pattern: RegExp) {
    this.#pattern = pattern;
  }

  write(text: string): string {
    let output = '';
    let start = 0;
    for (;;) {
      const newline = text.indexOf('\n', start);
      if (newline === -1) break;
      output += this.#line(this.#partial + text.slice(start, newline), '\n');
      this.#partial = '';
      start = newline + 1;
    }
    this.#partial += text.slice(start);
    return output;
  }

  end(): string {
    if (this.#partial === '') return '';
    const line = this.#partial;
    this.#partial = '';
    return this.#line(line, '');
  }

  #line(line: string, ending: string): string {
    this.totalLines += 1;
    this.#pattern.lastIndex = 0;
    if (!this.#pattern.test(line)) return '';
    this.keptLines += 1;
    return line + ending;
  }
}

/**
 * Output on its way to the reply: text, or plain bytes that stand for their text (ASCII, one
 * character per byte; see {@link CleanTextStream.takePlain}), kept as bytes so the middle of a
 * flood, which the reply drops, is never made into strings.
 */
export type OutputPiece = string | Buffer;

/** `piece` from `start` to `end`, without copying bytes. */
function slicePiece(piece: OutputPiece, start: number, end?: number): OutputPiece {
  return typeof piece === 'string' ? piece.slice(start, end) : piece.subarray(start, end);
}

/** The text of a piece. */
export function pieceText(piece: OutputPiece): string {
  return typeof piece === 'string' ? piece : piece.toString('latin1');
}

/**
 * The first and last characters of a text of any length, in bounded memory: the head up to
 * `headCharacters`, then a tail that drops its oldest characters beyond `tailCharacters`,
 * counting what fell out between them.
 */
export class HeadTailWindow {
  readonly #headMax: number;
  readonly #tailMax: number;
  #head = '';
  #tail: OutputPiece[] = [];
  #tailLength = 0;
  /** Characters dropped between head and tail. */
  omittedCharacters = 0;
  /** Line breaks among the dropped characters. */
  omittedLines = 0;
  totalCharacters = 0;

  constructor(headCharacters: number, tailCharacters: number) {
    this.#headMax = headCharacters;
    this.#tailMax = tailCharacters;
  }

  write(piece: OutputPiece): void {
    if (piece.length === 0) return;
    this.totalCharacters += piece.length;
    if (this.#head.length < this.#headMax) {
      const room = this.#headMax - this.#head.length;
      this.#head += pieceText(slicePiece(piece, 0, room));
      if (piece.length <= room) return;
      piece = slicePiece(piece, room);
    }
    if (piece.length >= this.#tailMax) {
      for (const kept of this.#tail) this.#drop(kept);
      this.#drop(slicePiece(piece, 0, piece.length - this.#tailMax));
      this.#tail = [slicePiece(piece, piece.length - this.#tailMax)];
      this.#tailLength = this.#tailMax;
      return;
    }
    this.#tail.push(piece);
    this.#tailLength += piece.length;
    while (this.#tailLength > this.#tailMax) {
      const first = this.#tail[0]!;
      const excess = this.#tailLength - this.#tailMax;
      if (first.length <= excess) {
        this.#tail.shift();
        this.#drop(first);
        this.#tailLength -= first.length;
      } else {
        this.#drop(slicePiece(first, 0, excess));
        this.#tail[0] = slicePiece(first, excess);
        this.#tailLength -= excess;
      }
    }
  }

  get head(): string {
    return this.#head;
  }

  get tail(): string {
    if (this.#tail.length > 1 || typeof this.#tail[0] !== 'string') this.#tail = [this.#tail.map(pieceText).join('')];
    return this.#tail[0] as string;
  }

  #drop(piece: OutputPiece): void {
    this.omittedCharacters += piece.length;
    this.omittedLines += typeof piece === 'string' ? countLineBreaks(piece) : countByteLineBreaks(piece);
  }
}

/** The number of line feeds in `bytes`. */
function countByteLineBreaks(bytes: Buffer): number {
  let count = 0;
  for (let index = bytes.indexOf(LINE_FEED_BYTE); index !== -1; index = bytes.indexOf(LINE_FEED_BYTE, index + 1)) count += 1;
  return count;
}

/** The number of `\n` in `text`. */
export function countLineBreaks(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}
