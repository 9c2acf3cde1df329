/**
 * The `diff` package's Myers diff over interned lines (numbers, not strings), with a work
 * budget: it makes the same choices between equally short paths as the package, so small
 * diffs come out hunk for hunk as the package writes them, and it gives up rather than run
 * past its budget. It runs in time slices.
 */
import type { TimeSlicer } from '../../../time-slice.js';

/** One run of a line diff: lines both sides share, or lines only the old or the new side has. */
export interface DiffStep {
  readonly kind: 'equal' | 'removed' | 'added';
  readonly count: number;
}

/** Equal lines in a row after which Myers' walk along them compares blocks of this many natively. */
const SNAKE_BLOCK = 256;
/** Diagonals the search can hold at first, on each side of 0, before it grows. */
const INITIAL_REACH = 1_024;
/** Myers steps between two looks at the clock. */
const CHECK_EVERY_WORK = 16_384;

interface Component {
  readonly count: number;
  readonly added: boolean;
  readonly removed: boolean;
  readonly previous: Component | undefined;
}

interface DiffPath {
  oldPos: number;
  last: Component | undefined;
}

/**
 * The `diff` package's Myers diff (its `Diff.diffWithOptionsObj`, same choices between
 * equally short paths) over interned lines, giving up with `undefined` past `budget` steps.
 */
export async function myersDiff(oldIds: Int32Array, newIds: Int32Array, budget: number, slicer: TimeSlicer): Promise<DiffStep[] | undefined> {
  const oldLength = oldIds.length;
  const newLength = newIds.length;
  // The best path per diagonal, from -reach to +reach, grown as the edit length reaches further
  // (one array as long as both texts took 30 ms to allocate for a million lines).
  let reach = INITIAL_REACH;
  let bestPath: (DiffPath | undefined)[] = new Array(2 * reach + 3).fill(undefined);
  const pathAt = (diagonal: number): DiffPath | undefined => bestPath[reach + 1 + diagonal];
  const setPath = (diagonal: number, path: DiffPath | undefined): void => {
    bestPath[reach + 1 + diagonal] = path;
  };
  const followEqualLines = equalLineFollower(oldIds, newIds);
  let work = 0;
  let nextCheck = CHECK_EVERY_WORK;

  const start: DiffPath = { oldPos: -1, last: undefined };
  setPath(0, start);
  work += followEqualLines(start, 0);
  let newPos = start.oldPos;
  if (start.oldPos + 1 >= oldLength && newPos + 1 >= newLength) return stepsOf(start.last);
  let minDiagonal = -Infinity;
  let maxDiagonal = Infinity;
  for (let editLength = 1; editLength <= oldLength + newLength; editLength += 1) {
    if (editLength >= reach) {
      bestPath = widenedPaths(bestPath, reach);
      reach *= 2;
    }
    for (let diagonal = Math.max(minDiagonal, -editLength); diagonal <= Math.min(maxDiagonal, editLength); diagonal += 2) {
      work += 1;
      const removePath = pathAt(diagonal - 1);
      const addPath = pathAt(diagonal + 1);
      if (removePath !== undefined) setPath(diagonal - 1, undefined);
      let canAdd = false;
      if (addPath !== undefined) {
        const addPathNewPos = addPath.oldPos - diagonal;
        canAdd = addPathNewPos >= 0 && addPathNewPos < newLength;
      }
      const canRemove = removePath !== undefined && removePath.oldPos + 1 < oldLength;
      if (!canAdd && !canRemove) {
        setPath(diagonal, undefined);
        continue;
      }
      const basePath = !canRemove || (canAdd && removePath.oldPos < addPath!.oldPos) ? extendedPath(addPath!, true, false, 0) : extendedPath(removePath, false, true, 1);
      work += followEqualLines(basePath, diagonal);
      newPos = basePath.oldPos - diagonal;
      if (basePath.oldPos + 1 >= oldLength && newPos + 1 >= newLength) return stepsOf(basePath.last);
      setPath(diagonal, basePath);
      if (basePath.oldPos + 1 >= oldLength) maxDiagonal = Math.min(maxDiagonal, diagonal - 1);
      if (newPos + 1 >= newLength) minDiagonal = Math.max(minDiagonal, diagonal + 1);
      // Checked per diagonal: long runs of equal lines make a single edit length's pass long.
      if (work >= nextCheck) {
        nextCheck = work + CHECK_EVERY_WORK;
        if (slicer.dueNow()) await slicer.pause();
      }
    }
    if (work > budget) return undefined;
  }
  return undefined;
}

/**
 * Moves a path along its diagonal over the equal lines that follow its end (Myers' "snake"),
 * recording them on the path, and returns how many it passed: the work they cost.
 */
function equalLineFollower(oldIds: Int32Array, newIds: Int32Array): (path: DiffPath, diagonal: number) => number {
  const oldLength = oldIds.length;
  const newLength = newIds.length;
  // Byte views of the ids, so a long run of equal lines is compared natively, a block at a time.
  const oldBytes = Buffer.from(oldIds.buffer, oldIds.byteOffset, oldIds.byteLength);
  const newBytes = Buffer.from(newIds.buffer, newIds.byteOffset, newIds.byteLength);
  return (path, diagonal) => {
    let oldPos = path.oldPos;
    let newPos = oldPos - diagonal;
    let common = 0;
    while (newPos + 1 < newLength && oldPos + 1 < oldLength && oldIds[oldPos + 1] === newIds[newPos + 1]) {
      newPos += 1;
      oldPos += 1;
      common += 1;
      // Past a few equal lines, skip whole equal blocks with one native comparison each
      // (a million equal lines cost 40 ms one by one).
      if (common === SNAKE_BLOCK) {
        while (
          newPos + 1 + SNAKE_BLOCK <= newLength &&
          oldPos + 1 + SNAKE_BLOCK <= oldLength &&
          oldBytes.compare(newBytes, (newPos + 1) * 4, (newPos + 1 + SNAKE_BLOCK) * 4, (oldPos + 1) * 4, (oldPos + 1 + SNAKE_BLOCK) * 4) === 0
        ) {
          newPos += SNAKE_BLOCK;
          oldPos += SNAKE_BLOCK;
          common += SNAKE_BLOCK;
        }
      }
    }
    if (common > 0) path.last = { count: common, added: false, removed: false, previous: path.last };
    path.oldPos = oldPos;
    return common;
  };
}

/** `path` one line further, added or removed: a new path, since the old one may still be extended on its own diagonal. */
function extendedPath(path: DiffPath, added: boolean, removed: boolean, oldPosIncrease: number): DiffPath {
  const last = path.last;
  if (last !== undefined && last.added === added && last.removed === removed) {
    return { oldPos: path.oldPos + oldPosIncrease, last: { count: last.count + 1, added, removed, previous: last.previous } };
  }
  return { oldPos: path.oldPos + oldPosIncrease, last: { count: 1, added, removed, previous: last } };
}

/** The best paths of `reach` diagonals each side, moved into an array that holds twice as many. */
function widenedPaths(bestPath: readonly (DiffPath | undefined)[], reach: number): (DiffPath | undefined)[] {
  const grown: (DiffPath | undefined)[] = new Array(4 * reach + 3).fill(undefined);
  for (let index = 0; index < bestPath.length; index += 1) grown[index + reach] = bestPath[index];
  return grown;
}

function stepsOf(last: Component | undefined): DiffStep[] {
  const steps: DiffStep[] = [];
  for (let component = last; component !== undefined; component = component.previous) {
    steps.push({ kind: component.added ? 'added' : component.removed ? 'removed' : 'equal', count: component.count });
  }
  return steps.reverse();
}
