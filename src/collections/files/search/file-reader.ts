/**
 * How the search threads read one file in disk mode, with synchronous calls (they block only
 * the thread that makes them): open without following a link, read it whole into a buffer
 * kept for the next file, and say what it is. Text is returned as bytes, so the byte
 * prefilter (`prefilter.ts`) can pass over a file without decoding it. Used by the
 * search worker, which matches, and by its walker thread, which screens files ahead of it.
 */
import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import { releaseScanArena, scanArena } from './literal-scan.js';
import type { FileVerdict } from './protocol.js';
import { BINARY_SIGNATURES, BINARY_SNIFF_BYTES } from '../text/text.js';

/** Bytes of the first read; most files fit in it, and a short read is their end, so they cost one read and no stat. */
export const FIRST_READ_BYTES = 1024 * 1024;
/**
 * Files up to this size are read whole (one buffer, one UTF-8 check, one prefilter pass);
 * larger ones, when the size cap allows them, in {@link FIRST_READ_BYTES} chunks.
 */
export const WHOLE_FILE_BYTES = 16 * 1024 * 1024;

const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/** What reading a file gave. */
export type ReadOutcome =
  /** Not searched: binary, not UTF-8, over the size cap or unreadable. */
  | { readonly type: 'passed-over'; readonly verdict: Exclude<FileVerdict, 'text'> }
  /** The whole file: valid UTF-8 without a NUL byte, byte order mark included. Valid until the next read. */
  | { readonly type: 'text'; readonly bytes: Buffer }
  /**
   * Larger than {@link WHOLE_FILE_BYTES}: its first chunk (no NUL, not a binary format), with
   * the file left open at `fd` for the caller to read on from `first.length` and close.
   */
  | { readonly type: 'large'; readonly fd: number; readonly first: Buffer };

/**
 * The buffers one thread reads into, kept from file to file: fresh ones per file would keep the
 * garbage collector busy. They lie in the thread's scan arena (`literal-scan.ts`), where the
 * caseless literal scan reads them in place, or, without WebAssembly SIMD, on the heap.
 */
export class SearchFileReader {
  #heapFirst: Buffer | undefined;
  /** Grown to the largest file read whole so far (without an arena). */
  #heapWhole: Buffer | undefined;

  /** Lets go of the buffer for whole files (up to {@link WHOLE_FILE_BYTES}) between searches, so an idle thread holds 1 MB. */
  releaseWholeBuffer(): void {
    this.#heapWhole = undefined;
    releaseScanArena();
  }

  /** The buffer for chunks of a `large` file, once its first chunk has been handled. */
  get chunkBuffer(): Buffer {
    return this.#first;
  }

  /** The first read's buffer, {@link FIRST_READ_BYTES} long. */
  get #first(): Buffer {
    // The thread's arena, asked each time: it is made again after a release.
    const arena = scanArena();
    if (arena !== undefined) return arena.first;
    this.#heapFirst ??= Buffer.allocUnsafe(FIRST_READ_BYTES);
    return this.#heapFirst;
  }

  /** A buffer of at least `bytes` for a whole file; with an arena, taking it may detach the first read's. */
  #whole(bytes: number): Buffer {
    const arena = scanArena();
    if (arena !== undefined) return arena.whole(bytes);
    if (this.#heapWhole === undefined || this.#heapWhole.length < bytes) this.#heapWhole = Buffer.allocUnsafe(bytes);
    return this.#heapWhole;
  }

  /** Reads the file at `absolute` (not following a link) and says what it is. Never throws for a file system error. */
  read(absolute: string, maxFileBytes: number): ReadOutcome {
    let fd: number;
    try {
      fd = fs.openSync(absolute, OPEN_FLAGS);
    } catch {
      return passedOver('unreadable');
    }
    let keepOpen = false;
    try {
      const first = this.#first;
      const filled = fs.readSync(fd, first, 0, first.length, 0);
      if (filled < first.length) {
        if (filled > maxFileBytes) return passedOver('too-large');
        return screen(first.subarray(0, filled));
      }
      const size = fs.fstatSync(fd).size;
      if (size > maxFileBytes) return passedOver('too-large');
      const head = describe(first);
      if (head !== undefined) return passedOver(head);
      if (first.includes(0)) return passedOver('binary');
      if (size >= WHOLE_FILE_BYTES) {
        keepOpen = true;
        return { type: 'large', fd, first };
      }
      // One byte more than the size, to see a file that grew since the stat.
      const whole = this.#whole(Math.min(WHOLE_FILE_BYTES, Math.max(size + 1, 2 * FIRST_READ_BYTES)));
      // Taken again: growing the arena for `whole` detached the first read's view.
      this.#first.copy(whole, 0, 0, filled);
      let total = filled;
      while (total < whole.length) {
        const read = fs.readSync(fd, whole, total, whole.length - total, total);
        if (read === 0) break;
        total += read;
      }
      if (total > maxFileBytes || total === whole.length) return passedOver('too-large');
      return screen(whole.subarray(0, total));
    } catch {
      return passedOver('unreadable');
    } finally {
      if (!keepOpen) fs.closeSync(fd);
    }
  }
}

function passedOver(verdict: Exclude<FileVerdict, 'text'>): ReadOutcome {
  return { type: 'passed-over', verdict };
}

/** A whole file's verdict: binary (a known format or a NUL anywhere), not UTF-8, or text. */
function screen(bytes: Buffer): ReadOutcome {
  const head = describe(bytes);
  if (head !== undefined) return passedOver(head);
  if (bytes.includes(0)) return passedOver('binary');
  if (!isUtf8(bytes)) return passedOver('not-utf8');
  return { type: 'text', bytes };
}

/** What a file's first bytes say it is when they are not UTF-8 text: a binary format, UTF-16 (by its byte order mark) or binary data. */
export function describe(head: Buffer): Exclude<FileVerdict, 'text'> | undefined {
  for (const signature of BINARY_SIGNATURES) {
    const offset = signature.offset ?? 0;
    if (head.length >= offset + signature.bytes.length && signature.bytes.every((byte, index) => head[offset + index] === byte)) return 'binary';
  }
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) return 'not-utf8';
  if (head.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return 'binary';
  return undefined;
}
