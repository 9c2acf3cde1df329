/**
 * Line endings of text files: which one a file mostly uses, and a view of CRLF text as LF
 * text whose offsets map back, so an LF search string finds its place in a CRLF file and
 * every line outside the match keeps the ending it had.
 */

/** The two line endings files use in practice. */
export type LineEnding = '\n' | '\r\n';

/**
 * The line ending most lines of `text` end with: CRLF when more lines end with `\r\n` than
 * with a lone `\n`, otherwise LF (also for text without line breaks).
 */
export function prevailingLineEnding(text: string): LineEnding {
  let crlf = 0;
  let lf = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    if (index > 0 && text.charCodeAt(index - 1) === 13) crlf += 1;
    else lf += 1;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** `text` with every line break (`\r\n` or `\n`) written as `ending`. A lone `\r` is left alone. */
export function withLineEnding(text: string, ending: LineEnding): string {
  const lf = text.replaceAll('\r\n', '\n');
  return ending === '\n' ? lf : lf.replaceAll('\n', '\r\n');
}

/** Text with its CRLF pairs turned into LF, and the way back to offsets in the original. */
export interface LfView {
  /** The text with every `\r\n` as `\n`. */
  readonly text: string;
  /** The offset in the original text of an offset in {@link LfView.text}. */
  toOriginal(offset: number): number;
}

/** An LF view of `original`; cheap when the text has no CRLF at all. */
export function lfView(original: string): LfView {
  // Offsets (in the LF text) of each `\n` that was a `\r\n`, ascending.
  const crlfAt: number[] = [];
  let removed = 0;
  for (let index = original.indexOf('\r\n'); index !== -1; index = original.indexOf('\r\n', index + 2)) {
    crlfAt.push(index - removed);
    removed += 1;
  }
  if (crlfAt.length === 0) return { text: original, toOriginal: (offset) => offset };
  return {
    text: original.replaceAll('\r\n', '\n'),
    // Every `\r` removed before `offset` shifts it by one; a match that starts or ends at a
    // `\n` that was `\r\n` therefore takes in (or leaves out) the `\r` with it.
    toOriginal: (offset) => offset + countBelow(crlfAt, offset),
  };
}

/** How many values of the ascending `sorted` are below `limit` (a binary search). */
export function countBelow(sorted: ArrayLike<number>, limit: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < limit) low = middle + 1;
    else high = middle;
  }
  return low;
}
