/**
 * Patience diffing's anchors: the lines that occur exactly once on each side, paired across
 * the sides in the longest run that keeps both orders: where a diff too large for Myers can
 * still be cut into stretches that line up.
 */
import type { TimeSlicer } from '../../../time-slice.js';

/**
 * Pairs `[old index, new index]` of lines that occur exactly once on each side, as the
 * longest run that keeps both orders (patience diffing's anchors).
 */
export async function uniqueAnchors(oldIds: Int32Array, newIds: Int32Array, distinct: number, slicer: TimeSlicer): Promise<(readonly [number, number])[]> {
  const oldCount = new Int32Array(distinct);
  const newCount = new Int32Array(distinct);
  const newPosition = new Int32Array(distinct);
  for (let index = 0; index < oldIds.length; index += 1) {
    oldCount[oldIds[index]!]! += 1;
    if (slicer.due()) await slicer.pause();
  }
  for (let index = 0; index < newIds.length; index += 1) {
    if (slicer.due()) await slicer.pause();
    const id = newIds[index]!;
    newCount[id]! += 1;
    newPosition[id] = index;
  }
  const pairs: [number, number][] = [];
  for (let index = 0; index < oldIds.length; index += 1) {
    const id = oldIds[index]!;
    if (oldCount[id] === 1 && newCount[id] === 1) pairs.push([index, newPosition[id]!]);
    if (slicer.due()) await slicer.pause();
  }
  // Longest increasing run of new positions (patience sorting, with links back).
  const tails: number[] = [];
  const previous = new Int32Array(pairs.length);
  for (let index = 0; index < pairs.length; index += 1) {
    if (slicer.due()) await slicer.pause();
    const value = pairs[index]![1];
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (pairs[tails[middle]!]![1] < value) low = middle + 1;
      else high = middle;
    }
    previous[index] = low > 0 ? tails[low - 1]! : -1;
    tails[low] = index;
  }
  const chosen: (readonly [number, number])[] = [];
  for (let index = tails.length > 0 ? tails.at(-1)! : -1; index !== -1; index = previous[index]!) chosen.push(pairs[index]!);
  return chosen.reverse();
}
