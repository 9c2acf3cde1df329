/**
 * Scans over the lines of a whole file's text that run in time slices. A loop of `indexOf`
 * calls is the fastest way through text with long lines, but costs about 40 ns a line, so 10 MB
 * of short lines held the event loop 350 ms when counted in one go.
 */
import type { LineEnding } from './line-endings.js';
import type { TimeSlicer } from './time-slice.js';

/** The `\n` characters of `text` from `from` (inclusive) to `to` (exclusive). */
export async function countLineBreaks(text: string, from: number, to: number, slicer: TimeSlicer): Promise<number> {
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
export async function prevailingLineEndingOf(text: string, slicer: TimeSlicer): Promise<LineEnding> {
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
