import type { Stats } from 'node:fs';
import type { Session } from '../../../session.js';
import type { ReadSnapshot } from '../../../workspace/in-place.js';


/** The lines one `read_file` reply showed. */
export interface ReadCoverage {
  readonly from: number;
  readonly to: number;
  /** The reply reached the end of the file, so `to` is its last line. */
  readonly reachedEnd: boolean;
}

/** The session state key of the read snapshots (`session.state(READ_STATE_KEY, …)`). */
export const READ_STATE_KEY = 'files.reads';
const STATE_KEY = READ_STATE_KEY;

function reads(session: Session): Record<string, ReadSnapshot> {
  return session.state<Record<string, ReadSnapshot>>(STATE_KEY, () => ({}));
}

/** Every snapshot the session holds, by canonical path (the remote file tools send those under one root). */
export function readSnapshots(session: Session): Readonly<Record<string, ReadSnapshot>> {
  return reads(session);
}

/**
 * Records that the session read a file, or a page of it, keyed by canonical absolute path.
 * Pages of an unchanged file add up: reading every page in turn counts as a whole read. A
 * whole read is never downgraded by a later partial read of an unchanged file.
 */
export function recordRead(
  session: Session,
  absolute: string,
  stats: Pick<Stats, 'mtimeMs' | 'size'>,
  read: boolean | ReadCoverage,
): void {
  const known = reads(session)[absolute];
  const unchanged = known !== undefined && !changedSince(known, stats);
  const base = { mtimeMs: stats.mtimeMs, size: stats.size };
  if (read === true || (unchanged && known.whole)) {
    reads(session)[absolute] = { ...base, whole: true };
    return;
  }
  if (read === false) {
    reads(session)[absolute] = { ...base, whole: false };
    return;
  }
  const ranges = mergeRange(unchanged ? (known.ranges ?? []) : [], [read.from, read.to]);
  const lastLine = read.reachedEnd ? read.to : unchanged ? known.lastLine : undefined;
  const whole = lastLine !== undefined && ranges.length === 1 && ranges[0]![0] <= 1 && ranges[0]![1] >= lastLine;
  reads(session)[absolute] = whole ? { ...base, whole } : { ...base, whole, ranges, ...(lastLine === undefined ? {} : { lastLine }) };
}

/** Records the state a tool itself left a file in, so the next edit needs no new read. */
export function recordWrite(session: Session, absolute: string, stats: Pick<Stats, 'mtimeMs' | 'size'>): void {
  reads(session)[absolute] = { mtimeMs: stats.mtimeMs, size: stats.size, whole: true };
}

/** Forgets a file (it was deleted or moved away). */
export function forgetRead(session: Session, absolute: string): void {
  delete reads(session)[absolute];
}

/** The snapshot of a file, if the session read it. */
export function readSnapshot(session: Session, absolute: string): ReadSnapshot | undefined {
  return reads(session)[absolute];
}

/** True when the file's current stats differ from the snapshot. */
export function changedSince(snapshot: Pick<ReadSnapshot, 'mtimeMs' | 'size'>, stats: Pick<Stats, 'mtimeMs' | 'size'>): boolean {
  return snapshot.mtimeMs !== stats.mtimeMs || snapshot.size !== stats.size;
}

/** The first line not yet read, for a message that says where to continue. */
export function firstUnreadLine(snapshot: ReadSnapshot): number {
  const ranges = snapshot.ranges ?? [];
  return ranges.length > 0 && ranges[0]![0] <= 1 ? ranges[0]![1] + 1 : 1;
}

/** Adds a range of lines to sorted, disjoint ranges, joining touching ones. */
function mergeRange(ranges: ReadonlyArray<readonly [number, number]>, added: readonly [number, number]): Array<[number, number]> {
  const all = [...ranges, added].map(([from, to]) => [from, to] as [number, number]).sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [from, to] of all) {
    const last = merged.at(-1);
    if (last !== undefined && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}
