/**
 * The line diff of two sides already interned as numbers, at a cost linear in their lines:
 * Myers within a work budget proportional to the lines; past it, patience anchors split the
 * sides into stretches, each diffed within a budget of its own, and a stretch still too costly
 * is shown as removed and then added. Sides with no line in common skip the search.
 */
import type { TimeSlicer } from '../../../time-slice.js';
import { myersDiff, type DiffStep } from './myers-diff.js';
import { uniqueAnchors } from './patience-anchors.js';

/** Myers steps any diff may take before it falls back to anchors, however small. */
const MIN_DIFF_WORK = 200_000;
/** Myers steps allowed per line diffed, past {@link MIN_DIFF_WORK}: keeps the work linear in the lines. */
const DIFF_WORK_PER_LINE = 8;

/**
 * The line diff of two sequences of interned lines: Myers within budget, else anchored on
 * lines unique to both sides (see the module comment). `distinct` is how many different ids
 * there are (ids run from 0).
 */
export async function diffIds(oldIds: Int32Array, newIds: Int32Array, distinct: number, slicer: TimeSlicer): Promise<DiffStep[]> {
  // Sides with no line in common: every line removed, then every line added, as Myers would
  // end up writing it after the longest search it can make.
  if (!(await shareALine(oldIds, newIds, distinct, slicer))) {
    const steps: DiffStep[] = [];
    pushStep(steps, 'removed', oldIds.length);
    pushStep(steps, 'added', newIds.length);
    return steps;
  }
  const budget = MIN_DIFF_WORK + DIFF_WORK_PER_LINE * (oldIds.length + newIds.length);
  const whole = await myersDiff(oldIds, newIds, budget, slicer);
  if (whole !== undefined) return whole;
  const steps: DiffStep[] = [];
  const anchors = await uniqueAnchors(oldIds, newIds, distinct, slicer);
  let oldAt = 0;
  let newAt = 0;
  for (const [oldAnchor, newAnchor] of [...anchors, [oldIds.length, newIds.length] as const]) {
    if (slicer.due()) await slicer.pause();
    await diffStretch(oldIds.subarray(oldAt, oldAnchor), newIds.subarray(newAt, newAnchor), anchors.length > 0, steps, slicer);
    if (oldAnchor < oldIds.length) pushStep(steps, 'equal', 1);
    oldAt = oldAnchor + 1;
    newAt = newAnchor + 1;
  }
  return steps;
}

/** Whether some line is on both sides. */
async function shareALine(oldIds: Int32Array, newIds: Int32Array, distinct: number, slicer: TimeSlicer): Promise<boolean> {
  const seen = new Uint8Array(distinct);
  for (let index = 0; index < oldIds.length; index += 1) {
    seen[oldIds[index]!] = 1;
    if (slicer.due()) await slicer.pause();
  }
  for (let index = 0; index < newIds.length; index += 1) {
    if (seen[newIds[index]!] === 1) return true;
    if (slicer.due()) await slicer.pause();
  }
  return false;
}

/** The stretch between two anchors: its common ends, then Myers within a budget of its own, else removed-then-added. */
async function diffStretch(oldIds: Int32Array, newIds: Int32Array, tryMyers: boolean, steps: DiffStep[], slicer: TimeSlicer): Promise<void> {
  let head = 0;
  while (head < oldIds.length && head < newIds.length && oldIds[head] === newIds[head]) head += 1;
  let tail = 0;
  while (tail < oldIds.length - head && tail < newIds.length - head && oldIds[oldIds.length - 1 - tail] === newIds[newIds.length - 1 - tail]) tail += 1;
  pushStep(steps, 'equal', head);
  const oldMiddle = oldIds.subarray(head, oldIds.length - tail);
  const newMiddle = newIds.subarray(head, newIds.length - tail);
  const budget = DIFF_WORK_PER_LINE * (oldMiddle.length + newMiddle.length) + 1_000;
  const middle = tryMyers && oldMiddle.length > 0 && newMiddle.length > 0 ? await myersDiff(oldMiddle, newMiddle, budget, slicer) : undefined;
  if (middle !== undefined) for (const step of middle) pushStep(steps, step.kind, step.count);
  else {
    pushStep(steps, 'removed', oldMiddle.length);
    pushStep(steps, 'added', newMiddle.length);
  }
  pushStep(steps, 'equal', tail);
}

/** Adds a step, joined to the last one when of the same kind, so runs that meet across stretches and anchors are one run. */
function pushStep(steps: DiffStep[], kind: DiffStep['kind'], count: number): void {
  if (count === 0) return;
  const last = steps.at(-1);
  if (last !== undefined && last.kind === kind) steps[steps.length - 1] = { kind, count: last.count + count };
  else steps.push({ kind, count });
}
