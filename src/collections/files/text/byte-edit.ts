/**
 * `edit_file`'s replacement worked on the file's UTF-8 bytes, never decoded whole: for an
 * `old_string` without line breaks (the common edit), a match in the bytes is a match in the
 * text (UTF-8 is self-synchronizing, so valid bytes of `old_string` only ever line up with
 * whole characters), and the new bytes are the old ones with the replacements put in. Decoding
 * a 330 KB file, building the new text and encoding it cost three large allocations; one
 * replacement here costs one (the new bytes), and every occurrence costs one-byte strings the
 * size of the file (latin1 copies, see {@link replaceExactBytes}), far cheaper than UTF-8 work.
 *
 * The summary of the edit ({@link summarizeEdit}) reads both sides through {@link ByteText}:
 * offsets are bytes, and only the lines it shows are decoded.
 */
import { firstAtOrAbove, prevailingLineEndingOf, type TextSource } from './line-scan.js';
import { withLineEnding } from './line-endings.js';
import { replaceInWindows, REPLACE_ALL_WINDOW, SpanList, type EditSpans } from './edit-text.js';
import { TimeSlicer } from '../../../time-slice.js';
import { lineBreaksOf, replaceEveryMatch } from './byte-kernels.js';

/** UTF-8 bytes read as a {@link TextSource}: offsets are byte offsets, and `slice` decodes only what it is asked for. */
export class ByteText implements TextSource {
  readonly #bytes: Buffer;
  /** Where each `\n` is, found in one pass when first asked for (`lineBreaksOf`); `null` where that cannot run. */
  #breaks: Int32Array | null | undefined;
  /** The index in `#breaks` of the last line break answered: the next question most often asks for the one after. */
  #cursor = 0;

  constructor(bytes: Uint8Array) {
    this.#bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get length(): number {
    return this.#bytes.length;
  }

  indexOf(search: string, from = 0): number {
    const start = Math.max(0, from);
    if (search === '\n') {
      const breaks = this.#lineBreaks();
      if (breaks !== null) return this.#breakFrom(breaks, start);
    }
    if (search.length === 1 && search.charCodeAt(0) < 0x80) {
      // Lines are short: a few bytes looked at here cost less than a call into the native search.
      const wanted = search.charCodeAt(0);
      const bytes = this.#bytes;
      const near = Math.min(bytes.length, start + 128);
      for (let index = start; index < near; index += 1) if (bytes[index] === wanted) return index;
      return near === bytes.length ? -1 : bytes.indexOf(wanted, near);
    }
    return start > this.#bytes.length ? -1 : this.#bytes.indexOf(search, start, 'utf8');
  }

  /** Where each `\n` is, ascending, found in one pass when first asked for; `undefined` where that cannot run (see byte-kernels.ts). */
  lineBreakIndex(): Int32Array | undefined {
    return this.#lineBreaks() ?? undefined;
  }

  lastIndexOf(search: string, from = Infinity): number {
    if (from < 0) return this.#bytes.lastIndexOf(search, 0, 'utf8') === 0 ? 0 : -1;
    return this.#bytes.lastIndexOf(search, Math.min(from, this.#bytes.length), 'utf8');
  }

  slice(start: number, end = this.#bytes.length): string {
    return this.#bytes.toString('utf8', Math.max(0, start), Math.min(end, this.#bytes.length));
  }

  endsWith(search: string): boolean {
    const tail = Buffer.from(search, 'utf8');
    return tail.length <= this.#bytes.length && this.#bytes.subarray(this.#bytes.length - tail.length).equals(tail);
  }

  #lineBreaks(): Int32Array | null {
    this.#breaks ??= lineBreaksOf(this.#bytes) ?? null;
    return this.#breaks;
  }

  /** The first line break at or after `from`, or -1: a few steps on from the last answer, else halving. */
  #breakFrom(breaks: Int32Array, from: number): number {
    let index = this.#cursor;
    if (index > 0 && breaks[index - 1]! >= from) index = firstAtOrAbove(breaks, from, 0, index);
    else {
      for (let steps = 0; index < breaks.length && breaks[index]! < from; steps += 1) {
        if (steps === 8) {
          index = firstAtOrAbove(breaks, from, index, breaks.length);
          break;
        }
        index += 1;
      }
    }
    this.#cursor = index;
    return index < breaks.length ? breaks[index]! : -1;
  }
}

/**
 * The largest body edited here. The summary decodes the lines it diffs and shows in one
 * synchronous step each, and a line can be the whole file: up to 1 MiB that costs a few
 * milliseconds, as one piece of `decodeTextFile` does; larger files take the text path, whose
 * decoding runs in time slices.
 */
export const MAX_BYTE_EDIT_BYTES = 1024 * 1024;

/** What {@link replaceExactBytes} did; `undefined` from it means the text path must do the edit. */
export type ByteEditOutcome =
  | {
      readonly type: 'edited';
      /** The whole new file: the prefix, then the new body. */
      readonly bytes: Buffer;
      /** The new body alone, which the spans' offsets are in. */
      readonly body: Buffer;
      readonly replacements: number;
      readonly spans: EditSpans;
    }
  | { readonly type: 'ambiguous'; readonly occurrences: number };

/**
 * Replaces `oldString` in the UTF-8 `body` (a file's bytes after any byte order mark) as
 * {@link replaceExactText} would in its decoded text, with spans as byte offsets. Returns
 * `undefined` when the bytes cannot answer alone: `oldString` holds a line break (it must
 * match CRLF as LF, through the text's LF view) or is not there (the miss is salvaged from the
 * text), or `body` is above {@link MAX_BYTE_EDIT_BYTES}. The matches are found natively and the
 * new bytes copied in one buffer, in time slices.
 */
export async function replaceExactBytes(
  body: Uint8Array,
  oldString: string,
  newString: string,
  options: {
    readonly replaceAll: boolean;
    /** Bytes written before the new body (a byte order mark). */
    readonly prefix?: Uint8Array;
    /** Bytes rewritten between two looks at the clock: {@link REPLACE_ALL_WINDOW}, smaller in tests. */
    readonly windowBytes?: number;
  },
  slicer = new TimeSlicer(),
): Promise<ByteEditOutcome | undefined> {
  const { replaceAll, prefix = new Uint8Array(0), windowBytes = REPLACE_ALL_WINDOW } = options;
  if (body.length > MAX_BYTE_EDIT_BYTES || oldString.includes('\n') || oldString.includes('\r')) return undefined;
  const source = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const needle = Buffer.from(oldString, 'utf8');
  const first = source.indexOf(needle);
  if (first === -1) return undefined;
  if (!replaceAll && source.indexOf(needle, first + needle.length) !== -1) {
    let occurrences = 0;
    for (let index = first; index !== -1; index = source.indexOf(needle, index + needle.length)) {
      occurrences += 1;
      if (slicer.due()) await slicer.pause();
    }
    return { type: 'ambiguous', occurrences };
  }
  const replacement = Buffer.from(newString.includes('\n') ? withLineEnding(newString, await prevailingLineEndingOf(new ByteText(source), slicer)) : newString, 'utf8');
  const spans = new SpanList(replacement.length, needle.length);
  if (!replaceAll) {
    spans.pushStart(first);
    const bytes = Buffer.concat([prefix, source.subarray(0, first), replacement, source.subarray(first + needle.length)]);
    return { type: 'edited', bytes, body: bytes.subarray(prefix.length), replacements: 1, spans };
  }
  // Every occurrence found and replaced in one call of the WebAssembly kernels, when they run here.
  const kernel = replaceEveryMatch(source, needle, replacement, prefix);
  if (kernel !== undefined) {
    spans.pushStarts(kernel.starts);
    return { type: 'edited', bytes: kernel.bytes, body: kernel.bytes.subarray(prefix.length), replacements: spans.count, spans };
  }
  // Otherwise on the bytes read as latin1: a character a byte, so a match there is a match of
  // the bytes, at the same offset, and the text path's native windows serve here too. The
  // same work done byte by byte in JavaScript cost 4–5 ms on 10,000 replacements until the
  // JIT had seen a few hundred edits.
  const rewritten = await replaceInWindows(source.toString('latin1'), needle.toString('latin1'), replacement.toString('latin1'), spans, slicer, windowBytes);
  const bytes = Buffer.allocUnsafe(prefix.length + source.length + spans.count * (replacement.length - needle.length));
  bytes.set(prefix, 0);
  let written = prefix.length;
  for (const piece of rewritten) written += bytes.write(piece, written, 'latin1');
  return { type: 'edited', bytes, body: bytes.subarray(prefix.length), replacements: spans.count, spans };
}
