/**
 * Scans over the lines of a whole file's text that run in time slices. A loop of `indexOf`
 * calls is the fastest way through text with long lines, but costs about 40 ns a line, so 10 MB
 * of short lines held the event loop 350 ms when counted in one go.
 */
import { countBelow, type LfView, type LineEnding } from './line-endings.js';
import type { TimeSlicer } from '../../../time-slice.js';

/**
 * What the line scans read of a text: a string, or a file's bytes read as one (`ByteText` in
 * byte-edit.ts, whose offsets are bytes). A JavaScript string is one as it is.
 */
export interface TextSource {
  readonly length: number;
  indexOf(search: string, from?: number): number;
  lastIndexOf(search: string, from?: number): number;
  slice(start: number, end?: number): string;
  endsWith(search: string): boolean;
  /** Where each `\n` is, ascending, when the source keeps an index of them (`ByteText` does where WebAssembly runs). */
  lineBreakIndex?(): Int32Array | undefined;
}

/** The first index in `low … high - 1` of the ascending `values` whose value is at least `value`, or `high`. */
export function firstAtOrAbove(values: Int32Array, value: number, low = 0, high = values.length): number {
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The `\n` characters of `text` from `from` (inclusive) to `to` (exclusive). */
export async function countLineBreaks(text: TextSource, from: number, to: number, slicer: TimeSlicer): Promise<number> {
  const breaks = text.lineBreakIndex?.();
  if (breaks !== undefined) return to <= from ? 0 : firstAtOrAbove(breaks, to) - firstAtOrAbove(breaks, from);
  let count = 0;
  for (let index = text.indexOf('\n', from); index !== -1 && index < to; index = text.indexOf('\n', index + 1)) {
    count += 1;
    if (slicer.due()) await slicer.pause();
  }
  return count;
}

/** How many lines `text` holds, as `countLines` in text.ts counts them: a last line without a break counts, an empty text has none. */
export async function countTextLines(text: string, slicer: TimeSlicer): Promise<number> {
  if (text === '') return 0;
  return (await countLineBreaks(text, 0, text.length, slicer)) + (text.endsWith('\n') ? 0 : 1);
}

/** The line ending most lines of `text` end with, as `prevailingLineEnding` in line-endings.ts decides it. */
export async function prevailingLineEndingOf(text: TextSource, slicer: TimeSlicer): Promise<LineEnding> {
  // CRLF pairs are found natively; only text that has some needs its lone LFs counted.
  let crlf = 0;
  for (let index = text.indexOf('\r\n'); index !== -1; index = text.indexOf('\r\n', index + 2)) {
    crlf += 1;
    if (slicer.due()) await slicer.pause();
  }
  if (crlf === 0) return '\n';
  const lf = (await countLineBreaks(text, 0, text.length, slicer)) - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

/** Characters one native split and join handle at a time in {@link withLineEndingOf}. */
const REPLACE_WINDOW = 8 * 1024;

/**
 * `text` with every line break written as `ending`, as `withLineEnding` in line-endings.ts
 * writes it, a window at a time: one native `replaceAll` over 3 million CRLF pairs held the
 * event loop about a second, most of it garbage collection. Each window is split and joined
 * rather than `replaceAll`ed, whose results are string ropes that cost 800 ms to join.
 */
export async function withLineEndingOf(text: string, ending: LineEnding, slicer: TimeSlicer): Promise<string> {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + REPLACE_WINDOW);
    // Never cut a CRLF pair in two.
    if (end < text.length && text.charCodeAt(end - 1) === 13) end += 1;
    const lf = text.slice(start, end).split('\r\n').join('\n');
    pieces.push(ending === '\n' ? lf : lf.split('\n').join('\r\n'));
    start = end;
    if (slicer.dueNow()) await slicer.pause();
  }
  return pieces.join('');
}

/** The LF view of `original`, as `lfView` in line-endings.ts makes it, in time slices. */
export async function lfViewOf(original: string, slicer: TimeSlicer): Promise<LfView> {
  let pairs = 0;
  for (let index = original.indexOf('\r\n'); index !== -1; index = original.indexOf('\r\n', index + 2)) {
    pairs += 1;
    if (slicer.due()) await slicer.pause();
  }
  if (pairs === 0) return { text: original, toOriginal: (offset) => offset };
  // Offsets (in the LF text) of each `\n` that was a `\r\n`, ascending.
  const crlfAt = new Int32Array(pairs);
  let removed = 0;
  for (let index = original.indexOf('\r\n'); index !== -1; index = original.indexOf('\r\n', index + 2)) {
    crlfAt[removed] = index - removed;
    removed += 1;
    if (slicer.due()) await slicer.pause();
  }
  return {
    text: await withLineEndingOf(original, '\n', slicer),
    // Every `\r` removed before `offset` shifts it by one (see lfView).
    toOriginal: (offset) => offset + countBelow(crlfAt, offset),
  };
}
