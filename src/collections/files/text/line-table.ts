import { countLineBreaks } from './line-scan.js';
import type { TimeSlicer } from '../../../time-slice.js';

/**
 * The lines of two texts as numbers, equal lines alike, without making a string per line: each
 * side's line starts, and each line's id from a hash table over the texts themselves. Interning
 * line strings in a `Map` cost about a microsecond a line, made garbage the collector then held
 * the event loop for, and rehashed 262,144 entries at once (30–45 ms) in a 10 MB rewrite.
 */
export class LineTable {
  private constructor(
    /** Where each old line starts, then the old text's length: line `i` is `oldStarts[i] … oldStarts[i + 1]`, with its break. */
    readonly oldStarts: Int32Array,
    readonly newStarts: Int32Array,
    readonly oldIds: Int32Array,
    readonly newIds: Int32Array,
    /** How many different lines there are; ids run from 0. */
    readonly distinct: number,
  ) {}

  /** Interns the lines of both texts, in time slices. */
  static async build(oldText: string, newText: string, slicer: TimeSlicer): Promise<LineTable> {
    const oldStarts = await lineStarts(oldText, slicer);
    const newStarts = await lineStarts(newText, slicer);
    const oldCount = oldStarts.length - 1;
    const newCount = newStarts.length - 1;
    // Open addressing, at most half full: slot holds id + 1 (0 is empty).
    let size = 16;
    while (size < 2 * (oldCount + newCount)) size *= 2;
    const slots = new Int32Array(size);
    const slotHashes = new Int32Array(size);
    // Where each id's first line is: which text, and its start and end.
    const firstSide = new Uint8Array(oldCount + newCount);
    const firstStart = new Int32Array(oldCount + newCount);
    const firstEnd = new Int32Array(oldCount + newCount);
    const texts = [oldText, newText] as const;
    let distinct = 0;
    const intern = async (side: 0 | 1, starts: Int32Array): Promise<Int32Array> => {
      const text = texts[side];
      const ids = new Int32Array(starts.length - 1);
      for (let line = 0; line < ids.length; line += 1) {
        const start = starts[line]!;
        const end = starts[line + 1]!;
        // A long line (minified code, a 4 MB line of one edit) is hashed from its length and a
        // sample of its characters: the hash only picks the slot, equality is always checked.
        // Its first and last characters are always taken: lines that differ at either end hash apart.
        const step = end - start > LONG_LINE ? Math.floor((end - start) / LONG_LINE) : 1;
        let hash = Math.imul(0x811c9dc5 ^ (end - start), 0x01000193);
        for (let index = start; index < end; index += step) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
        if (step > 1) {
          for (let index = start; index < start + LINE_ENDS; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
          for (let index = end - LINE_ENDS; index < end; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
        }
        let slot = hash & (size - 1);
        for (;;) {
          const held = slots[slot]!;
          if (held === 0) {
            slots[slot] = distinct + 1;
            slotHashes[slot] = hash;
            firstSide[distinct] = side;
            firstStart[distinct] = start;
            firstEnd[distinct] = end;
            ids[line] = distinct;
            distinct += 1;
            break;
          }
          const id = held - 1;
          if (slotHashes[slot] === hash && sameText(texts[firstSide[id]!], firstStart[id]!, firstEnd[id]!, text, start, end)) {
            ids[line] = id;
            break;
          }
          slot = (slot + 1) & (size - 1);
        }
        if (slicer.due()) await slicer.pause();
      }
      return ids;
    };
    const oldIds = await intern(0, oldStarts);
    const newIds = await intern(1, newStarts);
    return new LineTable(oldStarts, newStarts, oldIds, newIds, distinct);
  }
}

/** Characters of a line hashed whole; a longer line is hashed from this many of them, spread along it. */
const LONG_LINE = 1_024;
/** Characters at each end of a long line that its hash always includes. */
const LINE_ENDS = 128;

/** Where each line of `text` starts, then `text.length`: the `diff` package's line tokens, each with its break. */
async function lineStarts(text: string, slicer: TimeSlicer): Promise<Int32Array> {
  const breaks = await countLineBreaks(text, 0, text.length, slicer);
  const lines = breaks + (text.length > 0 && !text.endsWith('\n') ? 1 : 0);
  const starts = new Int32Array(lines + 1);
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && line <= lines; index = text.indexOf('\n', index + 1)) {
    starts[line] = index + 1;
    line += 1;
    if (slicer.due()) await slicer.pause();
  }
  starts[lines] = text.length;
  return starts;
}

/** Whether `a.slice(aStart, aEnd)` and `b.slice(bStart, bEnd)` are the same text, without making either. */
function sameText(a: string, aStart: number, aEnd: number, b: string, bStart: number, bEnd: number): boolean {
  if (aEnd - aStart !== bEnd - bStart) return false;
  // Long lines are compared natively (the slices are views, not copies).
  if (aEnd - aStart > 256) return a.slice(aStart, aEnd) === b.slice(bStart, bEnd);
  for (let offset = 0; offset < aEnd - aStart; offset += 1) {
    if (a.charCodeAt(aStart + offset) !== b.charCodeAt(bStart + offset)) return false;
  }
  return true;
}
